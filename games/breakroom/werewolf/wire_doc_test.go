package werewolf

import (
	"bufio"
	"encoding/json"
	"os"
	"strings"
	"testing"
	"unicode/utf8"
)

// TestRulesPageOnTheWire: the rules page's "On the wire" section names every line type the
// worked example's log holds and the legal_actions of a villager's night and of the discussion
// as the engine offers them, and carries the default config as the engine writes it.
func TestRulesPageOnTheWire(t *testing.T) {
	page := Engine{}.Info().RulesPage()
	if !strings.HasPrefix(page, RulesText[:40]) || !strings.Contains(page, "\n## On the wire\n") {
		t.Fatalf("the page does not hold the rules then On the wire:\n%s", page)
	}
	cfg, _ := json.Marshal(DefaultConfig(TableSize))
	m := &match{cfg: DefaultConfig(TableSize), seats: []seatState{{role: RoleVillager, alive: true}}, stage: PhaseNight}
	night, _ := json.Marshal(m.actions(m.legal(0)))
	m.stage = PhaseDiscussion
	day, _ := json.Marshal(m.actions(m.legal(0)))
	for _, want := range []string{string(cfg), "`" + string(night) + "`", "`" + string(day) + "`"} {
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
	sc.Buffer(nil, 1<<20)
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
	info := Engine{}.Info()
	if info.TableSize != 7 || info.MinPlayers != 5 || info.MaxPlayers != 8 || info.DeadlineMS != 20000 || info.RulesVersion != "werewolf-0.1" {
		t.Fatalf("catalogue row %+v (§1.1)", info)
	}
}

// TestRulesParagraphsFitAMessage: every paragraph of rules.md is at most 280 code points, so the
// bartender's answer to a rules question (one paragraph, in a message) is whole.
func TestRulesParagraphsFitAMessage(t *testing.T) {
	for _, p := range strings.Split(RulesText, "\n\n") {
		if n := utf8.RuneCountInString(strings.TrimSpace(p)); n > 280 {
			t.Errorf("a paragraph of %d code points: %q", n, p)
		}
	}
}
