package breakroom

import (
	"bytes"
	"encoding/json"
	"fmt"
	"time"

	"arena/games"
	"arena/games/canon"
)

// Resimulation is what a game's log verifier supplies to Verifier.Run (arena verify-log;
// protocol "Match log"): its match, rebuilt from the log's match_start and the revealed seed,
// and the step that feeds that match the input resolving its open prompt as the log states it.
type Resimulation interface {
	// Begin builds the match from s; its error fails the log at match_start.
	Begin(s games.Setup) (games.Match, error)
	// StartLine is the match_start event the match writes at start (the line a seed_hash that
	// does not commit to the revealed seed is compared with).
	StartLine(start time.Time) games.Event
	// Playing says the match has not ended.
	Playing() bool
	// Step feeds the match the input that resolves its open prompt, as the log's line at Pos
	// states it, and checks the lines it writes (Expect); it fails (Fail) where it cannot.
	Step()
}

// Verifier is the frame every Break Room game's log verifier shares: the log's lines, parsed,
// the position of the next line to check, and the Report. Run checks the frame of the log
// (match_start first, the end line's revealed seed, seed_hash, the end's money lines) and drives
// the game's Resimulation through it.
type Verifier struct {
	// Game is the game id match_start must name.
	Game string
	// SeatOptions is the game's seat options (their JCS is games.Seat Options) of a match_start
	// player with its house and staff members, at least one true.
	SeatOptions func(house, staff bool) any
	// CheckConfig, when set, refuses a match_start config the re-simulation cannot use (its
	// error fails the log at match_start).
	CheckConfig func(config json.RawMessage) error
	// Lines are the lines the re-simulation checks, Parsed and Errs their ParseLine results.
	Lines  [][]byte
	Parsed []LogLine
	Errs   []error
	// Pos is the index (of Lines) of the next line to check.
	Pos int
	// Rep is the Report so far; Failed says it holds a difference.
	Rep    Report
	Failed bool
	// Orig, when not nil, is the index among the log's lines of each of Lines (a verifier that
	// leaves out lines the public log never holds); a failure past Lines' end is then at
	// Rep.Lines.
	Orig []int
	// Preempt, when set, is called by Fail before it records a failure at line i (of Lines); it
	// returns true when it recorded another (an earlier line's) in its place.
	Preempt func(i int) bool
	// Check, when set, is an extra check of the log's line i (of Lines) against the event e the
	// re-simulation writes there, made before they are compared; "" when the line passes, else
	// the difference in words.
	Check func(e games.Event, i int) string
}

// NewVerifier is a Verifier of the given lines of a game's log, each parsed (ParseLine).
func NewVerifier(game string, lines [][]byte) *Verifier {
	v := &Verifier{Game: game, Lines: lines, Rep: Report{Lines: len(lines), At: -1, Seq: -1},
		Parsed: make([]LogLine, len(lines)), Errs: make([]error, len(lines))}
	for i, l := range lines {
		v.Parsed[i], v.Errs[i] = ParseLine(l)
	}
	return v
}

// Talk is the text of every message line by its (round, seat, turn): the talk a move's input
// carries (§1.4), which the log writes before the move's line.
func (v *Verifier) Talk() map[[3]int]string {
	talk := map[[3]int]string{}
	for i := range v.Lines {
		if v.Errs[i] != nil || v.Parsed[i].Type != "message" {
			continue
		}
		var f struct {
			Round *int   `json:"round"`
			Seat  *int   `json:"seat"`
			Turn  *int   `json:"turn"`
			Text  string `json:"text"`
		}
		v.Fields(i, &f)
		if f.Round != nil && f.Seat != nil && f.Turn != nil {
			talk[[3]int{*f.Round, *f.Seat, *f.Turn}] = f.Text
		}
	}
	return talk
}

// Fields decodes line i's members into dst (a struct of the members wanted); a line past the
// end, or one that does not decode, leaves dst as it is.
func (v *Verifier) Fields(i int, dst any) {
	if i < len(v.Lines) {
		_ = json.Unmarshal(v.Lines[i], dst)
	}
}

