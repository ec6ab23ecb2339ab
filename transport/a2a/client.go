package a2a

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"sync"
	"time"

	"github.com/a2aproject/a2a-go/a2a"
	"github.com/a2aproject/a2a-go/a2aclient"

	"arena/chain/egress"
	"arena/games"
	"arena/games/canon"
)

// BadgeExtension is the URI of the Concordium Badge A2A extension (§4.2), sent in
// X-A2A-Extensions on every call.
const BadgeExtension = "https://docs.concordium.com/a2a-extensions/concordium-badge/v1"

// HeaderExtensions is the A2A v0.3 header naming the extensions a request uses.
const HeaderExtensions = "X-A2A-Extensions"

// Defaults of Options.
const (
	DefaultMaxResponse  = 256 << 10              // bytes per HTTP response body
	DefaultPollInterval = 200 * time.Millisecond // between tasks/get polls of a working Task
)

// Refusals. Every error Call returns wraps one of them (or a transport error); each means the
// move is empty (§13).
var (
	ErrLate      = errors.New("a2a: no answer by the move's deadline")
	ErrEcho      = errors.New("a2a: answer does not echo the envelope's round, turn, phase and seat")
	ErrNoAnswer  = errors.New("a2a: the agent's reply carries no data part")
	ErrTask      = errors.New("a2a: the agent's task ended without an answer")
	ErrTooLarge  = errors.New("a2a: response over the size cap")
	ErrEnvelope  = errors.New("a2a: the envelope is not a JSON object with round, turn, phase and seat")
	ErrBadAnswer = errors.New("a2a: the answer is not a JSON object")
)

// Options configure a Client. The zero value works (a plain http.Client, which does NOT refuse
// private addresses: give the egress client in production).
type Options struct {
	// HTTP is the client every call goes through (the egress client in `arena serve`).
	HTTP *http.Client
	// MaxResponse caps each response body in bytes (0: DefaultMaxResponse).
	MaxResponse int64
	// PollInterval is the wait between tasks/get polls (0: DefaultPollInterval).
	PollInterval time.Duration
}

// Client calls agents. It is safe for concurrent use; a2a clients are kept per endpoint.
type Client struct {
	http     *http.Client
	poll     time.Duration
	mu       sync.Mutex
	byTarget map[string]*a2aclient.Client
}

// New returns a Client.
func New(o Options) *Client {
	base := o.HTTP
	if base == nil {
		base = &http.Client{}
	}
	if o.MaxResponse <= 0 {
		o.MaxResponse = DefaultMaxResponse
	}
	if o.PollInterval <= 0 {
		o.PollInterval = DefaultPollInterval
	}
	hc := *base
	rt := hc.Transport
	if rt == nil {
		rt = http.DefaultTransport
	}
	hc.Transport = captureTransport{egress.CapTransport(rt, o.MaxResponse, ErrTooLarge)}
	return &Client{http: &hc, poll: o.PollInterval, byTarget: map[string]*a2aclient.Client{}}
}

// echo is what an answer must repeat of its envelope (§4).
type echo struct {
	Round    *string `json:"round"`
	Turn     *int    `json:"turn"`
	Phase    *string `json:"phase"`
	Seat     *int    `json:"seat"`
	Exchange *int    `json:"exchange"`
}

func (e echo) complete() bool {
	return e.Round != nil && e.Turn != nil && e.Phase != nil && e.Seat != nil
}

// matches reports whether answer a echoes envelope e: round, turn, phase and seat equal; an
// exchange in the answer must equal the envelope's (absent is accepted: §4 asks for four).
func (e echo) matches(a echo) bool {
	if !a.complete() || *a.Round != *e.Round || *a.Turn != *e.Turn || *a.Phase != *e.Phase || *a.Seat != *e.Seat {
		return false
	}
	if a.Exchange != nil {
		return e.Exchange != nil && *a.Exchange == *e.Exchange
	}
	return true
}

// echoIn reads the echo members of an answer object by their exact names (a "Turn" is not
// "turn"); a member of the wrong kind is left unset, so the echo is incomplete.
func echoIn(v canon.Value) echo {
	var e echo
	for i := 0; i < v.Len(); i++ {
		name, m := v.Member(i)
		switch name {
		case "round", "phase":
			if s, ok := m.Str(); ok {
				if name == "round" {
					e.Round = &s
				} else {
					e.Phase = &s
				}
			}
		case "turn", "seat", "exchange":
			n, ok := m.Int()
			if !ok || n < -1<<31 || n > 1<<31 {
				continue
			}
			i := int(n)
			switch name {
			case "turn":
				e.Turn = &i
			case "seat":
				e.Seat = &i
			default:
				e.Exchange = &i
			}
		}
	}
	return e
}

