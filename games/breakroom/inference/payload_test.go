package inference

import (
	"bytes"
	"crypto/sha256"
	"testing"
	"time"

	"arena/games/breakroom"
	"arena/games/canon"
)

// TestPayloadsAreJCS: every line's payload, those written by hand included, is its own JCS
// (RFC 8785), through random matches that write every kind of line.
func TestPayloadsAreJCS(t *testing.T) {
	rnd := newRand(5)
	seen := map[string]bool{}
	for k := range 60 {
		abandon := 0
		if k%4 == 3 {
			abandon = 10
		}
		tb := randomMatch(t, 3+k%6, `{"rounds":9,"starting_credits":10,"ante":2,"strikes_limit":2}`, rnd, abandon, nil)
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
			t.Errorf("no %s line seen", l.Type)
		}
	}
	if len(seen) != len(LineTypes) {
		t.Fatalf("%d line types seen, LineTypes lists %d: %v", len(seen), len(LineTypes), seen)
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

// TestStateFitsTheFrame (J31): the largest prompt — 8 seats, the most raises a config allows,
// every seat acting in every raise round, a full last showdown — stays within the state budget.
func TestStateFitsTheFrame(t *testing.T) {
	tb := newTable(t, setupN(8, seq0(), seq0(), `{"max_raises":5,"max_raise":1000000,"starting_credits":1000000000,"ante":1}`))
	// Hand 1: everyone checks, so all 8 reveal or muck at a showdown of 8 seats.
	for tb.m.round == 1 {
		p := tb.open()
		tb.move(p.Seat-1, `{"action":"check"}`)
	}
	biggest := 0
	for tb.m.round == 2 {
		p := tb.open()
		biggest = max(biggest, len(p.State.Bytes()))
		body := `{"action":"call"}`
		for _, a := range p.Legal {
			if a.Name == ActionRaise {
				body = `{"action":"raise","amount":1000000}`
			}
		}
		if p.Legal[0].Name == ActionCheck && body == `{"action":"call"}` {
			body = `{"action":"check"}`
		}
		tb.play(p.Seat-1, time.Millisecond, body)
	}
	if biggest == 0 || biggest > breakroom.StateBudget {
		t.Fatalf("the largest state is %d bytes, the budget %d", biggest, breakroom.StateBudget)
	}
	t.Logf("the largest state: %d bytes", biggest)
}
