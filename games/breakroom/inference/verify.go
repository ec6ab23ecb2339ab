package inference

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
	"time"

	"arena/games"
	"arena/games/breakroom"
	"arena/games/canon"
)

// Report is Inference's verify-log result (breakroom.Report).
type Report = breakroom.Report

// VerifyJSONL is Verify of a JSONL log: one line per non-blank line of log.
func VerifyJSONL(log []byte) Report { return Verify(breakroom.SplitLog(log)) }

// Verify re-simulates an Inference match from its public log once it has ended (arena
// verify-log; protocol "Match log"), and proves every revealed value honest (§2.2, J8): each
// showdown reveal's value and salt must hash to the commitment the hand's deal line published,
// or the check fails at that showdown line; a deal line's commitment that is not of §2.2's form,
// or repeats another, fails at that deal line. No line may be stamped earlier than the line before
// it. The deal key is never revealed, so the
// re-simulation cannot deal: it takes the commitments from the deal lines and the values from
// the reveals, and holds every unrevealed card lower than any shown. It proves the reveals, the
// betting, the payouts, the busts, the ranking and the seed's commitment; it cannot prove that a
// mucked value was really lower than the one shown, nor anything about the rest of the deck.
//
// The match is rebuilt from match_start (match id, players, config, its t as the start) and
// played with the moves, talk and instants the log states; every public line the
// re-simulation writes must equal the log's (compared as JCS). deal_private lines, which the
// public log never holds, are skipped when a full log has them. A timeout earlier than the full
// deadline means the seat was away (protocol "Reconnecting"), a sit_in means its key came back.
// Lines after the end other than a paid match's money lines differ.
func Verify(lines [][]byte) Report {
	v := &verifier{rep: Report{Lines: len(lines), At: -1, Seq: -1}, back: -1}
	for i, l := range lines {
		pl, err := breakroom.ParseLine(l)
		if err == nil && pl.Type == "deal_private" {
			continue
		}
		v.lines = append(v.lines, l)
		v.orig = append(v.orig, i)
		v.parsed = append(v.parsed, pl)
		v.errs = append(v.errs, err)
	}
	v.total = len(lines)
	v.run()
	return v.rep
}

type verifier struct {
	lines  [][]byte
	orig   []int // index in the given lines of each of lines
	total  int
	parsed []breakroom.LogLine
	errs   []error
	pos    int
	m      *match
	cards  *logDealer
	msgs   map[[3]int]string // (round, seat, turn) → talk
	rep    Report
	failed bool
	// commits are the commitments the deal lines checked so far published.
	commits map[string]bool
	// back is the first line (of lines) stamped earlier than the line before it, -1 when the
	// log's instants never run backwards.
	back int
}

