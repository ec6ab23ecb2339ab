package market

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strings"

	am "arena/actors/market"
	"arena/transport/door"
)

// Caller is who a request comes from, as the platform in front of the protocol hands it over
// (game-master-protocol-v2.md "Trust boundary": Blocks' CallerContext.ownerId). The payload
// never names an Owner: every door fills OwnerID from its credential (Authenticator) and gives
// the raw request beside it. "" or white space is no authenticated Owner.
type Caller struct {
	OwnerID string
}

// Market answers one raw request for an Owner once what it changed is durable:
// *actors/market.Market. Its errors wrap am.ErrUnavailable or am.ErrCorrupt.
type Market interface {
	Do(ctx context.Context, owner string, body []byte) ([]byte, error)
}

// Reply is what Handle gives a door: the response envelope, byte for byte, and the HTTP status
// the site's table (Statuses) gives its code. Code is the envelope's error code ("" when ok).
type Reply struct {
	Status int
	Code   string
	Body   []byte
}

// Seam is the one function every door of the market calls (Handle); its methods are safe for
// concurrent use.
type Seam struct {
	m   Market
	max int64
}

// NewSeam is the seam over m. maxBody caps a request in bytes (≤ 0: door.DefaultMaxBody): a
// longer one is refused too_large (413) on every door alike.
func NewSeam(m Market, maxBody int64) (*Seam, error) {
	if m == nil {
		return nil, errors.New("market: seam: a market is required")
	}
	if maxBody <= 0 {
		maxBody = door.DefaultMaxBody
	}
	return &Seam{m: m, max: maxBody}, nil
}

// Handle answers raw, the request exactly as the caller sent it, for c. Every refusal the
// protocol decides is the reducer's, in its order ("Check order" in docs/protocol-notes.md):
// a blank OwnerID is authentication_required (401), so is what no door could authenticate; a
// request over the cap is too_large (413) before it is read; a market that could not answer
// (its write failed, it is busy, ctx ended) is busy (503) and one whose records do not replay
// internal (500), each in the market's envelope, nothing having changed. Bytes of a stored
// response (a retried command) come back as stored.
func (s *Seam) Handle(ctx context.Context, c Caller, raw []byte) Reply {
	if int64(len(raw)) > s.max {
		return refusal(door.CodeTooLarge, fmt.Sprintf("request over %d bytes", s.max))
	}
	owner := c.OwnerID
	if strings.TrimSpace(owner) == "" {
		owner = ""
	}
	body, err := s.m.Do(ctx, owner, raw)
	switch {
	case errors.Is(err, am.ErrCorrupt):
		return refusal(door.CodeInternal, "the market's records do not replay; an operator has been told")
	case err != nil:
		return refusal(door.CodeBusy, "the market could not answer; send the same request again")
	}
	code := envelopeCode(body)
	if code == "" {
		return Reply{Status: http.StatusOK, Body: body}
	}
	return Reply{Status: Statuses.Status(code), Code: code, Body: body}
}

// envelopeCode is the error code of a response envelope, "" for ok:true.
func envelopeCode(body []byte) string {
	var env struct {
		OK    bool `json:"ok"`
		Error struct {
			Code string `json:"code"`
		} `json:"error"`
	}
	if json.Unmarshal(body, &env) != nil {
		return door.CodeInternal
	}
	if env.OK {
		return ""
	}
	return env.Error.Code
}

// refusal is a refusal the doors decide, in the market's envelope (Shape's bytes).
func refusal(code, msg string) Reply {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(map[string]any{ // plain data: cannot fail
		"protocolVersion": 2, "ok": false, "stateVersion": 0,
		"error": map[string]any{"code": code, "message": msg},
	})
	return Reply{Status: Statuses.Status(code), Code: code, Body: bytes.TrimRight(b.Bytes(), "\n")}
}

// write sends a on w.
func (a Reply) write(w http.ResponseWriter) {
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Cache-Control", "no-store")
	w.WriteHeader(a.Status)
	w.Write(a.Body)
}
