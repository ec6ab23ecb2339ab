package chatseat

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"sync"
	"time"

	"github.com/mark3labs/mcp-go/mcp"

	"arena/actors/dotdotdot"
	"arena/games/canon"
	"arena/storage"
	"arena/transport/dotdotdot/feedback"
	"arena/transport/dotdotdot/walkin"
)

// handlers hold the tools' bodies. Each decodes its arguments strictly (games/canon.Decode:
// exact-case member names, no unknown member, right types) and makes one call on the desk.
type handlers struct {
	o     Options
	mu    sync.Mutex
	polls map[string]int // next_move calls waiting, per token
}

// holdPoll counts one more waiting next_move for token, refusing past the cap (too_many_polls);
// release undoes it.
func (h *handlers) holdPoll(token string) (release func(), refused *mcp.CallToolResult) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.polls[token] >= h.o.PollsPerToken {
		return nil, refusalOf("too_many_polls", fmt.Sprintf("at most %d next_move calls wait at once per walk-in", h.o.PollsPerToken), true)
	}
	h.polls[token]++
	return func() {
		h.mu.Lock()
		defer h.mu.Unlock()
		if h.polls[token]--; h.polls[token] <= 0 {
			delete(h.polls, token)
		}
	}, nil
}

func (h *handlers) table() map[string]toolFunc {
	return map[string]toolFunc{
		"register": h.register, "list_tables": h.listTables, "play_practice": h.playPractice,
		"host_table": h.hostTable, "join_table": h.joinTable, "start_table": h.startTable,
		"leave_table": h.leaveTable, "next_move": h.nextMove, "talk": h.talk, "commit": h.commit,
		"pass": h.pass, "feedback": h.feedback, "my_record": h.myRecord,
	}
}

// decode reads a tool's arguments into v strictly; the error is the tool error to answer.
func decode(tool string, raw []byte, v any) *mcp.CallToolResult {
	if err := canon.Decode(raw, v); err != nil {
		return badArgs(tool, "arguments: "+canon.Reason(err))
	}
	return nil
}

// needToken refuses a call with no token before it reaches the desk.
func needToken(tok string) *mcp.CallToolResult {
	if strings.TrimSpace(tok) == "" {
		return refusalOf("no_token", "this tool needs the walk-in token as \"token\"", false)
	}
	return nil
}

func text(s string) *mcp.CallToolResult { return mcp.NewToolResultText(s) }

// notServed is the refusal of a hosted-table tool on an arena without hosted tables.
func notServed(what string) *mcp.CallToolResult {
	return refusalOf("not_served", what+" are not served by this arena yet", false)
}

// register: {name, model?} → the token (§4.4 POST /v1/walkin).
func (h *handlers) register(ctx context.Context, raw []byte) *mcp.CallToolResult {
	var a struct {
		Name  string `json:"name"`
		Model string `json:"model"`
	}
	if r := decode("register", raw, &a); r != nil {
		return r
	}
	if err := walkin.CheckName(a.Name); err != nil { // as POST /v1/walkin refuses it
		return h.refusal(err)
	}
	if r := h.limit(ctx, h.o.Registrations); r != nil {
		return r
	}
	tok, err := h.o.Desk.RegisterWalkin(ctx, a.Name, a.Model)
	if err != nil {
		return h.refusal(err)
	}
	return text(fmt.Sprintf("Registered %q. Your walk-in token is %s\nPass it as \"token\" to every other tool; keep it in this chat and never put it in a URL. Next: play_practice (format \"short\" is the quickest round).", strings.TrimSpace(a.Name), tok))
}

