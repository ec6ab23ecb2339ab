package werewolf

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strconv"
	"time"

	"arena/games"
	"arena/games/breakroom"
	"arena/games/canon"
)

// Report is Werewolf's verify-log result (breakroom.Report).
type Report = breakroom.Report

// VerifyJSONL is Verify of a JSONL log: one line per non-blank line of log.
func VerifyJSONL(log []byte) Report { return Verify(breakroom.SplitLog(log)) }

// Verify re-simulates a Werewolf match from its log once it has ended (every line, the
// "reveal": "end" ones included: Werewolf writes no line that stays secret) and the seed its end
// line reveals (arena verify-log; protocol "Match log"). The match is rebuilt from match_start
// (match id, players, config, its t as the start) and played with the moves, talk and instants
// the log states: each open prompt is resolved by its seat's next line (action_private, action,
// a message or message_private with the action after it, timeout_private or timeout). Every
// line the re-simulation writes must equal the log's (compared as JCS). What the log cannot
// state but the rules need is inferred: a timeout earlier than the full deadline means the seat
// was away. The roles follow from the seed, so an altered role shows at its role_private line;
// an altered move at its own line or where its consequence does (an inspection's result, a kill,
// a vote's tally; talk, an input with no consequence, cannot be told from other talk); an
// altered instant, strike count, death, ranking or seed at its own line.
// Lines after the end other than a paid match's money lines differ.
func Verify(lines [][]byte) Report {
	v := &verifier{lines: lines, rep: Report{Lines: len(lines), At: -1, Seq: -1}}
	v.run()
	return v.rep
}

type verifier struct {
	lines  [][]byte
	parsed []breakroom.LogLine
	errs   []error
	pos    int
	m      *match
	rep    Report
	failed bool
}

// lineFields are the members the re-simulation reads to choose its next input.
type lineFields struct {
	Round  *int            `json:"round"`
	Seat   *int            `json:"seat"`
	Turn   *int            `json:"turn"`
	Action string          `json:"action"`
	Target json.RawMessage `json:"target"`
	Auto   json.RawMessage `json:"auto"`
	Text   *string         `json:"text"`
	Reason string          `json:"reason"`
	Seed   *string         `json:"seed"`
}

func (v *verifier) fields(i int) lineFields {
	var f lineFields
	if i < len(v.lines) {
		_ = json.Unmarshal(v.lines[i], &f)
	}
	return f
}

func (v *verifier) at(i int) (time.Time, bool) {
	t, err := time.Parse(time.RFC3339Nano, v.parsed[i].T)
	return t, err == nil
}

// fail records the first difference, at line i.
func (v *verifier) fail(i int, want []byte, reason string, args ...any) {
	if v.failed {
		return
	}
	v.failed = true
	v.rep.OK = false
	v.rep.At = i
	v.rep.Want = string(want)
	v.rep.Reason = fmt.Sprintf(reason, args...)
	if i < len(v.lines) {
		v.rep.Got = string(v.lines[i])
		if v.errs[i] == nil {
			v.rep.Seq, v.rep.Type = v.parsed[i].Seq, v.parsed[i].Type
		}
	}
}