// At is line i's t as an instant; false when it is not an RFC 3339 one.
func (v *Verifier) At(i int) (time.Time, bool) {
	t, err := time.Parse(time.RFC3339Nano, v.Parsed[i].T)
	return t, err == nil
}

// Fail records the first difference, at line i (of Lines): want is the line the re-simulation
// writes there (nil where it writes none), reason and args the difference in words.
func (v *Verifier) Fail(i int, want []byte, reason string, args ...any) {
	if v.Failed {
		return
	}
	if v.Preempt != nil && v.Preempt(i) {
		return
	}
	v.Failed = true
	v.Rep.OK = false
	v.Rep.At = i
	if v.Orig != nil {
		v.Rep.At = v.Rep.Lines
		if i < len(v.Lines) {
			v.Rep.At = v.Orig[i]
		}
	}
	v.Rep.Want = string(want)
	v.Rep.Reason = fmt.Sprintf(reason, args...)
	if i < len(v.Lines) {
		v.Rep.Got = string(v.Lines[i])
		if v.Errs[i] == nil {
			v.Rep.Seq, v.Rep.Type = v.Parsed[i].Seq, v.Parsed[i].Type
		}
	}
}

// Run verifies the log with the game's re-simulation g: the first line must be match_start and
// the log must have ended (match_end or match_abandoned) with its seed revealed (seed null on
// match_abandoned is Unverifiable); the match is rebuilt from match_start (match id, game,
// players, config, its t as the start) and that seed, whose hash seed_hash must be; a
// match_abandoned second line is the match abandoned before it opened; then g steps until the
// match ends, and every line after the end must be a paid match's money line.
func (v *Verifier) Run(g Resimulation) {
	end := -1
	for i := range v.Lines {
		if v.Errs[i] == nil && (v.Parsed[i].Type == "match_end" || v.Parsed[i].Type == "match_abandoned") {
			end = i
			break
		}
	}
	if len(v.Lines) == 0 {
		v.Fail(0, nil, "the log is empty")
		return
	}
	if v.Errs[0] != nil || v.Parsed[0].Type != "match_start" {
		v.Fail(0, nil, "the first line is not a match_start line")
		return
	}
	if end < 0 {
		v.Fail(len(v.Lines), nil, "the log has no match_end or match_abandoned line: the seed is revealed only at the end, so a running match can be verified once it has ended")
		return
	}
	v.Rep.End = v.Parsed[end].Type
	var f struct {
		Seed *string `json:"seed"`
	}
	v.Fields(end, &f)
	if f.Seed == nil {
		v.Rep.Unverifiable = v.Rep.End == "match_abandoned"
		v.Fail(end, nil, "the seed is not revealed (seed null: a match closed after a crash cannot be re-simulated)")
		return
	}
	seed, err := ParseSeed(*f.Seed)
	if err != nil {
		v.Fail(end, nil, "%v", err)
		return
	}
	s, err := v.setup(seed)
	if err != nil {
		v.Fail(0, nil, "match_start: %v", err)
		return
	}
	m, err := g.Begin(s)
	if err != nil {
		v.Fail(0, nil, "match_start: %v", err)
		return
	}
	var hs struct {
		SeedHash string `json:"seed_hash"`
	}
	if json.Unmarshal(v.Lines[0], &hs) == nil && hs.SeedHash != SeedHash(seed) {
		want, _ := Line(g.StartLine(s.Start))
		v.Fail(0, jcs(want), "seed_hash %s does not commit to the revealed seed (its hash is %s)", hs.SeedHash, SeedHash(seed))
		return
	}
	if len(v.Lines) > 1 && v.Errs[1] == nil && v.Parsed[1].Type == "match_abandoned" {
		t1, _ := v.At(1) // abandoned before it opened: match_start and match_abandoned at one instant
		var a struct {
			Reason string `json:"reason"`
		}
		v.Fields(1, &a)
		v.Expect(m.Abandon(t1, a.Reason).Events)
	} else {
		v.Expect(m.Advance(s.Start).Events)
	}
	for !v.Failed && g.Playing() {
		g.Step()
	}
	if v.Failed {
		return
	}
	v.Rep.Checked = v.Pos
	for i := v.Pos; i < len(v.Lines); i++ {
		if v.Errs[i] != nil || !MoneyLines[v.Parsed[i].Type] {
			v.Fail(i, nil, "a line after the match's end that is not a money line")
			return
		}
	}
	v.Rep.OK = true
}

