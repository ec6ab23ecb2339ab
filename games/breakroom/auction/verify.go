package auction

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

// Report is the Auction's verify-log result (breakroom.Report).
type Report = breakroom.Report

// VerifyJSONL is Verify of a JSONL log: one line per non-blank line of log.
func VerifyJSONL(log []byte) Report { return Verify(breakroom.SplitLog(log)) }

// Verify re-simulates an Auction match from its public log, once it has ended (every line, the
// "reveal": "end" ones included: the Auction writes no line that stays secret) and the seed its
// end line reveals (arena verify-log; protocol "Match log": the re-simulation of a match, or of
// an abandoned one up to its cut). The match is rebuilt from match_start (match id, players,
// config, its t as the start) and played with the bids, passes, talk and instants the log
// states; every line the re-simulation writes must equal the log's (compared as JCS, so member
// order and spacing do not matter). What the log cannot state but the rules need is inferred: a
// timeout earlier than the full deadline means the seat was away (protocol "Reconnecting"), a
// sit_in means its key came back. The bids, the talk and the config are the re-simulation's
// inputs: an altered bid shows where its consequences do (at its lot's lot_result, or at a
// later refusal when it spent cash the seat did not have), the config at the first value,
// deadline or result it moves; talk has none. Any altered value, result, strike count, instant,
// ranking or seed shows at its own line. Lines after the end other than a paid match's money
// lines differ.
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
	msgs   map[[3]int]string // (round, seat, turn) → held text
	rep    Report
	failed bool
}

// lineFields are the members the re-simulation reads to choose its next input.
type lineFields struct {
	Round  *int            `json:"round"`
	Seat   *int            `json:"seat"`
	Turn   *int            `json:"turn"`
	Action string          `json:"action"`
	Amount json.RawMessage `json:"amount"`
	Auto   json.RawMessage `json:"auto"`
	Text   string          `json:"text"`
	Reason string          `json:"reason"`
	Seed   *string         `json:"seed"`
}

func (v *verifier) fields(i int) lineFields {
	var f lineFields
	_ = json.Unmarshal(v.lines[i], &f)
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
	v.msgs = map[[3]int]string{}
	end := -1
	for i, l := range v.lines {
		v.parsed[i], v.errs[i] = breakroom.ParseLine(l)
		if v.errs[i] != nil {
			continue
		}
		switch v.parsed[i].Type {
		case "match_end", "match_abandoned":
			if end < 0 {
				end = i
			}
		case "message":
			if f := v.fields(i); f.Round != nil && f.Seat != nil && f.Turn != nil {
				v.msgs[[3]int{*f.Round, *f.Seat, *f.Turn}] = f.Text
			}
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
		v.fail(i, nil, "the log stops before the match's end (seat %d's turn %d of lot %d is open)", o.seat, o.turn, v.m.round)
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
	if t.Before(o.opened) {
		// The log's instants are inputs; the line before this one is at or after the turn's
		// opening, and a log writer stamps in order.
		v.fail(i, nil, "t %s is before the open turn opened (%s): the log's instants go back", v.parsed[i].T, stamp(o.opened))
		return
	}
	f := v.fields(i)
	mine := f.Seat != nil && *f.Seat == o.seat && f.Turn != nil && *f.Turn == o.turn && f.Round != nil && *f.Round == v.m.round
	switch typ := v.parsed[i].Type; {
	case typ == "match_abandoned" || typ == "message" && v.abandonAhead(i):
		j := i
		for v.parsed[j].Type == "message" {
			j++
		}
		tj, ok := v.at(j)
		if !ok {
			v.fail(j, nil, "t %q is not an RFC 3339 instant", v.parsed[j].T)
			return
		}
		if tj.Before(o.opened) {
			v.fail(j, nil, "t %s is before the open turn opened (%s): the log's instants go back", v.parsed[j].T, stamp(o.opened))
			return
		}
		v.expect(v.m.Abandon(tj, v.fields(j).Reason).Events)
	case typ == "action_private" && mine && len(f.Auto) == 0:
		v.present(o)
		v.comeBack(i, t)
		body := map[string]any{"action": f.Action}
		if len(f.Amount) > 0 {
			body["amount"] = f.Amount
		}
		if text, ok := v.msgs[[3]int{v.m.round, o.seat, o.turn}]; ok {
			body["message"] = text
		}
		b, _ := json.Marshal(body)
		st, err := v.m.Act(t, games.Input{Seat: breakroom.HouseSeat(o.seat), Kind: "answer", Move: breakroom.MoveOf(v.m.round, o.turn), Body: b})
		if err != nil {
			v.fail(i, nil, "the re-simulation refuses this move: %v", err)
			return
		}
		v.expect(st.Events)
	case typ == "timeout_private" && mine:
		full := o.opened.Add(v.m.cfg.turnDeadline())
		v.present(o)
		if t.Before(full) {
			at := t.Add(-v.m.cfg.awayDeadline())
			if at.Before(o.opened) {
				at = o.opened
			}
			v.presence(o.seat, at, true)
		}
		v.comeBack(i, t)
		if t.Before(o.deadline) {
			v.fail(i, nil, "a timeout before the turn's deadline (%s)", stamp(o.deadline))
			return
		}
		v.expect(v.m.Advance(t).Events)
	default:
		v.fail(i, nil, "want the resolution of seat %d's turn %d in lot %d (its action_private or timeout_private)", o.seat, o.turn, v.m.round)
	}
}

// abandonAhead says the lines from i are held messages followed by match_abandoned.
func (v *verifier) abandonAhead(i int) bool {
	for ; i < len(v.lines) && v.errs[i] == nil; i++ {
		switch v.parsed[i].Type {
		case "message":
			continue
		case "match_abandoned":
			return true
		}
		return false
	}
	return false
}

// present makes the open prompt's seat present from its opening (the full deadline).
func (v *verifier) present(o *openPrompt) {
	if v.m.seats[o.seat].away {
		v.presence(o.seat, o.opened, false)
	}
}

// comeBack tells the re-simulation that every seat the step from line i sits in came back
// before it.
func (v *verifier) comeBack(i int, t time.Time) {
	for j := i + 1; j < len(v.lines) && v.errs[j] == nil; j++ {
		switch v.parsed[j].Type {
		case "action_private":
			if len(v.fields(j).Auto) == 0 {
				return
			}
		case "timeout_private", "match_end", "match_abandoned":
			return
		case "sit_in":
			if f := v.fields(j); f.Seat != nil && *f.Seat >= 0 && *f.Seat < len(v.m.seats) {
				v.presence(*f.Seat, t, false)
			}
		}
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
