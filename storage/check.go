package storage

import (
	"bytes"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"runtime/debug"
	"slices"
	"strings"

	bolt "go.etcd.io/bbolt"

	"arena/games"
)

// Check reads the whole file and reports what is damaged. First the pages, read straight from
// the file by a walk of its own (pagewalk.go): every page reached once, below the high-water
// mark, of a tree page's type, its elements inside it, its keys in order. A file with such damage
// is reported without going further. Only a file the walk found sound goes to bbolt's own check
// (tx.Check: pages freed twice or unreachable), and then every key that does not fit the layout
// doc.go describes: a bucket this build does not create, a key of a shape its bucket does not
// hold, a value that does not decode, an event whose round has no table. It returns nil for a
// sound file, else an error wrapping ErrCorrupt that lists the first problems found (each with
// its page, or its bucket and key); a panic or a memory fault while reading the file is
// recovered and reported so too. Check is read-only and may run on a store opened with
// Options.ReadOnly; the values the owners keep opaque (table records, ledger rows, inputs,
// command answers) are not decoded.
func (s *Store) Check() (err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("storage: check %s: %w: reading the file failed: %v", s.path, ErrCorrupt, r)
		}
	}()
	var probs []string
	report := func(format string, args ...any) {
		if len(probs) < maxProblems {
			probs = append(probs, fmt.Sprintf(format, args...))
		}
	}
	defer debug.SetPanicOnFault(debug.SetPanicOnFault(true))
	f, err := os.Open(s.path)
	if err != nil {
		return fmt.Errorf("storage: check %s: %w", s.path, err)
	}
	defer f.Close()
	err = s.db.View(func(tx *bolt.Tx) error {
		// Walk the pages first, from the file: bbolt's own check must only ever see a sound one.
		fi, err := f.Stat()
		if err != nil {
			return err
		}
		if !walkPages(f, fi.Size(), s.db.Info().PageSize, uint64(tx.ID()), report) {
			return nil
		}
		// Touch every page of every tree here first: a page bbolt cannot read panics in this
		// goroutine, where the recover above reports it. tx.Check (through the freelist scan a
		// file without a synced freelist needs) reads pages on goroutines of its own, where such
		// a panic would end the process.
		if err := tx.ForEach(func(_ []byte, b *bolt.Bucket) error { return touchPages(b) }); err != nil {
			return err
		}
		// bbolt sends every problem it finds, then closes the channel: read it to the end so its
		// goroutine finishes.
		pages := 0
		for perr := range tx.Check() {
			pages++
			report("pages: %v", perr)
		}
		if pages > 0 {
			if pages > maxProblems {
				report("pages: %d problems in all", pages)
			}
			return nil
		}
		known := map[string]bool{}
		for _, name := range allBuckets {
			known[name] = true
			if tx.Bucket([]byte(name)) == nil && !slices.Contains(addedBuckets, name) {
				report("bucket %s missing", name)
			}
		}
		if err := tx.ForEach(func(name []byte, b *bolt.Bucket) error {
			if k, _ := b.Cursor().First(); k == nil && slices.Contains(retiredBuckets, string(name)) {
				return nil // an earlier build's empty bucket: the next writable Open drops it
			}
			if !known[string(name)] {
				report("stray bucket %q", name)
			}
			return nil
		}); err != nil {
			return err
		}
		rounds := tx.Bucket([]byte(BucketRounds))
		for _, name := range allBuckets {
			b := tx.Bucket([]byte(name))
			if b == nil {
				continue
			}
			check := bucketChecks[name]
			err := b.ForEach(func(k, v []byte) error {
				if v == nil && name != BucketInputs {
					report("%s: stray nested bucket %q", name, k)
					return nil
				}
				if check != nil {
					if err := check(k, v, rounds); err != nil {
						report("%s/%q: %v", name, k, err)
					}
				}
				return nil
			})
			if err != nil {
				return err
			}
		}
		checkLedger(tx.Bucket([]byte(BucketLedger)), report)
		checkSeqLog(tx.Bucket([]byte(BucketMarket)), BucketMarket, report)
		if _, err := verifyWarden(tx.Bucket([]byte(BucketWarden))); err != nil {
			report("%s: %v", BucketWarden, err)
		}
		checkFeedback(tx.Bucket([]byte(BucketFeedback)), report)
		checkWardenFeed(tx, report)
		return checkInputs(tx.Bucket([]byte(BucketInputs)), report)
	})
	if err != nil {
		return fmt.Errorf("storage: check %s: %w", s.path, err)
	}
	if len(probs) > 0 {
		return fmt.Errorf("storage: check %s: %w: %s", s.path, ErrCorrupt, strings.Join(probs, "; "))
	}
	return nil
}

