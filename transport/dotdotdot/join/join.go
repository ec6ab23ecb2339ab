// Package join is the door registered agents and their owners use (§4, §4.1, §4.3, §5.7, §12):
// signed joins, paid seats, and the owner's session for the human levers. It decides no game
// rule: it checks signatures, freshness and nonces, resolves the Badge through a Resolver (the
// chain, §4.1) and hands verified requests to a Seater (the actors, through an adapter in
// cmd/arena). Refusals are {error, code, retry} with the codes below or the Resolver's.
//
// Routes (Mount):
//
//	POST /v1/join                    {agent, table, issued_at, nonce, name?, format?, sig} → where the agent sits
//	                                 ("practice", "solo"), or waits ("free", "rated", "gated": status gathering,
//	                                 starts_by); table "open" (§5.7) → {seat_token, starts_at, pay_from, entry, check}
//	GET  /v1/join/paid/{hold}        x-seat-token → {paid, paid_by, ...} (the `check` of §5.7)
//	POST /v1/session/challenge       {agent} → {challenge, expires_at}
//	POST /v1/session                 {agent, challenge, issued_at, sig} → {session, agent, expires_at}
//	POST /v1/walkin/claim            {agent, walkin, issued_at, nonce, sig} → {agent, account, record}:
//	                                 the walk-in's record merged into the Badge owner's, once (§4.4)
//	POST /v1/rounds/{round}/call|veto|accuse  with Authorization: Bearer <session>: the owner's
//	                                 levers (§12); without one, the walk-in desk's (x-walkin)
//	GET  /v1/ots/key, POST /v1/ots/join  off-the-shelf agents run by this arena (ots.go)
//
// A signed object (join, session) is signed like a commitment (§7.2-§7.3): sig = "ed25519:" +
// hex(ed25519(signing_key, SHA-256(JCS(object without sig)))), with the card's signing_key
// resolved from the chain; the key in the request, if any, is never used.
package join

import (
	"context"
	"crypto/ed25519"
	"encoding/json"
	"errors"
	"net/http"
	"regexp"
	"time"

	"github.com/labstack/echo/v4"

	"arena/actors/dotdotdot"
	"arena/chain/badge"
	"arena/games/blitz"
	"arena/games/canon"
	"arena/transport/door"
)

// Codes this door gives (besides door's and the Resolver's).
const (
	CodeNoRegistry   = "no_registry"       // no registry configured: nobody is seated (§4.1, 503)
	CodeBadSignature = "invalid_signature" // sig does not verify with the resolved key (§13, 422)
	CodeStale        = "join_stale"        // issued_at outside the freshness window (409)
	CodeReplayed     = "join_replayed"     // this agent already used this nonce (409)
	CodeBadTable     = "bad_table"         // a table an agent cannot join (409)
)

// Agent is a resolved Badge (§4.1): only these fields of the verified card count.
type Agent struct {
	ID         string            // the CAIP-19 Badge asked for
	Owner      string            // CAIP-10 owner account (registry)
	Wallet     string            // the registry's delegated agent wallet, "" when none (§5.7 pay_from)
	Name       string            // the card's name (wins over a name sent at join, §4.2)
	Kind       string            // card kind: "player", "house", "arena"
	Endpoint   string            // the card's A2A endpoint
	SigningKey ed25519.PublicKey // the card's signing_key: the only key that counts
	Operator   string            // the house Badge the card names as running it (§4.2), resolved; "" none
}

// Resolver resolves a Badge per §4.1 (chain/badge in `arena serve`). Refusals are
// *games.Error with distinct codes; no_registry answers 503.
type Resolver interface {
	Resolve(ctx context.Context, agent string) (Agent, error)
}

// KeyProver is implemented by a Resolver that wants to know when a signature with an agent's
// signing key verified (chain/badge's Resolver.Proven): the door tells it after each one.
// Proven is durable when it returns nil; its error (the proof could not be saved) refuses the
// request.
type KeyProver interface {
	Proven(agent string, key ed25519.PublicKey) error
}

