package warden

import (
	"encoding/hex"
	"encoding/json"
	"reflect"
	"testing"
	"time"

	"arena/games"
	"arena/games/canon"
)

// coin is a third, trivial Warden game (§16: adding a game is an engine and one registration
// line): one step "pick" in which each seat sends {"action":"pick"}; when both have picked,
// seat A is returned 1.5 S, seat B 0.4 S and the house keeps 0.1 S. Nothing in this package
// names it; the test registers it and gives its rake, as cmd/arena does for every game.
type coin struct{}

func (coin) Manifest() games.Manifest {
	return games.Manifest{ID: "warden.coin", Name: "Coin", Version: 3,
		Formats: []games.Format{{Name: "single", MinSeats: 2, MaxSeats: 2, Turns: 1}}}
}

func (coin) New(s games.Setup, _ games.Keyring) (games.Match, error) {
	return &coinMatch{s: s, phase: "new"}, nil
}

type coinMatch struct {
	s      games.Setup
	phase  string
	due    time.Time
	picked [2]bool
	events []games.Event
}

func (c *coinMatch) emit(step *games.Step, at time.Time, typ string) {
	p, _ := canon.Marshal(map[string]any{"picked": c.picked[0], "round": 1})
	e := games.Event{Seq: int64(len(c.events) + 1), Round: c.s.Round, Turn: 1, Phase: c.phase, At: stamp(at), Type: typ,
		Visibility: games.Public, Payload: p}
	c.events = append(c.events, e)
	step.Events = append(step.Events, e)
}

func (c *coinMatch) Act(now time.Time, in games.Input) (games.Step, error) {
	var st games.Step
	var b struct {
		Action string `json:"action"`
	}
	switch {
	case c.phase != "pick" || in.Move.Phase != "pick":
		return st, games.Errorf(games.CodeStale, "no pick open")
	case canon.Decode(in.Body, &b) != nil || b.Action != "pick":
		return st, games.Errorf(games.CodeBadRequest, "body")
	case c.picked[in.Seat-1]:
		return st, games.Errorf("already_acted", "picked")
	}
	c.picked[in.Seat-1] = true
	c.emit(&st, now, "picked")
	if c.picked[0] && c.picked[1] {
		c.phase = "done"
		c.emit(&st, now, "match_finished")
	}
	return st, nil
}

func (c *coinMatch) Advance(now time.Time) games.Step {
	var st games.Step
	switch {
	case c.phase == "new" && !now.Before(c.s.Start):
		c.phase, c.due = "pick", c.s.Start.Add(time.Minute)
		c.emit(&st, c.s.Start, "match_started")
	case c.phase == "pick" && !now.Before(c.due):
		c.picked = [2]bool{true, true}
		c.phase = "done"
		c.emit(&st, c.due, "match_finished")
	}
	return st
}

func (c *coinMatch) Deadline() (time.Time, bool) {
	switch c.phase {
	case "new":
		return c.s.Start, true
	case "pick":
		return c.due, true
	}
	return time.Time{}, false
}

func (c *coinMatch) Prompts() []games.Prompt {
	if c.phase != "pick" {
		return nil
	}
	var out []games.Prompt
	for i := range 2 {
		if !c.picked[i] {
			out = append(out, games.Prompt{Seat: i + 1, Move: games.Move{Turn: 1, Phase: "pick"}, Deadline: c.due, Legal: games.Actions("pick")})
		}
	}
	return out
}

func (c *coinMatch) View(int) games.Doc                   { return games.RawDoc([]byte(`{"phase":"` + c.phase + `"}`)) }
func (c *coinMatch) Abandon(time.Time, string) games.Step { return games.Step{} }
func (c *coinMatch) SeedHash() string                     { return canon.IDOf([32]byte(c.s.Seed)) }

func (c *coinMatch) Result() (games.Result, bool) {
	if c.phase != "done" {
		return games.Result{}, false
	}
	s := c.s.Seats[0].Entry
	return games.Result{Payouts: map[int]int64{1: s * 3 / 2, 2: s * 2 / 5}, House: s / 10, SeedHash: c.SeedHash(), Seed: hex.EncodeToString(c.s.Seed[:]),
		Reveal: json.RawMessage(`{"stats":{"A":{"picks":1},"B":{"picks":1}}}`)}, true
}

// TestThirdGameSettlesUnchanged: a game this package has never heard of plays, finishes and
// settles by §2.2 with its configured rake (10 %): A gross 1 500 000, rake 50 000, paid out
// 1 450 000, net +450 000, win; B gross 400 000, net −600 000, loss; house 100 000 + 50 000.
func TestThirdGameSettlesUnchanged(t *testing.T) {
	r := newRig(t, coin{})
	r.w.o.Rake["warden.coin"] = 1000
	const id = "wm_00000000000000a3"
	r.live(id, "warden.coin")
	r.refused(id, 1, 1, "flip", `{}`, "illegal_action")
	r.mustAct(id, 2, 1, "pick", `{}`)
	r.mustAct(id, 1, 1, "pick", `{}`)
	v := r.view(id, 0)
	s := v.Settlement
	if s == nil || r.status(id) != StatusSettling {
		t.Fatalf("status %s settlement %+v", r.status(id), s)
	}
	want := [2]SeatFigures{
		{Gross: 1_500_000, Rake: 50_000, PaidOut: 1_450_000, Net: 450_000, Result: "win", Stats: map[string]int64{"picks": 1}},
		{Gross: 400_000, Rake: 0, PaidOut: 400_000, Net: -600_000, Result: "loss", Stats: map[string]int64{"picks": 1}},
	}
	if !reflect.DeepEqual(s.Seats, want) || s.House != 150_000 {
		t.Fatalf("figures %+v house %d", s.Seats, s.House)
	}
	rows := r.checkLedger(id, s)
	if rows[0].RulesVersion != "warden.coin/3" || rows[0].Game != "warden.coin" || v.RulesVersion != "warden.coin/3" {
		t.Fatalf("rows %+v", rows)
	}
}

// TestFiguresConservation: a Result that does not add up to the bank is refused (the match
// would be parked FAILED), and rake never touches a loss.
func TestFiguresConservation(t *testing.T) {
	if _, _, err := Figures(games.Result{Payouts: map[int]int64{1: 1, 2: 1}, House: 1}, 2, 0); err == nil {
		t.Fatal("3 of a bank of 4 settled")
	}
	f, house, err := Figures(games.Result{Payouts: map[int]int64{1: 0, 2: 4}}, 2, 10000)
	if err != nil || f[0].Rake != 0 || f[1].Rake != 2 || f[1].PaidOut != 2 || house != 2 || f[0].Result != "loss" {
		t.Fatalf("%+v %d %v", f, house, err)
	}
}