// touchPages reads every key and value of b and of the buckets under it.
func touchPages(b *bolt.Bucket) error {
	return b.ForEach(func(k, v []byte) error {
		if v == nil {
			if nb := b.Bucket(k); nb != nil {
				return touchPages(nb)
			}
		}
		return nil
	})
}

// maxProblems bounds the problems one Check lists.
const maxProblems = 20

// bucketChecks check one key and value of a bucket (rounds is the rounds bucket, for the events'
// check). A bucket without an entry takes any key and value.
var bucketChecks = map[string]func(k, v []byte, rounds *bolt.Bucket) error{
	BucketMeta: func(k, v []byte, _ *bolt.Bucket) error {
		switch {
		case string(k) == "schema":
			if len(v) != 8 || bytesU64(v) == 0 || bytesU64(v) > SchemaVersion {
				return fmt.Errorf("schema %x", v)
			}
		case strings.HasPrefix(string(k), "seq/") && len(k) > 4:
			if len(v) != 8 {
				return fmt.Errorf("counter %x is not 8 bytes", v)
			}
		default:
			return errors.New("stray key")
		}
		return nil
	},
	BucketTables: func(k, _ []byte, _ *bolt.Bucket) error { return checkID(string(k)) },
	BucketRounds: func(k, v []byte, _ *bolt.Bucket) error {
		if err := checkID(string(k)); err != nil {
			return err
		}
		return checkID(string(v))
	},
	BucketEvents: func(k, v []byte, rounds *bolt.Bucket) error {
		i := len(k) - 9 // the seq's 8 bytes may hold a '/'; the round holds none
		if i <= 0 || k[i] != '/' {
			return errors.New("key is not <round>/<seq: 8 bytes>")
		}
		round, seq := string(k[:i]), int64(bytesU64(k[i+1:]))
		var ev games.Event
		if err := json.Unmarshal(v, &ev); err != nil {
			return fmt.Errorf("event does not decode: %v", err)
		}
		if ev.Round != round || ev.Seq != seq {
			return fmt.Errorf("event %s/%d under key %s/%d", ev.Round, ev.Seq, round, seq)
		}
		if rounds.Get([]byte(round)) == nil {
			return fmt.Errorf("round %s has no table", round)
		}
		return nil
	},
	BucketWalkins: func(k, v []byte, _ *bolt.Bucket) error {
		key := string(k)
		switch {
		case strings.HasPrefix(key, "name/") && len(key) > 5:
			if !isHexHash(string(v)) {
				return fmt.Errorf("name points at %q, not a record key", v)
			}
			return nil
		case strings.HasPrefix(key, "alias/") && isHexHash(key[len("alias/"):]):
			if !isHexHash(string(v)) {
				return fmt.Errorf("alias points at %q, not a record key", v)
			}
			return nil
		case strings.HasPrefix(key, "revoked/") && isHexHash(key[len("revoked/"):]),
			strings.HasPrefix(key, "account/") && len(key) > len("account/"),
			strings.HasPrefix(key, "live/") && len(key) > 5, strings.HasPrefix(key, "board/") && len(key) > 6, isHexHash(key):
			if !json.Valid(v) {
				return errors.New("record is not JSON")
			}
			return nil
		}
		return errors.New("stray key")
	},
	BucketCommands: func(k, _ []byte, _ *bolt.Bucket) error {
		player, id, ok := strings.Cut(string(k), "/")
		if !ok || player == "" || id == "" {
			return errors.New("key is not <player>/<command id>")
		}
		return nil
	},
	BucketChainQ: func(k, v []byte, _ *bolt.Bucket) error {
		var r ChainSubmission
		if len(k) != 32 {
			return errors.New("key is not a 32-byte transaction hash")
		}
		if err := json.Unmarshal(v, &r); err != nil {
			return fmt.Errorf("submission does not decode: %v", err)
		}
		if r.ID != hex.EncodeToString(k) {
			return fmt.Errorf("submission %s under another key", r.ID)
		}
		return nil
	},
	BucketChainIdx: func(k, v []byte, _ *bolt.Bucket) error {
		var r ChainSubmission
		if err := json.Unmarshal(v, &r); err != nil {
			return fmt.Errorf("submission does not decode: %v", err)
		}
		if r.Data != hex.EncodeToString(k) {
			return fmt.Errorf("submission registering %s under another key", r.Data)
		}
		return nil
	},
	BucketChainMeta: func(k, v []byte, _ *bolt.Bucket) error {
		if !bytes.Equal(k, keyNextNonce) {
			return errors.New("stray key")
		}
		if len(v) != 8 {
			return errors.New("next nonce is not 8 bytes")
		}
		return nil
	},
	BucketHosted:      checkHosted,
	BucketPaid:        checkPaidKey,
	BucketBreakroom:   checkBreakroom,
	BucketWalkinQueue: checkWalkinQueue,
	BucketSessions:    checkSession,
	BucketBadgeKeys:   checkBadgeKey,
	BucketShowings:    checkShowing,
	BucketReplay:      checkReplay,
	BucketWardenState: checkWardenState,
	BucketWardenPay:   checkWardenPay,
	BucketNonces: func(_, v []byte, _ *bolt.Bucket) error {
		if len(v) != 8 {
			return errors.New("expiry is not 8 bytes")
		}
		return nil
	},
}

