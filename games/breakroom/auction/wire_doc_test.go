package auction

import (
	"bufio"
	"encoding/json"
	"os"
	"strings"
	"testing"
)

// TestRulesPageOnTheWire: the rules page's "On the wire" section names every line type the
// engine writes (every type the worked example's log holds among them) and both actions as a
// turn offers them (legal_actions with their bounds), and carries the default config as the
// engine writes it.
func TestRulesPageOnTheWire(t *testing.T) {
	page := Engine{}.Info().RulesPage()
	if !strings.HasPrefix(page, RulesText[:40]) || !strings.Contains(page, "\n## On the wire\n") {
		t.Fatalf("the page does not hold the rules then On the wire:\n%s", page)
	}
	cfg, _ := json.Marshal(DefaultConfig())
	legal, _ := json.Marshal((&match{cfg: DefaultConfig()}).legal(DefaultConfig().StartingCash))
	for _, want := range []string{string(cfg), "`legal_actions` `" + string(legal) + "`", `"action":"pass"`} {
		if !strings.Contains(page, want) {
			t.Errorf("the page does not hold %s", want)
		}
	}
	listed := map[string]bool{}
	for _, l := range LineTypes {
		listed[l.Type] = true
		if !strings.Contains(page, "`"+l.Type+"`") {
			t.Errorf("line type %q is not on the rules page", l.Type)
		}
	}
	f, err := os.Open("testdata/worked_example.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<20)
	seen := 0
	for sc.Scan() {
		var l struct{ Type string }
		if err := json.Unmarshal(sc.Bytes(), &l); err != nil {
			t.Fatal(err)
		}
		seen++
		if !listed[l.Type] {
			t.Errorf("line type %q is not in LineTypes", l.Type)
		}
	}
	if seen == 0 {
		t.Fatal("the worked example has no lines")
	}
	// The rules text states the default numbers the config holds.
	for _, n := range []string{"10 lots", "200 cash", "1 to 100", "280 characters", "10 s", "3 strikes"} {
		if !strings.Contains(RulesText, n) {
			t.Errorf("rules.md does not state %q", n)
		}
	}
}
