package dotdotdot

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"time"

	"arena/actors"
	"arena/games"
)

// The walk-in desk (dotdotdot-protocol-v1 §4.4, §4.5, §12): the methods the HTTP and MCP doors
// call for a walk-in. Every method takes the walk-in token as given by the door (the x-walkin
// header or the MCP tool argument), never from a URL. Refusals are *games.Error carrying the
// protocol's code (the Code* constants below and games.Code*); other errors are this package's
// sentinels (actors.ErrTimeout, actors.ErrClosed...).
//
// Actors behind it (desk_actor.go, walkin.go, mailbox.go, lobby.go):
//
//	desk                      the lobby: token → walk-in actor, names, the walkin-table queues, the board
//	├─ walkin-<hash>          one per token: its record (storage walkins/<sha256(token) hex>)
//	└─ mailbox-<table>-<seat> one per walk-in seat: the move waiting for the long poll

// Walk-in desk refusal codes (games.Error.Code). Doors map them to HTTP statuses.
const (
	// CodeUnknownToken: the token is missing, malformed or was never issued here (401).
	CodeUnknownToken = "unknown_token"
	// CodeNotYet: the walk-in table needs three finished Practice rounds (§4.4); the count done
	// is in the message and in JoinReply.Practice (409).
	CodeNotYet = "not_yet"
	// CodeInARound: the token already holds a live round or a place in a walk-in queue (409).
	CodeInARound = "in_a_round"
	// CodeNameTaken: another walk-in registered this display name (names are unique,
	// case-insensitively, so a public page by name names one walk-in) (409).
	CodeNameTaken = "name_taken"
	// CodeUnknownName: no walk-in by that name (404).
	CodeUnknownName = "unknown_name"
	// CodeBusy: the desk did not answer in time; the same request may succeed later (503).
	CodeBusy = "busy"
)

// PracticeRoundsForWalkin is how many finished Practice rounds open the walkin table (§4.4).
const PracticeRoundsForWalkin = 3

// MaxPollWait caps NextMove's wait (§4.4: 30 s at most).
const MaxPollWait = 30 * time.Second

// JoinRequest is the body of POST /v1/walkin/join (§4.4, §4.5).
type JoinRequest struct {
	Table  string `json:"table"`            // "practice" (default) | "solo" | "walkin" | "free" (gathers with registered agents)
	Code   string `json:"code,omitempty"`   // a hosted table's code (§4.5): JoinHosted, with no other member (bad_request)
	Mole   *int   `json:"mole,omitempty"`   // practice: the seat to be the mole (1..seats); nil lets the seed draft it
	Pace   string `json:"pace,omitempty"`   // "chat" (default: 3-minute moves, closeEarly) | "agent" (the 20 s clock, §5.3)
	Format string `json:"format,omitempty"` // "blitz" (default, 6 seats) | "short" (3 seats)
	// Seats is a Practice table's seat count, within the format's (§5.6: blitz 6 to 8, short 3);
	// 0 is the format's fewest.
	Seats int `json:"seats,omitempty"`
}

// JoinReply answers a join. On a practice table the round is open at once; on the walkin table
// Status is "gathering" and Round is empty until the table fills (NextMove then brings the
// moves). Practice is the count of finished Practice rounds, also set on a not_yet refusal.
type JoinReply struct {
	Round  string `json:"round"`            // "T-<n>", empty while gathering
	Table  string `json:"table"`            // the table id ("p…" practice, "w…" walkin table, "f…" Free play), empty while gathering at the walkin table
	Kind   string `json:"kind,omitempty"`   // "practice" | "solo" | "walkin" | "hosted" | "free"
	Format string `json:"format,omitempty"` // "blitz" | "short"
	Seat   int    `json:"seat"`             // 1..N; 0 while gathering at the walkin table, the place in the order of joins at Free play
	// StartsBy is, for a Free play place, when house seats may top the table up (as the agent's
	// gathering answer, join.go).
	StartsBy time.Time `json:"starts_by,omitzero"`
	Pace     string    `json:"pace"`     // "chat" | "agent": the clock the table runs on (§4.4 "the join answer says which")
	Status   string    `json:"status"`   // "seated" | "gathering"; "not_yet" on that refusal
	Practice int       `json:"practice"` // finished Practice rounds
}

