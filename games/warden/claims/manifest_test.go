package claims

import (
	"encoding/json"
	"testing"
)

// TestManifestMatchesEngine: manifest.json names this game and carries the engine's parameters.
func TestManifestMatchesEngine(t *testing.T) {
	var mf struct {
		IDj   string `json:"id"`
		RV    string `json:"rules_version"`
		Rake  int64  `json:"rake_bps"`
		Stake struct {
			MultipleOf int64 `json:"multiple_of"`
		} `json:"stake"`
		Stats  []string `json:"stats"`
		Params struct {
			Rounds    int `json:"rounds"`
			Valuation struct{ Min, Max, Step int64 }
			Pot       struct {
				Base int64 `json:"base_bps"`
				Step int64 `json:"step_bps"`
				Cap  int64 `json:"cap_bps"`
				Max  int   `json:"max_steps"`
			}
		} `json:"params"`
	}
	if err := json.Unmarshal(ManifestJSON, &mf); err != nil {
		t.Fatal(err)
	}
	p := mf.Params
	if mf.IDj != GameID || mf.RV != RulesVersion || mf.Rake != RakeBps || mf.Stake.MultipleOf != StakeFactor ||
		p.Rounds != Rounds || p.Valuation.Min != ValMin || p.Valuation.Max != ValMax || p.Valuation.Step != ValStep ||
		p.Pot.Base != BaseBps || p.Pot.Step != StepBps || p.Pot.Cap != CapBps || p.Pot.Max != MaxSteps {
		t.Fatalf("manifest %+v", mf)
	}
	m, _ := Engine{}.New(setup(1_000_000), nil)
	m.Advance(t0)
	for i := 0; i < 30; i++ { // run out on timeouts
		d, ok := m.Deadline()
		if !ok {
			break
		}
		m.Advance(d)
	}
	res, _ := m.Result()
	var rv struct{ Stats map[string]map[string]int64 }
	json.Unmarshal(res.Reveal, &rv)
	if len(rv.Stats["A"]) != len(mf.Stats) {
		t.Fatalf("stats %v vs %v", rv.Stats["A"], mf.Stats)
	}
	for _, s := range mf.Stats {
		if _, ok := rv.Stats["A"][s]; !ok {
			t.Fatalf("stat %s missing", s)
		}
	}
	if rv.Stats["A"]["timeouts"] != 10 {
		t.Fatalf("timeouts %v", rv.Stats["A"])
	}
	if RulesText == "" {
		t.Fatal("no rules text")
	}
}
