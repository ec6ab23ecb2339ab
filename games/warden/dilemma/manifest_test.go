package dilemma

import (
	"encoding/json"
	"slices"
	"strings"
	"testing"
	"time"
)

// TestManifestMatchesEngine: manifest.json names this game and carries the engine's steps,
// legal actions, default, outcome table and stats.
func TestManifestMatchesEngine(t *testing.T) {
	type pair struct{ A, B int64 }
	var mf struct {
		ID    string `json:"id"`
		RV    string `json:"rules_version"`
		Rake  int64  `json:"rake_bps"`
		Steps []struct {
			ID       string   `json:"id"`
			Deadline int64    `json:"deadline_s"`
			Required bool     `json:"required"`
			Actions  []string `json:"actions"`
			Default  string   `json:"default"`
		} `json:"steps"`
		Actions map[string]json.RawMessage `json:"actions"`
		Stats   []string                   `json:"stats"`
		Params  struct {
			Rounds   int `json:"rounds"`
			Outcomes struct {
				Accord   pair `json:"ACCORD"`
				Betrayal struct {
					Defector   int64 `json:"defector"`
					Cooperator int64 `json:"cooperator"`
				} `json:"BETRAYAL"`
				Deadlock pair `json:"DEADLOCK"`
			} `json:"outcomes_bps"`
			Default string `json:"default_choice"`
		} `json:"params"`
		RulesText string `json:"rules_text"`
	}
	if err := json.Unmarshal(ManifestJSON, &mf); err != nil {
		t.Fatal(err)
	}
	if mf.ID != GameID || mf.RV != RulesVersion || mf.Rake != 0 || mf.Params.Rounds != 1 || mf.RulesText != "rules.md" {
		t.Fatalf("manifest %+v", mf)
	}
	if len(mf.Steps) != 2 || mf.Steps[0].ID != phaseCommit || mf.Steps[1].ID != phaseReveal ||
		time.Duration(mf.Steps[0].Deadline)*time.Second != DefaultCommit || time.Duration(mf.Steps[1].Deadline)*time.Second != DefaultReveal ||
		!mf.Steps[0].Required || mf.Steps[0].Default != ActionCooperate || mf.Params.Default != Cooperate {
		t.Fatalf("steps %+v default %q", mf.Steps, mf.Params.Default)
	}
	if !slices.Equal(mf.Steps[0].Actions, []string{ActionCooperate, ActionDefect}) || len(mf.Actions) != 2 ||
		mf.Actions[ActionCooperate] == nil || mf.Actions[ActionDefect] == nil {
		t.Fatalf("actions %v %v", mf.Steps[0].Actions, mf.Actions)
	}
	o := mf.Params.Outcomes
	for _, c := range []struct {
		a, b, outcome string
		want          pair
	}{
		{Cooperate, Cooperate, Accord, o.Accord},
		{Defect, Cooperate, Betrayal, pair{o.Betrayal.Defector, o.Betrayal.Cooperator}},
		{Cooperate, Defect, Betrayal, pair{o.Betrayal.Cooperator, o.Betrayal.Defector}},
		{Defect, Defect, Deadlock, o.Deadlock},
	} {
		f := Outcome(c.a, c.b, 2_000_000)
		if f.Outcome != c.outcome || f.Shares.A != c.want.A || f.Shares.B != c.want.B {
			t.Fatalf("%s/%s: engine %+v, manifest %+v", c.a, c.b, f, c.want)
		}
	}
	if o.Accord != (pair{4500, 4500}) || o.Betrayal.Defector != 6500 || o.Betrayal.Cooperator != 1500 || o.Deadlock != (pair{3000, 3000}) {
		t.Fatalf("outcomes %+v (§4.2: 45/45, 65/15, 30/30)", o)
	}
	m := newMatch(t, 1_000_000)
	m.Advance(t0)
	m.Advance(t0.Add(DefaultCommit + DefaultReveal)) // both time out
	res, ok := m.Result()
	if !ok {
		t.Fatal("no result after both deadlines")
	}
	var rv struct{ Stats map[string]map[string]int64 }
	if err := json.Unmarshal(res.Reveal, &rv); err != nil {
		t.Fatal(err)
	}
	var got []string
	for k := range rv.Stats["A"] {
		got = append(got, k)
	}
	slices.Sort(got)
	want := slices.Sorted(slices.Values(mf.Stats))
	if !slices.Equal(got, want) || rv.Stats["A"]["timeouts"] != 1 || rv.Stats["A"]["cooperated"] != 1 {
		t.Fatalf("engine stats %v, manifest %v", rv.Stats["A"], mf.Stats)
	}
	if !strings.Contains(RulesText, "COOPERATE") || !strings.Contains(RulesText, "65 %") {
		t.Fatalf("rules text %q", RulesText)
	}
}
