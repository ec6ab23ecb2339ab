package blitz

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strconv"

	"arena/games"
	"arena/games/blitz/commitment"
	"arena/games/canon"
)

// ID is the Blitz engine's Manifest ID.
const ID = "blitz"

// microCCD per CCD.
const ccd = 1_000_000

// Fees are the house's takes in microCCD (§14, arena config). Action is charged per sealed
// commitment from the payer's action budget at seal; Table per human seat and Inference per
// human seat that thinks on the house model (kind "ots") are taken from that seat's payout at
// round settlement, table fee first.
type Fees struct {
	Action    int64 `json:"action"`
	Table     int64 `json:"table"`
	Inference int64 `json:"inference"`
}

// DefaultFees are §14's: 5 CCD action fee, 20 CCD table fee, 30 CCD inference fee.
func DefaultFees() Fees { return Fees{Action: 5 * ccd, Table: 20 * ccd, Inference: 30 * ccd} }

// Engine makes Blitz matches. The zero value is not usable; use NewEngine.
type Engine struct {
	fees Fees
}

var (
	_ games.Engine      = (*Engine)(nil)
	_ games.Briefer     = (*Engine)(nil)
	_ games.HousePlayer = (*Engine)(nil)
	_ games.Match       = (*Match)(nil)
	_ games.InputKeeper = (*Match)(nil)
)

// NewEngine returns the Blitz engine charging f (use DefaultFees() for §14). Negative fees are
// treated as zero.
func NewEngine(f Fees) *Engine {
	f.Action, f.Table, f.Inference = max(f.Action, 0), max(f.Table, 0), max(f.Inference, 0)
	return &Engine{fees: f}
}

// Manifest lists the two formats of §5.6: blitz (6–8 seats, 5 turns, 3 exchanges, the
// default) and short (3 seats, 3 turns, 2 exchanges).
func (e *Engine) Manifest() games.Manifest {
	return games.Manifest{ID: ID, Name: "DOTDOTDOT Blitz", Version: 1, Formats: []games.Format{
		{Name: "blitz", MinSeats: 6, MaxSeats: 8, Turns: 5, Exchanges: 3},
		{Name: "short", MinSeats: 3, MaxSeats: 3, Turns: 3, Exchanges: 2},
	}}
}

// Options is Setup.Options for Blitz. Every field is optional: a zero Mole and a nil Task are
// drawn from the seed (§9).
type Options struct {
	Mole      int                        `json:"mole,omitempty"`      // seat 1..N
	Task      *TaskChoice                `json:"task,omitempty"`      // kind and named seats
	Playbooks map[string]json.RawMessage `json:"playbooks,omitempty"` // by seat number, ots seats
	Notice    *Notice                    `json:"notice,omitempty"`    // the scouting notice (§5.2)
	// Collateral narrows §14's collateral band for this table; nil is §14's, 40–80% of entry.
	Collateral *Band `json:"collateral,omitempty"`
	// Fees are this table's fees (§14 "arena config"), recorded with the table so that its
	// replay charges what it charged live; nil: the engine's (NewEngine). Every member is set
	// (a missing one is 0).
	Fees *Fees `json:"fees,omitempty"`
	// Anchors narrows the round's Register Data anchors (§5.5): "" asks for every one (the
	// open-round anchor, each exchange, each sealed commitment, the mid-round turn, the final
	// transcript); AnchorsOpened the open-round anchor alone ("Free play anchors its opening and
	// nothing more"), said in round.created so that a transcript's reader expects no more.
	Anchors string `json:"anchors,omitempty"`
}

// AnchorsOpened is Options.Anchors for a round that registers its open-round anchor alone (§5.5:
// Free play).
const AnchorsOpened = "opened"

// Band is a collateral band in whole percent of a seat's entry, both ends included (§14: 40–80%,
// "table may narrow": 40 ≤ Min ≤ Max ≤ 80).
type Band struct {
	Min int `json:"min"`
	Max int `json:"max"`
}

// DefaultBand is §14's collateral band, 40–80% of entry.
func DefaultBand() Band { return Band{Min: 40, Max: 80} }

// Notice is the scouting inbox item naming the feedback agent (§5.2).
type Notice struct {
	Text string `json:"text"`
	Link string `json:"link"`
}

