package join

import (
	"bytes"
	"context"
	"crypto/ed25519"
	"encoding/json"
	"net/http"

	"github.com/labstack/echo/v4"

	"arena/actors/dotdotdot"
	"arena/games/blitz"
	"arena/games/canon"
	"arena/transport/door"
)

// Off-the-shelf agents (§4.2): an owner has this arena run an agent for them on the house model.
// The owner registers a Badge whose card names this instance as its operator and carries, as its
// signing_key, the key the arena holds for that Badge (GET /v1/ots/key); the registration is the
// owner's consent to be run. The arena holds the key, so a signature by it proves nothing about
// the caller: a join is authenticated instead by the owner's session (lever.go, "Authorization:
// Bearer s_…"), opened by one of the owner's own Badges, signed by that Badge's card key. The
// session's Badge and every listed agent must have the same registry owner (the Concordium
// account, §4.1); otherwise the whole request is refused (forbidden, 403) and nothing is seated
// or held. The playbook tokens are answered to that caller only. Routes (Mount, with
// Options.OTS set):
//
//	GET  /v1/ots/key?agent=<id>   → {agent, operator, signing_key}: what the card must say
//	POST /v1/ots/join             Authorization: Bearer s_… (the owner's session);
//	                              {table: "practice", format?, seats?, agents: [{agent, playbook?}]}
//	                              → {round, table, seats, format, pace, status, playbook_tokens};
//	                              table "open" (one agent): a paid seat's hold, as POST /v1/join's (§5.7)
//	POST /v1/ots/playbook         x-playbook-token; body a playbook {text?, dials?} → {playbook}:
//	                              the owner's human edits it until scouting ends (§5.2)

// Codes of the off-the-shelf door.
const (
	CodeOperatorMismatch   = "operator_mismatch"    // the card does not name this instance as operator (409)
	CodeSigningKeyMismatch = "signing_key_mismatch" // the card's signing_key is not the key this arena holds for it (409)
)

// OTSSeater seats off-the-shelf agents (*dotdotdot.Arena through cmd/arena's wiring). Errors
// are refusals with protocol codes.
type OTSSeater interface {
	JoinOTS(ctx context.Context, s OTSSeat) (dotdotdot.OTSJoinReply, error)
	// EditPlaybook sets the playbook of the seat a playbook token names, while scouting lasts
	// (§5.2); body is the raw playbook. It answers {"playbook": ...}.
	EditPlaybook(ctx context.Context, token string, body []byte) (json.RawMessage, error)
}

// PlaybookHeader carries a playbook token (OTSJoinReply.PlaybookTokens); never a URL.
const PlaybookHeader = "x-playbook-token"

// OTSSeat is a verified off-the-shelf join: each agent resolved (§4.1), run by this instance, with
// its owner's playbook.
type OTSSeat struct {
	Agents []OTSSeatAgent
	Table  string // "practice"
	Format string
	Seats  int
}

// OTSSeatAgent is one resolved agent and its playbook.
type OTSSeatAgent struct {
	Agent    Agent
	Playbook blitz.Playbook
}

// OTSOptions configure the off-the-shelf door.
type OTSOptions struct {
	Seater OTSSeater // required
	// Instance is this instance's own agent id (§3): the operator every card must name.
	Instance string
	// Key is the public key the arena holds for an off-the-shelf Badge (dotdotdot OTSKey).
	Key func(agent string) ed25519.PublicKey
	// Tables limits POST /v1/ots/join per caller address (door.ClientAddr), as the desk's
	// Practice tables are: past it, rate_limited (429). Nil: no limit.
	Tables *door.Limiter
}

// otsJoinBody is POST /v1/ots/join. playbook is a blitz.Playbook (strict); absent, the default.
type otsJoinBody struct {
	Table  string `json:"table"`
	Format string `json:"format,omitempty"`
	Seats  int    `json:"seats,omitempty"`
	Agents []struct {
		Agent    string          `json:"agent"`
		Playbook json.RawMessage `json:"playbook,omitempty"`
	} `json:"agents"`
}

// mountOTS adds the off-the-shelf routes to e (o is the door's Options, defaults set: the
// Resolver, the KeyProver, the caps; o.OTS is set).
func mountOTS(e *echo.Echo, o Options, sessions *Sessions) {
	h := &otsHandlers{o: o, ots: *o.OTS, sessions: sessions}
	e.GET("/v1/ots/key", h.key)
	e.POST("/v1/ots/join", h.join)
	e.POST("/v1/ots/playbook", h.playbook)
}

func (h *otsHandlers) playbook(c echo.Context) error {
	token := c.Request().Header.Get(PlaybookHeader)
	if token == "" {
		return door.Refuse(door.CodeUnauthorized, "the playbook token goes in the "+PlaybookHeader+" header (from the join's playbook_tokens)")
	}
	raw, err := door.ReadBody(c, h.o.MaxBody)
	if err != nil {
		return err
	}
	ctx, cancel := context.WithTimeout(c.Request().Context(), h.o.CallTimeout)
	defer cancel()
	r, err := h.ots.Seater.EditPlaybook(ctx, token, raw)
	if err != nil {
		return err
	}
	c.Response().Header().Set("Cache-Control", "no-store")
	return c.JSONBlob(http.StatusOK, r)
}

type otsHandlers struct {
	o        Options
	ots      OTSOptions
	sessions *Sessions
}

