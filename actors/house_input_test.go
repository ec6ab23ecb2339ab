package actors

import (
	"encoding/json"
	"testing"

	"arena/games"
)

// A house seat's answer, the game's house policy played by the seat actor, reaches the match as
// an input marked House (games.Input.House), and the input log keeps the mark, so a replay
// announces it as the live match did (Blitz's agent.scripted); a seat of another channel's
// answer is not marked.
func TestHouseAnswersAreMarked(t *testing.T) { inBubble(t, houseAnswersAreMarked) }

func houseAnswersAreMarked(t *testing.T) {
	h := newHarness(t)
	mb := h.mailbox("mb-house")
	sp := seats(ChannelHouse, ChannelHouse, ChannelMailbox)
	sp[2].Actor = "mb-house"
	round := h.open(TableSpec{ID: "marked", Seats: sp})
	nextPrompt(t, mb, 1)
	h.submit("marked", round, 3, 1, `{"n":1}`)
	h.waitEvents("the turn's answers", 3, and(roundIs(round), typeIs("answer")))
	entries, err := inputData(h.store.Inputs("marked"))
	if err != nil {
		t.Fatal(err)
	}
	answers := map[int]bool{}
	for _, b := range entries {
		var l games.Logged
		if json.Unmarshal(b, &l) != nil || l.Op != games.OpAct || l.Input.Kind != "answer" {
			continue
		}
		answers[l.Input.Seat] = l.Input.House
	}
	if len(answers) != 3 || !answers[1] || !answers[2] || answers[3] {
		t.Fatalf("answers logged, seat → House: %v; want the two house seats marked and the mailbox seat not", answers)
	}
}
