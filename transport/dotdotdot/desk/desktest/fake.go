// Package desktest is a fake desk.Desk for door tests: in memory, one mailbox per token, with
// the desk's contract (a poll never consumes; an answer for any move but the open one is
// stale) and counters so a test can assert that a refused request changed nothing.
package desktest

import (
	"context"
	"encoding/json"
	"fmt"
	"sync"
	"time"

	"arena/actors/dotdotdot"
	"arena/games"
	"arena/transport/dotdotdot/desk"
)

// Fake implements desk.Desk. Safe for concurrent use.
type Fake struct {
	mu struct {
		sync.Mutex
		tokens  map[string]*walkin
		names   map[string]string // name → token
		n       int
		changes int // successful state changes: registers, joins, answers, levers
		levers  []string
		events  map[string][]games.Event
		reveal  map[string]bool
	}
	// Err, when set, is returned by every call but Transcript (to test error mapping).
	Err error
}

type walkin struct {
	name   string
	round  string
	move   *move
	result *games.Result
	notify chan struct{} // closed and replaced when a move is issued
	polls  int
	held   int           // NextMove calls waiting now
	moved  chan struct{} // closed and replaced when held changes (WaitHeld)
}

type move struct {
	env    []byte
	prompt games.Prompt
}

// New returns an empty Fake.
func New() *Fake {
	f := &Fake{}
	f.mu.tokens = map[string]*walkin{}
	f.mu.names = map[string]string{}
	f.mu.events = map[string][]games.Event{}
	f.mu.reveal = map[string]bool{}
	return f
}

var _ desk.Desk = (*Fake)(nil)

// Changes counts successful state changes so far.
func (f *Fake) Changes() int {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.mu.changes
}

// Levers lists the levers applied, as "kind round body".
func (f *Fake) Levers() []string {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]string(nil), f.mu.levers...)
}

// Polls is how many polls the token's mailbox has answered.
func (f *Fake) Polls(token string) int {
	f.mu.Lock()
	defer f.mu.Unlock()
	if w := f.mu.tokens[token]; w != nil {
		return w.polls
	}
	return 0
}

// Held is how many NextMove calls for the token are waiting now (for a move, the wait's end or
// ctx's); WaitHeld waits for a number of them.
func (f *Fake) Held(token string) int {
	f.mu.Lock()
	defer f.mu.Unlock()
	if w := f.mu.tokens[token]; w != nil {
		return w.held
	}
	return 0
}

// WaitHeld returns once at least n NextMove calls for the token are waiting, so a test acts on
// a long poll it knows is held, on a signal rather than after a pause; it returns ctx's error
// if ctx ends first, and unknown_token for a token never registered.
func (f *Fake) WaitHeld(ctx context.Context, token string, n int) error {
	for {
		f.mu.Lock()
		w, err := f.walkin(token)
		if err != nil {
			f.mu.Unlock()
			return err
		}
		if w.held >= n {
			f.mu.Unlock()
			return nil
		}
		ch := w.moved
		f.mu.Unlock()
		select {
		case <-ch:
		case <-ctx.Done():
			return ctx.Err()
		}
	}
}

// heldChanged wakes WaitHeld; the caller holds mu.
func (w *walkin) heldChanged() {
	close(w.moved)
	w.moved = make(chan struct{})
}

// Issue opens a move for the token: env is the signed envelope as bytes; it replaces any move
// not yet answered.
func (f *Fake) Issue(token string, env []byte, p games.Prompt) {
	f.mu.Lock()
	defer f.mu.Unlock()
	w := f.mu.tokens[token]
	w.move = &move{env: env, prompt: p}
	close(w.notify)
	w.notify = make(chan struct{})
}

// End ends the token's round with r.
func (f *Fake) End(token string, r games.Result) {
	f.mu.Lock()
	defer f.mu.Unlock()
	w := f.mu.tokens[token]
	w.move = nil
	w.result = &r
	close(w.notify)
	w.notify = make(chan struct{})
}

// SetTranscript stores a round's events and whether it is revealed.
func (f *Fake) SetTranscript(round string, evs []games.Event, revealed bool) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.mu.events[round] = evs
	f.mu.reveal[round] = revealed
}

func (f *Fake) walkin(token string) (*walkin, error) {
	w := f.mu.tokens[token]
	if w == nil {
		return nil, games.Errorf("unknown_token", "no walk-in holds that token")
	}
	return w, nil
}

