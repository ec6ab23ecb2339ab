package duel

import (
	"encoding/hex"
	"time"

	"arena/games"
	"arena/games/canon"
)

// The phases every Warden match has; a game names its own between them.
const (
	PhaseNew  = "new"  // made, not yet opened (opens at Setup.Start)
	PhaseDone = "done" // finished or abandoned
)

// Unit is the unit of stakes, payouts and the house's take: micro-units of the table's currency
// (USDC atomic units on the Warden).
const Unit = "micro-units"

// Frame is the part of a match's state every Warden game keeps alike: the Setup (seat 1 first),
// the stake, the phase and its deadline, the numbered transcript and, once abandoned, why. A
// game embeds it in its state. Not safe for concurrent use (the table actor owns a match).
type Frame struct {
	Setup games.Setup `json:"setup"`
	Stake int64       `json:"stake"` // S, micro-units
	Phase string      `json:"phase"`
	Due   time.Time   `json:"due"` // the current phase's deadline
	Seq   int64       `json:"seq"` // the last event's Seq
	// Events is the whole transcript, in Seq order.
	Events []games.Event `json:"events"`
	// Abandoned is Abandon's reason: the match ended early, every stake is returned.
	Abandoned string `json:"abandoned,omitempty"`
}

// NewFrame is the frame of a match made from s, which CheckSetup accepted: seat 1 first, the
// stake S, phase PhaseNew.
func NewFrame(s games.Setup) Frame {
	f := Frame{Setup: s, Stake: s.Seats[0].Entry, Phase: PhaseNew}
	if s.Seats[0].Seat != 1 {
		f.Setup.Seats = []games.Seat{s.Seats[1], s.Seats[0]}
	}
	return f
}

// SeatName is "A" for seat index 0 (seat 1) and "B" for 1 (seat 2).
func SeatName(i int) string { return string(rune('A' + i)) }

// Stamp is t as RFC 3339 UTC with milliseconds, the form of every event's At (§15).
func Stamp(t time.Time) string { return t.UTC().Format("2006-01-02T15:04:05.000Z07:00") }

// Emit appends one event to the transcript and to step: ev's Turn, Phase, Type and Visibility
// as given, Round the match id, the next Seq, At = Stamp(at) and payload in JCS. A payload
// holds strings, bools, nulls and integers below 2^53, so it always encodes; one that does not
// would be written {}.
func (f *Frame) Emit(step *games.Step, at time.Time, ev games.Event, payload any) {
	p, err := canon.Marshal(payload)
	if err != nil {
		p = []byte(`{}`)
	}
	f.Seq++
	ev.Seq, ev.Round, ev.At, ev.Payload = f.Seq, f.Setup.Round, Stamp(at), p
	f.Events = append(f.Events, ev)
	step.Events = append(step.Events, ev)
}

// Admit refuses, as a *games.Error, an input no Warden match takes, in this order: round_over
// once done; not_seated for a seat other than 1 and 2; bad_request for a Kind other than
// "answer" ("input kind %q: <name> takes answers only"). A game then checks the move is its
// open one.
func (f *Frame) Admit(in games.Input, name string) error {
	switch {
	case f.Phase == PhaseDone:
		return games.Errorf(games.CodeRoundOver, "the match is over")
	case in.Seat != 1 && in.Seat != 2:
		return games.Errorf(games.CodeNotSeated, "seat %d", in.Seat)
	case in.Kind != "answer":
		return games.Errorf(games.CodeBadRequest, "input kind %q: %s takes answers only", in.Kind, name)
	}
	return nil
}

// Deadline is the next instant the match must be advanced: Setup.Start before it opens, the
// phase's deadline while it plays; false once done.
func (f *Frame) Deadline() (time.Time, bool) {
	switch f.Phase {
	case PhaseNew:
		return f.Setup.Start, true
	case PhaseDone:
		return time.Time{}, false
	}
	return f.Due, true
}

// Seats is the match_started "seats" member: {"A": {seat, agent, name}, "B": …}.
func (f *Frame) Seats() map[string]any {
	info := func(s games.Seat) map[string]any {
		return map[string]any{"seat": s.Seat, "agent": s.Agent, "name": s.Name}
	}
	return map[string]any{"A": info(f.Setup.Seats[0]), "B": info(f.Setup.Seats[1])}
}

// Returns is the match_finished "seats" member for gross returns G (micro-units) of seats A and
// B: per seat gross_return G, net G − S and result win, loss or draw by gross return (equal
// stakes, so the order of net, §2.3).
func (f *Frame) Returns(gross [2]int64) map[string]any {
	seats := map[string]any{}
	for i := range 2 {
		seats[SeatName(i)] = map[string]any{
			"gross_return": gross[i], "net": gross[i] - f.Stake, "result": result(gross[i], gross[1-i]),
		}
	}
	return seats
}

func result(mine, theirs int64) string {
	switch {
	case mine > theirs:
		return "win"
	case mine < theirs:
		return "loss"
	}
	return "draw"
}

// SeedHex is the seed in hex, as the end of a match reveals it.
func (f *Frame) SeedHex() string { return hex.EncodeToString(f.Setup.Seed[:]) }

// Abandon ends an unfinished match at now: phase done, match_abandoned {reason, seed, returned}
// (public, phase "", the given turn), every stake returned. An empty reason is "abandoned". A
// finished match is left as it is (an empty Step).
func (f *Frame) Abandon(now time.Time, reason string, turn int) games.Step {
	var step games.Step
	if f.Phase == PhaseDone {
		return step
	}
	if reason == "" {
		reason = "abandoned"
	}
	f.Phase, f.Due, f.Abandoned = PhaseDone, time.Time{}, reason
	f.Emit(&step, now, games.Event{Turn: turn, Type: "match_abandoned", Visibility: games.Public}, map[string]any{
		"reason": reason, "seed": f.SeedHex(),
		"returned": map[string]int64{"A": f.Stake, "B": f.Stake},
	})
	return step
}

// Result is the match's games.Result once done (false before). Every Warden game's holds Unit,
// SeedHash, Seed and TranscriptHash. An abandoned match's is then whole: Payouts S each, House
// 0, both ranked 1, Abandoned its reason, no Reveal. A played-out match's gets the rest from
// settle: its Standings, Payouts, House and Reveal.
func (f *Frame) Result(settle func(r *games.Result)) (games.Result, bool) {
	if f.Phase != PhaseDone {
		return games.Result{}, false
	}
	r := games.Result{
		Unit:           Unit,
		SeedHash:       SeedHash(f.Setup.Seed),
		Seed:           f.SeedHex(),
		TranscriptHash: TranscriptHash(f.Events),
	}
	if f.Abandoned != "" {
		r.Standings = games.Rank(map[int]float64{1: 0, 2: 0})
		r.Payouts = map[int]int64{1: f.Stake, 2: f.Stake}
		r.Abandoned = f.Abandoned
		return r, true
	}
	settle(&r)
	return r, true
}

// TranscriptHash is "sha256:" + hex(SHA-256(JCS of the ordered event list)) (§11.5 reading); ""
// for events that do not encode (never the games' own).
func TranscriptHash(events []games.Event) string {
	b, err := canon.Marshal(events)
	if err != nil {
		return ""
	}
	return canon.ID(b)
}
