package dilemma

import (
	"encoding/json"
	"strings"
	"testing"
	"time"

	"arena/games"
)

var t0 = time.Date(2026, 11, 30, 3, 10, 0, 0, time.UTC)

func setup(stake int64) games.Setup {
	var seed [32]byte
	for i := range seed {
		seed[i] = byte(i + 1)
	}
	return games.Setup{
		Game: GameID, Round: "wm_7f3a9c21e0b4d856", Seed: seed, Start: t0,
		Seats: []games.Seat{
			{Seat: 1, Agent: "0xAAaa000000000000000000000000000000000001", Name: "Ada", Entry: stake},
			{Seat: 2, Agent: "0xBBbb000000000000000000000000000000000002", Name: "Bo", Entry: stake},
		},
	}
}

func newMatch(t *testing.T, stake int64) games.Match {
	t.Helper()
	m, err := Engine{}.New(setup(stake), nil)
	if err != nil {
		t.Fatalf("New: %v", err)
	}
	return m
}

func answer(seat int, body string) games.Input {
	return games.Input{Seat: seat, Kind: "answer", Move: theMove, Body: json.RawMessage(body)}
}

func code(err error) string {
	if ge, ok := err.(*games.Error); ok {
		return ge.Code
	}
	return ""
}

// play opens a match, applies the answers (seat → body) one second apart, and runs it out.
func play(t *testing.T, stake int64, answers ...games.Input) (games.Match, []games.Event) {
	t.Helper()
	m := newMatch(t, stake)
	var events []games.Event
	step := m.Advance(t0)
	events = append(events, step.Events...)
	now := t0
	for _, a := range answers {
		now = now.Add(time.Second)
		s, err := m.Act(now, a)
		if err != nil {
			t.Fatalf("Act %+v: %v", a, err)
		}
		events = append(events, s.Events...)
	}
	for {
		d, ok := m.Deadline()
		if !ok {
			break
		}
		events = append(events, m.Advance(d).Events...)
	}
	return m, events
}

// TestOutcomeFigures: every outcome of warden-games §4.2 for S = 1 USDC (pot 2 000 000).
func TestOutcomeFigures(t *testing.T) {
	cases := []struct {
		a, b             string
		outcome          string
		ga, gb, house    int64
		ranking          []int
		resultA, resultB string
	}{
		{ActionCooperate, ActionCooperate, Accord, 900_000, 900_000, 200_000, []int{1, 2}, "draw", "draw"},
		{ActionDefect, ActionCooperate, Betrayal, 1_300_000, 300_000, 400_000, []int{1, 2}, "win", "loss"},
		{ActionCooperate, ActionDefect, Betrayal, 300_000, 1_300_000, 400_000, []int{2, 1}, "loss", "win"},
		{ActionDefect, ActionDefect, Deadlock, 600_000, 600_000, 800_000, []int{1, 2}, "draw", "draw"},
	}
	for _, c := range cases {
		m, events := play(t, 1_000_000, answer(1, `{"action":"`+c.a+`"}`), answer(2, `{"action":"`+c.b+`"}`))
		r, ok := m.Result()
		if !ok {
			t.Fatalf("%s/%s: no result", c.a, c.b)
		}
		if r.Payouts[1] != c.ga || r.Payouts[2] != c.gb || r.House != c.house {
			t.Fatalf("%s/%s: payouts %v house %d", c.a, c.b, r.Payouts, r.House)
		}
		if r.Payouts[1]+r.Payouts[2]+r.House != 2_000_000 {
			t.Fatalf("%s/%s: not conserved", c.a, c.b)
		}
		if r.Ranking()[0] != c.ranking[0] || r.Ranking()[1] != c.ranking[1] || r.ScoreOf(1) != float64(c.ga-1_000_000) || r.ScoreOf(2) != float64(c.gb-1_000_000) { // Score is net: G − S
			t.Fatalf("%s/%s: ranking %v standings %v", c.a, c.b, r.Ranking(), r.Standings)
		}
		var rev struct {
			Outcome string `json:"outcome"`
			Draw    bool   `json:"draw"`
		}
		json.Unmarshal(r.Reveal, &rev)
		if rev.Outcome != c.outcome || rev.Draw != (c.ga == c.gb) {
			t.Fatalf("%s/%s: reveal %s", c.a, c.b, r.Reveal)
		}
		fin := events[len(events)-1]
		if fin.Type != "match_finished" || !strings.Contains(string(fin.Payload), `"A":{"gross_return":`+itoa(c.ga)+`,"net":`+itoa(c.ga-1_000_000)+`,"result":"`+c.resultA+`"}`) ||
			!strings.Contains(string(fin.Payload), `"result":"`+c.resultB+`"`) {
			t.Fatalf("%s/%s: match_finished %s", c.a, c.b, fin.Payload)
		}
		if r.TranscriptHash != TranscriptHash(events) || !strings.HasPrefix(r.TranscriptHash, "sha256:") {
			t.Fatalf("transcript hash %s", r.TranscriptHash)
		}
	}
}

