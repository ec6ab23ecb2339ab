package claims

import (
	"encoding/json"
	"testing"
	"time"

	"arena/games"
	"arena/games/canon"
)

// TestCommitmentsCheck: each claim_sealed / offer_sealed commitment is the hash of the value
// round_revealed later shows with the salt it publishes (warden-games §15.4).
func TestCommitmentsCheck(t *testing.T) {
	m, _ := Engine{}.New(setup(1_000_000), nil)
	var evs []games.Event
	evs = append(evs, m.Advance(t0).Events...)
	now := t0.Add(time.Second)
	for _, b := range []string{`{"action":"pass"}`, `{"action":"pass"}`, `{"action":"claim","claim_bps":7000}`,
		`{"action":"claim","claim_bps":3100}`, `{"action":"offer","ask_bps":6900,"escalate":3}`, `{"action":"offer","ask_bps":3000,"escalate":0}`} {
		p := m.Prompts()[0]
		st, err := m.Act(now, games.Input{Seat: p.Seat, Kind: "answer", Move: p.Move, Body: json.RawMessage(b)})
		if err != nil {
			t.Fatal(err)
		}
		evs = append(evs, st.Events...)
	}
	com := map[string]string{}
	var rev struct {
		Claims   map[string]int64
		Asks     map[string]int64
		Escalate map[string]int64
		Salts    map[string]map[string]string
	}
	for _, e := range evs {
		var p struct{ Seat, Commitment string }
		json.Unmarshal(e.Payload, &p)
		switch e.Type {
		case "claim_sealed":
			com[p.Seat+"claim"] = p.Commitment
		case "offer_sealed":
			com[p.Seat+"offer"] = p.Commitment
		case "round_revealed":
			json.Unmarshal(e.Payload, &rev)
		}
	}
	hash := func(seat, a string, x map[string]int64) string {
		b, _ := canon.Marshal(map[string]any{"m": "wm_7f3a9c21e0b4d856", "r": 1, "s": seat, "a": a, "x": x, "salt": rev.Salts[seat][a]})
		return canon.ID(b)
	}
	for _, s := range []string{"A", "B"} {
		if com[s+"claim"] == "" || com[s+"claim"] != hash(s, "claim", map[string]int64{"claim_bps": rev.Claims[s]}) {
			t.Errorf("%s claim commitment %q", s, com[s+"claim"])
		}
		if com[s+"offer"] == "" || com[s+"offer"] != hash(s, "offer", map[string]int64{"ask_bps": rev.Asks[s], "escalate": rev.Escalate[s]}) {
			t.Errorf("%s offer commitment %q", s, com[s+"offer"])
		}
	}
}