// Next statuses (Next.Status).
const (
	NextIdle      = "idle"      // the token holds no seat and has finished no round
	NextGathering = "gathering" // waiting at the walkin table for it to fill
	NextPlaying   = "playing"   // in a round; no move is waiting for this seat right now
	NextMove      = "move"      // a move is waiting: Envelope and Prompt are set
	NextRevealed  = "revealed"  // the round is over: Result is set
	// NextStopped (mailbox_stopped.go): the seat's table was stopped or parked; seat given up.
)

// Next is what GET /v1/walkin/next answers (§4.4). Waiting is true when there is neither a move
// nor a result (Status idle, gathering or playing). With a move, Envelope is byte for byte the
// signed envelope an A2A agent would have been sent (sig included) and Prompt the same move as
// data. Brief and Answer are the format=brief rendering (games.Briefer) when the game has one:
// for a move, the move in words and the body to post filled in but for the line or the promise;
// while waiting and after the round, a brief alone. Result is set once the round is revealed.
type Next struct {
	Waiting  bool
	Round    string
	Status   string
	Table    string
	Seat     int
	Game     string
	Envelope []byte
	Prompt   *games.Prompt
	Brief    string
	Answer   json.RawMessage
	Result   *games.Result
}

// RegisterWalkin issues a walk-in token ("w_" + base64url of 32 random bytes, §4.4) for a display
// name (1–32 characters, no control characters, unique by nameKey: canonically equivalent and
// case-folded spellings are one name, CodeNameTaken; kept in NFC, white space collapsed) and an
// optional model (≤ 64 characters). The record is committed under walkins/<sha256(token) hex>
// before the token is returned; the raw token is never stored. bad_request for a bad name. A
// registration given up (busy, ctx ended) leaves nothing: its record, written or not, is removed
// and the name is free again.
func (a *Arena) RegisterWalkin(ctx context.Context, name, model string) (token string, err error) {
	name, model = canonicalName(name), strings.TrimSpace(model)
	if err := checkWalkinName(name, model); err != nil {
		return "", err
	}
	d, err := a.deskPID()
	if err != nil {
		return "", err
	}
	token, err = newWalkinToken()
	if err != nil {
		return "", err
	}
	r, err := deskCall[*deskRegisterReply](ctx, a, d, &deskRegister{Name: name, Model: model, Token: token})
	if err != nil {
		// The caller stopped waiting (busy, or ctx ended): the desk may still write the record,
		// but its token reaches nobody, so the name would stay taken for good. Take it back; the
		// desk handles this after the register (one mailbox, in order).
		hash, _ := walkinTokenHash(token)
		_ = a.deskSend(d, &deskRegisterAbandoned{Name: name, Hash: hash})
		return "", err
	}
	if r.Err != nil {
		return "", r.Err
	}
	return r.Token, nil
}

// JoinWalkin seats the token's walk-in (§4.4): "practice" opens a table at once (the walk-in in
// seat 1, named house agents in the others; blitz 6 seats or short 3; the mole fixed by
// req.Mole when given); "solo" opens a Solo at once (the whole Blitz game against the house
// roster, the mole drawn; kinds.go); "walkin" queues it for the walk-in table, which opens when full or,
// two minutes after its first walk-in came, topped up with house seats. With req.Code it joins
// that hosted table instead (JoinHosted, §4.5; Kind "hosted", Status "gathering", or "seated"
// with Round and Seat when this join filled it). Refusals:
// unknown_token, bad_request (unknown table/pace/format, mole out of range),
// not_yet (fewer than three Practice rounds; JoinReply.Practice carries the count),
// in_a_round (a live round or a queue place already held).
func (a *Arena) JoinWalkin(ctx context.Context, token string, req JoinRequest) (JoinReply, error) {
	r, err := a.joinWalkin(ctx, token, req)
	var ge *games.Error
	if errors.As(err, &ge) && ge.Code == CodeNotYet {
		return r, &notYetError{err: ge, practice: r.Practice}
	}
	return r, err
}

// notYetError is the not_yet refusal with the Practice count as body members (§4.4): the doors
// write Details beside {error, code, retry}.
type notYetError struct {
	err      *games.Error
	practice int
}

func (e *notYetError) Error() string { return e.err.Error() }
func (e *notYetError) Unwrap() error { return e.err }

