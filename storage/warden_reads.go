package storage

import (
	"bytes"
	"fmt"
	"strings"

	bolt "go.etcd.io/bbolt"

	"arena/games/canon"
)

// The Ledger's reads (warden-games §12–§14): rows by Contender, every Contender's and every
// temperament's aggregate, each caught up with the rows it has not folded yet (§13.3: a read
// compares the aggregate's through_seq with the rows and folds what is missing first), all in
// one read transaction with the head they are as of.

// TierAt is the Standing tier of a (§13.1) with the ELITE bar at winRatePct percent of the
// matches won (integer comparison: wins × 100 ≥ winRatePct × matches) and eliteMin matches
// at least (below 1 counts as 1); Tier is TierAt(60, eliteMin).
func (a WardenAggregate) TierAt(winRatePct, eliteMin int64) string {
	switch {
	case a.Matches == 0:
		return TierUnproven
	case a.Wins*100 >= winRatePct*a.Matches && a.NetTotal > 0 && a.Matches >= max(eliteMin, 1):
		return TierElite
	case a.NetTotal >= 0:
		return TierSolvent
	}
	return TierUnderwater
}

// WardenContenderRows calls fn for each of the Contender's rows with a seq above after, in seq
// order, until fn returns an error (returned wrapped). A row the index names that does not
// decode, or is another Contender's, is ErrCorrupt.
func (s *Store) WardenContenderRows(id string, after uint64, fn func(WardenRow) error) error {
	err := s.db.View(func(tx *bolt.Tx) error {
		b := tx.Bucket([]byte(BucketWarden))
		return contenderRows(b, id, after, fn)
	})
	if err != nil {
		return fmt.Errorf("storage: warden rows of %s after %d: %w", id, after, err)
	}
	return nil
}

func contenderRows(b *bolt.Bucket, id string, after uint64, fn func(WardenRow) error) error {
	prefix := []byte("contender/" + id + "/")
	c := b.Cursor()
	for k, v := c.Seek(wardenContenderKey(id, after+1)); k != nil && bytes.HasPrefix(k, prefix); k, v = c.Next() {
		if len(k) != len(prefix)+8 {
			continue // another id that has this one as its prefix followed by '/'; ids hold no '/'
		}
		r, err := wardenRowAt(b, bytesU64(v))
		if err != nil {
			return err
		}
		if r.ContenderID != id {
			return fmt.Errorf("row %d is %s's, indexed under %s: %w", r.Seq, r.ContenderID, id, ErrCorrupt)
		}
		if err := fn(r); err != nil {
			return err
		}
	}
	return nil
}

func wardenRowAt(b *bolt.Bucket, seq uint64) (WardenRow, error) {
	var r WardenRow
	v := b.Get(wardenRowKey(seq))
	if v == nil {
		return r, fmt.Errorf("row %d is indexed but absent: %w", seq, ErrCorrupt)
	}
	if err := canon.Decode(v, &r); err != nil {
		return r, fmt.Errorf("row %d: %w: %v", seq, ErrCorrupt, err)
	}
	return r, nil
}

// WardenStanding is a Contender's aggregate as of the Ledger head (§13.2, §13.3): the stored
// fold, with any of the Contender's rows above its through_seq folded in first (none, unless
// the store was written by something that skipped the fold), and the head it is as of; the zero
// aggregate (UNPROVEN) for a Contender with no row.
func (s *Store) WardenStanding(id string) (WardenAggregate, WardenHead, error) {
	var a WardenAggregate
	var h WardenHead
	err := s.db.View(func(tx *bolt.Tx) error {
		b := tx.Bucket([]byte(BucketWarden))
		var err error
		if h, err = wardenHead(b); err != nil {
			return err
		}
		a, err = caughtUp(b, id)
		return err
	})
	if err != nil {
		return WardenAggregate{}, WardenHead{}, fmt.Errorf("storage: warden standing of %s: %w", id, err)
	}
	return a, h, nil
}

