package a2a

import (
	"arena/chain/egress"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"sync"
	"time"

	"github.com/a2aproject/a2a-go/a2a"
	"github.com/a2aproject/a2a-go/a2aclient"
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
	hc.Transport = egress.CapTransport(rt, o.MaxResponse, ErrTooLarge)
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

// Call sends envelope (the signed §4 envelope, JSON) to the agent at endpoint and returns the
// agent's answer object (JSON) once it echoes the envelope. It returns no later than deadline
// (or ctx's end, if sooner); a late, missing, oversized, mis-echoed or malformed answer is an
// error, which the caller treats as the empty move.
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
	var raw []byte
	switch r := res.(type) {
	case *a2a.Message:
		raw, err = dataOf(r.Parts)
	case *a2a.Task:
		raw, err = c.await(ctx, cl, r)
	default:
		err = fmt.Errorf("%w: result %T", ErrNoAnswer, res)
	}
	if err != nil {
		return nil, err
	}
	var got echo
	if err := json.Unmarshal(raw, &got); err != nil {
		return nil, fmt.Errorf("%w: %v", ErrBadAnswer, err)
	}
	if !want.matches(got) {
		return nil, ErrEcho
	}
	return raw, nil
}

// await polls a Task until it is terminal or ctx ends; only a completed task is an answer.
func (c *Client) await(ctx context.Context, cl *a2aclient.Client, t *a2a.Task) ([]byte, error) {
	tick := time.NewTicker(c.poll)
	defer tick.Stop()
	for {
		switch t.Status.State {
		case a2a.TaskStateCompleted:
			return taskAnswer(t)
		case a2a.TaskStateFailed, a2a.TaskStateCanceled, a2a.TaskStateRejected,
			a2a.TaskStateInputRequired, a2a.TaskStateAuthRequired:
			return nil, fmt.Errorf("%w: state %s", ErrTask, t.Status.State)
		}
		select {
		case <-ctx.Done():
			return nil, fmt.Errorf("%w: task %s still %s", ErrLate, t.ID, t.Status.State)
		case <-tick.C:
		}
		next, err := cl.GetTask(ctx, &a2a.TaskQueryParams{ID: t.ID})
		if err != nil {
			return nil, late(ctx, err)
		}
		if next == nil {
			return nil, fmt.Errorf("%w: tasks/get answered nothing", ErrTask)
		}
		t = next
	}
}

// taskAnswer is a completed task's answer: its status message's data part, else the newest
// artifact's.
func taskAnswer(t *a2a.Task) ([]byte, error) {
	if t.Status.Message != nil {
		if raw, err := dataOf(t.Status.Message.Parts); err == nil {
			return raw, nil
		}
	}
	for i := len(t.Artifacts) - 1; i >= 0; i-- {
		if t.Artifacts[i] == nil {
			continue
		}
		if raw, err := dataOf(t.Artifacts[i].Parts); err == nil {
			return raw, nil
		}
	}
	return nil, ErrNoAnswer
}

// dataOf is the JSON of the first data part.
func dataOf(parts a2a.ContentParts) ([]byte, error) {
	for _, p := range parts {
		if d, ok := p.(a2a.DataPart); ok && d.Data != nil {
			return json.Marshal(d.Data)
		}
	}
	return nil, ErrNoAnswer
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