// Call sends envelope (the signed §4 envelope, JSON) to the agent at endpoint and returns the
// agent's answer object (JSON) once it echoes the envelope. The answer is the data part's bytes
// exactly as the agent sent them, read from the HTTP body itself: a2a-go decodes a part's data
// into a map, which would turn 1e6 into 1000000, keep the last of two members of one name and
// turn a lone surrogate or invalid UTF-8 into U+FFFD, so what it decodes only says where the
// answer is. The whole response must pass canon's strict checks. Call returns no later than
// deadline (or ctx's end, if sooner); a late, missing, oversized, mis-echoed or malformed answer
// is an error, which the caller treats as the empty move. An error about the answer itself
// (ErrBadAnswer, ErrNoAnswer, ErrEcho) also wraps a *games.Error with the code the walk-in door
// gives the same bytes (bad_request; stale for another move), so the caller can tell the agent.
func (c *Client) Call(ctx context.Context, endpoint string, envelope []byte, deadline time.Time) ([]byte, error) {
	var want echo
	dec := json.NewDecoder(bytes.NewReader(envelope))
	dec.UseNumber()
	var data map[string]any
	if err := dec.Decode(&data); err != nil || data == nil {
		return nil, ErrEnvelope
	}
	if err := json.Unmarshal(envelope, &want); err != nil || !want.complete() {
		return nil, ErrEnvelope
	}
	ctx, cancel := context.WithDeadline(ctx, deadline)
	defer cancel()
	cl, err := c.client(ctx, endpoint)
	if err != nil {
		return nil, err
	}
	bodies := &captured{}
	ctx = context.WithValue(ctx, captureKey{}, bodies)
	msg := a2a.NewMessage(a2a.MessageRoleUser, a2a.DataPart{Data: data})
	msg.Extensions = []string{BadgeExtension}
	blocking := true
	res, err := cl.SendMessage(ctx, &a2a.MessageSendParams{
		Message: msg,
		Config:  &a2a.MessageSendConfig{Blocking: &blocking},
	})
	if err != nil {
		return nil, late(ctx, err)
	}
	var answer canon.Value
	switch r := res.(type) {
	case *a2a.Message:
		answer, err = answerIn(bodies.last(), false)
	case *a2a.Task:
		answer, err = c.await(ctx, cl, r, bodies)
	default:
		err = noAnswer(fmt.Sprintf("result %T", res))
	}
	if err != nil {
		return nil, err
	}
	if !want.matches(echoIn(answer)) {
		return nil, fmt.Errorf("%w: %w", ErrEcho, games.Errorf("stale", "the answer does not echo the envelope's round, turn, phase and seat (and exchange on talk): it names another move"))
	}
	return answer.Raw(), nil
}

// await polls a Task until it is terminal or ctx ends; only a completed task is an answer, read
// from the raw body of the response that carried it.
func (c *Client) await(ctx context.Context, cl *a2aclient.Client, t *a2a.Task, bodies *captured) (canon.Value, error) {
	tick := time.NewTicker(c.poll)
	defer tick.Stop()
	for {
		switch t.Status.State {
		case a2a.TaskStateCompleted:
			return answerIn(bodies.last(), true)
		case a2a.TaskStateFailed, a2a.TaskStateCanceled, a2a.TaskStateRejected,
			a2a.TaskStateInputRequired, a2a.TaskStateAuthRequired:
			return canon.Value{}, fmt.Errorf("%w: state %s", ErrTask, t.Status.State)
		}
		select {
		case <-ctx.Done():
			return canon.Value{}, fmt.Errorf("%w: task %s still %s", ErrLate, t.ID, t.Status.State)
		case <-tick.C:
		}
		next, err := cl.GetTask(ctx, &a2a.TaskQueryParams{ID: t.ID})
		if err != nil {
			return canon.Value{}, late(ctx, err)
		}
		if next == nil {
			return canon.Value{}, fmt.Errorf("%w: tasks/get answered nothing", ErrTask)
		}
		t = next
	}
}

