package storage

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"strings"

	bolt "go.etcd.io/bbolt"

	"arena/games/warden/feed"
)

// The Gallery feed's buckets (warden-games §15), append-only:
//
//	warden_feed        <seq: 8 bytes BE>                    one public event's envelope (JSON, the global seq), from 1 with no gap
//	warden_feed_match  <match id> "/" <mseq: 8 bytes BE>    → the event's global seq (8 bytes BE) ‖ its type; mseq from 0 with no gap
//
// An event is appended inside the WardenUpdate transaction of the state change it reports, so it
// is durable in the same write (write before you speak); the store wakes the feed's readers
// (WardenFeedWake) only once that transaction has committed. Nothing is ever changed or deleted.

// DefaultFeedLimit is the page a feed read returns when its limit is zero or negative.
const DefaultFeedLimit = 1000

// AppendFeed appends ev to the Gallery feed in the transaction: the next global seq (returned)
// and the next seq of its match. It fails with ev's own error for an event a constructor refused
// (feed.Event.Err), and with ErrBadKey for an event with no match (the lobby is the feed door's
// own, never stored) or a messages_published before its match's match_settled (§15.4). The
// readers are woken when the transaction commits.
func (w WardenTx) AppendFeed(ev feed.Event) (seq uint64, err error) {
	if err := ev.Err(); err != nil {
		return 0, fmt.Errorf("storage: append feed event: %w", err)
	}
	match := ev.MatchID()
	if match == "" || strings.Contains(match, "/") {
		return 0, fmt.Errorf("storage: append feed %s: match id %q: %w", ev.Type(), match, ErrBadKey)
	}
	b := w.tx.Bucket([]byte(BucketWardenFeed))
	idx := w.tx.Bucket([]byte(BucketWardenFeedMatch))
	b.FillPercent, idx.FillPercent = 0.95, 0.95 // append-only, keys in order
	prefix := []byte(match + "/")
	var mseq uint64
	settled := false
	c := idx.Cursor()
	for k, v := c.Seek(prefix); k != nil && bytes.HasPrefix(k, prefix); k, v = c.Next() {
		mseq = binary.BigEndian.Uint64(k[len(prefix):]) + 1
		if len(v) > 8 && string(v[8:]) == feed.TypeMatchSettled {
			settled = true
		}
	}
	if ev.Type() == feed.TypeMessagesPublished && !settled {
		return 0, fmt.Errorf("storage: append feed messages_published of %s before its match_settled: %w", match, ErrBadKey)
	}
	seq = lastLedger(b) + 1
	env, err := ev.Envelope(seq)
	if err != nil {
		return 0, fmt.Errorf("storage: append feed event: %w", err)
	}
	enc, err := json.Marshal(env)
	if err != nil {
		return 0, fmt.Errorf("storage: append feed %s: %w", ev.Type(), err)
	}
	if err := b.Put(u64(seq), enc); err != nil {
		return 0, fmt.Errorf("storage: append feed %d: %w", seq, err)
	}
	if err := idx.Put(append(prefix, u64(mseq)...), append(u64(seq), ev.Type()...)); err != nil {
		return 0, fmt.Errorf("storage: append feed %d: %w", seq, err)
	}
	if w.fed != nil {
		*w.fed = true
	}
	return seq, nil
}

// MatchFeed is match's events in the transaction, in order, each under its match seq (from 0),
// as the match feed serves them (§15.1): what feed.LogHash is computed over.
func (w WardenTx) MatchFeed(match string) ([]feed.Envelope, error) {
	return matchFeed(w.tx, match, 0, -1)
}

