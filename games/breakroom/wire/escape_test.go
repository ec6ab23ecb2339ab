package wire

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"

	"arena/games/breakroom"
	"arena/games/canon"
)

// TestEncodeWritesTalkAsTheGameMeasuredIt: a game cuts visible_state to breakroom.StateBudget
// bytes of canonical JSON (J31), so the frame must write the state's strings as compactly:
// table talk of "<", ">", "&" and the line separators U+2028/U+2029 (all legal in a message,
// §1.4) is written as itself, not as six-byte \u escapes that would push a full state past the
// 8 KB frame and turn the seat's your_turn into an internal error.
func TestEncodeWritesTalkAsTheGameMeasuredIt(t *testing.T) {
	var talk []map[string]any
	msg := strings.Repeat("<&>\u2028\u2029", 56) // 280 characters
	state, _ := canon.Marshal(map[string]any{"game": "dilemma", "talk": talk})
	for {
		next := append(talk, map[string]any{"round": 1, "seat": 0, "turn": 0, "text": msg})
		b, _ := canon.Marshal(map[string]any{"game": "dilemma", "talk": next})
		if len(b) > breakroom.StateBudget {
			break
		}
		talk, state = next, b
	}
	yt := YourTurn{MatchID: "m_0123456789abcdef", Round: 1, Turn: 0, DeadlineMs: 10000, VisibleState: state,
		LegalActions: json.RawMessage(`[{"action":"cooperate","max_message_chars":280},{"action":"defect","max_message_chars":280}]`)}
	b, err := Encode(yt)
	if err != nil {
		t.Fatalf("a state within the budget: %v", err)
	}
	var got struct {
		VisibleState any `json:"visible_state"`
	}
	var want any
	if err := json.Unmarshal(b, &got); err != nil {
		t.Fatal(err)
	}
	_ = json.Unmarshal(state, &want)
	if !reflect.DeepEqual(got.VisibleState, want) {
		t.Fatalf("visible_state changed in the frame")
	}
	// A backslash before u003c in the text itself stays a backslash and the letters.
	b, err = Encode(ErrorOf("bad_request", `\u003c & \\u2028`, ""))
	var e struct{ Detail string }
	if err != nil || json.Unmarshal(b, &e) != nil || e.Detail != `\u003c & \\u2028` {
		t.Fatalf("escapes in a text: %s %v", b, err)
	}
}
