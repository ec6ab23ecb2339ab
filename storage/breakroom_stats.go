package storage

import (
	"bytes"
	"errors"
	"fmt"
	"strconv"
	"strings"

	bolt "go.etcd.io/bbolt"
)

// Break Room's usage counters (breakroom-protocol-v0.md "Public reads": /v0/stats), in the
// breakroom bucket beside its other records:
//
//	breakroom  stats/<yyyy-mm-dd>/<counter>  a counter of a UTC day (decimal)
//	           seen/<yyyy-mm-dd>/<hash>      a key hash counted among the day's distinct agents ("1");
//	                                         only the current day's are kept
//
// transport/breakroom/public is the one writer.
const (
	brStats = "stats/"
	brSeen  = "seen/"
)

// BreakroomStatDelta is one write of AddBreakroomStats: N added to Counter of Day, or, with Seen
// set, Seen marked among Day's distinct agents.
type BreakroomStatDelta struct {
	Day, Counter string
	N            int64
	Seen         string
}

// AddBreakroomStats adds every delta in one transaction: counters grow by N; a Seen hash is
// stored for its day, and every seen/ mark of another day is deleted (a day's set is dropped once
// a later day writes). Days are yyyy-mm-dd, counters and hashes single key parts.
func (s *Store) AddBreakroomStats(ds []BreakroomStatDelta) error {
	for _, d := range ds {
		part := d.Counter
		if d.Seen != "" {
			part = d.Seen
		}
		if !validDay(d.Day) || brKey(part) != nil {
			return fmt.Errorf("storage: breakroom stats: %w: %q %q", ErrBadKey, d.Day, part)
		}
	}
	if len(ds) == 0 {
		return nil
	}
	return s.write(func(tx *bolt.Tx) error {
		b := tx.Bucket([]byte(BucketBreakroom))
		latest := ""
		for _, d := range ds {
			if d.Seen != "" {
				latest = max(latest, d.Day)
				if err := b.Put([]byte(brSeen+d.Day+"/"+d.Seen), []byte("1")); err != nil {
					return err
				}
				continue
			}
			k := []byte(brStats + d.Day + "/" + d.Counter)
			var n int64
			if v := b.Get(k); v != nil {
				n, _ = strconv.ParseInt(string(v), 10, 64)
			}
			if err := b.Put(k, []byte(strconv.FormatInt(n+d.N, 10))); err != nil {
				return err
			}
		}
		if latest == "" {
			return nil
		}
		var old [][]byte
		c := b.Cursor()
		for k, _ := c.Seek([]byte(brSeen)); k != nil && bytes.HasPrefix(k, []byte(brSeen)); k, _ = c.Next() {
			if day, _, _ := strings.Cut(string(k[len(brSeen):]), "/"); day < latest {
				old = append(old, append([]byte(nil), k...))
			}
		}
		for _, k := range old {
			if err := b.Delete(k); err != nil {
				return err
			}
		}
		return nil
	})
}

// BreakroomStats calls fn with every stored counter of the days from … to (inclusive, yyyy-mm-dd).
func (s *Store) BreakroomStats(from, to string, fn func(day, counter string, n int64) error) error {
	return s.scan(BucketBreakroom, brStats, func(k string, v []byte) error {
		day, counter, _ := strings.Cut(k[len(brStats):], "/")
		if day < from || day > to {
			return nil
		}
		n, err := strconv.ParseInt(string(v), 10, 64)
		if err != nil {
			return fmt.Errorf("storage: breakroom stat %s: %w", k, err)
		}
		return fn(day, counter, n)
	})
}

// BreakroomSeen calls fn with every key hash stored among day's distinct agents.
func (s *Store) BreakroomSeen(day string, fn func(hash string) error) error {
	p := brSeen + day + "/"
	return s.scan(BucketBreakroom, p, func(k string, _ []byte) error { return fn(k[len(p):]) })
}

// validDay is a yyyy-mm-dd day.
func validDay(d string) bool {
	if len(d) != 10 || d[4] != '-' || d[7] != '-' {
		return false
	}
	for i, c := range d {
		if i != 4 && i != 7 && (c < '0' || c > '9') {
			return false
		}
	}
	return true
}

// checkBreakroomStat checks a stats/ or seen/ key of the breakroom bucket.
func checkBreakroomStat(key string, v []byte) error {
	var rest string
	switch {
	case strings.HasPrefix(key, brStats):
		rest = key[len(brStats):]
		if _, err := strconv.ParseInt(string(v), 10, 64); err != nil {
			return errors.New("bad stats counter")
		}
	default:
		rest = key[len(brSeen):]
		if string(v) != "1" {
			return errors.New("bad seen mark")
		}
	}
	parts := strings.Split(rest, "/")
	if len(parts) != 2 || !validDay(parts[0]) || brKey(parts[1]) != nil {
		return errors.New("bad stats key")
	}
	return nil
}
