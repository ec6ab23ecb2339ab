package mcp

import (
	"context"
	"encoding/json"
	"errors"
	"time"

	"github.com/mark3labs/mcp-go/mcp"

	"arena/chain/nostr"
	"arena/games/breakroom/wire"
	"arena/games/canon"
	"arena/transport/breakroom/play"
	"arena/transport/door"
)

// handlers are the tools' bodies over the playing doors.
type handlers struct {
	o    Options
	d    *play.Door
	free bool
	pend *paidSessions // paid joins awaiting confirm_payment
}

func (h *handlers) table() map[string]toolFunc {
	return map[string]toolFunc{
		"list_games": h.listGames, "get_rules": h.getRules, "join_game": h.joinGame,
		"confirm_payment": h.confirmPayment, "wait_for_turn": h.waitForTurn, "make_move": h.makeMove,
		"leave_queue": h.leaveQueue, "send_feedback": h.sendFeedback,
	}
}

// Codes this door names itself (breakroom-protocol-v0.md "Error codes").
const (
	codeBadRequest       = "bad_request"
	codePaymentsDisabled = "payments_disabled"
	codeUnknownGame      = "unknown_game"
	codeUnauthorized     = "unauthorized"
)

// errorMsg is the protocol's error message, the text of every refusal.
type errorMsg struct {
	Type    string   `json:"type"`
	V       int      `json:"v"`
	Code    string   `json:"code"`
	Detail  string   `json:"detail"`
	MatchID string   `json:"match_id,omitempty"`
	Games   []string `json:"games,omitempty"`
}

// refusal is a tool error whose text is the protocol's error message.
func refusal(code, detail, match string) *mcp.CallToolResult {
	b, _ := json.Marshal(errorMsg{Type: "error", V: wire.V, Code: code, Detail: detail, MatchID: match})
	return mcp.NewToolResultError(string(b))
}

// refuse is a product or door error as a refusal; an internal one is logged and not described.
func (h *handlers) refuse(err error, match string) *mcp.CallToolResult {
	if errors.Is(err, context.Canceled) {
		return refusal(door.CodeBusy, "the server did not answer in time; call again", match)
	}
	r, ok := play.RefusalOf(err)
	if !ok {
		h.o.Logger.Error("breakroom mcp: call failed", "err", err)
		return refusal(door.CodeInternal, "something went wrong on the server's side; it is logged", match)
	}
	em := errorMsg{Type: "error", V: wire.V, Code: r.Code, Detail: r.Msg, MatchID: match}
	if gs, ok := r.Extra["games"].([]string); ok {
		em.Games = gs
	}
	b, _ := json.Marshal(em)
	return mcp.NewToolResultError(string(b))
}

// answer is a successful result: the protocol message m (wire-encoded) with extra members.
func answer(m wire.Outbound, extra map[string]any) *mcp.CallToolResult {
	b, err := wire.Encode(m)
	if err != nil {
		return refusal(door.CodeInternal, "the answer could not be written", "")
	}
	return answerJSON(b, extra)
}

// answerJSON adds extra's members to the JSON object b and answers it as text and as the
// result's structured content.
func answerJSON(b []byte, extra map[string]any) *mcp.CallToolResult {
	var obj map[string]any
	if err := json.Unmarshal(b, &obj); err != nil {
		return refusal(door.CodeInternal, "the answer could not be written", "")
	}
	for k, v := range extra {
		obj[k] = v
	}
	out, _ := json.Marshal(obj)
	return &mcp.CallToolResult{Content: []mcp.Content{mcp.NewTextContent(string(out))}, StructuredContent: obj}
}

// decode reads a tool's arguments (argsCheck judged them already: a failure here is a bug).
func decode(raw []byte, v any) *mcp.CallToolResult {
	if err := canon.Decode(raw, v); err != nil {
		return refusal(codeBadRequest, "arguments: "+canon.Reason(err), "")
	}
	return nil
}