// setup rebuilds the match's Setup from match_start and the revealed seed.
func (v *Verifier) setup(seed [32]byte) (games.Setup, error) {
	var ms struct {
		MatchID string `json:"match_id"`
		Game    string `json:"game"`
		Players []struct {
			Seat   int    `json:"seat"`
			Pubkey string `json:"pubkey"`
			Name   string `json:"name"`
			House  bool   `json:"house"`
			Staff  bool   `json:"staff"`
		} `json:"players"`
		Config json.RawMessage `json:"config"`
	}
	if err := json.Unmarshal(v.Lines[0], &ms); err != nil {
		return games.Setup{}, err
	}
	if ms.Game != v.Game {
		return games.Setup{}, fmt.Errorf("game %q is not %q", ms.Game, v.Game)
	}
	if v.CheckConfig != nil {
		if err := v.CheckConfig(ms.Config); err != nil {
			return games.Setup{}, err
		}
	}
	start, ok := v.At(0)
	if !ok {
		return games.Setup{}, fmt.Errorf("t %q is not an RFC 3339 instant", v.Parsed[0].T)
	}
	s := games.Setup{Game: v.Game, Round: ms.MatchID, Seed: seed, Start: start, Options: ms.Config}
	for _, p := range ms.Players {
		st := games.Seat{Seat: HouseSeat(p.Seat), Agent: p.Pubkey, Name: p.Name}
		if p.House || p.Staff {
			st.Options, _ = canon.Marshal(v.SeatOptions(p.House, p.Staff))
		}
		s.Seats = append(s.Seats, st)
	}
	return s, nil
}

// Expect checks the re-simulation's events against the log's next lines, from Pos: each
// event's line (as JCS, so member order and spacing do not matter) must be the log's, which
// moves Pos on. Events the log never holds (games.RevealNever) are not compared.
func (v *Verifier) Expect(evs []games.Event) {
	for _, e := range evs {
		if v.Failed {
			return
		}
		if e.Visibility.Reveal() == games.RevealNever {
			continue
		}
		b, err := Line(e)
		if err != nil {
			v.Fail(v.Pos, nil, "the re-simulation wrote a line it cannot encode: %v", err)
			return
		}
		want := jcs(b)
		switch {
		case v.Pos >= len(v.Lines):
			v.Fail(v.Pos, want, "the log stops here; the re-simulation writes %s", e.Type)
			return
		case v.Errs[v.Pos] != nil:
			v.Fail(v.Pos, want, "not a log line: %v", v.Errs[v.Pos])
			return
		}
		if v.Check != nil {
			if reason := v.Check(e, v.Pos); reason != "" {
				v.Fail(v.Pos, want, "%s", reason)
				return
			}
		}
		got, err := canon.Canonical(v.Lines[v.Pos])
		if err != nil {
			v.Fail(v.Pos, want, "not canonical JSON: %s", canon.Reason(err))
			return
		}
		if !bytes.Equal(got, want) {
			v.Fail(v.Pos, want, "the re-simulation writes another line here (%s)", e.Type)
			return
		}
		v.Pos++
	}
}

// jcs is b as JCS, or b as it is when it is not JSON.
func jcs(b []byte) []byte {
	c, err := canon.Canonical(b)
	if err != nil {
		return b
	}
	return c
}