func itoa(n int64) string { b, _ := json.Marshal(n); return string(b) }

// TestOutcomeRounding: floor per seat, the dust to the house, conservation for odd pots.
func TestOutcomeRounding(t *testing.T) {
	for _, pot := range []int64{2, 10_002, 2_000_000, 3_333_334, 2 * maxStake} {
		for _, a := range []string{Cooperate, Defect} {
			for _, b := range []string{Cooperate, Defect} {
				f := Outcome(a, b, pot)
				if f.GrossA+f.GrossB+f.House != pot || f.House < 0 {
					t.Fatalf("pot %d %s/%s: %+v", pot, a, b, f)
				}
				if f.GrossA != pot*f.Shares.A/10000 && pot < 1<<40 {
					t.Fatalf("pot %d: floor %d vs %d", pot, f.GrossA, pot*f.Shares.A/10000)
				}
			}
		}
	}
	f := Outcome(Defect, Cooperate, 10_002) // 6500×10002/10000 = 6501.3 → 6501; 1500 → 1500.3 → 1500
	if f.GrossA != 6501 || f.GrossB != 1500 || f.House != 2001 {
		t.Fatalf("rounding: %+v", f)
	}
}

// TestWardenChoiceForm: the Warden's commit args {"choice": ...} are accepted too.
func TestWardenChoiceForm(t *testing.T) {
	m, _ := play(t, 5_000_000, answer(2, `{"choice":"DEFECT"}`), answer(1, `{"choice":"DEFECT"}`))
	r, _ := m.Result()
	if r.Payouts[1] != 3_000_000 || r.Payouts[2] != 3_000_000 || r.House != 4_000_000 {
		t.Fatalf("deadlock at S=5 USDC: %v %d", r.Payouts, r.House)
	}
}

// TestTimeout: a seat silent at the deadline is COOPERATE, defaulted; the other's defect wins.
func TestTimeout(t *testing.T) {
	m := newMatch(t, 1_000_000)
	m.Advance(t0)
	if _, err := m.Act(t0.Add(10*time.Second), answer(2, `{"action":"defect"}`)); err != nil {
		t.Fatal(err)
	}
	if s := m.Advance(t0.Add(59 * time.Second)); len(s.Events) != 0 {
		t.Fatalf("early Advance produced %d events", len(s.Events))
	}
	// One late Advance runs the deadline and the reveal pause in one go, stamped at their instants.
	s := m.Advance(t0.Add(10 * time.Minute))
	types := []string{}
	for _, e := range s.Events {
		types = append(types, e.Type+"@"+e.At)
	}
	want := []string{"timeout@2026-11-30T03:11:00.000Z", "choices_revealed@2026-11-30T03:11:00.000Z", "match_finished@2026-11-30T03:11:03.000Z"}
	if strings.Join(types, " ") != strings.Join(want, " ") {
		t.Fatalf("events %v, want %v", types, want)
	}
	if !strings.Contains(string(s.Events[0].Payload), `"default_applied":"COOPERATE","round":1,"seat":"A"`) {
		t.Fatalf("timeout payload %s", s.Events[0].Payload)
	}
	if !strings.Contains(string(s.Events[1].Payload), `"defaulted":{"A":true,"B":false}`) {
		t.Fatalf("reveal payload %s", s.Events[1].Payload)
	}
	r, _ := m.Result()
	if r.Payouts[1] != 300_000 || r.Payouts[2] != 1_300_000 || r.Ranking()[0] != 2 {
		t.Fatalf("result %+v", r)
	}
	if _, ok := m.Deadline(); ok {
		t.Fatal("deadline after the end")
	}
	// Both silent: ACCORD by default.
	m2, _ := play(t, 1_000_000)
	r2, _ := m2.Result()
	if r2.Payouts[1] != 900_000 || r2.Payouts[2] != 900_000 || !strings.Contains(string(r2.Reveal), `"timeouts":1`) {
		t.Fatalf("both silent: %+v %s", r2, r2.Reveal)
	}
}

