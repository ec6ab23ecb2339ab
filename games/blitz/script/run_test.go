package script

import (
	"errors"
	"os"
	"strings"
	"testing"

	"arena/games/blitz"
)

// TestRunCheckedStopsOnCheck: a failing check stops the run at that step and its error comes
// back wrapped, naming where the run was.
func TestRunCheckedStopsOnCheck(t *testing.T) {
	src, err := os.ReadFile("../testdata/scripts/short_whisper.json")
	if err != nil {
		t.Fatal(err)
	}
	s, err := Parse(src)
	if err != nil {
		t.Fatal(err)
	}
	boom := errors.New("boom")
	steps := 0
	out, err := RunChecked(s, func(m *blitz.Match) error {
		steps++
		if steps == 7 {
			return boom
		}
		return nil
	})
	if out != nil || !errors.Is(err, boom) || !strings.Contains(err.Error(), "script: after ") {
		t.Fatalf("got output %v, error %v; want no output and the check's error wrapped", out != nil, err)
	}
	if steps != 7 {
		t.Errorf("check ran %d times after failing at 7", steps)
	}
}

// TestRunMovesNeverLost: every move of a script reaches the engine: a script whose every move is
// refused reports exactly one refusal per move.
func TestRunMovesNeverLost(t *testing.T) {
	src := `{"format":"short","round":"T-9","seed":"` + strings.Repeat("00", 32) + `",
	 "seats":[{"name":"A","entry":100000000,"collateral":60000000},{"name":"B","entry":100000000,"collateral":60000000},{"name":"C","entry":100000000,"collateral":60000000}],
	 "mole":3,"task":{"kind":"ghost","named":[]},
	 "moves":[
	  {"turn":1,"phase":"talk","exchange":1,"seat":3,"lever":{"accuse":1}},
	  {"turn":2,"phase":"talk","exchange":2,"seat":1,"answer":{"messages":[{"type":"public","text":"x","tone":"loud"}]}},
	  {"turn":2,"phase":"talk","exchange":2,"seat":1,"answer":{}},
	  {"turn":3,"phase":"commit","seat":2,"answer":{"commitments":[{"payee":1,"amount":1,"condition":{"always":true},"due":3}]}}]}`
	s, err := Parse([]byte(src))
	if err != nil {
		t.Fatal(err)
	}
	out, err := Run(s)
	if err != nil {
		t.Fatal(err)
	}
	want := []Rejected{{3, 1, "", "is_mole"}, {1, 2, "", "bad_message"}, {1, 2, "", "stale"}, {2, 3, "", "bad_commitment"}}
	if len(out.Rejected) != len(want) {
		t.Fatalf("rejected %v, want %v", out.Rejected, want)
	}
	for i := range want {
		if out.Rejected[i] != want[i] {
			t.Errorf("rejected[%d] = %+v, want %+v", i, out.Rejected[i], want[i])
		}
	}
}