// list_tables: {token?} → where one can sit now; with a token, also how many Practice rounds
// the walk-in has finished (from its record) and whether the walk-in table is open to it.
func (h *handlers) listTables(ctx context.Context, raw []byte) *mcp.CallToolResult {
	var a struct {
		Token string `json:"token"`
	}
	if r := decode("list_tables", raw, &a); r != nil {
		return r
	}
	var b strings.Builder
	if a.Token != "" {
		rec, err := h.o.Desk.WalkinRecord(ctx, a.Token)
		if err != nil {
			return h.refusal(err)
		}
		var r struct {
			Practice    int  `json:"practice"`
			Needed      int  `json:"practice_needed"`
			WalkinTable bool `json:"walkin_table"`
		}
		if json.Unmarshal(rec, &r) == nil && r.Needed > 0 {
			open := "not open to you yet"
			if r.WalkinTable {
				open = "open to you"
			}
			fmt.Fprintf(&b, "Your human has finished %d of the %d Practice rounds the walk-in table asks: it is %s.\n", r.Practice, r.Needed, open)
		}
	}
	b.WriteString("Practice: always open (play_practice). Your human in seat 1, house agents in the others; blitz (6 to 8 seats, 5 turns: seats 7 or 8 for more than six) or short (3 seats, 3 turns). Unrated.\n")
	b.WriteString("The walk-in table: after three finished Practice rounds (join_table with table \"walkin\"). Fills from waiting walk-ins; house seats top it up two minutes after the first came.\n")
	b.WriteString("For registered agents (POST /v1/join, not this connector): Solo, Free play, rated tables (Glicko-2 ratings per Badge, 60 s scouting) and badge-gated tables (Badges with three rated rounds, 30 s scouting); the house's Showcases are there to watch. Every kind and its rules: GET /v1/tables/kinds.\n")
	if h.o.Hosted == nil {
		b.WriteString("Hosted tables: not served by this arena yet.")
		return text(b.String())
	}
	ts, err := h.o.Hosted.ListHosted(ctx)
	if err != nil {
		return h.refusal(err)
	}
	if len(ts) == 0 {
		b.WriteString("Hosted tables gathering: none. host_table opens one with a code to hand to friends.")
		return text(b.String())
	}
	b.WriteString("Hosted tables gathering (join_table with the code):")
	for _, t := range ts {
		t.Link, t.Watch = siteLink(ctx, t.Link), siteLink(ctx, t.Watch)
		fmt.Fprintf(&b, "\n- %s", hostedLine(t))
	}
	return text(b.String())
}

// hostedLine is one hosted table in words.
func hostedLine(t dotdotdot.HostedTable) string {
	s := fmt.Sprintf("code %s, %s", t.Code, t.Format)
	if t.Host != "" {
		s += ", hosted by " + t.Host
	}
	if t.Seats > 0 {
		s += fmt.Sprintf(", %d of %d seats taken", len(t.Players), t.Seats)
	}
	if len(t.Players) > 0 {
		s += " (" + strings.Join(t.Players, ", ") + ")"
	}
	if t.Status != "" {
		s += ", " + t.Status
	}
	if t.Round != "" {
		s += ", round " + t.Round
	}
	if !t.StartsBy.IsZero() && t.Status == "gathering" {
		s += ", starts by " + t.StartsBy.UTC().Format("15:04 UTC")
	}
	if t.Link != "" {
		s += ", " + t.Link
	}
	if t.Watch != "" {
		s += ", watch it live at " + t.Watch
	}
	return s
}

// play_practice: {token, format?, pace?, mole?} → JoinWalkin {table: "practice"}.
func (h *handlers) playPractice(ctx context.Context, raw []byte) *mcp.CallToolResult {
	var a struct {
		Token  string `json:"token"`
		Format string `json:"format"`
		Pace   string `json:"pace"`
		Mole   *int   `json:"mole"`
		Seats  int    `json:"seats"`
	}
	if r := decode("play_practice", raw, &a); r != nil {
		return r
	}
	if r := needToken(a.Token); r != nil {
		return r
	}
	if r := h.limit(ctx, h.o.Tables); r != nil {
		return r
	}
	rep, err := h.o.Desk.JoinWalkin(ctx, a.Token, dotdotdot.JoinRequest{Table: "practice", Format: a.Format, Pace: a.Pace, Mole: a.Mole, Seats: a.Seats})
	if err != nil {
		return h.refusal(err)
	}
	return text(joinedText(rep))
}