// Details are the refusal's members beyond {error, code, retry}.
func (e *notYetError) Details() map[string]any {
	return map[string]any{"practice": e.practice, "needed": PracticeRoundsForWalkin}
}

func (a *Arena) joinWalkin(ctx context.Context, token string, req JoinRequest) (JoinReply, error) {
	if req.Code != "" {
		// A hosted table (hosted.go) is joined by its code alone: its host chose its format,
		// seats and clock, and it has no mole to choose. A member beside the code is refused,
		// never dropped, so no join is seated at a table it did not ask for (§4.5).
		if req.Table != "" || req.Format != "" || req.Seats != 0 || req.Pace != "" || req.Mole != nil {
			return JoinReply{}, games.Errorf(games.CodeBadRequest, "a hosted table is joined by its code alone: its host chose its format, seats and clock; leave table, format, seats, pace and mole out")
		}
		return a.joinByCode(ctx, token, req)
	}
	req, err := normalizeJoin(req, a.formats)
	if err != nil {
		return JoinReply{}, err
	}
	w, err := a.walkinPID(ctx, token)
	if err != nil {
		return JoinReply{}, err
	}
	begin, err := deskCall[*walkinBeginJoinReply](ctx, a, w, &walkinBeginJoin{Req: req})
	if err != nil {
		return JoinReply{}, err
	}
	if begin.Err != nil {
		return JoinReply{Status: begin.Err.Code, Practice: begin.Practice}, begin.Err
	}
	if req.Table == KindFree {
		return JoinReply{Kind: req.Table, Format: req.Format, Pace: req.Pace, Status: "gathering", Practice: begin.Practice,
			Table: begin.Table, Seat: begin.Seat, StartsBy: begin.StartsBy.UTC()}, nil
	}
	if req.Table == "walkin" {
		return JoinReply{Kind: req.Table, Format: req.Format, Pace: req.Pace, Status: "gathering", Practice: begin.Practice}, nil
	}
	return a.openPractice(ctx, w, begin, req)
}

// NextMove is the long poll of GET /v1/walkin/next (§4.4). It answers at once when a move is
// waiting for the seat (or the round is over), else waits up to wait (capped at MaxPollWait;
// ≤ 0 answers at once) for one; when ctx ends first it returns ctx's error. A poll
// never consumes the move: the same move is answered to every poll until it is answered, its
// deadline passes, or the next move replaces it. A poll also ends the away rule (§4.5).
func (a *Arena) NextMove(ctx context.Context, token string, wait time.Duration) (Next, error) {
	w, err := a.walkinPID(ctx, token)
	if err != nil {
		return Next{}, err
	}
	if wait > MaxPollWait {
		wait = MaxPollWait
	}
	pollCtx, cancel := context.WithCancel(ctx)
	defer cancel() // the mailbox forgets this waiter once its done channel is closed
	ch := make(chan Next, 1)
	waiter := mboxWaiter{ch: ch, done: pollCtx.Done(), wait: wait > 0}
	if err := a.deskSend(w, &walkinAwait{W: waiter}); err != nil {
		return Next{}, err
	}
	var timeout <-chan struct{}
	if wait > 0 {
		fired := make(chan struct{})
		stop := a.deskClock().AfterFunc(wait, func() { close(fired) })
		defer stop()
		timeout = fired
	}
	// A real-time bound as well: a seat whose actors do not answer (being restarted) must not
	// hold the caller past its wait.
	guard := time.NewTimer(wait + a.AskTimeout())
	defer guard.Stop()
	var n Next
	select {
	case n = <-ch:
	case <-timeout:
	case <-guard.C:
	case <-ctx.Done():
	}
	if n.Status == "" {
		if err := ctx.Err(); err != nil {
			return Next{}, err // the caller is gone; the move (if any) stays for the next poll
		}
		// The wait ended with nothing new: ask once more without waiting, so the answer says
		// where the seat stands (and a move that raced the timer is not missed).
		cancel()
		qctx, qcancel := context.WithTimeout(context.WithoutCancel(ctx), time.Second)
		n, err = a.pollNow(qctx, w)
		qcancel()
		if err != nil {
			return Next{}, err
		}
	}
	a.briefNext(&n)
	return n, nil
}

