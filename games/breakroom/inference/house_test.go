package inference

import (
	"encoding/json"
	"testing"

	"arena/games"
)

// TestHouseStrategy: the fixed policy by the value's place in the deck: top fifth raises the
// least (else calls, else checks); top three fifths checks or calls; below, checks or folds. It
// reads the state's value when the prompt has no HouseView, and answers nothing to a prompt with
// no legal actions.
func TestHouseStrategy(t *testing.T) {
	check := []games.Action{{Name: ActionCheck, Bounds: []byte(`{"max_message_chars":280}`)}, {Name: ActionRaise, Bounds: []byte(`{"max":10,"max_message_chars":280,"min":1}`)}}
	facing := []games.Action{{Name: ActionFold}, {Name: ActionCall, Bounds: []byte(`{"amount":4}`)}, {Name: ActionRaise, Bounds: []byte(`{"max":10,"min":1}`)}}
	capped := facing[:2]
	for _, c := range []struct {
		value int
		legal []games.Action
		want  string
	}{
		{95, check, `{"action":"raise","amount":1}`},
		{81, facing, `{"action":"raise","amount":1}`},
		{81, capped, `{"action":"call"}`},
		{80, check, `{"action":"check"}`},
		{41, facing, `{"action":"call"}`},
		{40, facing, `{"action":"fold"}`},
		{3, check, `{"action":"check"}`},
	} {
		p := games.Prompt{Legal: c.legal, View: HouseView{Value: c.value, DeckSize: 100}}
		if got := string(Engine{}.HouseAnswer(p, 0)); got != c.want {
			t.Errorf("value %d, %d actions: %s, want %s", c.value, len(c.legal), got, c.want)
		}
	}
	p := games.Prompt{Legal: facing, State: games.RawDoc([]byte(`{"value":90}`))}
	if got := string((Engine{}).HouseAnswer(p, 0)); got != `{"action":"raise","amount":1}` {
		t.Errorf("from the state: %s", got)
	}
	if got := (Engine{}).HouseAnswer(games.Prompt{}, 0); got != nil {
		t.Errorf("no legal actions: %s", got)
	}
	// Its answers are legal at every prompt of a whole match of house bots.
	tb := newTable(t, setupN(6, seq0(), [32]byte{3}, ""))
	for tb.m.phase == phasePlaying {
		p := tb.open()
		var body map[string]any
		b := Engine{}.HouseAnswer(p, 0)
		if json.Unmarshal(b, &body) != nil {
			t.Fatalf("house answer %s", b)
		}
		tb.move(p.Seat-1, string(b))
	}
	if len(tb.ofType("match_end")) != 1 {
		t.Fatal("the house match did not end")
	}
}
