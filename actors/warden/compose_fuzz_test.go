package warden

import (
	"encoding/json"
	"errors"
	"testing"

	"arena/games"
	"arena/games/canon"
)

// FuzzCompose: no action or args panics the §7.2 body translation; a refusal is bad_args or
// illegal_action; an accepted body is a JSON object whose "action" is the legal action named
// (or absent, for the step's own name).
func FuzzCompose(f *testing.F) {
	f.Add("claim", `{"claim_bps":5000}`)
	f.Add("commit", `{"choice":"DEFECT"}`)
	f.Add("offer", `{"action":"x"}`)
	f.Add("claim", `[1]`)
	f.Add("", `null`)
	pr := &games.Prompt{Seat: 1, Move: games.Move{Turn: 1, Phase: "commit"}, Legal: games.Actions("claim", "pass")}
	f.Fuzz(func(t *testing.T, action, args string) {
		body, err := compose(pr, action, json.RawMessage(args))
		if err != nil {
			var ge *games.Error
			if !errors.As(err, &ge) || ge.Code != codeBadArgs && ge.Code != codeIllegal {
				t.Fatalf("refusal %v", err)
			}
			return
		}
		var m map[string]json.RawMessage
		if err := canon.Decode(body, &m); err != nil {
			t.Fatalf("body %s: %v", body, err)
		}
		var got string
		_ = json.Unmarshal(m["action"], &got)
		if (action == "claim" || action == "pass") != (got == action) {
			t.Fatalf("action %q gave body %s", action, body)
		}
	})
}