// joinedText is a join's answer in words.
func joinedText(r dotdotdot.JoinReply) string {
	clock := "the chat clock: up to three minutes a move, each phase closing as soon as every seat has answered"
	if r.Pace == "agent" {
		clock = "the agent clock: 20 seconds for a commit, 13 for a talk exchange"
	}
	if r.Status == "gathering" || r.Round == "" {
		if r.Kind == "hosted" {
			return fmt.Sprintf("Waiting at the hosted table: it starts when full, when the host starts it, or ten minutes after it opened, house agents taking the empty seats. It runs on %s. Call next_move: it answers with the first move once the table starts.", clock)
		}
		if r.Kind == "free" {
			return fmt.Sprintf("Waiting at a Free play table with registered agents and other walk-ins: it opens when full, or two minutes after its first player came with house agents in the empty seats. Unrated, nothing at stake. It runs on %s. Call next_move: it answers with the first move once the table opens.", clock)
		}
		return fmt.Sprintf("Waiting for the walk-in table to fill; house agents top it up two minutes after the first walk-in came. It runs on %s. Call next_move: it answers with the first move once the table opens.", clock)
	}
	return fmt.Sprintf("Seated: round %s, seat %d, a %s %s table on %s. Call next_move now for your first move.", r.Round, r.Seat, orDefault(r.Format, "blitz"), orDefault(r.Kind, "practice"), clock)
}

func orDefault(s, d string) string {
	if s == "" {
		return d
	}
	return s
}

// host_table: {token, format?, seats?} → Hosted.HostTable.
func (h *handlers) hostTable(ctx context.Context, raw []byte) *mcp.CallToolResult {
	var a struct {
		Token  string `json:"token"`
		Format string `json:"format"`
		Seats  int    `json:"seats"`
	}
	if r := decode("host_table", raw, &a); r != nil {
		return r
	}
	if r := needToken(a.Token); r != nil {
		return r
	}
	if h.o.Hosted == nil {
		return notServed("hosted tables")
	}
	if r := h.limit(ctx, h.o.Tables); r != nil {
		return r
	}
	t, err := h.o.Hosted.HostTable(ctx, a.Token, a.Format, a.Seats)
	if err != nil {
		return h.refusal(err)
	}
	t.Link, t.Watch = siteLink(ctx, t.Link), siteLink(ctx, t.Watch)
	return text(fmt.Sprintf("Your table is open: code %s, %s. Hand your friends the link %s (it shows the code and every way to join: this connector, Claude Code, plain HTTP) or just the code for join_table. It starts when full, when you call start_table, or ten minutes from now with whoever came; house agents take the empty seats. Unrated, nothing at stake. Call next_move to wait for the first move.",
		t.Code, orDefault(t.Format, "blitz"), t.Link))
}

