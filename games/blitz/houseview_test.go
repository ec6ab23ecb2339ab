package blitz

import (
	"bytes"
	"crypto/sha256"
	"encoding/json"
	"fmt"
	"testing"

	"arena/games"
)

// The View a prompt carries is exactly what the house policy would read from the prompt's state
// object, and the house answers the same with it as with a prompt decoded from JSON (no View),
// at every prompt of whole rounds of house play: commitments sealed and breached, seats
// eliminated, accusations placed, on both formats.
func TestHouseViewMatchesState(t *testing.T) {
	e := NewEngine(DefaultFees())
	for round := 0; round < 6; round++ {
		format, n := "blitz", 6
		if round%3 == 2 {
			format, n = "short", 3
		}
		s := testSetup(format, n, `{}`)
		s.Seed = sha256.Sum256(fmt.Appendf(nil, "house-view-%d", round))
		gm, err := e.New(s, newTestKeys(n))
		if err != nil {
			t.Fatal(err)
		}
		m := gm.(*Match)
		prompts, sealed, withOpen := 0, 0, 0
		for {
			dl, ok := m.Deadline()
			if !ok {
				break
			}
			st := m.Advance(dl)
			for _, ev := range st.Events {
				if ev.Type == "commitment.sealed" && ev.Visibility == visPublic {
					sealed++
				}
			}
			for _, p := range m.Prompts() {
				prompts++
				v, ok := p.View.(*houseView)
				if !ok {
					t.Fatalf("round %d seat %d %+v: no house view", round, p.Seat, p.Move)
				}
				obj, ok := decodeState(p.State)
				if !ok {
					t.Fatalf("state does not decode")
				}
				want := viewOf(obj, p.Seat)
				if fmt.Sprint(*v) != fmt.Sprint(*want) {
					t.Fatalf("round %d seat %d %+v: view %+v, state says %+v", round, p.Seat, p.Move, *v, *want)
				}
				if v.openAsPay > 0 {
					withOpen++
				}
				raw, _ := json.Marshal(p)
				var plain games.Prompt
				if err := json.Unmarshal(raw, &plain); err != nil || plain.View != nil {
					t.Fatalf("a prompt through JSON: %v, view %v", err, plain.View)
				}
				seed := uint64(round)<<32 | uint64(prompts)
				a, b := e.HouseAnswer(p, seed), e.HouseAnswer(plain, seed)
				if !bytes.Equal(a, b) {
					t.Fatalf("round %d seat %d %+v: house answers differ:\n view  %s\n state %s", round, p.Seat, p.Move, a, b)
				}
				if _, err := m.Act(dl, games.Input{Seat: p.Seat, Kind: "answer", Move: p.Move, Body: a}); err != nil {
					t.Fatalf("house answer refused: %v", err)
				}
			}
		}
		if prompts < 20 || sealed == 0 || withOpen == 0 {
			t.Fatalf("round %d: %d prompts, %d commitments sealed, %d views with open commitments: the round did not exercise the view",
				round, prompts, sealed, withOpen)
		}
	}
}