// answerIn finds the answer in the raw JSON-RPC response body whose result a2a-go read as a
// Message (task false) or a completed Task: the first data part of the message, or of a task's
// status message, else of its newest artifact that has one. The body must pass canon's strict
// checks (bad_request otherwise, as the walk-in door refuses the same bytes).
func answerIn(body []byte, task bool) (canon.Value, error) {
	v, err := canon.Parse(body)
	if err != nil {
		return canon.Value{}, fmt.Errorf("%w: %w", ErrBadAnswer, games.Errorf(games.CodeBadRequest, "the answer is not strict JSON: %s", canon.Reason(err)))
	}
	res := member(v, "result")
	if !task {
		if d, ok := dataPart(member(res, "parts")); ok {
			return d, nil
		}
		return canon.Value{}, noAnswer("the message has no data part")
	}
	if d, ok := dataPart(member(member(member(res, "status"), "message"), "parts")); ok {
		return d, nil
	}
	arts := member(res, "artifacts")
	for i := arts.Len() - 1; i >= 0 && arts.Kind() == canon.Array; i-- {
		if d, ok := dataPart(member(arts.Elem(i), "parts")); ok {
			return d, nil
		}
	}
	return canon.Value{}, noAnswer("the completed task has no data part")
}

// dataPart is the data of the first part of kind "data" whose data is an object.
func dataPart(parts canon.Value) (canon.Value, bool) {
	if parts.Kind() != canon.Array {
		return canon.Value{}, false
	}
	for i := 0; i < parts.Len(); i++ {
		p := parts.Elem(i)
		if k, _ := member(p, "kind").Str(); k != "data" {
			continue
		}
		if d := member(p, "data"); d.Kind() == canon.Object {
			return d, true
		}
	}
	return canon.Value{}, false
}

// member is an object's member by exact name (the zero Value, null, when absent or not an
// object).
func member(v canon.Value, name string) canon.Value {
	if v.Kind() != canon.Object {
		return canon.Value{}
	}
	for i := 0; i < v.Len(); i++ {
		if n, m := v.Member(i); n == name {
			return m
		}
	}
	return canon.Value{}
}

func noAnswer(why string) error {
	return fmt.Errorf("%w: %w", ErrNoAnswer, games.Errorf(games.CodeBadRequest, "the reply carries no answer: %s; send the answer object as a data part", why))
}

// captureKey carries a call's *captured through the request contexts a2a-go makes from it.
type captureKey struct{}

// captured holds the body of the last response a call received (a2a-go makes one request at a
// time per call; the lock is for the transport's goroutine).
type captured struct {
	mu   sync.Mutex
	body []byte
}

func (c *captured) set(b []byte) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.body = b
}

func (c *captured) last() []byte {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.body
}

// captureTransport reads each response body of a call that carries a *captured (within the
// size cap of the transport below it) and hands a2a-go a copy, so the call reads the answer
// from the bytes the agent sent.
type captureTransport struct{ rt http.RoundTripper }

func (t captureTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	resp, err := t.rt.RoundTrip(r)
	c, ok := r.Context().Value(captureKey{}).(*captured)
	if err != nil || !ok || resp.Body == nil {
		return resp, err
	}
	b, err := io.ReadAll(resp.Body)
	resp.Body.Close()
	if err != nil {
		return nil, err
	}
	c.set(b)
	resp.Body = io.NopCloser(bytes.NewReader(b))
	return resp, nil
}

// late maps a transport error after the deadline to ErrLate (keeping the cause), and a body
// over the cap to ErrTooLarge.
func late(ctx context.Context, err error) error {
	if errors.Is(err, ErrTooLarge) {
		return err
	}
	if ctx.Err() != nil {
		return fmt.Errorf("%w: %v", ErrLate, err)
	}
	return fmt.Errorf("a2a: call: %w", err)
}

// client is the a2a-go client of endpoint (JSON-RPC transport over c.http, the Badge extension
// header added to every request), made once per endpoint.
func (c *Client) client(ctx context.Context, endpoint string) (*a2aclient.Client, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if cl, ok := c.byTarget[endpoint]; ok {
		return cl, nil
	}
	cl, err := a2aclient.NewFromEndpoints(ctx,
		[]a2a.AgentInterface{{URL: endpoint, Transport: a2a.TransportProtocolJSONRPC}},
		a2aclient.WithJSONRPCTransport(c.http),
		a2aclient.WithInterceptors(extensionHeader{}))
	if err != nil {
		return nil, fmt.Errorf("a2a: client for %s: %w", endpoint, err)
	}
	if len(c.byTarget) > 4096 { // bound the cache: endpoints come from cards
		clear(c.byTarget)
	}
	c.byTarget[endpoint] = cl
	return cl, nil
}

// extensionHeader adds X-A2A-Extensions naming the Badge extension (a2a-go does not).
type extensionHeader struct {
	a2aclient.PassthroughInterceptor
}

func (extensionHeader) Before(ctx context.Context, req *a2aclient.Request) (context.Context, error) {
	req.Meta[HeaderExtensions] = []string{BadgeExtension}
	return ctx, nil
}