// join_table: {token, code} → JoinWalkin {code} (§4.5, as POST /v1/walkin/join {code}), or
// {token, table: "walkin" | "free"} → JoinWalkin {table}. A join by code then shows the table
// (HostedByCode) when hosted tables are served.
func (h *handlers) joinTable(ctx context.Context, raw []byte) *mcp.CallToolResult {
	var a struct {
		Token string `json:"token"`
		Code  string `json:"code"`
		Table string `json:"table"`
	}
	if r := decode("join_table", raw, &a); r != nil {
		return r
	}
	if r := needToken(a.Token); r != nil {
		return r
	}
	switch {
	case a.Code != "" && a.Table != "":
		return badArgs("join_table", "give either code or table, not both")
	case a.Table == "walkin" || a.Table == "free":
		rep, err := h.o.Desk.JoinWalkin(ctx, a.Token, dotdotdot.JoinRequest{Table: a.Table})
		if err != nil {
			return h.refusal(err)
		}
		return text(joinedText(rep))
	case a.Table != "":
		return badArgs("join_table", `table is "walkin" or "free"; a hosted table is joined by its code`)
	case a.Code == "":
		return badArgs("join_table", `give the hosted table's four-character code, or table "walkin" or "free"`)
	}
	rep, err := h.o.Desk.JoinWalkin(ctx, a.Token, dotdotdot.JoinRequest{Code: a.Code})
	if err != nil {
		return h.refusal(err)
	}
	out := joinedText(rep)
	if h.o.Hosted != nil {
		if t, err := h.o.Hosted.HostedByCode(ctx, a.Code); err == nil {
			t.Link, t.Watch = siteLink(ctx, t.Link), siteLink(ctx, t.Watch)
			out = "The table: " + hostedLine(t) + ".\n" + out
		}
	}
	return text(out)
}

// start_table: {token} → Hosted.StartHosted.
func (h *handlers) startTable(ctx context.Context, raw []byte) *mcp.CallToolResult {
	var a struct {
		Token string `json:"token"`
	}
	if r := decode("start_table", raw, &a); r != nil {
		return r
	}
	if r := needToken(a.Token); r != nil {
		return r
	}
	if h.o.Hosted == nil {
		return notServed("hosted tables")
	}
	t, err := h.o.Hosted.StartHosted(ctx, a.Token)
	if err != nil {
		return h.refusal(err)
	}
	t.Link, t.Watch = siteLink(ctx, t.Link), siteLink(ctx, t.Watch)
	return text("Started " + hostedLine(t) + ". House agents took the empty seats. Call next_move for your first move.")
}

// leave_table: {token} → Hosted.LeaveTable.
func (h *handlers) leaveTable(ctx context.Context, raw []byte) *mcp.CallToolResult {
	var a struct {
		Token string `json:"token"`
	}
	if r := decode("leave_table", raw, &a); r != nil {
		return r
	}
	if r := needToken(a.Token); r != nil {
		return r
	}
	if h.o.Hosted == nil {
		return notServed("hosted tables")
	}
	if err := h.o.Hosted.LeaveTable(ctx, a.Token); err != nil {
		return h.refusal(err)
	}
	return text("You left the table. play_practice, join_table or host_table to sit somewhere else.")
}

// next_move: {token, wait?} → NextMove, in words (brief.go).
func (h *handlers) nextMove(ctx context.Context, raw []byte) *mcp.CallToolResult {
	var a struct {
		Token string `json:"token"`
		Wait  *int   `json:"wait"`
	}
	if r := decode("next_move", raw, &a); r != nil {
		return r
	}
	if r := needToken(a.Token); r != nil {
		return r
	}
	wait := MaxWait
	if a.Wait != nil {
		if *a.Wait < 0 || *a.Wait > int(MaxWait/time.Second) {
			return badArgs("next_move", "wait is whole seconds, 0 to 20")
		}
		wait = time.Duration(*a.Wait) * time.Second
	}
	release, refused := h.holdPoll(a.Token)
	if refused != nil {
		return refused
	}
	defer release()
	pctx, cancel := context.WithCancel(ctx)
	defer cancel()
	if h.o.Drain != nil {
		go func() {
			select {
			case <-h.o.Drain:
				cancel()
			case <-pctx.Done():
			}
		}()
	}
	n, err := h.o.Desk.NextMove(pctx, a.Token, wait)
	if err != nil {
		if pctx.Err() != nil && ctx.Err() == nil {
			return text("Waiting: the server is restarting. Call next_move again in a moment; your move is kept.")
		}
		return h.refusal(err)
	}
	return text(renderNext(n, h.o.Now(), h.o.Describer))
}

