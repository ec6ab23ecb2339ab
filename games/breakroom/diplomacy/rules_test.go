package diplomacy

import (
	"strings"
	"testing"
)

// TestInfo: the catalogue row is §1.1's, and the rules page names every line type the match
// writes in the conformance games.
func TestInfo(t *testing.T) {
	i := Engine{}.Info()
	if i.ID != "diplomacy" || i.TableSize != 5 || i.MinPlayers != 5 || i.MaxPlayers != 5 || i.RulesVersion != "diplomacy-0.1" || i.DeadlineMS != 20000 {
		t.Fatalf("info %+v", i)
	}
	page := i.RulesPage()
	for _, l := range LineTypes {
		if !strings.Contains(page, "`"+l.Type+"`") {
			t.Errorf("the rules page lacks %s", l.Type)
		}
	}
	if !strings.Contains(page, `"orders_deadline_ms":45000`) {
		t.Error("the rules page lacks the default config")
	}
	// Every line a match writes is on the page: a whole house-played match, and one abandoned.
	listed := map[string]bool{}
	for _, l := range LineTypes {
		listed[l.Type] = true
	}
	m, err := Engine{}.New(setup(seq0(), ""), nil)
	if err != nil {
		t.Fatal(err)
	}
	seen := map[string]bool{}
	for {
		dl, ok := m.Deadline()
		if !ok {
			break
		}
		for _, e := range m.Advance(dl).Events {
			seen[e.Type] = true
		}
	}
	for _, e := range m.Abandon(t0, "test").Events {
		seen[e.Type] = true
	}
	m2, _ := Engine{}.New(setup(seq0(), ""), nil)
	m2.Advance(t0)
	for _, e := range m2.Abandon(t0, "test").Events {
		seen[e.Type] = true
	}
	for typ := range seen {
		if !listed[typ] {
			t.Errorf("line %s is not on the rules page", typ)
		}
	}
	if !seen["match_end"] || !seen["civil_disorder"] || !seen["match_abandoned"] {
		t.Errorf("the timed-out match wrote %v", seen)
	}
}