// TestStaleAndRefusals: every refusal leaves the match unchanged (the same state, byte for byte).
func TestStaleAndRefusals(t *testing.T) {
	m := newMatch(t, 1_000_000)
	if _, err := m.Act(t0, answer(1, `{"action":"defect"}`)); code(err) != games.CodeStale {
		t.Fatalf("before open: %v", err)
	}
	m.Advance(t0)
	before := stateOf(m)
	refusals := []struct {
		in   games.Input
		at   time.Time
		code string
	}{
		{games.Input{Seat: 1, Kind: "answer", Move: games.Move{Turn: 2, Phase: "commit"}, Body: json.RawMessage(`{"action":"defect"}`)}, t0, games.CodeStale},
		{games.Input{Seat: 1, Kind: "answer", Move: games.Move{Turn: 1, Phase: "talk"}, Body: json.RawMessage(`{"action":"defect"}`)}, t0, games.CodeStale},
		{answer(1, `{"action":"defect"}`), t0.Add(60 * time.Second), games.CodeStale}, // at the deadline
		{answer(3, `{"action":"defect"}`), t0, games.CodeNotSeated},
		{answer(0, `{"action":"defect"}`), t0, games.CodeNotSeated},
		{games.Input{Seat: 1, Kind: "call", Body: json.RawMessage(`{}`)}, t0, games.CodeBadRequest},
		{answer(1, `{"action":"betray"}`), t0, CodeIllegalAction},
		{answer(1, `{"choice":"cooperate"}`), t0, CodeIllegalAction},
		{answer(1, `{"action":"defect","choice":"DEFECT"}`), t0, games.CodeBadRequest},
		{answer(1, `{"Action":"defect"}`), t0, games.CodeBadRequest},
		{answer(1, `{"action":"defect","action":"cooperate"}`), t0, games.CodeBadRequest},
		{answer(1, `{}`), t0, games.CodeBadRequest},
		{answer(1, `not json`), t0, games.CodeBadRequest},
		{answer(1, ``), t0, games.CodeBadRequest},
	}
	for _, r := range refusals {
		if _, err := m.Act(r.at, r.in); code(err) != r.code {
			t.Errorf("%+v at %s: err = %v, want %s", r.in, r.at, err, r.code)
		}
	}
	if before != stateOf(m) {
		t.Fatal("a refusal changed the match")
	}
	if _, err := m.Act(t0.Add(time.Second), answer(1, `{"action":"defect"}`)); err != nil {
		t.Fatal(err)
	}
	if _, err := m.Act(t0.Add(2*time.Second), answer(1, `{"action":"cooperate"}`)); code(err) != CodeAlreadyActed {
		t.Fatalf("second commit: %v", err)
	}
	if _, err := m.Act(t0.Add(3*time.Second), answer(2, `{"action":"cooperate"}`)); err != nil {
		t.Fatal(err)
	}
	// Both in: revealed; a further answer is stale in the reveal pause, round_over after.
	if _, err := m.Act(t0.Add(4*time.Second), answer(2, `{"action":"defect"}`)); code(err) != games.CodeStale {
		t.Fatalf("in reveal: %v", err)
	}
	m.Advance(t0.Add(time.Hour))
	if _, err := m.Act(t0.Add(time.Hour), answer(2, `{"action":"defect"}`)); code(err) != games.CodeRoundOver {
		t.Fatalf("after end: %v", err)
	}
}

// TestCloseEarly: the second commit reveals at once; the reveal pause then ends the match.
func TestCloseEarly(t *testing.T) {
	m := newMatch(t, 1_000_000)
	m.Advance(t0)
	m.Act(t0.Add(time.Second), answer(1, `{"action":"cooperate"}`))
	s, _ := m.Act(t0.Add(2*time.Second), answer(2, `{"action":"cooperate"}`))
	last := s.Events[len(s.Events)-1]
	if last.Type != "choices_revealed" || last.At != "2026-11-30T03:10:02.000Z" {
		t.Fatalf("last event %s at %s", last.Type, last.At)
	}
	if d, ok := m.Deadline(); !ok || !d.Equal(t0.Add(5*time.Second)) {
		t.Fatalf("reveal deadline %v", d)
	}
	if len(m.Prompts()) != 0 {
		t.Fatal("prompts open after the reveal")
	}
}

