package blitz

import (
	"bytes"
	"encoding/json"
	"testing"

	"arena/games"
)

// The house policy reads the prompt's View (the match's own figures, no JSON) when it has one,
// else the state object (games.Prompt.View: "answer the same either way"). Over varied, partly
// hostile rounds (commitments sealed, breached, eliminations and accusations), every prompt is
// answered the same with its View, without it, and after a trip through JSON; and a View never
// changes after the prompt was issued (it is read on the seat's goroutine while the match goes on).
func TestHouseAnswerSameWithoutView(t *testing.T) {
	eng := NewEngine(DefaultFees())
	n := 0
	for seed := uint64(1); seed <= 2; seed++ {
		var early []games.Prompt
		var earlyAnswers [][]byte
		all, _, _ := playShared(t, seed, func(is issued) {
			if is.p.View != nil && len(early) < 40 {
				early = append(early, is.p)
				earlyAnswers = append(earlyAnswers, eng.HouseAnswer(is.p, seed))
			}
		})
		for i, is := range all {
			if is.p.Move.Phase != "talk" && is.p.Move.Phase != "commit" {
				continue
			}
			n++
			with := eng.HouseAnswer(is.p, seed)
			bare := is.p
			bare.View = nil
			without := eng.HouseAnswer(bare, seed)
			if !bytes.Equal(with, without) {
				t.Fatalf("seed %d seat %d %+v: house answer with the View\n %s\nwithout (from the state)\n %s", seed, is.p.Seat, is.p.Move, with, without)
			}
			if i%4 != 0 {
				continue // through JSON: a quarter of them (runtime)
			}
			b, _ := json.Marshal(is.p)
			var back games.Prompt
			if err := json.Unmarshal(b, &back); err != nil {
				t.Fatal(err)
			}
			if got := eng.HouseAnswer(back, seed); !bytes.Equal(got, with) {
				t.Fatalf("seed %d seat %d %+v: house answer after JSON\n %s\nwant\n %s", seed, is.p.Seat, is.p.Move, got, with)
			}
		}
		for i, p := range early { // answered again once the round is over: the View did not move
			if got := eng.HouseAnswer(p, seed); !bytes.Equal(got, earlyAnswers[i]) {
				t.Fatalf("seed %d seat %d %+v: the house answer changed after the round went on:\n %s\nwas\n %s", seed, p.Seat, p.Move, got, earlyAnswers[i])
			}
		}
	}
	if n < 200 {
		t.Fatalf("%d prompts compared", n)
	}
}
