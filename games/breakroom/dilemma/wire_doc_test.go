package dilemma

import (
	"bufio"
	"encoding/json"
	"os"
	"strings"
	"testing"

	"arena/games/breakroom"
)

// TestRulesPageOnTheWire: the rules page's "On the wire" section names every line type the worked
// example's log holds and both actions as a turn offers them (legal_actions with their bounds), and
// carries the default config as the engine writes it.
func TestRulesPageOnTheWire(t *testing.T) {
	page := Engine{}.Info().RulesPage()
	if !strings.HasPrefix(page, RulesText[:40]) || !strings.Contains(page, "\n## On the wire\n") {
		t.Fatalf("the page does not hold the rules then On the wire:\n%s", page)
	}
	if !strings.HasSuffix(page, "\n\n"+breakroom.SeqNote) {
		t.Errorf("the page does not end with how a copy of the log numbers its lines:\n%s", page)
	}
	cfg, _ := json.Marshal(DefaultConfig())
	// The legal_actions the page shows are those a turn offers, bounds included.
	legal, _ := json.Marshal((&match{cfg: DefaultConfig()}).legal())
	for _, want := range []string{string(cfg), "`legal_actions` `" + string(legal) + "`"} {
		if !strings.Contains(page, want) {
			t.Errorf("the page does not hold %s", want)
		}
	}
	f, err := os.Open("testdata/worked_example.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	listed := map[string]bool{}
	for _, l := range LineTypes {
		listed[l.Type] = true
	}
	sc := bufio.NewScanner(f)
	seen := 0
	for sc.Scan() {
		var l struct{ Type string }
		if err := json.Unmarshal(sc.Bytes(), &l); err != nil {
			t.Fatal(err)
		}
		seen++
		if !listed[l.Type] || !strings.Contains(page, "`"+l.Type+"`") {
			t.Errorf("line type %q is not on the rules page", l.Type)
		}
	}
	if seen == 0 {
		t.Fatal("the worked example has no lines")
	}
}
