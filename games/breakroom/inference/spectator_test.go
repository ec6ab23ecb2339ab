package inference

import (
	"bytes"
	"encoding/json"
	"fmt"
	"testing"

	"arena/games"
	"arena/games/canon"
)

// fromLines rebuilds the spectators' view (§2.6, §1.8) from the public log lines alone, as a
// live page would: it never sees a deal_private line.
type fromLines struct {
	cfg        Config
	status     string
	round      int
	dealer     *int
	pot, bet   int64
	raises     int
	credits    []int64
	inPot      []int64
	start      []int64
	dealt      []bool
	folded     []bool
	busted     []bool
	sitting    []bool
	strikes    []int
	actions    []handAction
	lastShow   json.RawMessage
	inHand     bool
	everPlayed bool
}

func (f *fromLines) line(e games.Event) {
	var p struct {
		Round   int             `json:"round"`
		Seat    int             `json:"seat"`
		Turn    *int            `json:"turn"`
		Dealer  int             `json:"dealer"`
		Seats   []int           `json:"seats"`
		Action  string          `json:"action"`
		Amount  int64           `json:"amount"`
		Auto    json.RawMessage `json:"auto"`
		Strikes int             `json:"strikes"`
		Winners []int           `json:"winners"`
		Pot     int64           `json:"pot"`
		Config  json.RawMessage `json:"config"`
		Players []struct{}      `json:"players"`
	}
	_ = json.Unmarshal(e.Payload, &p)
	switch e.Type {
	case "match_start":
		_ = json.Unmarshal(p.Config, &f.cfg)
		n := len(p.Players)
		f.status = "playing"
		f.credits, f.inPot, f.start = make([]int64, n), make([]int64, n), make([]int64, n)
		f.dealt, f.folded, f.busted, f.sitting, f.strikes = make([]bool, n), make([]bool, n), make([]bool, n), make([]bool, n), make([]int, n)
		for i := range f.credits {
			f.credits[i] = f.cfg.StartingCredits
		}
	case "round_start":
		f.round, f.pot, f.bet, f.raises, f.actions, f.inHand = p.Round, 0, f.cfg.Ante, 0, nil, true
		d := p.Dealer
		f.dealer = &d
		for i := range f.dealt {
			f.dealt[i], f.folded[i], f.inPot[i] = false, false, 0
		}
		for _, s := range p.Seats {
			f.dealt[s], f.start[s] = true, f.credits[s]
		}
	case "ante":
		f.credits[p.Seat] -= p.Amount
		f.inPot[p.Seat] += p.Amount
		f.pot += p.Amount
	case "action":
		a := handAction{Seat: p.Seat, Turn: p.Turn, Action: p.Action, Auto: len(p.Auto) > 0}
		switch p.Action {
		case ActionCall:
			f.credits[p.Seat] -= p.Amount
			f.inPot[p.Seat] += p.Amount
			f.pot += p.Amount
			amt := p.Amount
			a.Amount = &amt
		case ActionRaise:
			pay := f.bet - f.inPot[p.Seat] + p.Amount
			f.credits[p.Seat] -= pay
			f.inPot[p.Seat] += pay
			f.pot += pay
			f.bet += p.Amount
			f.raises++
			amt := p.Amount
			a.Amount = &amt
		case ActionFold:
			f.folded[p.Seat] = true
		}
		if p.Turn != nil {
			f.strikes[p.Seat] = 0
		}
		f.actions = append(f.actions, a)
	case "timeout":
		var auto string
		_ = json.Unmarshal(p.Auto, &auto)
		if auto == ActionFold {
			f.folded[p.Seat] = true
		}
		f.strikes[p.Seat] = p.Strikes
		f.actions = append(f.actions, handAction{Seat: p.Seat, Turn: p.Turn, Action: auto, Auto: true})
	case "sit_out":
		f.sitting[p.Seat] = true
	case "sit_in":
		f.sitting[p.Seat], f.strikes[p.Seat] = false, 0
	case "showdown":
		f.credits[p.Winners[0]] += p.Pot
		f.pot = 0
		for i := range f.inPot {
			f.inPot[i] = 0
		}
		f.lastShow = append(json.RawMessage(nil), e.Payload...)
	case "bust":
		f.busted[p.Seat] = true
	case "match_end":
		f.status, f.inHand = "ended", false
	case "match_abandoned":
		f.status, f.inHand = "abandoned", false
		for i := range f.credits {
			f.credits[i] += f.inPot[i]
			f.inPot[i] = 0
		}
		f.pot = 0
	}
}

// view is the spectators' visible_state the lines so far give.
func (f *fromLines) view() []byte {
	phase := "betting"
	if f.status != "playing" {
		phase = f.status
	}
	v := view{Game: GameID, RulesVersion: RulesVersion, Status: f.status, Round: f.round, RoundsTotal: f.cfg.Rounds,
		Phase: phase, Dealer: f.dealer, Pot: f.pot, Bet: f.bet, RaisesMade: f.raises, MaxRaises: f.cfg.MaxRaises,
		Ante: f.cfg.Ante, Actions: f.actions}
	if v.Actions == nil {
		v.Actions = []handAction{}
	}
	if f.lastShow != nil {
		// The view's showdown is the line's payload: decoded and written again, the same bytes.
		var sd showdown
		if err := json.Unmarshal(f.lastShow, &sd); err != nil {
			panic(err)
		}
		if b, err := canon.Marshal(&sd); err != nil || string(b) != string(f.lastShow) {
			panic(fmt.Sprintf("showdown %s reads back as %s (%v)", f.lastShow, b, err))
		}
		v.LastShowdown = &sd
	}
	if f.status == "playing" {
		v.Cap = -1
		for i := range f.start {
			if f.dealt[i] && !f.folded[i] && (v.Cap < 0 || f.start[i] < v.Cap) {
				v.Cap = f.start[i]
			}
		}
	}
	for i := range f.credits {
		st := "active"
		switch {
		case f.busted[i]:
			st = "busted"
		case f.sitting[i]:
			st = "sitting_out"
		case f.dealt[i] && f.folded[i]:
			st = "folded"
		case !f.dealt[i] && f.status == "playing":
			st = "sitting_out"
		}
		v.Seats = append(v.Seats, seatView{Seat: i, Credits: f.credits[i], InPot: f.inPot[i], Status: st, Strikes: f.strikes[i]})
	}
	b, _ := json.Marshal(v)
	return b
}

// TestSpectatorViewFromPublicLines (§1.8): after every step of random matches (timeouts, sit
// outs and returns, busts, abandons), the spectators' view is exactly the view the public lines
// so far give, rebuilt without the engine.
func TestSpectatorViewFromPublicLines(t *testing.T) {
	rnd := newRand(77)
	matches := 300
	if testing.Short() || raceDetector {
		matches = 60
	}
	for k := range matches {
		abandon := 0
		if k%7 == 6 {
			abandon = 1 + rnd.IntN(40)
		}
		f := &fromLines{}
		done := 0
		randomMatch(t, 3+k%6, `{"rounds":8,"starting_credits":20,"ante":2,"strikes_limit":2}`, rnd, abandon, func(tb *table) {
			for _, e := range tb.evs[done:] {
				if e.Visibility == games.Public {
					f.line(e)
				}
			}
			done = len(tb.evs)
			if got, want := tb.m.View(0).Bytes(), f.view(); !bytes.Equal(got, want) {
				t.Fatalf("match %d: the spectators' view\n%s\nthe public lines give\n%s", k, got, want)
			}
		})
	}
}