// call bounds a product call that is not a wait.
func (h *handlers) call(ctx context.Context) (context.Context, context.CancelFunc) {
	return context.WithTimeout(ctx, h.o.CallTimeout)
}

// listGames answers what GET /v0/games answers (play.Door.Games: recommended, the games, join,
// payments).
func (h *handlers) listGames(ctx context.Context, raw []byte) *mcp.CallToolResult {
	var a noArgs
	if r := decode(raw, &a); r != nil {
		return r
	}
	ctx, cancel := h.call(ctx)
	defer cancel()
	out, err := h.d.Games(ctx)
	if err != nil {
		return h.refuse(err, "")
	}
	b, _ := json.Marshal(out)
	return answerJSON(b, nil)
}

// getRules answers the game's rules text; unknown_game names the open games.
func (h *handlers) getRules(ctx context.Context, raw []byte) *mcp.CallToolResult {
	var a rulesArgs
	if r := decode(raw, &a); r != nil {
		return r
	}
	if text, ok := h.o.Rules(a.Game); ok {
		return mcp.NewToolResultText(text)
	}
	return h.unknownGame(ctx, a.Game)
}

// unknownGame is unknown_game as the HTTP door words it (its games listed).
func (h *handlers) unknownGame(ctx context.Context, game string) *mcp.CallToolResult {
	ctx, cancel := h.call(ctx)
	defer cancel()
	list, err := h.d.Backend().Games(ctx)
	if err != nil {
		return h.refuse(err, "")
	}
	ids := make([]string, len(list))
	for i, g := range list {
		ids[i] = g.ID
	}
	if len(game) > 40 {
		game = game[:40] + "…"
	}
	b, _ := json.Marshal(errorMsg{Type: "error", V: wire.V, Code: codeUnknownGame, Games: ids,
		Detail: "no game " + jsonQuote(game) + "; the games are " + joinIDs(ids)})
	return mcp.NewToolResultError(string(b))
}

func jsonQuote(s string) string { b, _ := json.Marshal(s); return string(b) }

func joinIDs(ids []string) string {
	out := ""
	for i, id := range ids {
		if i > 0 {
			out += ", "
		}
		out += id
	}
	return out
}

// joinGame signs a fresh nonce with the agent's key (made now when none is passed) and joins as
// POST /v0/join does; the answer is queued or seated with the session, the key's pubkey and,
// for a new key only, secret_key.
func (h *handlers) joinGame(ctx context.Context, raw []byte) *mcp.CallToolResult {
	var a joinArgs
	if h.free {
		var f freeJoinArgs
		if r := decode(raw, &f); r != nil {
			return r
		}
		a = joinArgs{Game: f.Game, SecretKey: f.SecretKey, AgentName: f.AgentName, Spoilers: f.Spoilers}
	} else if r := decode(raw, &a); r != nil {
		return r
	}
	var (
		sk    nostr.SecretKey
		fresh bool
		err   error
	)
	if a.SecretKey != nil {
		if sk, err = nostr.ParseSecretKey(*a.SecretKey); err != nil {
			return refusal(codeBadRequest, "secret_key: "+err.Error(), "")
		}
	} else {
		if sk, err = nostr.NewSecretKey(); err != nil {
			return h.refuse(err, "")
		}
		fresh = true
	}
	addr, _ := ctx.Value(addrKey{}).(string)
	nonce, err := h.d.Challenge(addr)
	if err != nil {
		return h.refuse(err, "")
	}
	sig, err := sk.Sign(nostr.Challenge(nonce))
	if err != nil {
		return h.refuse(err, "")
	}
	j := &wire.Join{Game: a.Game, AuthorPubkey: sk.Public().String(), Nonce: nonce, Sig: sig}
	if a.AgentName != nil {
		j.AgentName = *a.AgentName
	}
	if a.Spoilers != nil {
		j.Spoilers = *a.Spoilers
	}
	j.StakeSats = a.StakeSats
	// The join's members through the HTTP door's decoder, so agent_name is judged alike.
	body, _ := json.Marshal(j)
	in, err := wire.DecodeHTTP(wire.KindJoin, "", body)
	if err != nil {
		return h.refuse(err, "")
	}
	cctx, cancel := h.call(ctx)
	defer cancel()
	joined, err := h.d.SignedJoin(cctx, in.(*wire.Join), play.ViaMCP)
	if err != nil {
		return h.refuse(err, "")
	}
	extra := map[string]any{"session": joined.Conn, "pubkey": sk.Public().String()}
	if fresh {
		extra["secret_key"] = sk.Hex()
		extra["note"] = "secret_key is your new Nostr key, shown this once: keep it and pass it to join_game next time to keep your record"
	}
	if pr, ok := joined.First.(wire.PaymentRequired); ok {
		delete(extra, "session")
		return h.paidJoinAnswer(pr, sk, extra)
	}
	extra["next"] = "call wait_for_turn with this session"
	return answer(joined.First, extra)
}

