package warden

import (
	"bytes"
	"encoding/json"
	"fmt"
	"reflect"
	"strings"
	"testing"

	"arena/games/warden/claims"
	"arena/games/warden/dilemma"
	"arena/games/warden/feed"
)

// round is one round of the §3.9 worked example as the seats play it; a negative claim or ask
// is a seat that stays silent in that step (its default applies at the deadline).
type round struct {
	claim, ask, esc [2]int
}

var workedExample = []round{
	{[2]int{6900, 4600}, [2]int{6900, 3100}, [2]int{0, 2}},
	{[2]int{5500, 7200}, [2]int{2800, 7200}, [2]int{1, 1}},
	{[2]int{6500, 6100}, [2]int{5500, 6100}, [2]int{4, 0}},
	{[2]int{4300, -1}, [2]int{4300, -1}, [2]int{0, 0}},
	{[2]int{4000, 6300}, [2]int{3700, 6300}, [2]int{2, 2}},
}

// playGameI plays the worked example on match id: both seats pass the message step, claim,
// and offer; a silent seat's step closes at its deadline; each reveal pause runs out. hook, when
// set, runs after each round's claims (a crash, say).
func (r *rig) playGameI(id string, hook func(n int)) {
	r.t.Helper()
	for n, rd := range workedExample {
		rn := n + 1
		r.mustAct(id, 1, rn, "pass", `{}`)
		r.mustAct(id, 2, rn, "pass", `{}`)
		silent := false
		for s := range 2 {
			if rd.claim[s] < 0 {
				silent = true
				continue
			}
			r.mustAct(id, s+1, rn, "claim", fmt.Sprintf(`{"claim_bps":%d}`, rd.claim[s]))
		}
		if silent {
			r.toDeadline(id)
		}
		if hook != nil {
			hook(rn)
		}
		silent = false
		for s := range 2 {
			if rd.ask[s] < 0 {
				silent = true
				continue
			}
			r.mustAct(id, s+1, rn, "offer", fmt.Sprintf(`{"ask_bps":%d,"escalate":%d}`, rd.ask[s], rd.esc[s]))
		}
		if silent {
			r.toDeadline(id)
		}
		r.toDeadline(id) // the reveal pause
	}
}

// TestGameIWorkedExample plays §3.9 through the match actor on the §3.2 seed: balances
// (725 000, 1 005 000), house 270 000 before rake; settlement B rake 250, paid out 1 004 750,
// net +4 750, win; A paid out 725 000, net −275 000, loss; house 270 250 split 135 125 each.
// The match moves LIVE → FINISHED → SETTLING with the rows queued in that write.
func TestGameIWorkedExample(t *testing.T) {
	r := newRig(t)
	const id = "wm_00000000000000c1"
	r.live(id, claims.GameID)
	if v := r.view(id, 1); v.Round != 1 || v.Step != "message" || len(v.Legal) != 2 {
		t.Fatalf("first view %+v", v)
	}
	r.playGameI(id, nil)
	v := r.view(id, 0)
	s := v.Settlement
	if s == nil || r.status(id) != StatusSettling || v.Status != StatusSettling {
		t.Fatalf("after play: status %s, settlement %+v", r.status(id), s)
	}
	want := [2]SeatFigures{
		{Gross: 725_000, Rake: 0, PaidOut: 725_000, Net: -275_000, Result: "loss"},
		{Gross: 1_005_000, Rake: 250, PaidOut: 1_004_750, Net: 4_750, Result: "win"},
	}
	for i := range 2 {
		got := s.Seats[i]
		got.Stats = nil
		if !reflect.DeepEqual(got, want[i]) {
			t.Errorf("seat %d: %+v, want %+v", i, got, want[i])
		}
	}
	if s.House != 270_250 || s.RakeBps != 500 || s.SeedHash != "sha256:630dcd2966c4336691125448bbb25b4ff412a49c732db2c8abc1b8581bd710dd" {
		t.Errorf("house %d rake %d seed_hash %s", s.House, s.RakeBps, s.SeedHash)
	}
	// B: claims in rounds 1, 2, 3, 5, each equal to its valuation; a timeout in round 4's claim
	// and offer; overshoot only in round 3, where A was zeroed; escalation 2+1+0+0+2.
	if st := s.Seats[1].Stats; st["claims_made"] != 4 || st["truthful"] != 3 || st["timeouts"] != 2 || st["escalation_steps"] != 5 || st["overshoots"] != 1 {
		t.Errorf("B's stats %v", st)
	}
	if st := s.Seats[0].Stats; st["bluffs"] != 1 || st["zeroed"] != 1 || st["claims_made"] != 5 {
		t.Errorf("A's stats %v", st)
	}
	rows := r.checkLedger(id, s)
	if rows[0].HouseShare != 135_125 || rows[1].HouseShare != 135_125 || rows[0].Temperament != "gambler" ||
		rows[1].OpponentTemperament != "gambler" || rows[0].RulesVersion != "warden.claims/1" || rows[1].Name != "Bo" {
		t.Errorf("rows %+v", rows)
	}
	envs, err := r.store.WardenMatchFeed(id, 0, 0)
	if err != nil {
		t.Fatal(err)
	}
	last := envs[len(envs)-1]
	if h, _ := feed.LogHash(envs[:len(envs)-1]); s.LogHash != h || rows[0].LogHash != h || last.Type != "match_finished" ||
		!strings.Contains(string(last.Data), h) {
		t.Errorf("log_hash %s, the feed before match_finished (%s) hashes to %s", s.LogHash, last.Type, h)
	}
	for _, e := range envs {
		if strings.Contains(string(e.Data), "I hold") || strings.Contains(string(e.Data), "valuation_bps") {
			t.Errorf("feed %s leaks %s", e.Type, e.Data)
		}
	}
	if v.Log[0].Type != "match_started" || v.Log[len(v.Log)-1].Type != "match_finished" {
		t.Errorf("public log from %s to %s", v.Log[0].Type, v.Log[len(v.Log)-1].Type)
	}
	// The same seed and inputs replay to the same transcript (boot recovery's replay).
	before := r.transcript(id)
	r.crash()
	r.start()
	if after := r.transcript(id); !bytes.Equal(before, after) {
		t.Fatal("the transcript changed across a restart")
	}
	r.refused(id, 1, 5, "pass", `{}`, "wrong_state")
}