func (v *verifier) run() {
	v.parsed = make([]breakroom.LogLine, len(v.lines))
	v.errs = make([]error, len(v.lines))
	end := -1
	for i, l := range v.lines {
		v.parsed[i], v.errs[i] = breakroom.ParseLine(l)
		if v.errs[i] == nil && end < 0 && (v.parsed[i].Type == "match_end" || v.parsed[i].Type == "match_abandoned") {
			end = i
		}
	}
	if len(v.lines) == 0 {
		v.fail(0, nil, "the log is empty")
		return
	}
	if v.errs[0] != nil || v.parsed[0].Type != "match_start" {
		v.fail(0, nil, "the first line is not a match_start line")
		return
	}
	if end < 0 {
		v.fail(len(v.lines), nil, "the log has no match_end or match_abandoned line: the seed is revealed only at the end, so a running match can be verified once it has ended")
		return
	}
	v.rep.End = v.parsed[end].Type
	f := v.fields(end)
	if f.Seed == nil {
		v.rep.Unverifiable = v.rep.End == "match_abandoned"
		v.fail(end, nil, "the seed is not revealed (seed null: a match closed after a crash cannot be re-simulated)")
		return
	}
	seed, err := breakroom.ParseSeed(*f.Seed)
	if err != nil {
		v.fail(end, nil, "%v", err)
		return
	}
	s, err := v.setup(seed)
	if err != nil {
		v.fail(0, nil, "match_start: %v", err)
		return
	}
	mm, err := Engine{}.New(s, nil)
	if err != nil {
		v.fail(0, nil, "match_start: %v", err)
		return
	}
	v.m = mm.(*match)
	var hs struct {
		SeedHash string `json:"seed_hash"`
	}
	if json.Unmarshal(v.lines[0], &hs) == nil && hs.SeedHash != breakroom.SeedHash(seed) {
		var st games.Step
		v.m.startLine(&st, s.Start)
		want, _ := breakroom.Line(st.Events[0])
		v.fail(0, jcs(want), "seed_hash %s does not commit to the revealed seed (its hash is %s)", hs.SeedHash, breakroom.SeedHash(seed))
		return
	}
	if len(v.lines) > 1 && v.errs[1] == nil && v.parsed[1].Type == "match_abandoned" {
		t1, _ := v.at(1) // abandoned before it opened: match_start and match_abandoned at one instant
		v.expect(v.m.Abandon(t1, v.fields(1).Reason).Events)
	} else {
		v.expect(v.m.Advance(s.Start).Events)
	}
	for !v.failed && v.m.phase == phasePlaying {
		v.step()
	}
	if v.failed {
		return
	}
	v.rep.Checked = v.pos
	for i := v.pos; i < len(v.lines); i++ {
		if v.errs[i] != nil || !breakroom.MoneyLines[v.parsed[i].Type] {
			v.fail(i, nil, "a line after the match's end that is not a money line")
			return
		}
	}
	v.rep.OK = true
}

// setup rebuilds the match's Setup from match_start and the revealed seed.
func (v *verifier) setup(seed [32]byte) (games.Setup, error) {
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
	if err := json.Unmarshal(v.lines[0], &ms); err != nil {
		return games.Setup{}, err
	}
	if ms.Game != GameID {
		return games.Setup{}, fmt.Errorf("game %q is not %q", ms.Game, GameID)
	}
	start, ok := v.at(0)
	if !ok {
		return games.Setup{}, fmt.Errorf("t %q is not an RFC 3339 instant", v.parsed[0].T)
	}
	s := games.Setup{Game: GameID, Round: ms.MatchID, Seed: seed, Start: start, Options: ms.Config}
	for _, p := range ms.Players {
		st := games.Seat{Seat: breakroom.HouseSeat(p.Seat), Agent: p.Pubkey, Name: p.Name}
		if p.House || p.Staff {
			st.Options, _ = canon.Marshal(SeatOptions{House: p.House, Staff: p.Staff})
		}
		s.Seats = append(s.Seats, st)
	}
	return s, nil
}