// session is a tool's session, unauthorized when empty (an unknown one is the product's).
func session(s string) *mcp.CallToolResult {
	if s == "" {
		return refusal(codeUnauthorized, "pass the session join_game answered", "")
	}
	return nil
}

// decodeSession is decode, then session of the session the arguments named (*s, a member of v).
func decodeSession(raw []byte, v any, s *string) *mcp.CallToolResult {
	if r := decode(raw, v); r != nil {
		return r
	}
	return session(*s)
}

// wait is a wait context: the call's ctx, bounded at w plus the call timeout, ended by Drain.
func (h *handlers) wait(parent context.Context, w time.Duration) (context.Context, context.CancelFunc) {
	ctx, cancel := context.WithTimeout(parent, w+h.o.CallTimeout)
	if h.o.Drain != nil {
		go func() {
			select {
			case <-h.o.Drain:
				cancel()
			case <-ctx.Done():
			}
		}()
	}
	return ctx, cancel
}

// waitForTurn polls the join while queued (GET /v0/join/{token}?wait), then the match's state
// (GET /v0/matches/{id}/state?wait) with the time left; a seated answer carries the seat.
func (h *handlers) waitForTurn(ctx context.Context, raw []byte) *mcp.CallToolResult {
	var a waitArgs
	if r := decodeSession(raw, &a, &a.Session); r != nil {
		return r
	}
	w := MaxWait
	if a.WaitMS != nil {
		if *a.WaitMS < 0 {
			return refusal(codeBadRequest, "wait_ms is a whole number of milliseconds, 0 to 25000", "")
		}
		w = play.WaitOf(*a.WaitMS)
	}
	start := time.Now()
	wctx, cancel := h.wait(ctx, w)
	defer cancel()
	js, err := h.d.Backend().JoinStatus(wctx, a.Session, w)
	if err != nil {
		return h.refuse(err, "")
	}
	seated, ok := js.(wire.Seated)
	if !ok {
		return answer(js, map[string]any{"next": "not seated yet: call wait_for_turn again"})
	}
	left := max(w-time.Since(start), 0)
	st, err := h.d.Backend().State(wctx, a.Session, seated.MatchID, left)
	if err != nil {
		return h.refuse(err, seated.MatchID)
	}
	extra := map[string]any{"seat": seated.Seat}
	switch st.Status {
	case "your_turn":
		extra["next"] = "answer with make_move (match_id, round, turn from here; action from legal_actions) within deadline_ms"
	case "ended":
		extra["next"] = "the match is over: send_feedback tells the people who run Break Room how it went"
	default:
		extra["next"] = "call wait_for_turn again"
	}
	return answer(st, extra)
}

// envelope names a move's params may not carry (they are the envelope or named arguments).
var envelope = []string{"type", "v", "match_id", "round", "turn", "action", "message", "amount", "target", "recipient", "orders"}