// talkLine is one line of the talk tool.
type talkLine struct {
	Text string `json:"text"`
	To   *int   `json:"to"`
	Tone string `json:"tone"`
}

// talk: {token, round, turn, exchange, messages[], accusation?} → AnswerMove, phase "talk".
// Lines go to the game as §6 messages: public, or private with "to".
func (h *handlers) talk(ctx context.Context, raw []byte) *mcp.CallToolResult {
	var a struct {
		Token      string     `json:"token"`
		Round      string     `json:"round"`
		Turn       *int       `json:"turn"`
		Exchange   *int       `json:"exchange"`
		Messages   []talkLine `json:"messages"`
		Accusation *int       `json:"accusation"`
	}
	if r := decode("talk", raw, &a); r != nil {
		return r
	}
	if r := needToken(a.Token); r != nil {
		return r
	}
	if a.Round == "" || a.Turn == nil || a.Exchange == nil {
		return badArgs("talk", "round, turn and exchange are required, echoed from next_move")
	}
	msgs := make([]map[string]any, 0, len(a.Messages))
	for _, m := range a.Messages {
		o := map[string]any{"type": "public", "text": m.Text}
		if m.To != nil {
			o["type"], o["to"] = "private", *m.To
		}
		if m.Tone != "" {
			o["tone"] = m.Tone
		}
		msgs = append(msgs, o)
	}
	body := map[string]any{"round": a.Round, "turn": *a.Turn, "phase": "talk", "exchange": *a.Exchange, "messages": msgs}
	if a.Accusation != nil {
		body["accusation"] = *a.Accusation
	}
	return h.answer(ctx, a.Token, body, fmt.Sprintf("%d line(s) sent", len(msgs)))
}

// commitArg is one promise of the commit tool, passed to the game as §4.4 allows: payee by
// seat, whole chips or amount in microCCD, no crypto (the arena fills and signs).
type commitArg struct {
	Payee     *int            `json:"payee"`
	Chips     *int64          `json:"chips"`
	Amount    *int64          `json:"amount"`
	Due       *int            `json:"due"`
	Condition json.RawMessage `json:"condition"`
	Pair      string          `json:"pair"`
}

// commit: {token, round, turn, commitments[], accusation?} → AnswerMove, phase "commit".
func (h *handlers) commit(ctx context.Context, raw []byte) *mcp.CallToolResult {
	var a struct {
		Token       string      `json:"token"`
		Round       string      `json:"round"`
		Turn        *int        `json:"turn"`
		Commitments []commitArg `json:"commitments"`
		Accusation  *int        `json:"accusation"`
	}
	if r := decode("commit", raw, &a); r != nil {
		return r
	}
	if r := needToken(a.Token); r != nil {
		return r
	}
	if a.Round == "" || a.Turn == nil {
		return badArgs("commit", "round and turn are required, echoed from next_move")
	}
	cs := make([]map[string]any, 0, len(a.Commitments))
	for i, c := range a.Commitments {
		if c.Payee == nil || c.Due == nil || len(c.Condition) == 0 || string(c.Condition) == "null" {
			return badArgs("commit", fmt.Sprintf(`commitments[%d] needs payee (a seat), due (a turn) and condition ({"always": true} for an unconditional promise)`, i))
		}
		if (c.Chips == nil) == (c.Amount == nil) {
			return badArgs("commit", fmt.Sprintf("commitments[%d] gives exactly one of chips (whole CCD) or amount (microCCD)", i))
		}
		o := map[string]any{"payee": *c.Payee, "due": *c.Due}
		if c.Chips != nil {
			o["chips"] = *c.Chips
		} else {
			o["amount"] = *c.Amount
		}
		o["condition"] = c.Condition
		if c.Pair != "" {
			o["pair"] = c.Pair
		}
		cs = append(cs, o)
	}
	body := map[string]any{"round": a.Round, "turn": *a.Turn, "phase": "commit", "commitments": cs}
	if a.Accusation != nil {
		body["accusation"] = *a.Accusation
	}
	return h.answer(ctx, a.Token, body, fmt.Sprintf("%d promise(s) submitted; they seal at the end of the phase", len(cs)))
}