// Seat is a verified join handed to the Seater.
type Seat struct {
	Agent  Agent
	Table  string // joinTables' kinds
	Format string // "" | "blitz" | "short"
	Seats  int    // the Practice table's seat count (§5.6: blitz 6 to 8); 0: the format's fewest
	// Playbook is an off-the-shelf agent's at a paid table (POST /v1/ots/join, table "open"): the
	// arena runs it on the house model (kind ots). Nil for a signed join.
	Playbook *blitz.Playbook
}

// Seater seats verified agents and applies their owners' levers (*dotdotdot.Arena, through
// cmd/arena's wiring, which makes the verified Seat a dotdotdot.AgentJoin). The reply of a
// practice join is where the agent sits. Errors are refusals with protocol codes
// (door.AsRefusal).
type Seater interface {
	JoinAgent(ctx context.Context, s Seat) (dotdotdot.AgentJoinReply, error)
	// Lever applies lever kind ("call", "veto", "accuse") for the seat agent holds in round;
	// body is the raw, shape-checked JSON body. The game's §12 refusals come back as they are.
	Lever(ctx context.Context, agent, round, kind string, body []byte) (json.RawMessage, error)
}

// Claimer merges the record of a walk-in token into the record of account, the owner of the
// Badge agent that signed the claim, once, and spends the token (§4.4; *dotdotdot.Arena). It
// answers the account's record. Refusals: unknown_token, token_revoked, claimed (410),
// in_a_round, busy.
type Claimer interface {
	ClaimWalkin(ctx context.Context, token, agent, account string) (json.RawMessage, error)
}

// Options configure the door. Seater is required; a nil Resolver means no registry is
// configured, and every join and session is refused with no_registry (503).
type Options struct {
	Seater   Seater
	Resolver Resolver
	// Nonces remembers join and session nonces (NewStoreNonces in `arena serve`, so a replay is
	// refused after a restart too). Required.
	Nonces Nonces
	// Sessions are the owners' challenges and sessions (NewSessions on the store in `arena
	// serve`, so a restart signs nobody out). Nil: in memory, made by Mount.
	Sessions *Sessions
	// Paid, when set, serves table "open" (§5.7); nil refuses it with bad_table, saying PaidOff
	// when set (why this arena has none: a configured node without its escrow, say).
	Paid    Paid
	PaidOff string
	// Now is the clock (nil: time.Now).
	Now func() time.Time
	// MaxBody caps request bodies (0: door.DefaultMaxBody).
	MaxBody int64
	// CallTimeout bounds resolution and seating (0: 15 s).
	CallTimeout time.Duration
	// Claims, when set, serves POST /v1/walkin/claim (§4.4): a signed merge of a walk-in's
	// record into the record of the account that owns the Badge.
	Claims Claimer
	// Challenges limits POST /v1/session/challenge per caller address (door.ClientAddr):
	// past it, rate_limited (429, Retry-After). Nil: no limit.
	Challenges *door.Limiter
	// Forwarded reads the caller's address from X-Forwarded-For (door.ClientAddr).
	Forwarded bool
	// OTS, when set, serves the off-the-shelf routes (ots.go): GET /v1/ots/key and POST
	// /v1/ots/join.
	OTS *OTSOptions
}

// Freshness window of issued_at (joins and sessions): at most MaxAge old, at most MaxSkew
// ahead of the arena's clock. A nonce is remembered until issued_at + MaxAge + MaxSkew, after
// which its object is stale anyway.
const (
	MaxAge  = 2 * time.Minute
	MaxSkew = 30 * time.Second
)

var nonceShape = regexp.MustCompile(`^[A-Za-z0-9_-]{16,64}$`)

// CheckAgentID refuses, at the door, what is not a Badge's agent id (§3: a CAIP-19
// ccd:<chain>/cis-2:<token address>, base58 throughout): bad_request when empty,
// agent_id_not_base58 when a character is outside base58 (0, O, I, l), bad_agent_id for any
// other defect (checksum, shape); each answers 400. It reads the text only: whether the Badge
// exists is the Resolver's to say.
func CheckAgentID(agent string) error {
	if agent == "" {
		return door.Refuse(door.CodeBadRequest, "agent is required (a CAIP-19 Badge: ccd:<chain>/cis-2:<token address>)")
	}
	if _, err := badge.ParseAgentID(agent); err != nil {
		if errors.Is(err, badge.ErrNotBase58) {
			return door.Refuse(badge.CodeNotBase58, "agent id has a character outside base58 (0, O, I and l are not base58, §3)")
		}
		return door.Refuse(badge.CodeBadAgentID, "agent id is not a Badge's ccd:<chain>/cis-2:<token address> (base58 with its checksum, §3)")
	}
	return nil
}