// step feeds the re-simulation the input that resolves its open prompt, as the log's next line
// states it, and checks the lines it writes.
func (v *verifier) step() {
	o := v.m.open
	i := v.pos
	if o == nil {
		v.fail(i, nil, "the re-simulation has no open turn and has not ended")
		return
	}
	if i >= len(v.lines) {
		v.fail(i, nil, "the log stops before the match's end (seat %d's turn %d of round %d is open)", o.seat, o.turn, v.m.round)
		return
	}
	if v.errs[i] != nil {
		v.fail(i, nil, "not a log line: %v", v.errs[i])
		return
	}
	t, ok := v.at(i)
	if !ok {
		v.fail(i, nil, "t %q is not an RFC 3339 instant", v.parsed[i].T)
		return
	}
	f := v.fields(i)
	mine := func(f lineFields) bool {
		return f.Seat != nil && *f.Seat == o.seat && f.Turn != nil && *f.Turn == o.turn && f.Round != nil && *f.Round == v.m.round
	}
	switch typ := v.parsed[i].Type; {
	case typ == "match_abandoned":
		v.expect(v.m.Abandon(t, f.Reason).Events)
	case (typ == "message" || typ == "message_private") && mine(f) && f.Text != nil:
		// Talk comes just before its move's line, which names the action (and target): a log
		// without that line there fails at the line where it should be.
		a := v.fields(i + 1)
		if next := i + 1; next >= len(v.lines) || v.errs[next] != nil || !mine(a) || len(a.Auto) != 0 ||
			(v.parsed[next].Type != "action" && v.parsed[next].Type != "action_private") {
			v.fail(next, nil, "want the line of seat %d's turn %d in round %d that carries the talk before it", o.seat, o.turn, v.m.round)
			return
		}
		v.move(i, t, a.Action, a.Target, *f.Text)
	case (typ == "action_private" || typ == "action") && mine(f) && len(f.Auto) == 0:
		v.move(i, t, f.Action, f.Target, "")
	case (typ == "timeout_private" || typ == "timeout") && mine(f):
		full := o.opened.Add(v.m.cfg.turnDeadline())
		v.present(o)
		if t.Before(full) {
			at := t.Add(-v.m.cfg.awayDeadline())
			if at.Before(o.opened) {
				at = o.opened
			}
			v.presence(o.seat, at, true)
		}
		if t.Before(o.deadline) {
			v.fail(i, nil, "a timeout before the turn's deadline (%s)", stamp(o.deadline))
			return
		}
		v.expect(v.m.Advance(t).Events)
	default:
		v.fail(i, nil, "want the resolution of seat %d's turn %d in round %d (its move, talk or timeout line)", o.seat, o.turn, v.m.round)
	}
}

// move plays the open prompt's move as line i states it, at t.
func (v *verifier) move(i int, t time.Time, action string, target json.RawMessage, text string) {
	o := v.m.open
	v.present(o)
	body := map[string]any{"action": action}
	if len(target) > 0 {
		body["target"] = target
	}
	if text != "" {
		body["message"] = text
	}
	b, _ := json.Marshal(body)
	st, err := v.m.Act(t, games.Input{Seat: breakroom.HouseSeat(o.seat), Kind: "answer", Move: breakroom.MoveOf(v.m.round, o.turn), Body: b})
	if err != nil {
		v.fail(i, nil, "the re-simulation refuses this move: %v", err)
		return
	}
	v.expect(st.Events)
}

// present makes the open prompt's seat present from its opening (the full deadline).
func (v *verifier) present(o *openPrompt) {
	if v.m.seats[o.seat].away {
		v.presence(o.seat, o.opened, false)
	}
}

func (v *verifier) presence(seat int, at time.Time, away bool) {
	_, _ = v.m.Act(at, games.Input{Seat: breakroom.HouseSeat(seat), Kind: KindPresence,
		Body: json.RawMessage(`{"away":` + strconv.FormatBool(away) + `}`)})
}

// expect checks the re-simulation's events against the log's next lines.
func (v *verifier) expect(evs []games.Event) {
	for _, e := range evs {
		if v.failed {
			return
		}
		b, err := breakroom.Line(e)
		if err != nil {
			v.fail(v.pos, nil, "the re-simulation wrote a line it cannot encode: %v", err)
			return
		}
		want := jcs(b)
		switch {
		case v.pos >= len(v.lines):
			v.fail(v.pos, want, "the log stops here; the re-simulation writes %s", e.Type)
			return
		case v.errs[v.pos] != nil:
			v.fail(v.pos, want, "not a log line: %v", v.errs[v.pos])
			return
		}
		got, err := canon.Canonical(v.lines[v.pos])
		if err != nil {
			v.fail(v.pos, want, "not canonical JSON: %s", canon.Reason(err))
			return
		}
		if !bytes.Equal(got, want) {
			v.fail(v.pos, want, "the re-simulation writes another line here (%s)", e.Type)
			return
		}
		v.pos++
	}
}

func jcs(b []byte) []byte {
	c, err := canon.Canonical(b)
	if err != nil {
		return b
	}
	return c
}
