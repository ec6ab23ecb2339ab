package join

import (
	"bytes"
	"context"
	"crypto/ed25519"
	"encoding/json"
	"net/http"
	"regexp"

	"github.com/labstack/echo/v4"

	"arena/actors/dotdotdot"
	"arena/games/blitz"
	"arena/games/canon"
	"arena/transport/door"
)

// Off-the-shelf agents (§4.2): an owner has this arena run an agent for them on the house model.
// The owner asks for a key (POST /v1/ots/key): the answer is a fresh owner_token and the
// signing_key the arena holds for the Badge under that token (dotdotdot OTSKey: each token its
// own key). The owner registers a Badge whose card names this instance as its operator and
// carries that signing_key; the registration is the owner's consent, and the token is the owner's
// proof at the door: a join must present, for each agent, the owner_token whose key the card
// carries. Anyone may ask for a key, but only the owner can put it in the card, so a token of
// anyone else's names a key no card carries (signing_key_mismatch). A signed join would prove
// nothing here (the arena holds the key). Routes (Mount, with Options.OTS set):
//
//	POST /v1/ots/key              {agent} → {agent, operator, signing_key, owner_token}: what the card
//	                              must say, and the secret that seats it (never in a URL)
//	POST /v1/ots/join             {table: "practice", format?, seats?, agents: [{agent, owner_token, playbook?}]}
//	                              → {round, table, seats, format, pace, status, playbook_tokens};
//	                              table "open" (one agent): a paid seat's hold, as POST /v1/join's (§5.7);
//	                              its check (GET /v1/join/paid/{hold}) carries playbook_token once seated
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
	Grant    string // dotdotdot.OTSGrant of the owner token whose key the card carries
}

// OTSOptions configure the off-the-shelf door.
type OTSOptions struct {
	Seater OTSSeater // required
	// Instance is this instance's own agent id (§3): the operator every card must name.
	Instance string
	// Key is the public key the arena holds for an off-the-shelf Badge under grant (dotdotdot
	// OTSKey; grant is dotdotdot.OTSGrant of an owner token).
	Key func(agent, grant string) ed25519.PublicKey
	// Tables limits POST /v1/ots/join per caller address (door.ClientAddr), as the desk's
	// Practice tables are: past it, rate_limited (429). Nil: no limit.
	Tables *door.Limiter
	// Keys limits POST /v1/ots/key per caller address (door.ClientAddr): each answer is a fresh
	// owner token, an owner's credential as a sign-in challenge is, so cmd/arena hands it the
	// same budget as Options.Challenges. Past it, rate_limited (429, Retry-After), and no token
	// is issued. Nil: no limit.
	Keys *door.Limiter
}

// otsJoinBody is POST /v1/ots/join. playbook is a blitz.Playbook (strict); absent, the default.
type otsJoinBody struct {
	Table  string `json:"table"`
	Format string `json:"format,omitempty"`
	Seats  int    `json:"seats,omitempty"`
	Agents []struct {
		Agent      string          `json:"agent"`
		OwnerToken string          `json:"owner_token"`
		Playbook   json.RawMessage `json:"playbook,omitempty"`
	} `json:"agents"`
}

// mountOTS adds the off-the-shelf routes to e (o is the door's Options, defaults set: the
// Resolver, the KeyProver, the caps; o.OTS is set).
func mountOTS(e *echo.Echo, o Options) {
	h := &otsHandlers{o: o, ots: *o.OTS}
	e.POST("/v1/ots/key", h.key)
	e.POST("/v1/ots/join", h.join)
	e.POST("/v1/ots/playbook", h.playbook)
}

func (h *otsHandlers) playbook(c echo.Context) error {
	token := c.Request().Header.Get(PlaybookHeader)
	if token == "" {
		return door.Refuse(door.CodeUnauthorized, "the playbook token goes in the "+PlaybookHeader+" header (from the join's playbook_tokens, or a paid seat's check's playbook_token)")
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
	o   Options
	ots OTSOptions
}

// otsKeyBody is POST /v1/ots/key.
type otsKeyBody struct {
	Agent string `json:"agent"`
}

// key issues a fresh owner token for agent and the signing_key the arena holds under it.
func (h *otsHandlers) key(c echo.Context) error {
	raw, err := door.ReadBody(c, h.o.MaxBody)
	if err != nil {
		return err
	}
	var b otsKeyBody
	if err := door.DecodeBytes(raw, &b); err != nil {
		return err
	}
	if err := CheckAgentID(b.Agent); err != nil {
		return err
	}
	// Only an issue counts: a malformed body never reaches the limiter (as the challenges').
	if err := h.ots.Keys.Allow(door.ClientAddr(c.Request(), h.o.Forwarded)); err != nil {
		return err
	}
	token := randomToken("ots_")
	c.Response().Header().Set("Cache-Control", "no-store")
	return c.JSON(http.StatusOK, map[string]string{"agent": b.Agent, "operator": h.ots.Instance,
		"signing_key": canon.FormatKey(h.ots.Key(b.Agent, dotdotdot.OTSGrant(token))), "owner_token": token})
}

// ownerTokenPattern is an owner token as randomToken makes it: "ots_" and 43 base64url
// characters (32 random bytes).
var ownerTokenPattern = regexp.MustCompile(`^ots_[A-Za-z0-9_-]{43}$`)

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
		if a.OwnerToken == "" {
			return door.Refuse(door.CodeUnauthorized, a.Agent+": owner_token is required: the token POST /v1/ots/key gave with the signing_key the card carries")
		}
		if !ownerTokenPattern.MatchString(a.OwnerToken) {
			return door.Refuse(door.CodeBadRequest, a.Agent+": owner_token is \"ots_\" and 43 base64url characters, as POST /v1/ots/key gives it")
		}
	}
	if h.o.Resolver == nil {
		return &door.Refusal{Code: CodeNoRegistry, Msg: "no agent registry is configured on this arena: it seats no registered agent (§4.1)"}
	}
	ctx, cancel := context.WithTimeout(c.Request().Context(), h.o.CallTimeout)
	defer cancel()
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
		if ag.Operator != h.ots.Instance || h.ots.Instance == "" {
			return door.Refuse(CodeOperatorMismatch, a.Agent+"'s card does not name this arena ("+h.ots.Instance+") as its operator (§4.2): it is not ours to run")
		}
		grant := dotdotdot.OTSGrant(a.OwnerToken)
		if !bytes.Equal(ag.SigningKey, h.ots.Key(a.Agent, grant)) {
			return door.Refuse(CodeSigningKeyMismatch, a.Agent+"'s card does not carry the signing_key of this owner_token: only the owner, who put a key from POST /v1/ots/key in the card, seats it with that key's token")
		}
		// The arena holds the key's private half: the Badge's hold on it is proven.
		if p, ok := h.o.Resolver.(KeyProver); ok {
			if err := p.Proven(a.Agent, ag.SigningKey); err != nil {
				return err
			}
		}
		seat.Agents = append(seat.Agents, OTSSeatAgent{Agent: ag, Playbook: pb, Grant: grant})
	}
	if b.Table == "open" { // §5.7: a hold; the owner's deposit seats it
		a := seat.Agents[0]
		hold, err := h.o.Paid.Hold(ctx, Seat{Agent: a.Agent, Table: b.Table, Format: b.Format, Seats: b.Seats, Playbook: &a.Playbook, OTSGrant: a.Grant})
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