type handlers struct {
	o        Options
	sessions *Sessions
}

// Mount adds the door's routes to e. Mount it after the walk-in desk: the lever routes are
// taken over, and a lever request with no session bearer is handed to the desk's handler.
func Mount(e *echo.Echo, o Options) {
	if o.Now == nil {
		o.Now = time.Now
	}
	if o.CallTimeout <= 0 {
		o.CallTimeout = 15 * time.Second
	}
	if o.Sessions == nil {
		o.Sessions, _ = NewSessions(nil, o.Now) // no store: cannot fail
	}
	h := &handlers{o: o, sessions: o.Sessions}
	e.POST("/v1/join", h.join)
	e.POST("/v1/session/challenge", h.challenge)
	e.POST("/v1/session", h.session)
	if o.Paid != nil {
		e.GET("/v1/join/paid/:hold", h.paidCheck)
	}
	if o.Claims != nil {
		e.POST("/v1/walkin/claim", h.claim)
	}
	if o.OTS != nil && o.OTS.Seater != nil && o.OTS.Key != nil {
		mountOTS(e, o, h.sessions)
	}
	for _, kind := range []string{"call", "veto", "accuse"} {
		path := "/v1/rounds/:round/" + kind
		e.POST(path, h.lever(kind, existing(e, http.MethodPost, "/v1/rounds/T-1/"+kind)))
	}
}

// existing is the handler already routed for method and a sample path (the desk's lever), or
// nil when none is.
func existing(e *echo.Echo, method, path string) echo.HandlerFunc {
	c := e.NewContext(nil, nil)
	e.Router().Find(method, path, c)
	if c.Path() == "" {
		return nil
	}
	return c.Handler()
}

// joinTables are the tables POST /v1/join seats an agent at (actors/dotdotdot kinds.go): a fresh
// table at once ("practice", "solo"), the table of that kind gathering now ("free", "rated",
// "gated": status "gathering", the agent called once the round starts), a paid hold ("open").
var joinTables = map[string]bool{"practice": true, "solo": true, "free": true, "rated": true, "gated": true, "open": true}

// joinBody is POST /v1/join (§4.3, §5.7). format and seats are ours (the spec is silent):
// "blitz" (default) or "short" for a practice table, and its seat count within the format's
// (§5.6: blitz 6 to 8; left out, the fewest). On "open" they may only name the paid table
// filling now (its format and seat count); anything else is refused, never ignored. Like every
// member they are covered by the sig.
type joinBody struct {
	Agent    string  `json:"agent"`
	Table    string  `json:"table"`
	IssuedAt string  `json:"issued_at"`
	Nonce    string  `json:"nonce"`
	Name     *string `json:"name,omitempty"`
	Format   string  `json:"format,omitempty"`
	Seats    int     `json:"seats,omitempty"`
	Sig      string  `json:"sig"`
}

func (h *handlers) join(c echo.Context) error {
	raw, err := door.ReadBody(c, h.o.MaxBody)
	if err != nil {
		return err
	}
	var b joinBody
	if err := door.DecodeBytes(raw, &b); err != nil {
		return err
	}
	// The id first (§3: refused at the door): its 400 comes before anything else the body lacks.
	if err := CheckAgentID(b.Agent); err != nil {
		return err
	}
	if !joinTables[b.Table] {
		return door.Refuse(CodeBadTable, `table must be "practice", "solo", "free", "rated", "gated" or "open"`)
	}
	if b.Table == "open" && h.o.Paid == nil {
		why := h.o.PaidOff
		if why == "" {
			why = "this arena has no paid table"
		}
		return door.Refuse(CodeBadTable, why)
	}
	ctx, cancel := context.WithTimeout(c.Request().Context(), h.o.CallTimeout)
	defer cancel()
	ag, err := h.verify(ctx, raw, b.Agent, b.IssuedAt, b.Nonce, b.Sig, "join")
	if err != nil {
		return err
	}
	if b.Table == "open" {
		hold, err := h.o.Paid.Hold(ctx, Seat{Agent: ag, Table: b.Table, Format: b.Format, Seats: b.Seats})
		if err != nil {
			return err
		}
		c.Response().Header().Set("Cache-Control", "no-store")
		return c.JSON(http.StatusOK, holdReply(hold))
	}
	seated, err := h.o.Seater.JoinAgent(ctx, Seat{Agent: ag, Table: b.Table, Format: b.Format, Seats: b.Seats})
	if err != nil {
		return err
	}
	c.Response().Header().Set("Cache-Control", "no-store")
	reply := map[string]any{"round": seated.Round, "table": seated.Table, "seat": seated.Seat,
		"format": seated.Format, "pace": seated.Pace, "status": seated.Status, "agent": ag.ID, "name": ag.Name}
	if seated.Kind != "" {
		reply["kind"] = seated.Kind
	}
	if !seated.StartsBy.IsZero() {
		reply["starts_by"] = seated.StartsBy.UTC().Format(time.RFC3339)
	}
	return c.JSON(http.StatusOK, reply)
}

