package dilemma

import (
	"encoding/json"
	"math/rand/v2"
	"testing"
	"time"

	"arena/games"
)

// TestRandomPlay: 200 random matches of random calls (answers of every form, stale and
// repeated ones, Advances at random instants, a replay of the input log at random points). Every
// match ends, conserves the pot, pays per the outcome table, and a replayed match is its twin's
// state exactly and never diverges from the twin that was never replayed.
func TestRandomPlay(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	bodies := []string{`{"action":"cooperate"}`, `{"action":"defect"}`, `{"choice":"COOPERATE"}`,
		`{"choice":"DEFECT"}`, `{"action":"betray"}`, `{}`, `x`}
	for game := 0; game < 200; game++ {
		stake := 1 + r.Int64N(10_000_000)
		a, _ := Engine{}.New(setup(stake), nil)
		b, _ := Engine{}.New(setup(stake), nil)
		now := t0.Add(-time.Duration(r.IntN(3)) * time.Second)
		var logA, logB []games.Event
		var inputsB []games.Logged // b's input log, as a table keeps it
		for step := 0; step < 12; step++ {
			now = now.Add(time.Duration(r.IntN(25_000)) * time.Millisecond)
			if r.IntN(3) == 0 {
				logA = append(logA, a.Advance(now).Events...)
				logB = append(logB, b.Advance(now).Events...)
				inputsB = append(inputsB, games.Logged{Op: games.OpAdvance, At: now})
			} else {
				in := games.Input{Seat: 1 + r.IntN(3), Kind: "answer", Move: theMove, Body: json.RawMessage(bodies[r.IntN(len(bodies))])}
				if r.IntN(10) == 0 {
					in.Move.Turn = 2
				}
				sa, ea := a.Act(now, in)
				sb, eb := b.Act(now, in)
				if (ea == nil) != (eb == nil) {
					t.Fatalf("game %d: twins disagree: %v vs %v", game, ea, eb)
				}
				if ea != nil && code(ea) == "" {
					t.Fatalf("game %d: refusal without code: %v", game, ea)
				}
				logA = append(logA, sa.Events...)
				logB = append(logB, sb.Events...)
				if eb == nil {
					inputsB = append(inputsB, games.Logged{Op: games.OpAct, At: now, Input: in})
				}
			}
			if r.IntN(4) == 0 { // b comes back by a replay of its input log
				rb, _, err := games.Replay(Engine{}, setup(stake), nil, inputsB)
				if err != nil {
					t.Fatalf("game %d: replay: %v", game, err)
				}
				if stateOf(rb) != stateOf(b) {
					t.Fatalf("game %d: the replayed match's state differs", game)
				}
				b = rb
			}
		}
		for {
			d, ok := a.Deadline()
			if !ok {
				break
			}
			if d.Before(now) {
				d = now
			}
			logA = append(logA, a.Advance(d).Events...)
			logB = append(logB, b.Advance(d).Events...)
		}
		ja, _ := json.Marshal(logA)
		jb, _ := json.Marshal(logB)
		if string(ja) != string(jb) {
			t.Fatalf("game %d: replayed twin diverged", game)
		}
		ra, okA := a.Result()
		rb, okB := b.Result()
		if !okA || !okB || ra.TranscriptHash != rb.TranscriptHash || ra.TranscriptHash != TranscriptHash(logA) {
			t.Fatalf("game %d: results %v %v", game, okA, okB)
		}
		var rev struct{ Choices struct{ A, B string } }
		json.Unmarshal(ra.Reveal, &rev)
		f := Outcome(rev.Choices.A, rev.Choices.B, 2*stake)
		if ra.Payouts[1] != f.GrossA || ra.Payouts[2] != f.GrossB || ra.House != f.House ||
			ra.Payouts[1]+ra.Payouts[2]+ra.House != 2*stake || ra.House < 0 {
			t.Fatalf("game %d: payouts %v house %d for %+v", game, ra.Payouts, ra.House, rev)
		}
		// The events' seq runs 1..n without a gap.
		for i, e := range logA {
			if e.Seq != int64(i+1) {
				t.Fatalf("game %d: event %d has seq %d", game, i, e.Seq)
			}
		}
	}
}