// minEntry is §14's entry minimum, 50 CCD (or chips).
const minEntry = 50 * ccd

// New validates s and returns a match in `seating`: its first Deadline is s.Start, where
// Advance opens the round (round.created, seat.taken, the draw, scouting). Errors are
// *games.Error with code bad_request naming the field at fault: unknown format, seat count
// outside the format, seats not numbered 1..N, empty or duplicate agent ids, entry below
// 50 CCD, a seat's Options that are not SeatOptions, collateral outside 40–80% of entry (§14)
// or the table's narrower band (Options.Collateral), a band that does not narrow §14's, a
// negative fee (Options.Fees),
// a round not "T-<n>" by commitment.ParseRound (the rule every commitment's round is held to, so
// no round opens whose commitments must all be refused), bad Options.
func (e *Engine) New(s games.Setup, keys games.Keyring) (games.Match, error) {
	return e.newMatch(s, keys)
}

func (e *Engine) newMatch(s games.Setup, keys games.Keyring) (*Match, error) {
	bad := func(f string, a ...any) error { return games.Errorf(games.CodeBadRequest, "blitz: "+f, a...) }
	if s.Game != "" && s.Game != ID {
		return nil, bad("game %q is not %q", s.Game, ID)
	}
	f, ok := games.FormatOf(e.Manifest(), s.Format)
	if !ok {
		return nil, bad("unknown format %q", s.Format)
	}
	if _, ok := commitment.ParseRound(s.Round); !ok {
		return nil, bad("round %q is not T-<n> with n from 1 to 2^64-1, no leading zero (§3, §5.5 u64)", s.Round)
	}
	n := len(s.Seats)
	if n < f.MinSeats || n > f.MaxSeats {
		return nil, bad("format %s seats %d–%d, got %d", f.Name, f.MinSeats, f.MaxSeats, n)
	}
	agents := map[string]bool{}
	human := false
	seatOpts := make([]SeatOptions, n)
	for i, st := range s.Seats {
		if st.Seat != i+1 {
			return nil, bad("seats[%d].seat is %d, want %d", i, st.Seat, i+1)
		}
		if st.Agent == "" || agents[st.Agent] {
			return nil, bad("seats[%d].agent empty or repeated", i)
		}
		agents[st.Agent] = true
		if st.Entry < minEntry || st.Entry > maxSafe/100 {
			return nil, bad("seats[%d].entry %d below 50 CCD or too large", i, st.Entry)
		}
		so, err := SeatOptionsOf(st)
		if err != nil {
			return nil, bad("seats[%d].options: %v", i, err)
		}
		seatOpts[i] = so
		if !validLevers(so.Levers) {
			return nil, bad("seats[%d].options.levers %q: own, human, agent or none", i, so.Levers)
		}
		// §9 "a table with no human seat MUST NOT draw veto", read as: no seat whose human can
		// actually veto. A walk-in is its own human, and on a clock that closes a phase as soon as
		// every seat answered (the chat clock) its commit answer is its last word in the phase, so
		// it has no instant left to veto in: only a human beside an agent, or any human on a clock
		// that keeps the commit phase open to its deadline, can (docs/protocol-notes.md, "Veto").
		human = human || (so.Human && so.Levers != LeversNone && (!so.Walkin || !s.Pace.CloseEarly))
	}
	var opt Options
	if len(bytes.TrimSpace(s.Options)) > 0 && string(bytes.TrimSpace(s.Options)) != "null" {
		if err := canon.Decode(s.Options, &opt); err != nil {
			return nil, bad("options: %v", err)
		}
	}
	band := DefaultBand()
	if b := opt.Collateral; b != nil {
		def := DefaultBand()
		if b.Min < def.Min || b.Max > def.Max || b.Min > b.Max {
			return nil, bad("options.collateral %d–%d%% does not narrow §14's band of %d–%d%% of entry", b.Min, b.Max, def.Min, def.Max)
		}
		band = *b
	}
	for i, st := range s.Seats {
		if c := seatOpts[i].Collateral; c*100 < st.Entry*int64(band.Min) || c*100 > st.Entry*int64(band.Max) {
			return nil, bad("seats[%d].collateral %d outside %d–%d%% of entry %d", i, c, band.Min, band.Max, st.Entry)
		}
	}
	fees := e.fees
	if f := opt.Fees; f != nil {
		if f.Action < 0 || f.Table < 0 || f.Inference < 0 || f.Action > maxSafe || f.Table > maxSafe || f.Inference > maxSafe {
			return nil, bad("options.fees %+v: each fee is a whole microCCD from 0 to 2^53 − 1", *f)
		}
		fees = *f
	}
	if opt.Anchors != "" && opt.Anchors != AnchorsOpened {
		return nil, bad("options.anchors %q: \"opened\" (the open-round anchor alone) or absent (every anchor)", opt.Anchors)
	}
	if opt.Mole < 0 || opt.Mole > n {
		return nil, bad("options.mole %d not a seat", opt.Mole)
	}
	if opt.Task != nil {
		if _, ok := taskCategory[opt.Task.Kind]; !ok {
			return nil, bad("options.task.kind %q unknown", opt.Task.Kind)
		}
		if len(opt.Task.Named) != namedCount(opt.Task.Kind) {
			return nil, bad("options.task.named: %s names %d seats", opt.Task.Kind, namedCount(opt.Task.Kind))
		}
		if opt.Mole == 0 && len(opt.Task.Named) > 0 {
			return nil, bad("options.task.named needs options.mole")
		}
		seen := map[int]bool{}
		for _, x := range opt.Task.Named {
			if x < 1 || x > n || x == opt.Mole || seen[x] {
				return nil, bad("options.task.named: seat %d is not another distinct seat", x)
			}
			seen[x] = true
		}
	}
	for k := range opt.Playbooks {
		if i, err := strconv.Atoi(k); err != nil || i < 1 || i > n || strconv.Itoa(i) != k {
			return nil, bad("options.playbooks: %q is not a seat", k)
		}
	}
	if len(bytes.TrimSpace(s.Options)) == 0 {
		s.Options = nil // kept as null: the snapshot must stay valid JSON
	}
	s.Start = s.Start.Round(0) // wall clock only, so a restored match compares instants the same way
	m, err := newMatch(fees, s, seatOpts, keys, f, opt, human)
	if err != nil {
		return nil, bad("options.playbooks: %v", err)
	}
	return m, nil
}

