package dilemma

import (
	"testing"
	"time"

	"arena/games"
)

// TestHouseAnswer: the house's answers are legal, deterministic in the seed, defect about one
// time in four, and accepted by the match.
func TestHouseAnswer(t *testing.T) {
	m, _ := Engine{}.New(setup(1_000_000), nil)
	step := m.Advance(t0)
	p := step.Prompts[0]
	defects := 0
	for seed := uint64(0); seed < 4000; seed++ {
		a := Engine{}.HouseAnswer(p, seed)
		if string(a) != string(Engine{}.HouseAnswer(p, seed)) {
			t.Fatal("not deterministic")
		}
		switch string(a) {
		case `{"action":"defect"}`:
			defects++
		case `{"action":"cooperate"}`:
		default:
			t.Fatalf("seed %d: %s", seed, a)
		}
	}
	if defects < 850 || defects > 1150 {
		t.Fatalf("%d defects in 4000", defects)
	}
	if _, err := m.Act(t0.Add(time.Second), games.Input{Seat: 1, Kind: "answer", Move: p.Move, Body: Engine{}.HouseAnswer(p, 7)}); err != nil {
		t.Fatalf("house answer refused: %v", err)
	}
	if (Engine{}).HouseAnswer(games.Prompt{Move: games.Move{Turn: 2, Phase: "commit"}}, 1) != nil {
		t.Fatal("answered a prompt that is not the commit")
	}
}
