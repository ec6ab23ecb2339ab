package script

import (
	"encoding/json"
	"errors"
	"fmt"
	"sort"
	"strconv"
	"time"

	"arena/games"
	"arena/games/blitz"
)

// start is the instant every scripted round starts at, 2026-01-01T00:00:00Z. A script has no
// clock: the runner advances the match through its own deadlines from here, so outputs are
// byte-for-byte reproducible. Read-only.
var start = time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)

// Check is called with the match after every step of a run (each Advance and each Act); an
// error stops the run and is returned wrapped. Property tests use it to assert §8.3 and money
// conservation after every step.
type Check func(m *blitz.Match) error

// Run plays s on the Blitz engine (default fees, §14) and builds its Output
// (round-script.md "Output"). Every seat is a walk-in whose key derives from the seed (keys.go).
// The match starts at 2026-01-01T00:00:00Z on the default agent pace; moves apply at their
// (turn, phase, exchange), in s.Order(), at the instant that phase or exchange opens.
//
// Errors: *Error when the engine refuses the script's setup (exit 2); *ConservationError when
// payouts and house do not add up to the entries (exit 1); any other error is a fault of the
// rules or the runner (exit 1).
func Run(s *Script) (*Output, error) { return RunChecked(s, nil) }

// RunChecked is Run with check called after every step (nil for none).
func RunChecked(s *Script, check Check) (*Output, error) {
	r, err := newRun(s)
	if err != nil {
		return nil, err
	}
	r.check = check
	if err := r.play(); err != nil {
		return nil, err
	}
	return r.output()
}

type moveKey struct {
	turn     int
	phase    string
	exchange int
}

type run struct {
	s       *Script
	m       *blitz.Match
	check   Check
	byKey   map[moveKey][]*Move
	applied map[moveKey]bool
	nRej    int // engine rejections already reported
	rej     []Rejected
	entries int64
}

func newRun(s *Script) (*run, error) {
	keys := newKeyring(s.Seed, len(s.Seats))
	setup := games.Setup{Game: blitz.ID, Format: s.Format, Round: s.Round, Arena: ArenaAgent(s.Seed),
		Seed: s.Seed, Start: start}
	r := &run{s: s, byKey: map[moveKey][]*Move{}, applied: map[moveKey]bool{}}
	for i, st := range s.Seats {
		pub, _ := keys.PublicKey(i + 1)
		setup.Seats = append(setup.Seats, games.Seat{Seat: i + 1, Agent: SeatAgent(pub), Name: st.Name, Entry: st.Entry, Options: blitz.SeatOptions{Kind: "walkin", Human: st.Human, Walkin: true, Collateral: st.Collateral}.JSON()})
		r.entries += st.Entry
	}
	opt := blitz.Options{Mole: s.Mole}
	if s.Task != nil {
		opt.Task = &blitz.TaskChoice{Kind: s.Task.Kind, Named: append([]int{}, s.Task.Named...)}
		if opt.Task.Named == nil {
			opt.Task.Named = []int{}
		}
	}
	ob, err := json.Marshal(opt)
	if err != nil {
		return nil, fmt.Errorf("script: options: %w", err)
	}
	setup.Options = ob
	gm, err := blitz.NewEngine(blitz.DefaultFees()).New(setup, keys)
	if err != nil {
		var ge *games.Error
		if errors.As(err, &ge) {
			return nil, &Error{Msg: "the engine refused the round's setup: " + ge.Msg}
		}
		return nil, fmt.Errorf("script: new match: %w", err)
	}
	m, ok := gm.(*blitz.Match)
	if !ok {
		return nil, fmt.Errorf("script: engine returned %T, want *blitz.Match", gm)
	}
	r.m = m
	for _, i := range s.Order() {
		mv := &s.Moves[i]
		k := moveKey{mv.Turn, mv.Phase, mv.Exchange}
		r.byKey[k] = append(r.byKey[k], mv)
	}
	return r, nil
}

// maxSteps bounds the deadlines a round may take: a Blitz round has about forty phases.
const maxSteps = 10_000

func (r *run) play() error {
	for steps := 0; ; steps++ {
		dl, ok := r.m.Deadline()
		if !ok {
			break
		}
		if steps > maxSteps {
			return fmt.Errorf("script: the round did not end after %d deadlines", maxSteps)
		}
		r.m.Advance(dl)
		r.engineRejections()
		if err := r.checkStep("advance to " + dl.Format(time.RFC3339)); err != nil {
			return err
		}
		cur := r.m.Phase()
		k := moveKey{cur.Turn, cur.Phase, cur.Exchange}
		if (cur.Phase != "talk" && cur.Phase != "commit") || r.applied[k] {
			continue
		}
		r.applied[k] = true
		for _, mv := range r.byKey[k] {
			if err := r.apply(dl, cur, mv); err != nil {
				return err
			}
		}
	}
	for k, mvs := range r.byKey {
		if !r.applied[k] && len(mvs) > 0 {
			return fmt.Errorf("script: moves[%d]: turn %d %s exchange %d never opened", mvs[0].Index, k.turn, k.phase, k.exchange)
		}
	}
	return nil
}