// maxSafe is 2^53 − 1, the largest integer JCS writes exactly.
const maxSafe = 1<<53 - 1

// Restore rebuilds a match from Snapshot's bytes by replaying its setup and inputs at their
// instants; the result is byte-identical to the original (events, prompts, state).
func (e *Engine) Restore(snapshot []byte, keys games.Keyring) (games.Match, error) {
	return restore(snapshot, keys, false)
}

// restore is Restore; recording keeps every event in the match (Events).
func restore(snapshot []byte, keys games.Keyring, recording bool) (*Match, error) {
	var sn snapshotV1
	if err := json.Unmarshal(snapshot, &sn); err != nil {
		return nil, fmt.Errorf("blitz: restore: %w", err)
	}
	m, err := matchOf(snapshotHead{V: sn.V, Fees: sn.Fees, Setup: sn.Setup}, keys, "restore")
	if err != nil {
		return nil, err
	}
	m.recording = recording
	for i, op := range sn.Log {
		if err := m.replay(i, op); err != nil {
			return nil, err
		}
	}
	return m, nil
}

// matchOf is the new match a snapshot's head describes, for replaying its inputs.
func matchOf(h snapshotHead, keys games.Keyring, what string) (*Match, error) {
	if h.V != 1 {
		return nil, fmt.Errorf("blitz: %s: version %d", what, h.V)
	}
	m, err := NewEngine(h.Fees).newMatch(h.Setup, keys)
	if err != nil {
		return nil, fmt.Errorf("blitz: %s: %w", what, err)
	}
	return m, nil
}

// replay applies input i of a snapshot as it was first applied.
func (m *Match) replay(i int, op logOp) error {
	switch op.Op {
	case "advance":
		m.Advance(op.At)
	case "abandon":
		m.Abandon(op.At, op.Reason)
	case "act":
		if _, err := m.Act(op.At, op.Input); err != nil {
			return fmt.Errorf("blitz: restore: input %d refused on replay: %w", i, err)
		}
	default:
		return fmt.Errorf("blitz: restore: op %d %q", i, op.Op)
	}
	return nil
}
