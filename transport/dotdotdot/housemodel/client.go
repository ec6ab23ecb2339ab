// Package housemodel is the house model an off-the-shelf seat thinks on (§4.2, §15 seat.taken
// kind ots; its seats pay the §14 inference fee): one backend, Client, that speaks the
// OpenAI-compatible chat-completions wire (POST <URL>/chat/completions) to the endpoint the
// arena's config names. The prompt is built from the §4 envelope the seat receives, the owner's
// playbook and dials, and the mole playbook when the seat is the mole (§9; prompt.go). The answer
// is the model's message content, as bytes, for the arena's one strict answer reader
// (dotdotdot.CheckAnswer, then the game): nothing here repairs or re-encodes it.
//
// The wire is carried by github.com/sashabaranov/go-openai (the module proxy serves it; it has no
// dependencies of its own), with an HTTP client of ours underneath that caps the response body.
// Every call is bounded by its ctx: the caller gives it the move's deadline (§5.3).
package housemodel

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"
	"unicode/utf8"

	openai "github.com/sashabaranov/go-openai"
)

// Config is where the house model is served (config's dotdotdot.house_model).
type Config struct {
	// URL is the endpoint's base URL, the path before /chat/completions
	// ("https://models.example/v1"): absolute http or https. Required.
	URL string
	// Model is the model name sent in each request. Required.
	Model string
	// Key is sent as the bearer token; "" sends none (a local endpoint).
	Key string
	// MaxBody caps the response body in bytes; 0 means DefaultMaxBody. A larger body is no
	// answer (ErrTooLarge).
	MaxBody int64
	// HTTP carries the requests; nil means a client with no timeout of its own (each call's ctx
	// bounds it) that keeps up to 64 idle connections to the endpoint.
	HTTP *http.Client
}

// maxIdlePerHost is how many idle connections to the endpoint a Client keeps.
const maxIdlePerHost = 64

// DefaultMaxBody is the response cap: an answer of 8+8 messages of 600 characters and four
// commitments is under 20 KiB; the envelope is not echoed back.
const DefaultMaxBody = 256 << 10

// Errors of Think, each wrapped with what the endpoint said. Any of them means the model gave no
// answer the seat can use: the seat answers from the fallback policy (§15 agent.scripted).
var (
	// ErrRefused: the model declined (its message's refusal, or finish_reason content_filter).
	ErrRefused = errors.New("housemodel: the model refused")
	// ErrNoAnswer: the response carried no usable choice (no choice, empty content, or cut off
	// at the token limit).
	ErrNoAnswer = errors.New("housemodel: no answer in the response")
	// ErrTooLarge: the response body exceeded MaxBody.
	ErrTooLarge = errors.New("housemodel: response body over the cap")
	// ErrEndpoint: the endpoint answered with an error status or a body that is not a
	// chat-completions response.
	ErrEndpoint = errors.New("housemodel: endpoint error")
)

// Client is the chat-completions backend. Safe for concurrent use.
type Client struct {
	c     *openai.Client
	model string
	max   int64
}

// New makes a Client for c. Errors: a URL that is not absolute http(s), or no model.
func New(c Config) (*Client, error) {
	u, err := url.Parse(c.URL)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return nil, fmt.Errorf("housemodel: url %q: want an absolute http or https URL", c.URL)
	}
	if strings.TrimSpace(c.Model) == "" {
		return nil, errors.New("housemodel: no model named")
	}
	hc := c.HTTP
	if hc == nil {
		// Every off-the-shelf seat's move is one request to the one host: keep connections
		// to it open rather than dial one per move (net/http keeps two idle by default).
		t := http.DefaultTransport.(*http.Transport).Clone()
		t.MaxIdleConnsPerHost = maxIdlePerHost
		hc = &http.Client{Transport: t}
	}
	max := c.MaxBody
	if max <= 0 {
		max = DefaultMaxBody
	}
	cfg := openai.DefaultConfig(c.Key)
	cfg.BaseURL = strings.TrimRight(c.URL, "/")
	cfg.HTTPClient = &capped{c: hc, max: max, key: c.Key != ""}
	return &Client{c: openai.NewClientWithConfig(cfg), model: c.Model, max: max}, nil
}

// Request is the chat-completions request Think sends for envelope and playbook (prompt.go):
// the model, the two messages and a JSON-object answer format.
func (c *Client) Request(envelope, playbook []byte) (openai.ChatCompletionRequest, error) {
	msgs, err := Messages(envelope, playbook)
	if err != nil {
		return openai.ChatCompletionRequest{}, err
	}
	return openai.ChatCompletionRequest{Model: c.model, Messages: msgs,
		ResponseFormat: &openai.ChatCompletionResponseFormat{Type: openai.ChatCompletionResponseFormatTypeJSONObject}}, nil
}

// Think asks the model for the seat's answer to envelope (the signed §4 envelope, as the seat
// receives it) under playbook (a blitz.Playbook's JSON; nil or empty: the default playbook) and
// returns the first choice's message content, unchanged. It returns when ctx ends (the move's
// deadline) with ctx's error. Errors: a bad envelope or playbook (from Messages), ErrRefused,
// ErrNoAnswer, ErrTooLarge, ErrEndpoint, or the transport's.
func (c *Client) Think(ctx context.Context, envelope, playbook []byte) ([]byte, error) {
	req, err := c.Request(envelope, playbook)
	if err != nil {
		return nil, err
	}
	resp, err := c.c.CreateChatCompletion(ctx, req)
	if err != nil {
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		if errors.Is(err, ErrTooLarge) {
			return nil, err
		}
		return nil, fmt.Errorf("%w: %v", ErrEndpoint, err)
	}
	if len(resp.Choices) == 0 {
		return nil, fmt.Errorf("%w: no choices", ErrNoAnswer)
	}
	ch := resp.Choices[0]
	switch {
	case ch.Message.Refusal != "":
		return nil, fmt.Errorf("%w: %q", ErrRefused, clip(ch.Message.Refusal))
	case ch.FinishReason == openai.FinishReasonContentFilter:
		return nil, fmt.Errorf("%w: finish_reason content_filter", ErrRefused)
	case ch.FinishReason == openai.FinishReasonLength:
		return nil, fmt.Errorf("%w: cut off at the token limit", ErrNoAnswer)
	case strings.TrimSpace(ch.Message.Content) == "":
		return nil, fmt.Errorf("%w: empty content", ErrNoAnswer)
	}
	return []byte(ch.Message.Content), nil
}

// clip shortens a model's text for an error to at most 200 bytes of whole runes, then "…", so
// the error (logged by the ots seat's fallback) stays valid UTF-8.
func clip(s string) string {
	if len(s) <= 200 {
		return s
	}
	n := 200
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n] + "…"
}

// capped is the HTTP client under go-openai: it drops the bearer header when no key is
// configured and caps the response body at max bytes (ErrTooLarge past it), so an endpoint
// cannot make a call read without bound.
type capped struct {
	c   *http.Client
	max int64
	key bool
}

func (h *capped) Do(req *http.Request) (*http.Response, error) {
	if !h.key {
		req.Header.Del("Authorization")
	}
	resp, err := h.c.Do(req)
	if err != nil {
		return nil, err
	}
	body, err := io.ReadAll(io.LimitReader(resp.Body, h.max+1))
	resp.Body.Close()
	if err != nil {
		return nil, err
	}
	if int64(len(body)) > h.max {
		return nil, fmt.Errorf("%w (%d bytes)", ErrTooLarge, h.max)
	}
	resp.Body = io.NopCloser(bytes.NewReader(body))
	resp.ContentLength = int64(len(body))
	return resp, nil
}