// pass: {token, round, turn, phase, exchange?} → AnswerMove with the echo alone.
func (h *handlers) pass(ctx context.Context, raw []byte) *mcp.CallToolResult {
	var a struct {
		Token    string `json:"token"`
		Round    string `json:"round"`
		Turn     *int   `json:"turn"`
		Phase    string `json:"phase"`
		Exchange *int   `json:"exchange"`
	}
	if r := decode("pass", raw, &a); r != nil {
		return r
	}
	if r := needToken(a.Token); r != nil {
		return r
	}
	if a.Round == "" || a.Turn == nil || a.Phase == "" {
		return badArgs("pass", "round, turn and phase are required, echoed from next_move")
	}
	body := map[string]any{"round": a.Round, "turn": *a.Turn, "phase": a.Phase}
	if a.Exchange != nil {
		body["exchange"] = *a.Exchange
	}
	return h.answer(ctx, a.Token, body, "Passed: your seat says and promises nothing this move")
}

// answer posts one answer body and puts the game's reply in words: what went through and
// what was dropped (§4.4 dropped[]).
func (h *handlers) answer(ctx context.Context, token string, body map[string]any, done string) *mcp.CallToolResult {
	raw, err := json.Marshal(body)
	if err != nil {
		return badArgs("answer", "the answer could not be written as JSON")
	}
	rep, err := h.o.Desk.AnswerMove(ctx, token, raw)
	if err != nil {
		return h.refusal(err)
	}
	var r struct {
		Dropped []json.RawMessage `json:"dropped"`
	}
	_ = json.Unmarshal(rep, &r)
	out := done + "."
	if len(r.Dropped) > 0 {
		parts := make([]string, 0, len(r.Dropped))
		for _, d := range r.Dropped {
			parts = append(parts, string(d))
		}
		out += fmt.Sprintf(" Dropped (%d), the rest went through: %s.", len(r.Dropped), strings.Join(parts, "; "))
	}
	return text(out + " Call next_move for the next move.")
}

// feedback: {text, token?, round?} → Options.Feedback.
func (h *handlers) feedback(ctx context.Context, raw []byte) *mcp.CallToolResult {
	var a struct {
		Token string `json:"token"`
		Round string `json:"round"`
		Text  string `json:"text"`
	}
	if r := decode("feedback", raw, &a); r != nil {
		return r
	}
	// The note is checked as POST /v1/feedback checks it before it counts against the caller's
	// budget, so a refused note spends none.
	n, err := feedback.Note(storage.FeedbackMCP, "", a.Round, a.Text)
	if err != nil {
		return h.refusal(err)
	}
	if h.o.Feedback == nil {
		return notServed("feedback notes")
	}
	if r := h.limit(ctx, h.o.Notes); r != nil {
		return r
	}
	if err := h.o.Feedback(ctx, a.Token, a.Round, n.Text); err != nil {
		return h.refusal(err)
	}
	return text("Thank you: Nell, the feedback agent, reads every note. Nothing about play changes with it.")
}

// my_record: {token} → WalkinRecord, as JSON with a line on top.
func (h *handlers) myRecord(ctx context.Context, raw []byte) *mcp.CallToolResult {
	var a struct {
		Token string `json:"token"`
	}
	if r := decode("my_record", raw, &a); r != nil {
		return r
	}
	if r := needToken(a.Token); r != nil {
		return r
	}
	rec, err := h.o.Desk.WalkinRecord(ctx, a.Token)
	if err != nil {
		return h.refusal(err)
	}
	return text("Your human's record (amounts in microCCD, results against a notional 200 CCD entry):\n" + string(rec))
}
