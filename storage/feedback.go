package storage

import (
	"encoding/json"
	"errors"
	"fmt"
	"time"
	"unicode/utf8"

	bolt "go.etcd.io/bbolt"
)

// Feedback notes (bucket feedback): what players send to the feedback agent, Nell, through the
// link of the scouting notice (§5.2, POST /v1/feedback) or the chat seat's feedback tool (§4.5),
// kept in arrival order for the operators (`arena ops feedback`, GET /ops/feedback):
//
//	feedback  <seq: 8 bytes BE, from 1>   FeedbackNote JSON
//
// Notes are added at the end and trimmed from the front (TrimFeedback, an operator's, once read),
// so the notes kept are one run of sequence numbers; a number is never used twice. The DOTDOTDOT
// feedback door and the chat seat, through cmd/arena's wiring, are the writers.

// Bounds of a note: its text, its sender and round, and how many notes the bucket keeps.
const (
	MaxFeedbackText  = 2000   // characters (runes) of a note's text
	MaxFeedbackFrom  = 256    // bytes of FeedbackNote.From and .Round each
	MaxFeedbackNotes = 100000 // notes kept (not ever sent); AddFeedback answers ErrFull past them
)

// Where a note came from (FeedbackNote.Via).
const (
	FeedbackHTTP = "http" // POST /v1/feedback
	FeedbackMCP  = "mcp"  // the chat seat's feedback tool
)

// FeedbackNote is one note. Seq is its place in arrival order (set by AddFeedback); At when it
// arrived; From who sent it, when it said ("walkin:<record key>", the sha256 of a walk-in token
// as the desk keys records, never the token; "" anonymous); Round the round it is about, when
// named.
type FeedbackNote struct {
	Seq   uint64    `json:"seq"`
	At    time.Time `json:"at"`
	Via   string    `json:"via"`
	From  string    `json:"from,omitempty"`
	Round string    `json:"round,omitempty"`
	Text  string    `json:"text"`
}

// AddFeedback stores n under the next sequence number and returns it with Seq set: durable when
// it returns nil. ErrBadKey for a note outside its bounds (an empty or over-long text, text that
// is not UTF-8, an unknown Via, an over-long From or Round); ErrFull when MaxFeedbackNotes are
// kept already (until an operator trims them: TrimFeedback), and nothing is written.
func (s *Store) AddFeedback(n FeedbackNote) (FeedbackNote, error) {
	if err := checkNote(&n, false); err != nil {
		return FeedbackNote{}, fmt.Errorf("storage: add feedback: %w: %v", ErrBadKey, err)
	}
	err := s.write(func(tx *bolt.Tx) error {
		b := tx.Bucket([]byte(BucketFeedback))
		if feedbackKept(b) >= MaxFeedbackNotes {
			return ErrFull
		}
		seq, err := b.NextSequence()
		if err != nil {
			return err
		}
		n.Seq = seq
		v, err := json.Marshal(&n)
		if err != nil {
			return err
		}
		return b.Put(u64(seq), v)
	})
	if err != nil {
		return FeedbackNote{}, fmt.Errorf("storage: add feedback: %w", err)
	}
	return n, nil
}

// feedbackKept is how many notes b keeps: they are one run of sequence numbers, from the first
// key to the last.
func feedbackKept(b *bolt.Bucket) uint64 {
	c := b.Cursor()
	first, _ := c.First()
	last, _ := c.Last()
	if len(first) != 8 || len(last) != 8 {
		return 0
	}
	return bytesU64(last) - bytesU64(first) + 1
}

// TrimFeedback deletes every note with Seq up to through (notes an operator has read), making
// room for as many new ones, and returns how many it deleted: durable when it returns nil. The
// sequence goes on; a trimmed note's Seq is never used again.
func (s *Store) TrimFeedback(through uint64) (int, error) {
	n := 0
	err := s.write(func(tx *bolt.Tx) error {
		b := tx.Bucket([]byte(BucketFeedback))
		var keys [][]byte
		c := b.Cursor()
		for k, _ := c.First(); k != nil && len(k) == 8 && bytesU64(k) <= through; k, _ = c.Next() {
			keys = append(keys, append([]byte(nil), k...))
		}
		for _, k := range keys {
			if err := b.Delete(k); err != nil {
				return err
			}
		}
		n = len(keys)
		return nil
	})
	if err != nil {
		return 0, fmt.Errorf("storage: trim feedback: %w", err)
	}
	return n, nil
}

// FeedbackNotes returns up to limit notes with Seq above after, in arrival order (limit ≤ 0:
// every one).
func (s *Store) FeedbackNotes(after uint64, limit int) ([]FeedbackNote, error) {
	out := []FeedbackNote{}
	err := s.db.View(func(tx *bolt.Tx) error {
		b := tx.Bucket([]byte(BucketFeedback))
		if b == nil { // a file from before the bucket, opened read-only
			return nil
		}
		c := b.Cursor()
		for k, v := c.Seek(u64(after + 1)); k != nil && (limit <= 0 || len(out) < limit); k, v = c.Next() {
			var n FeedbackNote
			if err := json.Unmarshal(v, &n); err != nil {
				return fmt.Errorf("%w: feedback %x: %v", ErrCorrupt, k, err)
			}
			out = append(out, n)
		}
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("storage: feedback notes: %w", err)
	}
	return out, nil
}

// checkNote is a note's layout; stored says Seq is set (Check's reading).
func checkNote(n *FeedbackNote, stored bool) error {
	switch {
	case n.Text == "" || !utf8.ValidString(n.Text) || utf8.RuneCountInString(n.Text) > MaxFeedbackText:
		return fmt.Errorf("text of %d bytes: want 1 to %d characters of UTF-8", len(n.Text), MaxFeedbackText)
	case n.Via != FeedbackHTTP && n.Via != FeedbackMCP:
		return fmt.Errorf("via %q", n.Via)
	case len(n.From) > MaxFeedbackFrom || len(n.Round) > MaxFeedbackFrom:
		return errors.New("from or round too long")
	case stored && n.Seq == 0:
		return errors.New("no seq")
	}
	return nil
}

// checkFeedback is Check's reading of the feedback bucket: 8-byte keys from 1 up to the
// bucket's sequence, each holding a note of that seq within its bounds.
func checkFeedback(b *bolt.Bucket, report func(string, ...any)) {
	if b == nil {
		return
	}
	_ = b.ForEach(func(k, v []byte) error {
		if v == nil {
			return nil // a nested bucket: Check reports it with every bucket's
		}
		if err := checkStoredNote(k, v, b.Sequence()); err != nil {
			report("%s/%q: %v", BucketFeedback, k, err)
		}
		return nil
	})
}

func checkStoredNote(k, v []byte, last uint64) error {
	if len(k) != 8 {
		return errors.New("key is not an 8-byte seq")
	}
	var n FeedbackNote
	if err := json.Unmarshal(v, &n); err != nil {
		return fmt.Errorf("note does not decode: %v", err)
	}
	seq := bytesU64(k)
	if n.Seq != seq {
		return fmt.Errorf("note %d under key %d", n.Seq, seq)
	}
	if err := checkNote(&n, true); err != nil {
		return err
	}
	if seq == 0 || seq > last {
		return fmt.Errorf("seq %d is not a note's seq from 1 to %d", seq, last)
	}
	return nil
}
