package inference

import (
	"bufio"
	"encoding/json"
	"os"
	"strings"
	"testing"
)

// TestRulesPageOnTheWire: the rules page is the rules text then its "On the wire" section, which
// names every line type the worked example's log holds, carries the default config as the engine
// writes it (and no deal key), and the actions a turn offers.
func TestRulesPageOnTheWire(t *testing.T) {
	page := Engine{}.Info().RulesPage()
	if !strings.HasPrefix(page, RulesText[:40]) || !strings.Contains(page, "\n## On the wire\n") {
		t.Fatalf("the page does not hold the rules then On the wire:\n%s", page)
	}
	cfg, _ := json.Marshal(DefaultConfig())
	for _, want := range []string{string(cfg), `{"action":"check","max_message_chars":280}`, `{"action":"raise","min":1,"max":R,"max_message_chars":280}`,
		`"sha256:" + hex(SHA-256("{match_id}:{round}:{seat}:{value}:{salt}"))`} {
		if !strings.Contains(page, want) {
			t.Errorf("the page does not hold %s", want)
		}
	}
	if strings.Contains(page, DealKeyOption) {
		t.Error("the page names the deal key option")
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
	// The rules text states the defaults the engine plays.
	c := DefaultConfig()
	for _, want := range []string{"100 credits", "ante (2 credits)", "1 to 10", "at most 3 raises", "40 hands", "50 or less", "10 s by default; 3 s"} {
		if !strings.Contains(RulesText, want) {
			t.Errorf("rules.md lacks %q (config %+v)", want, c)
		}
	}
}