// WardenFeed is the global feed after seq after (0: from the first), at most limit events
// (DefaultFeedLimit when limit ≤ 0), in order, each under its global seq.
func (s *Store) WardenFeed(after uint64, limit int) ([]feed.Envelope, error) {
	if limit <= 0 {
		limit = DefaultFeedLimit
	}
	var out []feed.Envelope
	err := s.db.View(func(tx *bolt.Tx) error {
		c := tx.Bucket([]byte(BucketWardenFeed)).Cursor()
		for k, v := c.Seek(u64(after + 1)); k != nil && len(out) < limit; k, v = c.Next() {
			env, err := decodeFeed(k, v)
			if err != nil {
				return err
			}
			out = append(out, env)
		}
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("storage: warden feed after %d: %w", after, err)
	}
	return out, nil
}

// WardenMatchFeed is match's events from match seq from on (0: all), at most limit
// (DefaultFeedLimit when limit ≤ 0), in order, each under its match seq (§15.1).
func (s *Store) WardenMatchFeed(match string, from uint64, limit int) ([]feed.Envelope, error) {
	if limit <= 0 {
		limit = DefaultFeedLimit
	}
	var out []feed.Envelope
	err := s.db.View(func(tx *bolt.Tx) (err error) {
		out, err = matchFeed(tx, match, from, limit)
		return err
	})
	if err != nil {
		return nil, fmt.Errorf("storage: warden match feed %s from %d: %w", match, from, err)
	}
	return out, nil
}

// WardenFeedWake is a channel closed when the next transaction that appends to the feed has
// committed: a reader takes it, reads after its last seq, and waits on it only if it found
// nothing new.
func (s *Store) WardenFeedWake() <-chan struct{} {
	s.feedMu.Lock()
	defer s.feedMu.Unlock()
	if s.feedWake == nil {
		s.feedWake = make(chan struct{})
	}
	return s.feedWake
}

// wakeFeed closes the readers' channel (called after a commit that appended).
func (s *Store) wakeFeed() {
	s.feedMu.Lock()
	defer s.feedMu.Unlock()
	if s.feedWake != nil {
		close(s.feedWake)
		s.feedWake = nil
	}
}

// matchFeed reads match's events from mseq from, at most limit (negative: all).
func matchFeed(tx *bolt.Tx, match string, from uint64, limit int) ([]feed.Envelope, error) {
	if match == "" || strings.Contains(match, "/") {
		return nil, fmt.Errorf("match id %q: %w", match, ErrBadKey)
	}
	b := tx.Bucket([]byte(BucketWardenFeed))
	prefix := []byte(match + "/")
	c := tx.Bucket([]byte(BucketWardenFeedMatch)).Cursor()
	out := []feed.Envelope{}
	for k, v := c.Seek(append(bytes.Clone(prefix), u64(from)...)); k != nil && bytes.HasPrefix(k, prefix) && (limit < 0 || len(out) < limit); k, v = c.Next() {
		if len(k) != len(prefix)+8 || len(v) < 8 {
			return nil, fmt.Errorf("match feed key %q: %w", k, ErrCorrupt)
		}
		gk := v[:8]
		env, err := decodeFeed(gk, b.Get(gk))
		if err != nil {
			return nil, err
		}
		env.Seq = binary.BigEndian.Uint64(k[len(prefix):])
		out = append(out, env)
	}
	return out, nil
}

// decodeFeed decodes the envelope stored under key k.
func decodeFeed(k, v []byte) (feed.Envelope, error) {
	var env feed.Envelope
	if len(k) != 8 || v == nil {
		return env, fmt.Errorf("feed key %x: %w", k, ErrCorrupt)
	}
	if err := json.Unmarshal(v, &env); err != nil {
		return env, fmt.Errorf("feed event %d: %v: %w", bytesU64(k), err, ErrCorrupt)
	}
	if env.Seq != bytesU64(k) {
		return env, fmt.Errorf("feed event %d under key %d: %w", env.Seq, bytesU64(k), ErrCorrupt)
	}
	return env, nil
}

// checkWardenFeed checks the feed's two buckets: the global log dense from 1, each envelope
// decoding under its own seq with a match and a type; each match's index dense from 0, each
// entry naming a stored event of that match and type, and every stored event indexed once.
func checkWardenFeed(tx *bolt.Tx, report func(string, ...any)) {
	b, idx := tx.Bucket([]byte(BucketWardenFeed)), tx.Bucket([]byte(BucketWardenFeedMatch))
	if b == nil || idx == nil {
		return
	}
	checkSeqLog(b, BucketWardenFeed, report)
	indexed := map[uint64]bool{}
	next := map[string]uint64{}
	_ = idx.ForEach(func(k, v []byte) error {
		i := len(k) - 9
		if i <= 0 || k[i] != '/' || len(v) < 9 {
			report("%s: key %q is not <match>/<mseq: 8 bytes> → <seq: 8 bytes><type>", BucketWardenFeedMatch, k)
			return nil
		}
		match, mseq, seq := string(k[:i]), bytesU64(k[i+1:]), bytesU64(v[:8])
		if mseq != next[match] {
			report("%s: %s event %d where %d was due (a gap)", BucketWardenFeedMatch, match, mseq, next[match])
		}
		next[match] = mseq + 1
		env, err := decodeFeed(v[:8], b.Get(v[:8]))
		switch {
		case err != nil:
			report("%s: %s/%d: %v", BucketWardenFeedMatch, match, mseq, err)
		case env.MatchID != match || env.Type != string(v[8:]):
			report("%s: %s/%d names event %d of %s %s", BucketWardenFeedMatch, match, mseq, seq, env.MatchID, env.Type)
		case indexed[seq]:
			report("%s: event %d indexed twice", BucketWardenFeedMatch, seq)
		}
		indexed[seq] = true
		return nil
	})
	_ = b.ForEach(func(k, v []byte) error {
		env, err := decodeFeed(k, v)
		switch {
		case err != nil:
			report("%s: %v", BucketWardenFeed, err)
		case env.MatchID == "" || env.Type == "":
			report("%s/%d: event without a match or type", BucketWardenFeed, env.Seq)
		case !indexed[env.Seq]:
			report("%s/%d: event not in its match's index", BucketWardenFeed, env.Seq)
		}
		return nil
	})
}