func (f *Fake) RegisterWalkin(ctx context.Context, name, model string) (string, error) {
	if f.Err != nil {
		return "", f.Err
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	f.mu.n++
	tok := fmt.Sprintf("w_%032x", f.mu.n)
	f.mu.tokens[tok] = &walkin{name: name, notify: make(chan struct{}), moved: make(chan struct{})}
	f.mu.names[name] = tok
	f.mu.changes++
	return tok, nil
}

func (f *Fake) JoinWalkin(ctx context.Context, token string, req dotdotdot.JoinRequest) (dotdotdot.JoinReply, error) {
	if f.Err != nil {
		return dotdotdot.JoinReply{}, f.Err
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	w, err := f.walkin(token)
	if err != nil {
		return dotdotdot.JoinReply{}, err
	}
	if req.Table == "walkin" {
		return dotdotdot.JoinReply{}, &NotYet{Done: 0}
	}
	if w.round != "" && w.result == nil {
		return dotdotdot.JoinReply{}, games.Errorf("in_a_round", "this walk-in already holds round %s", w.round)
	}
	f.mu.n++
	w.round = fmt.Sprintf("T-%d", f.mu.n)
	w.result = nil
	f.mu.changes++
	pace := req.Pace
	if pace == "" {
		pace = "chat"
	}
	return dotdotdot.JoinReply{Round: w.round, Table: "practice", Seat: 1, Pace: pace, Status: "scouting"}, nil
}

// NotYet is the fake's not_yet refusal, carrying the count as the real desk should.
type NotYet struct{ Done int }

func (e *NotYet) Error() string { return "not_yet" }

// Unwrap exposes the protocol code.
func (e *NotYet) Unwrap() error {
	return &games.Error{Code: "not_yet", Msg: fmt.Sprintf("the walk-in table opens after 3 Practice rounds; %d played", e.Done)}
}

// Details is the body members beyond {error, code, retry}.
func (e *NotYet) Details() map[string]any { return map[string]any{"practice": e.Done, "needed": 3} }

func (f *Fake) NextMove(ctx context.Context, token string, wait time.Duration) (dotdotdot.Next, error) {
	if f.Err != nil {
		return dotdotdot.Next{}, f.Err
	}
	t := time.NewTimer(wait)
	defer t.Stop()
	for {
		f.mu.Lock()
		w, err := f.walkin(token)
		if err != nil {
			f.mu.Unlock()
			return dotdotdot.Next{}, err
		}
		if w.result != nil {
			w.polls++
			n := dotdotdot.Next{Round: w.round, Status: "revealed", Result: w.result}
			f.mu.Unlock()
			return n, nil
		}
		if w.move != nil {
			w.polls++
			p := w.move.prompt
			n := dotdotdot.Next{Round: w.round, Status: "playing", Envelope: w.move.env, Prompt: &p,
				Brief: "You are seat 1. Say something.", Answer: json.RawMessage(`{"round":"` + w.round + `"}`)}
			f.mu.Unlock()
			return n, nil
		}
		ch := w.notify
		round := w.round
		w.held++
		w.heldChanged()
		f.mu.Unlock()
		var next *dotdotdot.Next
		var nerr error
		select {
		case <-ch:
		case <-t.C:
			next = &dotdotdot.Next{Waiting: true, Round: round, Status: "scouting"}
		case <-ctx.Done():
			next, nerr = &dotdotdot.Next{}, ctx.Err()
		}
		f.mu.Lock()
		w.held--
		w.heldChanged()
		f.mu.Unlock()
		if next != nil {
			return *next, nerr
		}
	}
}

func (f *Fake) AnswerMove(ctx context.Context, token string, body []byte) (json.RawMessage, error) {
	if f.Err != nil {
		return nil, f.Err
	}
	var a struct {
		Round    string `json:"round"`
		Turn     int    `json:"turn"`
		Phase    string `json:"phase"`
		Exchange int    `json:"exchange"`
	}
	if err := json.Unmarshal(body, &a); err != nil {
		return nil, games.Errorf(games.CodeBadRequest, "%v", err)
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	w, err := f.walkin(token)
	if err != nil {
		return nil, err
	}
	m := w.move
	if m == nil || a.Round != w.round || a.Turn != m.prompt.Move.Turn || a.Phase != m.prompt.Move.Phase || a.Exchange != m.prompt.Move.Exchange {
		return nil, games.Errorf(games.CodeStale, "no move waiting for that echo")
	}
	w.move = nil
	f.mu.changes++
	return json.RawMessage(`{"dropped":[]}`), nil
}

func (f *Fake) Lever(ctx context.Context, token, round, kind string, body []byte) (json.RawMessage, error) {
	if f.Err != nil {
		return nil, f.Err
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	w, err := f.walkin(token)
	if err != nil {
		return nil, err
	}
	if w.round != round {
		return nil, games.Errorf(games.CodeNotSeated, "the token holds no seat in %s", round)
	}
	if kind == "veto" {
		return nil, &games.Error{Code: "not_now", Msg: "veto only during commit", Retry: true}
	}
	f.mu.levers = append(f.mu.levers, kind+" "+round+" "+string(body))
	f.mu.changes++
	return json.RawMessage(`{"ok":true}`), nil
}

func (f *Fake) WalkinRecord(ctx context.Context, token string) (json.RawMessage, error) {
	if f.Err != nil {
		return nil, f.Err
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	w, err := f.walkin(token)
	if err != nil {
		return nil, err
	}
	return json.Marshal(map[string]any{"name": w.name, "rounds": 0})
}

func (f *Fake) Board(ctx context.Context) (json.RawMessage, error) {
	if f.Err != nil {
		return nil, f.Err
	}
	return json.RawMessage(`{"week":"2026-W48","rows":[]}`), nil
}

func (f *Fake) WalkinPage(ctx context.Context, name string) (json.RawMessage, error) {
	if f.Err != nil {
		return nil, f.Err
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	if _, ok := f.mu.names[name]; !ok {
		return nil, games.Errorf("unknown_name", "no walk-in named %q", name)
	}
	return json.Marshal(map[string]any{"name": name})
}

func (f *Fake) Transcript(ctx context.Context, round string) ([]games.Event, bool, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.mu.events[round], f.mu.reveal[round], nil
}