// AnswerMove posts the walk-in's answer (§4.4): body must be a JSON object echoing "round",
// "turn", "phase" and, on talk, "exchange" (and "seat", if present, must be the seat's); the
// rest is the game's answer body, which the game decodes. An answer with no move waiting, past
// its deadline, or naming another move is refused with stale and the seat stays silent for that
// move; bad_request for a body that is not such an object. Otherwise the answer goes to the
// table as Input{Kind: "answer"} and the game's reply ({"dropped":[...]}) is returned.
func (a *Arena) AnswerMove(ctx context.Context, token string, body []byte) (json.RawMessage, error) {
	echo, err := parseEcho(body)
	if err != nil {
		return nil, err
	}
	w, err := a.walkinPID(ctx, token)
	if err != nil {
		return nil, err
	}
	now := a.deskClock().Now()
	claim, err := deskCall[*mboxClaimReply](ctx, a, w, &mboxClaim{Echo: echo, At: now})
	if err != nil {
		return nil, err
	}
	if claim.Err != nil {
		return nil, claim.Err
	}
	return a.submitClaimed(ctx, w, claim, body, now)
}

// Lever applies one of the walk-in's own levers (§12: every walk-in holds its levers) to its
// live round: kind "call" {"text"}, "veto" {"pending_id"} or {"ref"}, "accuse" {"seat"}. The
// game's refusal comes back as *games.Error with its §12 code (lever_spent, not_now, is_mole,
// ...); round_over for the token's finished round, not_seated for a round it does not hold,
// bad_request for another kind.
func (a *Arena) Lever(ctx context.Context, token, round, kind string, body []byte) (json.RawMessage, error) {
	switch kind {
	case "call", "veto", "accuse":
	default:
		return nil, games.Errorf(games.CodeBadRequest, "unknown lever %q: call, veto or accuse", kind)
	}
	if _, err := jsonObjectMembers(body); err != nil {
		return nil, games.Errorf(games.CodeBadRequest, "lever body: %v", err)
	}
	w, err := a.walkinPID(ctx, token)
	if err != nil {
		return nil, err
	}
	seat, err := deskCall[*walkinSeatReply](ctx, a, w, &walkinSeatOf{Round: round})
	if err != nil {
		return nil, err
	}
	if seat.Err != nil {
		return nil, seat.Err
	}
	return a.submit(ctx, actors.SubmitAnswer{
		Table: seat.Table, Round: seat.Round, At: a.deskClock().Now(),
		Input: games.Input{Seat: seat.Seat, Kind: kind, Body: json.RawMessage(body)},
	})
}

// WalkinRecord is GET /v1/walkin/me (§4.4): the token's record as JSON (see walkinView).
func (a *Arena) WalkinRecord(ctx context.Context, token string) (json.RawMessage, error) {
	w, err := a.walkinPID(ctx, token)
	if err != nil {
		return nil, err
	}
	r, err := deskCall[*walkinViewReply](ctx, a, w, &walkinGetView{Public: false})
	if err != nil {
		return nil, err
	}
	return r.JSON, nil
}

// Board is GET /v1/walkin/board: this week's board (ISO week, UTC) as JSON, best net result
// first (see BoardView). It carries no token.
func (a *Arena) Board(ctx context.Context) (json.RawMessage, error) {
	d, err := a.deskPID()
	if err != nil {
		return nil, err
	}
	r, err := deskCall[*walkinViewReply](ctx, a, d, &deskGetBoard{})
	if err != nil {
		return nil, err
	}
	return r.JSON, nil
}

// WalkinPage is GET /v1/walkin/name/{name}: a walk-in's public page (its record less the live
// seat, the last 20 rounds), found by display name compared by nameKey (any case, NFC or NFD).
// CodeUnknownName if none.
func (a *Arena) WalkinPage(ctx context.Context, name string) (json.RawMessage, error) {
	d, err := a.deskPID()
	if err != nil {
		return nil, err
	}
	r, err := deskCall[*deskFindNameReply](ctx, a, d, &deskFindName{Name: name})
	if err != nil {
		return nil, err
	}
	if r.PID == nil {
		return nil, games.Errorf(CodeUnknownName, "no walk-in named %q", name)
	}
	v, err := deskCall[*walkinViewReply](ctx, a, r.PID, &walkinGetView{Public: true})
	if err != nil {
		return nil, err
	}
	return v.JSON, nil
}