// makeMove writes the arguments as POST /v0/matches/{id}/move's body (action, the named
// parameters and params' members at the top level), reads it with the HTTP door's decoder and
// plays it.
func (h *handlers) makeMove(ctx context.Context, raw []byte) *mcp.CallToolResult {
	var a moveArgs
	if r := decodeSession(raw, &a, &a.Session); r != nil {
		return r
	}
	if a.MatchID == "" {
		return refusal(codeBadRequest, "match_id: the match, as wait_for_turn gave it", "")
	}
	body := map[string]json.RawMessage{}
	put := func(k string, v any) { b, _ := json.Marshal(v); body[k] = b }
	put("round", a.Round)
	put("turn", a.Turn)
	put("action", a.Action)
	for k, v := range map[string]json.RawMessage{"amount": a.Amount, "target": a.Target, "recipient": a.Recipient, "orders": a.Orders} {
		if len(v) > 0 && string(v) != "null" {
			body[k] = v
		}
	}
	if a.Message != nil {
		put("message", *a.Message)
	}
	if len(a.Params) > 0 && string(a.Params) != "null" {
		var ps map[string]json.RawMessage
		if err := json.Unmarshal(a.Params, &ps); err != nil || ps == nil {
			return refusal(codeBadRequest, "params: a JSON object of the action's parameters", a.MatchID)
		}
		for k, v := range ps {
			for _, e := range envelope {
				if k == e {
					return refusal(codeBadRequest, "params."+e+": give it as its own argument, not in params", a.MatchID)
				}
			}
			body[k] = v
		}
	}
	b, _ := json.Marshal(body)
	in, err := wire.DecodeHTTP(wire.KindMove, a.MatchID, b)
	if err != nil {
		return h.refuse(err, a.MatchID)
	}
	cctx, cancel := h.call(ctx)
	defer cancel()
	if err := h.d.Backend().Move(cctx, a.Session, in.(*wire.Move)); err != nil {
		return h.refuse(err, a.MatchID)
	}
	return answerJSON([]byte(`{"v":0,"ok":true}`), map[string]any{"next": "call wait_for_turn for the next turn"})
}

// leaveQueue is DELETE /v0/join/{token}: left, or already_playing once seated.
func (h *handlers) leaveQueue(ctx context.Context, raw []byte) *mcp.CallToolResult {
	var a sessionArgs
	if r := decodeSession(raw, &a, &a.Session); r != nil {
		return r
	}
	cctx, cancel := h.call(ctx)
	defer cancel()
	left, err := h.d.Backend().Leave(cctx, a.Session)
	if err != nil {
		return h.refuse(err, "")
	}
	return answer(left, nil)
}

// sendFeedback is POST /v0/matches/{id}/feedback: the match is match_id, else the session's.
func (h *handlers) sendFeedback(ctx context.Context, raw []byte) *mcp.CallToolResult {
	var a feedbackArgs
	if r := decodeSession(raw, &a, &a.Session); r != nil {
		return r
	}
	cctx, cancel := h.call(ctx)
	defer cancel()
	match := ""
	if a.MatchID != nil {
		match = *a.MatchID
	} else {
		js, err := h.d.Backend().JoinStatus(cctx, a.Session, 0)
		if err != nil {
			return h.refuse(err, "")
		}
		s, ok := js.(wire.Seated)
		if !ok {
			return refusal("not_seated", "this session has no match yet: feedback is for a match you played, after match_end", "")
		}
		match = s.MatchID
	}
	body := map[string]any{"text": a.Text}
	if a.Rating != nil {
		body["rating"] = *a.Rating
	}
	b, _ := json.Marshal(body)
	in, err := wire.DecodeHTTP(wire.KindFeedback, match, b)
	if err != nil {
		return h.refuse(err, match)
	}
	fr, err := h.d.Backend().Feedback(cctx, a.Session, in.(*wire.Feedback))
	if err != nil {
		return h.refuse(err, match)
	}
	return answer(fr, nil)
}
