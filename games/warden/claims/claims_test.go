package claims

import (
	"encoding/json"
	"testing"
	"time"

	"arena/games"
	"arena/games/warden/internal/duel"
)

var t0 = time.Date(2026, 11, 30, 3, 10, 0, 0, time.UTC)

// setup is a 1 USDC match on the §3.2 test seed (bytes 0..31).
func setup(stake int64) games.Setup {
	var seed [32]byte
	for i := range seed {
		seed[i] = byte(i)
	}
	return games.Setup{
		Game: GameID, Round: "wm_7f3a9c21e0b4d856", Seed: seed, Start: t0,
		Seats: []games.Seat{
			{Seat: 1, Agent: "0xAAaa000000000000000000000000000000000001", Name: "Ada", Entry: stake},
			{Seat: 2, Agent: "0xBBbb000000000000000000000000000000000002", Name: "Bo", Entry: stake},
		},
	}
}

func code(err error) string {
	if ge, ok := err.(*games.Error); ok {
		return ge.Code
	}
	return ""
}

func stateOf(m games.Match) string {
	b, _ := json.Marshal(m.(*match).st)
	return string(b)
}

func act(t *testing.T, m games.Match, now time.Time, seat int, body string) games.Step {
	t.Helper()
	st, err := m.Act(now, games.Input{Seat: seat, Kind: "answer", Move: m.(*match).move(), Body: json.RawMessage(body)})
	if err != nil {
		t.Fatalf("seat %d %s: %v", seat, body, err)
	}
	return st
}

// TestNewRefuses: setups outside the rules are refused with bad_request.
func TestNewRefuses(t *testing.T) {
	for name, mut := range map[string]func(*games.Setup){
		"odd stake":     func(s *games.Setup) { s.Seats[0].Entry, s.Seats[1].Entry = 1_000_001, 1_000_001 },
		"unequal":       func(s *games.Setup) { s.Seats[1].Entry = 2_000_000 },
		"same agent":    func(s *games.Setup) { s.Seats[1].Agent = s.Seats[0].Agent },
		"no round":      func(s *games.Setup) { s.Round = "" },
		"options":       func(s *games.Setup) { s.Options = json.RawMessage(`{"rounds":3}`) },
		"other game":    func(s *games.Setup) { s.Game = "warden.dilemma" },
		"three seats":   func(s *games.Setup) { s.Seats = append(s.Seats, games.Seat{Seat: 3, Agent: "x", Entry: 1_000_000}) },
		"zero stake":    func(s *games.Setup) { s.Seats[0].Entry, s.Seats[1].Entry = 0, 0 },
		"negative pace": func(s *games.Setup) { s.Pace.Steps = map[string]time.Duration{"offer": -1} },
	} {
		s := setup(1_000_000)
		mut(&s)
		if _, err := (Engine{}).New(s, nil); code(err) != games.CodeBadRequest {
			t.Errorf("%s: %v", name, err)
		}
	}
}

// TestValuationVector: the §3.2 test vector (seed 00..1f).
func TestValuationVector(t *testing.T) {
	s := setup(1_000_000)
	if got := duel.SeedHash(s.Seed); got != "sha256:630dcd2966c4336691125448bbb25b4ff412a49c732db2c8abc1b8581bd710dd" {
		t.Fatalf("seed hash %s", got)
	}
	want := [5][2]int64{{6900, 3100}, {5500, 7200}, {5500, 6100}, {4300, 4200}, {4600, 6300}}
	for r := range 5 {
		for seat := range 2 {
			if v := Valuation(s.Seed, r+1, seat); v != want[r][seat] {
				t.Errorf("round %d seat %d: %d, want %d", r+1, seat, v, want[r][seat])
			}
		}
	}
}

// TestRefusals: wrong step, above-valuation asks, repeats and malformed bodies are refused with
// their codes and change nothing.
func TestRefusals(t *testing.T) {
	m, _ := Engine{}.New(setup(1_000_000), nil)
	m.Advance(t0)
	now := t0.Add(time.Second)
	cases := []struct {
		seat       int
		move       games.Move
		body, code string
	}{
		{1, games.Move{Turn: 1, Phase: phaseClaim}, `{"action":"claim","claim_bps":1}`, games.CodeStale},
		{1, games.Move{Turn: 1, Phase: phaseMessage}, `{"action":"claim","claim_bps":1}`, CodeIllegalAction},
		{1, games.Move{Turn: 1, Phase: phaseMessage}, `{"action":"message","text":""}`, CodeIllegalAction},
		{1, games.Move{Turn: 1, Phase: phaseMessage}, `{"action":"pass","text":"x"}`, games.CodeBadRequest},
		{1, games.Move{Turn: 1, Phase: phaseMessage}, `{"action":"pass","zz":1}`, games.CodeBadRequest},
		{3, games.Move{Turn: 1, Phase: phaseMessage}, `{"action":"pass"}`, games.CodeNotSeated},
	}
	for _, c := range cases {
		before := stateOf(m)
		_, err := m.Act(now, games.Input{Seat: c.seat, Kind: "answer", Move: c.move, Body: json.RawMessage(c.body)})
		if code(err) != c.code || stateOf(m) != before {
			t.Errorf("%s: %v, want %s", c.body, err, c.code)
		}
	}
	act(t, m, now, 1, `{"action":"pass"}`)
	if _, err := m.Act(now, games.Input{Seat: 1, Kind: "answer", Move: m.(*match).move(), Body: json.RawMessage(`{"action":"pass"}`)}); code(err) != CodeAlreadyActed {
		t.Fatalf("repeat: %v", err)
	}
	act(t, m, now, 2, `{"action":"pass"}`)
	act(t, m, now, 1, `{"action":"claim","claim_bps":9000}`)
	act(t, m, now, 2, `{"action":"claim","claim_bps":3100}`)
	// §3.10 last row: A's valuation is 6900 this round.
	for body, want := range map[string]string{
		`{"action":"offer","ask_bps":6901,"escalate":0}`: CodeAskAboveValuation,
		`{"action":"offer","ask_bps":6900,"escalate":5}`: CodeIllegalAction,
		`{"action":"offer","ask_bps":-1,"escalate":0}`:   CodeIllegalAction,
		`{"action":"offer","ask_bps":100}`:               games.CodeBadRequest,
		`{"action":"offer","ask_bps":1.5,"escalate":0}`:  games.CodeBadRequest,
	} {
		before := stateOf(m)
		_, err := m.Act(now, games.Input{Seat: 1, Kind: "answer", Move: m.(*match).move(), Body: json.RawMessage(body)})
		if code(err) != want || stateOf(m) != before {
			t.Errorf("%s: %v, want %s", body, err, want)
		}
	}
}