// lineFields are the members the re-simulation reads to choose its next input.
type lineFields struct {
	Round   *int            `json:"round"`
	Seat    *int            `json:"seat"`
	Turn    *int            `json:"turn"`
	Action  string          `json:"action"`
	Amount  *int64          `json:"amount"`
	Auto    json.RawMessage `json:"auto"`
	Text    string          `json:"text"`
	Reason  string          `json:"reason"`
	Seed    *string         `json:"seed"`
	Commits []struct {
		Seat   int    `json:"seat"`
		Commit string `json:"commit"`
	} `json:"commits"`
	Reveals []struct {
		Seat  int    `json:"seat"`
		Value int    `json:"value"`
		Salt  string `json:"salt"`
	} `json:"reveals"`
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

// fail records the first difference, at line i (of v.lines).
func (v *verifier) fail(i int, want []byte, reason string, args ...any) {
	if v.failed {
		return
	}
	if v.back >= 0 && v.back <= i {
		v.timeGoesBack()
		return
	}
	v.failed = true
	v.rep.OK = false
	v.rep.At = v.total
	if i < len(v.lines) {
		v.rep.At = v.orig[i]
	}
	v.rep.Want = string(want)
	v.rep.Reason = fmt.Sprintf(reason, args...)
	if i < len(v.lines) {
		v.rep.Got = string(v.lines[i])
		if v.errs[i] == nil {
			v.rep.Seq, v.rep.Type = v.parsed[i].Seq, v.parsed[i].Type
		}
	}
}

// logDealer deals what the log states: each dealt seat's commitment from the hand's deal line,
// its value and salt from the hand's showdown reveal, value 0 (lower than any card) when the log
// reveals none.
type logDealer struct {
	commits map[[2]int]string
	shown   map[[2]int]dealt
}

func (d *logDealer) deal(round int, seats []int) []dealt {
	out := make([]dealt, len(seats))
	for k, s := range seats {
		c := d.shown[[2]int{round, s}]
		c.commit = d.commits[[2]int{round, s}]
		out[k] = c
	}
	return out
}

func (v *verifier) run() {
	v.msgs = map[[3]int]string{}
	v.cards = &logDealer{commits: map[[2]int]string{}, shown: map[[2]int]dealt{}}
	end := -1
	for i := range v.lines {
		if v.errs[i] != nil {
			continue
		}
		f := v.fields(i)
		switch v.parsed[i].Type {
		case "match_end", "match_abandoned":
			if end < 0 {
				end = i
			}
		case "message":
			if f.Round != nil && f.Seat != nil && f.Turn != nil {
				v.msgs[[3]int{*f.Round, *f.Seat, *f.Turn}] = f.Text
			}
		case "deal":
			if f.Round != nil {
				for _, c := range f.Commits {
					v.cards.commits[[2]int{*f.Round, c.Seat}] = c.Commit
				}
			}
		case "showdown":
			if f.Round != nil {
				for _, r := range f.Reveals {
					v.cards.shown[[2]int{*f.Round, r.Seat}] = dealt{value: r.Value, salt: r.Salt}
				}
			}
		}
	}
	v.back = v.backwards()
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
	cfg, _, err := configOf(s)
	if err != nil {
		v.fail(0, nil, "match_start: %v", err)
		return
	}
	seats, opts, err := seatsOf(s, cfg)
	if err != nil {
		v.fail(0, nil, "match_start: %v", err)
		return
	}
	s.Seats = seats
	v.m = newMatch(s, cfg, opts, v.cards)
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
		t1, _ := v.at(1) // abandoned before it opened
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
	if v.back >= 0 {
		v.timeGoesBack()
		return
	}
	v.rep.OK = true
}

// backwards is the first line stamped earlier than the line before it (protocol "Match log":
// t is the writer's clock, which never runs back), -1 when there is none. Lines whose t is not
// an instant are left to the line-by-line comparison.
func (v *verifier) backwards() int {
	var last time.Time
	for i := range v.lines {
		if v.errs[i] != nil {
			continue
		}
		t, ok := v.at(i)
		if !ok {
			continue
		}
		if t.Before(last) {
			return i
		}
		last = t
	}
	return -1
}

// timeGoesBack fails at line v.back: a move or line dated before what precedes it (a move before
// its turn opened, a hand's line before its deal) is not what the server wrote, though every
// line after it may agree with it.
func (v *verifier) timeGoesBack() {
	i := v.back
	v.back = -1
	v.fail(i, nil, "t %s is earlier than the line before it: the log's instants never run backwards", v.parsed[i].T)
}

// setup rebuilds the match's Setup from match_start and the revealed seed (no deal key: the
// re-simulation deals from the log).
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
	var cfg map[string]json.RawMessage
	if err := json.Unmarshal(ms.Config, &cfg); err != nil || cfg == nil {
		return games.Setup{}, fmt.Errorf("config is not an object")
	}
	if _, ok := cfg[DealKeyOption]; ok {
		return games.Setup{}, fmt.Errorf("config holds %s, which is never logged", DealKeyOption)
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
// (after the prompt's talk) states it, and checks the lines it writes.
func (v *verifier) step() {
	o := v.m.open
	i := v.pos
	if o == nil {
		v.fail(i, nil, "the re-simulation has no open turn and has not ended")
		return
	}
	j := i
	for j < len(v.lines) && v.errs[j] == nil && v.parsed[j].Type == "message" {
		j++
	}
	if j >= len(v.lines) {
		v.fail(i, nil, "the log stops before the match's end (seat %d's turn %d of round %d is open)", o.seat, o.turn, v.m.round)
		return
	}
	if v.errs[j] != nil {
		v.fail(j, nil, "not a log line: %v", v.errs[j])
		return
	}
	t, ok := v.at(j)
	if !ok {
		v.fail(j, nil, "t %q is not an RFC 3339 instant", v.parsed[j].T)
		return
	}
	f := v.fields(j)
	mine := f.Seat != nil && *f.Seat == o.seat && f.Turn != nil && *f.Turn == o.turn && f.Round != nil && *f.Round == v.m.round
	switch typ := v.parsed[j].Type; {
	case typ == "match_abandoned":
		v.expect(v.m.Abandon(t, f.Reason).Events)
	case typ == "action" && mine && len(f.Auto) == 0:
		v.present(o)
		v.comeBack(j, t)
		body := map[string]any{"action": f.Action}
		if f.Action == ActionRaise && f.Amount != nil {
			body["amount"] = *f.Amount
		}
		if text, ok := v.msgs[[3]int{v.m.round, o.seat, o.turn}]; ok {
			body["message"] = text
		}
		b, _ := json.Marshal(body)
		st, err := v.m.Act(t, games.Input{Seat: breakroom.HouseSeat(o.seat), Kind: "answer", Move: breakroom.MoveOf(v.m.round, o.turn), Body: b})
		if err != nil {
			v.fail(j, nil, "the re-simulation refuses this move: %v", err)
			return
		}
		v.expect(st.Events)
	case typ == "timeout" && mine && i == j:
		full := o.opened.Add(v.m.cfg.turnDeadline())
		v.present(o)
		if t.Before(full) {
			at := t.Add(-v.m.cfg.awayDeadline())
			if at.Before(o.opened) {
				at = o.opened
			}
			v.presence(o.seat, at, true)
		}
		v.comeBack(j, t)
		if t.Before(o.deadline) {
			v.fail(j, nil, "a timeout before the turn's deadline (%s)", stamp(o.deadline))
			return
		}
		v.expect(v.m.Advance(t).Events)
	default:
		v.fail(i, nil, "want the resolution of seat %d's turn %d in round %d (its action or timeout line)", o.seat, o.turn, v.m.round)
	}
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
		case "action":
			if len(v.fields(j).Auto) == 0 {
				return
			}
		case "timeout", "match_end", "match_abandoned":
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

// expect checks the re-simulation's public events against the log's next lines (its
// deal_private lines, never published, are not compared), and every showdown reveal against
// its commitment.
func (v *verifier) expect(evs []games.Event) {
	for _, e := range evs {
		if v.failed {
			return
		}
		if e.Visibility.Reveal() == games.RevealNever {
			continue
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
		if e.Type == "deal" && v.parsed[v.pos].Type == "deal" {
			if reason := v.wellFormed(v.pos); reason != "" {
				v.fail(v.pos, want, "%s", reason)
				return
			}
		}
		if e.Type == "showdown" && v.parsed[v.pos].Type == "showdown" {
			if reason := v.honest(v.pos); reason != "" {
				v.fail(v.pos, want, "%s", reason)
				return
			}
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

// wellFormed checks deal line i's commitments (§2.2): each "sha256:" and 64 lowercase hex
// digits, and none equal to another in the match (the match id, round and seat are hashed in,
// so two honest commitments never are); "" when they are. A commitment that is never opened
// is proved no further (J8).
func (v *verifier) wellFormed(i int) string {
	if v.commits == nil {
		v.commits = map[string]bool{}
	}
	for _, c := range v.fields(i).Commits {
		h, ok := strings.CutPrefix(c.Commit, "sha256:")
		switch {
		case !ok || !lowerHex(h, 64):
			return fmt.Sprintf("seat %d's commitment %q is not \"sha256:\" and 64 lowercase hex digits", c.Seat, c.Commit)
		case v.commits[c.Commit]:
			return fmt.Sprintf("seat %d's commitment %s repeats another of the match's", c.Seat, c.Commit)
		}
		v.commits[c.Commit] = true
	}
	return ""
}

// lowerHex says s is n lowercase hex digits.
func lowerHex(s string, n int) bool {
	if len(s) != n {
		return false
	}
	for _, c := range []byte(s) {
		if !('0' <= c && c <= '9' || 'a' <= c && c <= 'f') {
			return false
		}
	}
	return true
}

// honest checks showdown line i's reveals (§2.9): each salt 32 lowercase hex digits (§2.2), each
// value within 1..deck_size and, with its salt, hashing to the commitment its hand's deal line
// published; "" when all do.
func (v *verifier) honest(i int) string {
	f := v.fields(i)
	if f.Round == nil {
		return "a showdown line without a round"
	}
	for _, r := range f.Reveals {
		commit, ok := v.cards.commits[[2]int{*f.Round, r.Seat}]
		switch {
		case !ok:
			return fmt.Sprintf("seat %d's reveal in round %d has no commitment in the hand's deal line", r.Seat, *f.Round)
		case !lowerHex(r.Salt, 32):
			return fmt.Sprintf("seat %d's salt %q in round %d is not 32 lowercase hex digits", r.Seat, r.Salt, *f.Round)
		case r.Value < 1 || r.Value > v.m.cfg.DeckSize:
			return fmt.Sprintf("seat %d's revealed value %d in round %d is outside 1..%d", r.Seat, r.Value, *f.Round, v.m.cfg.DeckSize)
		case Commit(v.m.setup.Round, *f.Round, r.Seat, r.Value, r.Salt) != commit:
			return fmt.Sprintf("seat %d's revealed value %d and salt in round %d do not hash to its commitment %s: the reveal is not the value dealt", r.Seat, r.Value, *f.Round, commit)
		}
	}
	return ""
}

func jcs(b []byte) []byte {
	c, err := canon.Canonical(b)
	if err != nil {
		return b
	}
	return c
}