// verify runs the checks every signed object of this door gets, cheapest first: a registry is
// configured; issued_at is fresh; the nonce has its shape; the Badge resolves (§4.1); sig
// verifies over JCS(object without sig) with the resolved key; the nonce is new for this agent
// (recorded only once the signature holds, so nobody can burn another agent's nonces).
func (h *handlers) verify(ctx context.Context, raw []byte, agent, issuedAt, nonce, sig, purpose string) (Agent, error) {
	if h.o.Resolver == nil {
		return Agent{}, &door.Refusal{Code: CodeNoRegistry, Msg: "no agent registry is configured on this arena: it seats no registered agent (§4.1)"}
	}
	if err := CheckAgentID(agent); err != nil {
		return Agent{}, err
	}
	at, err := time.Parse(time.RFC3339, issuedAt)
	if err != nil {
		return Agent{}, door.Refuse(door.CodeBadRequest, "issued_at must be an RFC 3339 time, e.g. 2026-09-09T14:03:20Z")
	}
	now := h.o.Now()
	if at.Before(now.Add(-MaxAge)) || at.After(now.Add(MaxSkew)) {
		return Agent{}, door.Refuse(CodeStale, "issued_at "+at.UTC().Format(time.RFC3339)+" is outside the freshness window (at most 2 minutes old, 30 seconds ahead); sign a new one")
	}
	if !nonceShape.MatchString(nonce) {
		return Agent{}, door.Refuse(door.CodeBadRequest, "nonce must be 16 to 64 characters of A-Z a-z 0-9 _ -")
	}
	s, err := canon.ParseSig(sig)
	if err != nil {
		return Agent{}, door.Refuse(CodeBadSignature, "sig must be ed25519:<128 hex>")
	}
	ag, err := h.o.Resolver.Resolve(ctx, agent)
	if err != nil {
		return Agent{}, err
	}
	unsigned, err := canon.CanonicalWithout(raw, "sig")
	if err != nil {
		return Agent{}, door.Refuse(door.CodeBadRequest, canon.Reason(err))
	}
	d := canon.Digest(unsigned)
	if len(ag.SigningKey) != ed25519.PublicKeySize || !canon.Verify(ag.SigningKey, d[:], s) {
		return Agent{}, door.Refuse(CodeBadSignature, "sig does not verify with the signing_key of "+agent+"'s anchored card (§4.1)")
	}
	// The signature proves the Badge holds the key's private half: its hold on the key becomes
	// final, so no card merely naming the key can take it (§4.2, chain/badge KeyIndex). The
	// proof is saved before anything it proves is answered.
	if p, ok := h.o.Resolver.(KeyProver); ok {
		if err := p.Proven(agent, ag.SigningKey); err != nil {
			return Agent{}, err
		}
	}
	fresh, err := h.o.Nonces.Use(ctx, purpose+"|"+agent+"|"+nonce, at.Add(MaxAge+MaxSkew))
	if err != nil {
		return Agent{}, err
	}
	if !fresh {
		return Agent{}, door.Refuse(CodeReplayed, "this nonce was already used by "+agent+"; sign a new "+purpose+" with a fresh nonce")
	}
	return ag, nil
}
