package join

import (
	"context"
	"encoding/json"
	"net/http"
	"regexp"
	"strings"
	"time"

	"github.com/labstack/echo/v4"

	"arena/transport/door"
	"arena/transport/dotdotdot/lever"
)

// The owner's session for the levers (§12: "delivered over the human session, not the agent
// endpoint"). How it is opened is ours to define:
//
//  1. POST /v1/session/challenge {agent} → {challenge, expires_at}: a random challenge for that
//     Badge, single use, valid ChallengeTTL.
//  2. POST /v1/session {agent, challenge, issued_at, sig}, signed like a join by the Badge's
//     card key (resolved from the chain, §4.1) → {session, agent, expires_at}: a bearer token
//     ("s_" + 43 base64url characters) valid SessionTTL, naming that one Badge.
//  3. POST /v1/rounds/{round}/call|veto|accuse with "Authorization: Bearer s_…": the lever of
//     the seat that Badge holds in round. The game applies every rule and its §12 refusal is
//     answered 409 {error, code, retry} as it is.
//
// Challenges and sessions (sessions.go) are durable with Options.Sessions on a store, and
// bounded per caller: past the bound, rate_limited (429, Retry-After).

type challengeBody struct {
	Agent string `json:"agent"`
}

func (h *handlers) challenge(c echo.Context) error {
	var b challengeBody
	if err := door.Decode(c, h.o.MaxBody, &b); err != nil {
		return err
	}
	if err := CheckAgentID(b.Agent); err != nil {
		return err
	}
	if h.o.Resolver == nil {
		return &door.Refusal{Code: CodeNoRegistry, Msg: "no agent registry is configured on this arena: no owner can sign in (§4.1)"}
	}
	addr := door.ClientAddr(c.Request(), h.o.Forwarded)
	if err := h.o.Challenges.Allow(addr); err != nil {
		return err
	}
	ch, exp, err := h.sessions.challenge(addr, b.Agent)
	if err != nil {
		return err
	}
	c.Response().Header().Set("Cache-Control", "no-store")
	return c.JSON(http.StatusOK, map[string]any{"challenge": ch, "agent": b.Agent, "expires_at": exp.UTC().Format(time.RFC3339)})
}

// sessionBody is POST /v1/session: the challenge signed by the Badge's card key.
type sessionBody struct {
	Agent     string `json:"agent"`
	Challenge string `json:"challenge"`
	IssuedAt  string `json:"issued_at"`
	Sig       string `json:"sig"`
}

func (h *handlers) session(c echo.Context) error {
	raw, err := door.ReadBody(c, h.o.MaxBody)
	if err != nil {
		return err
	}
	var b sessionBody
	if err := door.DecodeBytes(raw, &b); err != nil {
		return err
	}
	ctx, cancel := context.WithTimeout(c.Request().Context(), h.o.CallTimeout)
	defer cancel()
	if err := CheckAgentID(b.Agent); err != nil { // §3, before the other members
		return err
	}
	// The challenge is the nonce: verify checks the signature, then records it as used.
	if !strings.HasPrefix(b.Challenge, "c_") {
		return door.Refuse(door.CodeBadRequest, "challenge must be one POST /v1/session/challenge gave")
	}
	ag, err := h.verify(ctx, raw, b.Agent, b.IssuedAt, b.Challenge[2:], b.Sig, "session")
	if err != nil {
		return err
	}
	if ok, err := h.sessions.take(b.Challenge, ag.ID); err != nil {
		return err
	} else if !ok {
		return door.Refuse(door.CodeForbidden, "the challenge is unknown, expired, used, or was issued for another agent")
	}
	tok, exp, err := h.sessions.open(ag.ID)
	if err != nil {
		return err
	}
	c.Response().Header().Set("Cache-Control", "no-store")
	return c.JSON(http.StatusOK, map[string]any{"session": tok, "agent": ag.ID, "expires_at": exp.UTC().Format(time.RFC3339)})
}

var roundID = regexp.MustCompile(`^T-[1-9][0-9]{0,18}$`)

// bearer is the session token of an "Authorization: Bearer s_…" header ("" when there is none
// or it is not a session token).
func bearer(c echo.Context) string {
	a := c.Request().Header.Get(echo.HeaderAuthorization)
	tok, ok := strings.CutPrefix(a, "Bearer ")
	if !ok || !strings.HasPrefix(tok, "s_") {
		return ""
	}
	return strings.TrimSpace(tok)
}

// lever is POST /v1/rounds/{round}/{kind}: over a session bearer, the owner's lever; otherwise
// the walk-in desk's handler (desk), or unauthorized when no desk is mounted.
func (h *handlers) lever(kind string, desk echo.HandlerFunc) echo.HandlerFunc {
	return func(c echo.Context) error {
		tok := bearer(c)
		if tok == "" {
			if desk != nil {
				return desk(c) // x-walkin, or the desk's own refusal (no_token)
			}
			return door.Refuse(door.CodeUnauthorized, "send Authorization: Bearer <session> (POST /v1/session) or x-walkin")
		}
		if len(c.QueryParams()) > 0 {
			return door.Refuse(door.CodeBadRequest, "no query parameters on a lever")
		}
		agent, ok := h.sessions.agentOf(tok)
		if !ok {
			return door.Refuse(door.CodeUnauthorized, "the session is unknown or expired; open a new one (POST /v1/session/challenge)")
		}
		round := c.Param("round")
		if !roundID.MatchString(round) {
			return door.Refuse(door.CodeBadRequest, "round must be T-<n>")
		}
		raw, err := door.ReadBody(c, h.o.MaxBody)
		if err != nil {
			return err
		}
		err = lever.Check(kind, raw)
		if err != nil {
			return err
		}
		ctx, cancel := context.WithTimeout(c.Request().Context(), h.o.CallTimeout)
		defer cancel()
		reply, err := h.o.Seater.Lever(ctx, agent, round, kind, raw)
		if err != nil {
			return err
		}
		if len(reply) == 0 {
			reply = json.RawMessage(`{"ok":true}`)
		}
		c.Response().Header().Set("Cache-Control", "no-store")
		return c.Blob(http.StatusOK, echo.MIMEApplicationJSON, reply)
	}
}
