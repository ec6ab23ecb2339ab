package auction

import (
	"bytes"
	"crypto/sha256"
	"math/rand/v2"
	"testing"

	"arena/games/canon"
)

// TestPayloadsAreJCS: every line's payload is its own JCS (RFC 8785, canon.Marshal's output),
// through random matches that write every kind of line.
func TestPayloadsAreJCS(t *testing.T) {
	rnd := rand.New(rand.NewPCG(3, 4))
	seen := map[string]bool{}
	for k := range 24 {
		abandon := 0
		if k%4 == 3 {
			abandon = 10
		}
		opts := `{"lots":5}`
		if k%5 == 4 {
			opts = `{"lots":5,"starting_cash":0}` // nobody can bid: unsold lots
		}
		tb := randomMatch(t, 3+k%6, randomSeed(rnd), opts, rnd, abandon, nil)
		for _, e := range tb.evs {
			c, err := canon.Canonical(e.Payload)
			if err != nil || !bytes.Equal(c, e.Payload) {
				t.Fatalf("%s payload %s is not its JCS %s (%v)", e.Type, e.Payload, c, err)
			}
			seen[e.Type] = true
		}
	}
	if len(seen) != len(LineTypes) { // every type the Auction writes
		t.Fatalf("only %d line types seen: %v", len(seen), seen)
	}
}

// TestTranscriptHashIsTheLog: Result.TranscriptHash is the SHA-256 of the JSONL log.
func TestTranscriptHashIsTheLog(t *testing.T) {
	tb := workedExample(t)
	var log []byte
	for _, l := range tb.lines() {
		log = append(append(log, l...), '\n')
	}
	r, _ := tb.m.Result()
	if want := canon.IDOf(sha256.Sum256(log)); r.TranscriptHash != want {
		t.Fatalf("transcript hash %s, the log's %s", r.TranscriptHash, want)
	}
}