// checkInputs checks every table's input log: a bucket per table id, 8-byte seqs no higher than
// the log's sequence.
func checkInputs(in *bolt.Bucket, report func(string, ...any)) error {
	if in == nil {
		return nil
	}
	return in.ForEach(func(table, v []byte) error {
		if v != nil {
			report("%s: stray key %q (not a table's log)", BucketInputs, table)
			return nil
		}
		if checkID(string(table)) != nil {
			report("%s: log of bad table id %q", BucketInputs, table)
		}
		lb := in.Bucket(table)
		return lb.ForEach(func(k, v []byte) error {
			switch {
			case v == nil:
				report("%s/%s: stray nested bucket %q", BucketInputs, table, k)
			case len(k) != 8:
				report("%s/%s: input key %x is not an 8-byte seq", BucketInputs, table, k)
			case bytesU64(k) == 0 || bytesU64(k) > lb.Sequence():
				report("%s/%s: input seq %d outside 1..%d", BucketInputs, table, bytesU64(k), lb.Sequence())
			}
			return nil
		})
	})
}

// checkLedger checks the ledger's rows (ledger.go): 8-byte sequence numbers from 1 with no gap,
// no empty row.
func checkLedger(b *bolt.Bucket, report func(string, ...any)) { checkSeqLog(b, BucketLedger, report) }

// checkSeqLog checks an append-only log bucket (the ledger's rows, the market's Deltas): 8-byte
// sequence numbers from 1 with no gap, no empty value.
func checkSeqLog(b *bolt.Bucket, name string, report func(string, ...any)) {
	if b == nil {
		return
	}
	want := uint64(1)
	c := b.Cursor()
	for k, v := c.First(); k != nil; k, v = c.Next() {
		switch {
		case len(k) != 8:
			report("%s: key %x is not an 8-byte sequence number", name, k)
			return
		case bytesU64(k) != want:
			report("%s: row %d where %d was due (a gap)", name, bytesU64(k), want)
			return
		case len(v) == 0:
			report("%s/%d: empty row", name, want)
		}
		want++
	}
}

// isHexHash reports whether s is a SHA-256 in lower-case hex (a walk-in record's key).
func isHexHash(s string) bool {
	if len(s) != 64 {
		return false
	}
	_, err := hex.DecodeString(s)
	return err == nil && strings.ToLower(s) == s
}