// owner is the registry owner (CAIP-10 account) of the caller's session: the Badge the session
// names, resolved (§4.1). Refusals: unauthorized (401) with no session or an unknown or expired
// one; the Resolver's when the session's Badge no longer resolves.
func (h *otsHandlers) owner(ctx context.Context, c echo.Context) (string, error) {
	tok := bearer(c)
	if tok == "" {
		return "", door.Refuse(door.CodeUnauthorized, "send Authorization: Bearer <session> (POST /v1/session, signed by one of the owner's own Badges)")
	}
	agent, ok := h.sessions.agentOf(tok)
	if !ok {
		return "", door.Refuse(door.CodeUnauthorized, "the session is unknown or expired; open a new one (POST /v1/session/challenge)")
	}
	ag, err := h.o.Resolver.Resolve(ctx, agent)
	if err != nil {
		return "", err
	}
	if ag.Owner == "" {
		return "", door.Refuse(door.CodeForbidden, "the session's Badge has no registry owner")
	}
	return ag.Owner, nil
}

func (h *otsHandlers) key(c echo.Context) error {
	agent := c.QueryParam("agent")
	if err := CheckAgentID(agent); err != nil {
		return err
	}
	return c.JSON(http.StatusOK, map[string]string{"agent": agent, "operator": h.ots.Instance,
		"signing_key": canon.FormatKey(h.ots.Key(agent))})
}

func (h *otsHandlers) join(c echo.Context) error {
	if l := h.ots.Tables; l != nil {
		if err := l.Allow(door.ClientAddr(c.Request(), h.o.Forwarded)); err != nil {
			return err
		}
	}
	raw, err := door.ReadBody(c, h.o.MaxBody)
	if err != nil {
		return err
	}
	var b otsJoinBody
	if err := door.DecodeBytes(raw, &b); err != nil {
		return err
	}
	switch {
	case b.Table == "open" && h.o.Paid == nil:
		why := h.o.PaidOff
		if why == "" {
			why = "this arena has no paid table"
		}
		return door.Refuse(CodeBadTable, why)
	case b.Table == "open" && len(b.Agents) != 1:
		return door.Refuse(door.CodeBadRequest, "a paid seat (table \"open\", §5.7) is held for one agent")
	case b.Table != "practice" && b.Table != "open":
		return door.Refuse(CodeBadTable, `table must be "practice" or "open" (a paid seat, §5.7)`)
	}
	if len(b.Agents) == 0 || len(b.Agents) > dotdotdot.MaxOTSAgents {
		return door.Refuse(door.CodeBadRequest, "agents: 1 to 4 off-the-shelf agents, each {agent, playbook?}")
	}
	for _, a := range b.Agents {
		if err := CheckAgentID(a.Agent); err != nil {
			return err
		}
	}
	if h.o.Resolver == nil {
		return &door.Refusal{Code: CodeNoRegistry, Msg: "no agent registry is configured on this arena: it seats no registered agent (§4.1)"}
	}
	ctx, cancel := context.WithTimeout(c.Request().Context(), h.o.CallTimeout)
	defer cancel()
	owner, err := h.owner(ctx, c)
	if err != nil {
		return err
	}
	seat := OTSSeat{Table: b.Table, Format: b.Format, Seats: b.Seats}
	for _, a := range b.Agents {
		pb := blitz.DefaultPlaybook()
		if len(a.Playbook) > 0 {
			if pb, err = blitz.ParsePlaybook(a.Playbook); err != nil {
				return err
			}
		}
		ag, err := h.o.Resolver.Resolve(ctx, a.Agent)
		if err != nil {
			return err
		}
		if ag.Owner != owner { // the whole list is refused: nothing is seated or held
			return door.Refuse(door.CodeForbidden, a.Agent+" is not owned by the session's account: only its owner may seat it")
		}
		if ag.Operator != h.ots.Instance || h.ots.Instance == "" {
			return door.Refuse(CodeOperatorMismatch, a.Agent+"'s card does not name this arena ("+h.ots.Instance+") as its operator (§4.2): it is not ours to run")
		}
		want := h.ots.Key(a.Agent)
		if !bytes.Equal(ag.SigningKey, want) {
			return door.Refuse(CodeSigningKeyMismatch, a.Agent+"'s card carries a signing_key this arena does not hold; put "+canon.FormatKey(want)+" in it (GET /v1/ots/key)")
		}
		// The arena holds the key's private half: the Badge's hold on it is proven.
		if p, ok := h.o.Resolver.(KeyProver); ok {
			if err := p.Proven(a.Agent, ag.SigningKey); err != nil {
				return err
			}
		}
		seat.Agents = append(seat.Agents, OTSSeatAgent{Agent: ag, Playbook: pb})
	}
	if b.Table == "open" { // §5.7: a hold; the owner's deposit seats it
		a := seat.Agents[0]
		hold, err := h.o.Paid.Hold(ctx, Seat{Agent: a.Agent, Table: b.Table, Format: b.Format, Seats: b.Seats, Playbook: &a.Playbook})
		if err != nil {
			return err
		}
		c.Response().Header().Set("Cache-Control", "no-store")
		return c.JSON(http.StatusOK, holdReply(hold))
	}
	r, err := h.ots.Seater.JoinOTS(ctx, seat)
	if err != nil {
		return err
	}
	c.Response().Header().Set("Cache-Control", "no-store")
	return c.JSON(http.StatusOK, r)
}
