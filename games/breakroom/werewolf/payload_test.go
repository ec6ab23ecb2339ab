package werewolf

import (
	"bytes"
	"crypto/sha256"
	"testing"

	"arena/games/canon"
)

// TestPayloadsAreJCS: every line's payload, those written by hand included, is its own JCS (RFC
// 8785), through random matches that write every kind of line.
func TestPayloadsAreJCS(t *testing.T) {
	rnd := newRand(3)
	seen := map[string]bool{}
	for k := range 60 {
		abandon := 0
		if k%4 == 3 {
			abandon = 10 + k
		}
		tb := randomMatch(t, 5+k%4, randomSeed(rnd), "", rnd, abandon, false, nil)
		for _, e := range tb.evs {
			c, err := canon.Canonical(e.Payload)
			if err != nil || !bytes.Equal(c, e.Payload) {
				t.Fatalf("%s payload %s is not its JCS %s (%v)", e.Type, e.Payload, c, err)
			}
			seen[e.Type] = true
		}
	}
	for _, l := range LineTypes {
		if !seen[l.Type] {
			t.Errorf("no random match wrote %s", l.Type)
		}
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