// caughtUp is id's stored aggregate with its rows above through_seq folded in.
func caughtUp(b *bolt.Bucket, id string) (WardenAggregate, error) {
	var a WardenAggregate
	if v := b.Get(wardenAggKey(id)); v != nil {
		if err := canon.Decode(v, &a); err != nil {
			return a, fmt.Errorf("aggregate of %s: %w: %v", id, ErrCorrupt, err)
		}
	}
	err := contenderRows(b, id, a.ThroughSeq, func(r WardenRow) error {
		a.add(&r)
		return nil
	})
	return a, err
}

// WardenAggregates calls fn with every Contender's caught-up aggregate (as WardenStanding), in
// contender id order, or with temperament true every temperament's stored aggregate, and
// returns the head they are all as of (one read transaction). A temperament's aggregate is
// caught up by VerifyWarden only: its fold needs the distinct-Contender set, which a read does
// not write.
func (s *Store) WardenAggregates(temperament bool, fn func(id string, a WardenAggregate) error) (WardenHead, error) {
	var h WardenHead
	err := s.db.View(func(tx *bolt.Tx) error {
		b := tx.Bucket([]byte(BucketWarden))
		var err error
		if h, err = wardenHead(b); err != nil {
			return err
		}
		prefix := "agg/"
		if temperament {
			prefix = "tagg/"
		}
		c := b.Cursor()
		for k, v := c.Seek([]byte(prefix)); k != nil && bytes.HasPrefix(k, []byte(prefix)); k, v = c.Next() {
			id := strings.TrimPrefix(string(k), prefix)
			var a WardenAggregate
			if temperament {
				if err := canon.Decode(v, &a); err != nil {
					return fmt.Errorf("aggregate %s: %w: %v", k, ErrCorrupt, err)
				}
			} else if a, err = caughtUp(b, id); err != nil {
				return err
			}
			if err := fn(id, a); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		return WardenHead{}, fmt.Errorf("storage: warden aggregates: %w", err)
	}
	return h, nil
}

// FoldWardenRows is the full recomputation of aggregates from rows (§13.3), as VerifyWarden
// folds them: every Contender's fold by id, every temperament's by name. Tests compare it with
// the incremental aggregates the reads serve.
func FoldWardenRows(rows []WardenRow) (contenders, temperaments map[string]WardenAggregate) {
	contenders, temperaments = map[string]WardenAggregate{}, map[string]WardenAggregate{}
	seen := map[string]bool{}
	for i := range rows {
		r := &rows[i]
		a := contenders[r.ContenderID]
		a.add(r)
		contenders[r.ContenderID] = a
		member := r.Temperament + "/" + r.ContenderID
		t := temperaments[r.Temperament]
		t.addTemperament(r, !seen[member])
		seen[member] = true
		temperaments[r.Temperament] = t
	}
	return contenders, temperaments
}

// WardenReadPrefix starts the resource of every metered read's payment record (warden-games
// §10.5): "/v1/warden/mcp/tools/<tool>[?match=<id>]". A stake's resource is its match's stake
// path, never under it.
const WardenReadPrefix = "/v1/warden/mcp/tools/"

// WardenReadsSpent is what each seat of match paid for its settled metered reads, in atomic
// units, summed from the payment records: the Ledger row's reads_spent (§12.1, JC-40), for the
// settlement that writes the rows. A seat with no read is absent.
func (s *Store) WardenReadsSpent(match string) (map[string]int64, error) {
	out := map[string]int64{}
	err := s.WardenPayments(func(p WardenPayment) error {
		if p.Match == match && p.Seat != "" && p.Status == WardenPaySettled && strings.HasPrefix(p.Resource, WardenReadPrefix) {
			out[p.Seat] += int64(p.Amount)
		}
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("storage: reads spent on %s: %w", match, err)
	}
	return out, nil
}
