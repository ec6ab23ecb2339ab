package market

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strings"

	am "arena/actors/market"
	gm "arena/games/market"
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
// *actors/market.Market. Do's errors wrap am.ErrUnavailable or am.ErrCorrupt; Version is the
// State Version of everything durable, answered at once (the doors' own refusals carry it).
type Market interface {
	Do(ctx context.Context, owner string, body []byte) ([]byte, error)
	Version() uint64
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
		return s.tooLarge()
	}
	owner := c.OwnerID
	if strings.TrimSpace(owner) == "" {
		owner = ""
	}
	body, err := s.m.Do(ctx, owner, raw)
	switch {
	case errors.Is(err, am.ErrCorrupt):
		return s.Refusal(door.CodeInternal, "the market's records do not replay; an operator has been told")
	case err != nil:
		return s.Refusal(door.CodeBusy, "the market could not answer; send the same request again")
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

// Refusal is a refusal a door decides (code, message) as the market's envelope, exactly as the
// reducer writes its own (games/market RefusalEnvelope: the protocol's member order, the
// current durable State Version), with the status Statuses gives code.
func (s *Seam) Refusal(code, msg string) Reply {
	var v uint64
	if s != nil {
		v = s.m.Version()
	}
	return Reply{Status: Statuses.Status(code), Code: code, Body: gm.RefusalEnvelope(v, code, msg)}
}

// tooLarge is the refusal of a request over the cap, the same words on every door (the
// request's bytes on POST /v2/request and in the A2A part, or the A2A frame carrying it).
func (s *Seam) tooLarge() Reply {
	return s.Refusal(door.CodeTooLarge, fmt.Sprintf("the request is over the %d-byte cap", s.max))
}

// Version is the market's durable State Version (0 for a nil Seam).
func (s *Seam) Version() uint64 {
	if s == nil {
		return 0
	}
	return s.m.Version()
}

// write sends a on w.
func (a Reply) write(w http.ResponseWriter) {
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Cache-Control", "no-store")
	w.WriteHeader(a.Status)
	w.Write(a.Body)
}
