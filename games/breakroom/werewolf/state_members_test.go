package werewolf

import (
	"bytes"
	"encoding/json"
	"slices"
	"strings"
	"testing"

	"arena/games/breakroom"
)

// TestStateMembersOnThePage: the rules page's visible_state list is the members a prompt's state
// holds, in the order it writes them (truncated, present only when talk was cut, aside), and the
// page names each with what it holds.
func TestStateMembersOnThePage(t *testing.T) {
	tb := newTable(t, setupN(5, seq0(), ""))
	got := stateKeys(t, tb.open().State.Bytes())
	var want []string
	for _, m := range StateMembers {
		if m.Name != "truncated" {
			want = append(want, m.Name)
		}
	}
	if !slices.Equal(got, want) {
		t.Errorf("a prompt's visible_state members %v, the page lists %v", got, want)
	}
	page := Engine{}.Info().RulesPage()
	for _, m := range StateMembers {
		if line := "- `" + m.Name + "`: " + m.What + "\n"; !strings.Contains(page, line) {
			t.Errorf("the page lacks %q", line)
		}
	}
	if !strings.HasSuffix(page, "\n\n"+breakroom.SeqNote) {
		t.Errorf("the page does not end with how a copy of the log numbers its lines:\n%s", page)
	}
}

// stateKeys is the top-level member names of the JSON object b, in order.
func stateKeys(t *testing.T, b []byte) []string {
	t.Helper()
	dec := json.NewDecoder(bytes.NewReader(b))
	if tok, err := dec.Token(); err != nil || tok != json.Delim('{') {
		t.Fatalf("state %s is no object (%v)", b, err)
	}
	var keys []string
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			t.Fatal(err)
		}
		keys = append(keys, tok.(string))
		var skip json.RawMessage
		if err := dec.Decode(&skip); err != nil {
			t.Fatal(err)
		}
	}
	return keys
}