// TestPromptsAndSecrecy: prompts carry legal actions and a visible_state without the other
// seat's choice; no public event shows a choice before choices_revealed.
func TestPromptsAndSecrecy(t *testing.T) {
	m := newMatch(t, 1_000_000)
	if d, ok := m.Deadline(); !ok || !d.Equal(t0) {
		t.Fatalf("deadline before open: %v", d)
	}
	s := m.Advance(t0)
	if len(s.Prompts) != 2 || len(m.Prompts()) != 2 {
		t.Fatalf("prompts %d/%d", len(s.Prompts), len(m.Prompts()))
	}
	p := s.Prompts[0]
	if p.Seat != 1 || p.Move != theMove || !p.Deadline.Equal(t0.Add(time.Minute)) || strings.Join(games.Names(p.Legal), ",") != "cooperate,defect" {
		t.Fatalf("prompt %+v", p)
	}
	var vs map[string]any
	if err := json.Unmarshal(p.State.Bytes(), &vs); err != nil || vs["game"] != GameID || vs["rules_version"] != RulesVersion {
		t.Fatalf("visible_state %s", p.State)
	}
	if !s.Prompts[0].State.Equal(m.Prompts()[0].State) {
		t.Fatal("redelivered prompt differs")
	}
	s1, _ := m.Act(t0.Add(time.Second), answer(1, `{"action":"defect"}`))
	open := m.Prompts()
	if len(open) != 1 || open[0].Seat != 2 || !strings.Contains(open[0].State.String(), `"opponent_submitted":{"commit":true}`) {
		t.Fatalf("prompts after one commit: %+v", open)
	}
	for _, p := range open {
		if strings.Contains(p.State.String(), `"`+Defect+`"`) {
			t.Fatalf("seat 2's state shows seat 1's choice: %s", p.State)
		}
	}
	all := append(s.Events, s1.Events...)
	for _, e := range all {
		if e.Visibility == "public" && (strings.Contains(string(e.Payload), `"`+Defect+`"`) || strings.Contains(string(e.Payload), `"`+ActionDefect+`"`)) {
			t.Fatalf("public event %s shows a choice: %s", e.Type, e.Payload)
		}
		if e.Type == "commit_recorded" && e.Visibility != "private:1" {
			t.Fatalf("commit_recorded visibility %s", e.Visibility)
		}
	}
}

// TestCommitmentsVerify: the published commitment of each seat equals the hash recomputed from
// the revealed choice, salt and match id; the salt is the seed's HMAC.
func TestCommitmentsVerify(t *testing.T) {
	m, events := play(t, 1_000_000, answer(1, `{"action":"defect"}`), answer(2, `{"action":"cooperate"}`))
	mm := m.(*match)
	sealed := map[string]string{}
	for _, e := range events {
		if e.Type == "commit_sealed" {
			var p struct{ Seat, Commitment string }
			json.Unmarshal(e.Payload, &p)
			sealed[p.Seat] = p.Commitment
		}
	}
	// Known answers computed independently (Python hmac/hashlib/json with sorted keys):
	want := map[string][2]string{
		"A": {"868cb14a0732f61f280c8621bcac7dfaeabf91548e294c17ae8784fb4a584eb3", "sha256:3cc05646625646b5ce2261dba11799e06908e33fb39665a56bb249e96fc9209f"},
		"B": {"d38859a1a5fa8a66b2ca315abe4400519f2fce3c849e60ffb01f7e56bb9fde6e", "sha256:d6af37a58f67626816ffab22b2fe69e62db44f884a34059845f34ed689849224"},
	}
	for i, seat := range []string{"A", "B"} {
		if mm.salt(i) != want[seat][0] || sealed[seat] != want[seat][1] || mm.commitment(i) != sealed[seat] {
			t.Fatalf("seat %s: salt %s sealed %s", seat, mm.salt(i), sealed[seat])
		}
	}
	if m.SeedHash() != "sha256:ae216c2ef5247a3782c135efa279a3e4cdc61094270f5d2be58c6204b7a612c9" {
		t.Fatalf("seed hash %s", m.SeedHash())
	}
	r, _ := m.Result()
	if r.Seed != "0102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f20" || r.SeedHash != m.SeedHash() {
		t.Fatalf("seed %s", r.Seed)
	}
}