// apply sends one move to the match as the walk-in desk would: an answer to the open move, or
// a lever. Refusals are recorded in rejected, never fatal.
func (r *run) apply(now time.Time, cur games.Move, mv *Move) error {
	in := games.Input{Seat: mv.Seat}
	ref := ""
	if mv.Answer != nil {
		in.Kind, in.Move, in.Body = "answer", cur, mv.body
	} else {
		l := mv.Lever
		in.Kind = l.Kind
		var body any
		switch l.Kind {
		case "call":
			body = map[string]string{"text": l.Text}
		case "veto":
			body = map[string]string{"ref": l.Ref}
			ref = l.Ref
		case "accuse":
			body = map[string]int{"seat": l.Seat}
		}
		b, err := json.Marshal(body)
		if err != nil {
			return fmt.Errorf("script: moves[%d]: %w", mv.Index, err)
		}
		in.Body = b
	}
	step, err := r.m.Act(now, in)
	if err != nil {
		var ge *games.Error
		if !errors.As(err, &ge) {
			return fmt.Errorf("script: moves[%d]: the engine failed: %w", mv.Index, err)
		}
		r.rej = append(r.rej, Rejected{Seat: mv.Seat, Turn: cur.Turn, Ref: ref, Code: ge.Code})
	} else if err := r.answerRejections(mv, cur, step); err != nil {
		return err
	}
	return r.checkStep("moves[" + strconv.Itoa(mv.Index) + "]")
}

// answerRejections records what an answer had refused, in the reply's order: commitments refused
// at submission (the engine's rejections carry them), commitments dropped before submission
// (a fifth one: too_many_submissions), lines of talk and the accusation.
func (r *run) answerRejections(mv *Move, cur games.Move, step games.Step) error {
	all := r.m.Rejections()
	fresh := all[r.nRej:]
	r.nRej = len(all)
	used := make([]bool, len(fresh))
	if len(step.Reply) > 0 {
		var reply struct {
			Dropped []blitz.Dropped `json:"dropped"`
		}
		if err := json.Unmarshal(step.Reply, &reply); err != nil {
			return fmt.Errorf("script: moves[%d]: reply: %w", mv.Index, err)
		}
		for _, d := range reply.Dropped {
			x := Rejected{Seat: mv.Seat, Turn: cur.Turn, Code: d.Code}
			if d.Field == "commitments" {
				x.Ref = d.Ref
				if x.Ref == "" && mv.Answer != nil && d.Index >= 0 && d.Index < len(mv.Answer.Commitments) {
					x.Ref = mv.Answer.Commitments[d.Index].Ref
				}
				for i, e := range fresh {
					if !used[i] && e.Seat == mv.Seat && e.Index == d.Index && e.Code == d.Code {
						used[i] = true
						break
					}
				}
			}
			r.rej = append(r.rej, x)
		}
	}
	for i, e := range fresh { // refused without a line in dropped[] (none expected)
		if !used[i] {
			r.rej = append(r.rej, Rejected{Seat: e.Seat, Turn: e.Turn, Ref: e.Ref, Code: e.Code})
		}
	}
	return nil
}

func (r *run) engineRejections() {
	all := r.m.Rejections()
	for _, x := range all[r.nRej:] {
		r.rej = append(r.rej, Rejected{Seat: x.Seat, Turn: x.Turn, Ref: x.Ref, Code: x.Code})
	}
	r.nRej = len(all)
}

func (r *run) checkStep(where string) error {
	if err := r.m.CheckInvariant(); err != nil {
		return fmt.Errorf("script: after %s: %w", where, err)
	}
	if r.check != nil {
		if err := r.check(r.m); err != nil {
			return fmt.Errorf("script: after %s: %w", where, err)
		}
	}
	return nil
}

func (r *run) output() (*Output, error) {
	m := r.m
	res, ok := m.Result()
	if !ok {
		return nil, errors.New("script: the round ended without a result")
	}
	events, err := m.Events()
	if err != nil {
		return nil, fmt.Errorf("script: %w", err)
	}
	task := m.Task()
	o := &Output{
		Round:          m.Round(),
		Mole:           m.Mole(),
		Task:           OutputTask{Kind: task.Kind, Category: task.Category, Named: append([]int{}, task.Named...)},
		Rungs:          append([]int{}, m.Rungs()...),
		Payouts:        map[string]int64{},
		House:          res.House,
		Commitments:    []OutputCommitment{},
		Rejected:       append([]Rejected{}, r.rej...),
		Eliminated:     []Eliminated{},
		Accusations:    []blitz.Accusation{},
		TranscriptHash: res.TranscriptHash,
		Events:         events,
	}
	var sum int64
	for seat, p := range res.Payouts {
		o.Payouts[strconv.Itoa(seat)] = p
		sum += p
	}
	for _, c := range m.Commitments() {
		o.Commitments = append(o.Commitments, OutputCommitment{Ref: c.Ref, ID: c.ID, Payer: c.Payer, Payee: c.Payee,
			Amount: c.Amount, SealedTurn: c.SealedTurn, Due: c.Due, Outcome: c.Outcome, Paid: c.Paid, Penalty: c.Penalty})
	}
	for _, a := range m.Accounts() {
		if a.Eliminated > 0 {
			o.Eliminated = append(o.Eliminated, Eliminated{Seat: a.Seat, Turn: a.Eliminated})
		}
	}
	sort.SliceStable(o.Eliminated, func(i, j int) bool { return o.Eliminated[i].Turn < o.Eliminated[j].Turn })
	o.Accusations = append(o.Accusations, m.Accusations()...)
	b := m.Bounty()
	o.Bounty = OutputBounty{Pot: b.Pot, ToMole: b.ToMole, ToAccusers: map[string]int64{}}
	for k, v := range b.ToAccusers {
		o.Bounty.ToAccusers[k] = v
	}
	if len(res.Payouts) != len(r.s.Seats) || sum+o.House != r.entries {
		return o, &ConservationError{Entries: r.entries, Payouts: sum, House: o.House}
	}
	return o, nil
}
