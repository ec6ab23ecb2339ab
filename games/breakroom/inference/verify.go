package inference

import (
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
	"time"

	"arena/games"
	"arena/games/breakroom"
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
	v := &verifier{
		Verifier: &breakroom.Verifier{Game: GameID, Rep: Report{Lines: len(lines), At: -1, Seq: -1},
			Orig: make([]int, 0, len(lines))}, // not nil: a failure past the kept lines is at len(lines)
		back: -1,
	}
	for i, l := range lines {
		pl, err := breakroom.ParseLine(l)
		if err == nil && pl.Type == "deal_private" {
			continue
		}
		v.Lines = append(v.Lines, l)
		v.Orig = append(v.Orig, i)
		v.Parsed = append(v.Parsed, pl)
		v.Errs = append(v.Errs, err)
	}
	v.SeatOptions = func(house, staff bool) any { return SeatOptions{House: house, Staff: staff} }
	v.CheckConfig = checkConfig
	v.Preempt = v.preempt
	v.Check = v.check
	v.msgs = v.Talk()
	v.scan()
	v.back = v.backwards()
	v.Run(v)
	if !v.Failed && v.back >= 0 {
		v.timeGoesBack()
	}
	return v.Rep
}

// verifier is Inference's breakroom.Resimulation: its match, rebuilt from match_start and dealt
// from the log, in the shared frame of a Break Room log verifier (whose Lines leave out
// deal_private lines).
type verifier struct {
	*breakroom.Verifier
	m     *match
	cards *logDealer
	msgs  map[[3]int]string // (round, seat, turn) → talk
	// commits are the commitments the deal lines checked so far published.
	commits map[string]bool
	// back is the first line (of Lines) stamped earlier than the line before it, -1 when the
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
	v.Fields(i, &f)
	return f
}

// preempt fails at line v.back in place of a failure at line i at or after it (Verifier.Preempt).
func (v *verifier) preempt(i int) bool {
	if v.back >= 0 && v.back <= i {
		v.timeGoesBack()
		return true
	}
	return false
}

// check proves deal line i's commitments well formed and showdown line i's reveals honest when
// the re-simulation writes e, a line of the same type, there (Verifier.Check).
func (v *verifier) check(e games.Event, i int) string {
	switch {
	case e.Type == "deal" && v.Parsed[i].Type == "deal":
		return v.wellFormed(i)
	case e.Type == "showdown" && v.Parsed[i].Type == "showdown":
		return v.honest(i)
	}
	return ""
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

// scan reads what the re-simulation needs ahead of its lines: each deal line's commitments and
// each showdown line's reveals.
func (v *verifier) scan() {
	v.cards = &logDealer{commits: map[[2]int]string{}, shown: map[[2]int]dealt{}}
	for i := range v.Lines {
		if v.Errs[i] != nil {
			continue
		}
		f := v.fields(i)
		switch v.Parsed[i].Type {
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
}

// backwards is the first line stamped earlier than the line before it (protocol "Match log":
// t is the writer's clock, which never runs back), -1 when there is none. Lines whose t is not
// an instant are left to the line-by-line comparison.
func (v *verifier) backwards() int {
	var last time.Time
	for i := range v.Lines {
		if v.Errs[i] != nil {
			continue
		}
		t, ok := v.At(i)
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
	v.Fail(i, nil, "t %s is earlier than the line before it: the log's instants never run backwards", v.Parsed[i].T)
}

// checkConfig refuses a config that is not an object or that holds the deal key, which is never
// logged (the re-simulation deals from the log; Verifier.CheckConfig).
func checkConfig(config json.RawMessage) error {
	var cfg map[string]json.RawMessage
	if err := json.Unmarshal(config, &cfg); err != nil || cfg == nil {
		return fmt.Errorf("config is not an object")
	}
	if _, ok := cfg[DealKeyOption]; ok {
		return fmt.Errorf("config holds %s, which is never logged", DealKeyOption)
	}
	return nil
}

// Begin builds the match as the engine does, dealt from the log.
func (v *verifier) Begin(s games.Setup) (games.Match, error) {
	cfg, _, err := configOf(s)
	if err != nil {
		return nil, err
	}
	seats, opts, err := seatsOf(s, cfg)
	if err != nil {
		return nil, err
	}
	s.Seats = seats
	v.m = newMatch(s, cfg, opts, v.cards)
	return v.m, nil
}

// StartLine is the match's match_start event.
func (v *verifier) StartLine(start time.Time) games.Event {
	var st games.Step
	v.m.startLine(&st, start)
	return st.Events[0]
}

// Playing says the match has not ended.
func (v *verifier) Playing() bool { return v.m.phase == phasePlaying }

// Step feeds the re-simulation the input that resolves its open prompt, as the log's next line
// (after the prompt's talk) states it, and checks the lines it writes.
func (v *verifier) Step() {
	o := v.m.open
	i := v.Pos
	if o == nil {
		v.Fail(i, nil, "the re-simulation has no open turn and has not ended")
		return
	}
	j := i
	for j < len(v.Lines) && v.Errs[j] == nil && v.Parsed[j].Type == "message" {
		j++
	}
	if j >= len(v.Lines) {
		v.Fail(i, nil, "the log stops before the match's end (seat %d's turn %d of round %d is open)", o.seat, o.turn, v.m.round)
		return
	}
	if v.Errs[j] != nil {
		v.Fail(j, nil, "not a log line: %v", v.Errs[j])
		return
	}
	t, ok := v.At(j)
	if !ok {
		v.Fail(j, nil, "t %q is not an RFC 3339 instant", v.Parsed[j].T)
		return
	}
	f := v.fields(j)
	mine := f.Seat != nil && *f.Seat == o.seat && f.Turn != nil && *f.Turn == o.turn && f.Round != nil && *f.Round == v.m.round
	switch typ := v.Parsed[j].Type; {
	case typ == "match_abandoned":
		v.Expect(v.m.Abandon(t, f.Reason).Events)
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
			v.Fail(j, nil, "the re-simulation refuses this move: %v", err)
			return
		}
		v.Expect(st.Events)
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
			v.Fail(j, nil, "a timeout before the turn's deadline (%s)", stamp(o.deadline))
			return
		}
		v.Expect(v.m.Advance(t).Events)
	default:
		v.Fail(i, nil, "want the resolution of seat %d's turn %d in round %d (its action or timeout line)", o.seat, o.turn, v.m.round)
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
	for j := i + 1; j < len(v.Lines) && v.Errs[j] == nil; j++ {
		switch v.Parsed[j].Type {
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