// TestGameIISilentPlaysDefault: A defects, B says nothing; at the deadline B is recorded
// COOPERATE (defaulted, §4.3): BETRAYAL, A gross 1 300 000 (net +300 000, win), B 300 000 (net
// −700 000, loss), house 400 000, no rake (Game II's rake is 0).
func TestGameIISilentPlaysDefault(t *testing.T) {
	r := newRig(t)
	const id = "wm_00000000000000d1"
	r.live(id, dilemma.GameID)
	r.mustAct(id, 1, 1, "commit", `{"choice":"DEFECT"}`)
	// B's view shows A committed, never what.
	vb := r.view(id, 2)
	if vb.Round != 1 || vb.Step != "commit" || len(vb.Legal) != 2 || bytes.Contains(vb.State.Bytes(), []byte("DEFECT")) {
		t.Fatalf("B's view %+v %s", vb, vb.State.Bytes())
	}
	pub, _ := json.Marshal(r.view(id, 0))
	if bytes.Contains(pub, []byte("DEFECT")) {
		t.Fatalf("the public view shows the sealed choice: %s", pub)
	}
	r.toDeadline(id) // B's commit times out
	r.toDeadline(id) // the reveal pause
	s := r.view(id, 0).Settlement
	if s == nil {
		t.Fatal("no settlement")
	}
	want := [2]SeatFigures{
		{Gross: 1_300_000, PaidOut: 1_300_000, Net: 300_000, Result: "win"},
		{Gross: 300_000, PaidOut: 300_000, Net: -700_000, Result: "loss"},
	}
	for i := range 2 {
		got := s.Seats[i]
		st := got.Stats
		got.Stats = nil
		if !reflect.DeepEqual(got, want[i]) {
			t.Errorf("seat %d %+v, want %+v", i, got, want[i])
		}
		if i == 1 && (st["timeouts"] != 1 || st["cooperated"] != 1) {
			t.Errorf("B's stats %v", st)
		}
	}
	if s.House != 400_000 {
		t.Errorf("house %d", s.House)
	}
	r.checkLedger(id, s)
}

// TestActRefusals: every refusal of §7.3 the actor gives changes nothing and uses up no step.
func TestActRefusals(t *testing.T) {
	r := newRig(t)
	const id = "wm_00000000000000e1"
	r.live(id, claims.GameID)
	before := r.transcript(id)
	r.refused(id, 1, 2, "pass", `{}`, "stale_round")
	r.refused(id, 1, 1, "claim", `{"claim_bps":5000}`, "illegal_action")
	r.refused(id, 1, 1, "message", `{"text":""}`, "illegal_action")
	r.refused(id, 1, 1, "message", `[1]`, "bad_args")
	r.refused(id, 1, 1, "message", `{"action":"pass"}`, "bad_args")
	r.refused(id, 1, 1, "message", `{"text":"hi","extra":1}`, "bad_args")
	r.refused(id, 3, 1, "pass", `{}`, "not_seated")
	if !bytes.Equal(before, r.transcript(id)) {
		t.Fatal("a refusal changed the transcript")
	}
	r.mustAct(id, 1, 1, "message", `{"text":"I hold little."}`)
	r.refused(id, 1, 1, "pass", `{}`, "already_acted")
	r.mustAct(id, 2, 1, "pass", `{}`)
	// A's valuation is 6900 (§3.2 vector): an ask above it is refused.
	r.mustAct(id, 1, 1, "claim", `{"claim_bps":6900}`)
	r.mustAct(id, 2, 1, "claim", `{"claim_bps":3100}`)
	r.refused(id, 1, 1, "offer", `{"ask_bps":7000,"escalate":0}`, "ask_above_valuation")
	r.refused(id, 1, 1, "offer", `{"ask_bps":100,"escalate":5}`, "illegal_action")
	r.mustAct(id, 1, 1, "offer", `{"ask_bps":6900,"escalate":0}`)
	r.mustAct(id, 2, 1, "offer", `{"ask_bps":3100,"escalate":0}`)
	r.refused(id, 1, 1, "pass", `{}`, "wrong_step") // the reveal pause takes no action
	// Secrecy: B's view holds A's message only after the message step closed; the public log
	// never holds its text.
	for _, e := range r.view(id, 0).Log {
		if bytes.Contains(e.Data, []byte("I hold little")) {
			t.Fatalf("public log event %s holds the message", e.Type)
		}
	}
}
