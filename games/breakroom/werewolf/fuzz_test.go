package werewolf

import (
	"encoding/json"
	"errors"
	"slices"
	"testing"
	"unicode/utf8"

	"arena/games"
	"arena/games/breakroom"
)

// fuzzLegal are legal_actions of every shape a prompt has (§3.4).
var fuzzLegal = [][]games.Action{
	{{Name: ActionSleep}},
	{{Name: ActionInspect, Bounds: json.RawMessage(`{"targets":[0,2,3]}`)}, {Name: ActionSleep}},
	{{Name: ActionKill, Bounds: json.RawMessage(`{"targets":[0,1],"max_message_chars":280}`)}, {Name: ActionSleep, Bounds: json.RawMessage(`{"max_message_chars":280}`)}},
	{{Name: ActionSay, Bounds: json.RawMessage(`{"max_message_chars":280}`)}, {Name: ActionPass}},
	{{Name: ActionVote, Bounds: json.RawMessage(`{"targets":[1,4]}`)}, {Name: ActionAbstain}},
}

// FuzzParseMove: the move decoder never panics; whatever it accepts is an offered action with a
// target from its list when it takes one, none otherwise, and a message only where the action
// carries one (always for say), within the limit and free of control characters; whatever it
// refuses carries one of §1.3's codes.
func FuzzParseMove(f *testing.F) {
	for _, s := range []string{
		`{"action":"sleep"}`, `{"action":"kill","target":1,"message":"go"}`, `{"action":"say","message":"hi"}`,
		`{"action":"vote","target":4}`, `{"action":"inspect","target":"2"}`, `{"action":"say","message":"\u0007"}`,
		`{"action":"pass","message":null}`, `{"action":"abstain","target":[1]}`, `{"action":"kill","target":1e0}`,
		`{"action":"sleep","action":"sleep"}`, `{"ACTION":"sleep"}`, `null`, `{"action":"say","message":"` + "\xff" + `"}`,
	} {
		for k := range fuzzLegal {
			f.Add([]byte(s), uint8(k))
		}
	}
	f.Fuzz(func(t *testing.T, body []byte, k uint8) {
		legal := fuzzLegal[int(k)%len(fuzzLegal)]
		mv, err := ParseMove(body, legal, breakroom.DefaultMessageChars)
		if err != nil {
			var ge *games.Error
			if !errors.As(err, &ge) || !slices.Contains([]string{breakroom.CodeBadRequest, breakroom.CodeIllegalMove, breakroom.CodeBadMessage}, ge.Code) {
				t.Fatalf("%s: refused with %v", body, err)
			}
			return
		}
		i := slices.IndexFunc(legal, func(a games.Action) bool { return a.Name == mv.Action })
		if i < 0 {
			t.Fatalf("%s: accepted action %q is not offered", body, mv.Action)
		}
		ts := targetsOf(legal[i])
		switch {
		case ts != nil && !slices.Contains(ts, mv.Target):
			t.Fatalf("%s: target %d not in %v", body, mv.Target, ts)
		case ts == nil && mv.Target != -1:
			t.Fatalf("%s: a target %d on %s", body, mv.Target, mv.Action)
		case mv.Action == ActionSay && mv.Message == "":
			t.Fatalf("%s: say without words", body)
		case mv.Message != "" && len(legal[i].Bounds) == 0:
			t.Fatalf("%s: a message on %s", body, mv.Action)
		case utf8.RuneCountInString(mv.Message) > breakroom.DefaultMessageChars || breakroom.CheckMessage(mv.Message, breakroom.DefaultMessageChars) != nil:
			t.Fatalf("%s: message %q accepted", body, mv.Message)
		}
	})
}
