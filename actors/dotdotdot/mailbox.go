package dotdotdot

import (
	"context"
	"encoding/json"
	"log/slog"
	"strconv"
	"time"

	"github.com/asynkron/protoactor-go/actor"

	"arena/actors"
	"arena/actors/dotdotdot/envelope"
	"arena/games"
)

// The mailbox actor (§4.4): one per walk-in seat, named "desk/mailbox-<table>-<seat>"
// (actors.SeatSpec.Actor). The seat actor sends it *actors.DeliverPrompt for each move and *actors.RoundEnded at the
// end; the walk-in's long polls and answers reach it through the walk-in actor.
//
// The move it holds is never consumed by a poll: every poll is answered with it until it is
// answered, its deadline passes, or the next move replaces it (§4.4 "a move never collected is
// gone when the next arrives"). A poll that finds no move waits as a mboxWaiter; the waiter's
// done channel (its request's context) tells the mailbox when nobody is listening any more, and
// such a waiter is dropped, never blocked on. The mailbox's state is not persisted: after a table
// restart the table redelivers its open moves (Match.Prompts), which the mailbox recognises as
// the same move and keeps.

// mboxWaiter is one long poll waiting on a mailbox (or on a walk-in actor while its table
// gathers). ch has room for one answer; done is closed when the poll ended.
type mboxWaiter struct {
	ch   chan Next
	done <-chan struct{}
	wait bool // false: answer at once whatever the state
}

func (w mboxWaiter) answer(n Next) {
	select {
	case w.ch <- n:
	default:
	}
}

func (w mboxWaiter) gone() bool {
	select {
	case <-w.done:
		return true
	default:
		return false
	}
}

// walkinAwait is a long poll: door → walk-in actor → its current mailbox.
type walkinAwait struct{ W mboxWaiter }

// mboxClaim asks to answer the waiting move named by Echo at instant At. The reply is
// *mboxClaimReply; a granted claim marks the move as being answered until mboxClaimDone.
type mboxClaim struct {
	deskReplier
	Echo walkinEcho
	At   time.Time
}

// mboxClaimReply grants a claim (Err nil) with the table and move to submit to, or refuses it
// with stale.
type mboxClaimReply struct {
	Err   *games.Error
	Table string
	Round string
	Seat  int
	Move  games.Move
}

// Claim outcomes (mboxClaimDone.Outcome).
const (
	claimAnswered = iota + 1 // the table took the answer: the move is answered
	claimClosed              // the table refused it as stale or over: the move is gone
	claimReleased            // it never reached the game (or the game refused the body): open again
)

// mboxClaimDone settles a granted claim.
type mboxClaimDone struct {
	Round   string
	Move    games.Move
	Outcome int
}

// Move states of a mailbox.
const (
	mboxOpen     = iota + 1 // waiting for the walk-in's answer
	mboxClaimed             // an answer is on its way to the table
	mboxAnswered            // answered (or answered with silence by the away rule)
)

// awayAfter is how many moves missed in a row make a seat away (§4.5).
const awayAfter = 2

// mailbox is the actor's state. Not safe for concurrent use: only its actor touches it.
type mailbox struct {
	hash  string // the walk-in's record key; actors.RoundEnded is routed to it through the desk
	table string
	seat  int
	game  string
	now   func() time.Time
	// silence answers a move with nothing for the away rule (§4.5); it must not block.
	silence func(actors.SubmitAnswer)
	// sign makes the §4 envelope of a move (envelope.Sign with the instance key).
	sign func(round string, p games.Prompt) ([]byte, error)
	log  *slog.Logger

	cur     *delivery
	state   int
	missed  int  // moves missed in a row (not answered by their deadline, or replaced)
	away    bool // §4.5: answer each new move with silence at once until the seat polls
	round   string
	result  *games.Result
	waiters []mboxWaiter
	// stopped is the table's status ("stopped", "failed") once actors.TableStopped came: the seat is
	// given up (mailbox_stopped.go). "" while the table runs.
	stopped string
	// endedAt reads the table's record when the mailbox starts: the round's result if the table has
	// finished (nil otherwise, or when it cannot be read).
	endedAt func() *actors.RoundEnded
}

// newMailbox makes the mailbox of one walk-in seat. The away rule's silent answers go to the
// table through a.Submit on a goroutine of their own.
func newMailbox(a *Arena, hash, table string, seat int, game string) *mailbox {
	clock := a.deskClock()
	return &mailbox{
		hash: hash, table: table, seat: seat, game: game, now: clock.Now, log: a.Logger(),
		sign: func(round string, p games.Prompt) ([]byte, error) { return envelope.Sign(a.InstanceKey(), round, p) },
		endedAt: func() *actors.RoundEnded {
			rec, err := a.Stored(table)
			if err != nil || rec.Status != actors.StatusFinished || rec.Result == nil {
				return nil
			}
			return &actors.RoundEnded{Table: table, Round: rec.Round, Seat: seat, Result: *rec.Result}
		},
		silence: func(m actors.SubmitAnswer) {
			go func() {
				ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
				defer cancel()
				_, _ = a.Submit(ctx, m) // a refusal (the phase closed meanwhile) changes nothing
			}()
		},
	}
}

// Receive implements actor.Actor.
func (m *mailbox) Receive(ctx actor.Context) {
	switch msg := ctx.Message().(type) {
	case *actor.Started:
		// A mailbox (re)spawned for a seat whose table already finished: the actors.RoundEnded the table
		// sent may have died with the process (a crash between the reveal's commit and the
		// walk-in's record). The result is the table's record's; a walk-in takes it once.
		if m.endedAt != nil {
			if e := m.endedAt(); e != nil {
				ctx.Send(ctx.Self(), e)
			}
		}
	case *actors.DeliverPrompt:
		env, err := m.sign(msg.Round, msg.Prompt)
		if err != nil { // a prompt that cannot be encoded is a bug in the game
			m.log.Error("walk-in envelope", "table", m.table, "seat", m.seat, "err", err)
			return
		}
		m.deliver(&delivery{Table: msg.Table, Round: msg.Round, Seat: msg.Seat, Envelope: env, Prompt: msg.Prompt})
	case *actors.TableStopped:
		if m.stop(msg) {
			// The walk-in gives up the seat (no in_a_round for a round that is not live, §4.4).
			ctx.Send(ctx.Parent(), &deskSeatStopped{Hash: m.hash, Stopped: *msg})
			m.wake(m.stoppedNext())
		}
	case *actors.RoundEnded:
		if m.stopped != "" {
			return // the seat was given up when the table stopped: not this walk-in's round now
		}
		if m.ended(msg) {
			// The walk-in's record hears first: a client that sees the result and joins again at
			// once then finds its seat already given up (no in_a_round).
			ctx.Send(ctx.Parent(), &deskRoundEnded{Hash: m.hash, Table: m.table, Seat: m.seat, Ended: *msg})
			m.wake(m.resultNext())
		}
	case *walkinAwait:
		m.await(msg.W)
	case *mboxClaim:
		msg.respond(m.claim(msg))
	case *mboxClaimDone:
		m.claimDone(msg)
	}
}

// delivery is a move as the mailbox holds it: the seat actor's prompt and its signed envelope
// (byte for byte what an A2A agent would have been sent, §4.4).
type delivery struct {
	Table    string
	Round    string
	Seat     int
	Envelope []byte
	Prompt   games.Prompt
}

// deliver takes a move from the seat actor.
func (m *mailbox) deliver(p *delivery) {
	m.expire()
	if m.cur != nil && m.cur.Round == p.Round && m.cur.Prompt.Move == p.Prompt.Move {
		// The same move again (a table restart redelivers its open moves): keep its state.
		if m.state == mboxOpen {
			m.cur = p
		}
		return
	}
	if m.stopped != "" {
		// An ops restart brought the table back after the walk-in gave the seat up: the move
		// is answered with silence at once, so the table plays on without waiting for it.
		m.cur, m.state = p, mboxAnswered
		m.silence(actors.SubmitAnswer{
			Table: m.table, Round: p.Round, At: m.now(),
			Input: games.Input{Seat: m.seat, Kind: "answer", Move: p.Prompt.Move, Body: silentBody(p.Round, p.Prompt.Move)},
		})
		return
	}
	if m.cur != nil && m.state == mboxOpen {
		m.missed++ // never collected, or collected and not answered: gone now
	}
	m.cur, m.state, m.round = p, mboxOpen, p.Round
	if m.missed >= awayAfter {
		m.away = true
	}
	if m.away {
		m.state = mboxAnswered
		m.silence(actors.SubmitAnswer{
			Table: m.table, Round: p.Round, At: m.now(),
			Input: games.Input{Seat: m.seat, Kind: "answer", Move: p.Prompt.Move, Body: silentBody(p.Round, p.Prompt.Move)},
		})
		return
	}
	m.wake(m.moveNext())
}

// ended takes the round's result; false when it was already known (a redelivery). The caller
// wakes the waiting polls.
func (m *mailbox) ended(e *actors.RoundEnded) bool {
	if m.result != nil {
		return false
	}
	r := e.Result
	m.result, m.round, m.cur, m.state = &r, e.Round, nil, 0
	return true
}

// await answers a poll at once when a move or the result is there (or the poll does not wait),
// else keeps it until one is. A poll ends the away rule (§4.5) and starts the count of missed
// moves afresh; a poll does not otherwise clear the count, since a seat that collects moves and
// never answers holds a chat-clock table as long as one that is gone.
func (m *mailbox) await(w mboxWaiter) {
	m.prune()
	if m.stopped != "" {
		w.answer(m.stoppedNext()) // nothing will come: answer at once
		return
	}
	m.expire()
	if m.away {
		m.away, m.missed = false, 0
	}
	switch {
	case m.cur != nil && m.state == mboxOpen:
		w.answer(m.moveNext())
	case m.result != nil:
		w.answer(m.resultNext())
	case !w.wait:
		w.answer(Next{Waiting: true, Status: NextPlaying, Round: m.round, Table: m.table, Seat: m.seat, Game: m.game})
	default:
		m.waiters = append(m.waiters, w)
	}
}

// claim grants the answer to the waiting move if the echo names it and its deadline has not
// passed; else stale (§4.4, §13).
func (m *mailbox) claim(c *mboxClaim) *mboxClaimReply {
	if m.stopped != "" {
		return &mboxClaimReply{Err: games.Errorf(games.CodeStale, "table %s is %s: no move is waiting for this seat", m.table, m.stopped)}
	}
	m.expire()
	if m.cur == nil || m.state != mboxOpen {
		return &mboxClaimReply{Err: games.Errorf(games.CodeStale, "no move is waiting for this seat")}
	}
	p := m.cur
	if c.Echo.Round != p.Round || c.Echo.Move != p.Prompt.Move || (c.Echo.Seat != 0 && c.Echo.Seat != m.seat) {
		return &mboxClaimReply{Err: games.Errorf(games.CodeStale,
			"the answer names another move: the one waiting is round %s turn %d %s%s",
			p.Round, p.Prompt.Move.Turn, p.Prompt.Move.Phase, exchangeSuffix(p.Prompt.Move))}
	}
	if !p.Prompt.Deadline.IsZero() && !c.At.Before(p.Prompt.Deadline) {
		return &mboxClaimReply{Err: games.Errorf(games.CodeStale, "the move's deadline has passed")}
	}
	m.state = mboxClaimed
	return &mboxClaimReply{Table: m.table, Round: p.Round, Seat: m.seat, Move: p.Prompt.Move}
}

func (m *mailbox) claimDone(d *mboxClaimDone) {
	if m.cur == nil || m.state != mboxClaimed || m.cur.Round != d.Round || m.cur.Prompt.Move != d.Move {
		return // the move was replaced meanwhile
	}
	switch d.Outcome {
	case claimAnswered:
		m.state, m.missed = mboxAnswered, 0
	case claimClosed:
		m.state = mboxAnswered
	default:
		m.state = mboxOpen
		m.wake(m.moveNext())
	}
}

// expire drops the open move once its deadline has come (the table closes a phase at its
// deadline instant, games.Match.Advance): it counts as missed.
func (m *mailbox) expire() {
	if m.cur == nil || m.state != mboxOpen || m.cur.Prompt.Deadline.IsZero() {
		return
	}
	if !m.now().Before(m.cur.Prompt.Deadline) {
		m.cur, m.state = nil, 0
		m.missed++
	}
}

// wake answers every live waiter with n and forgets them all.
func (m *mailbox) wake(n Next) {
	for _, w := range m.waiters {
		if !w.gone() {
			w.answer(n)
		}
	}
	m.waiters = m.waiters[:0]
}

// prune forgets waiters whose poll has ended, so polls that never see a move leave nothing.
func (m *mailbox) prune() {
	live := m.waiters[:0]
	for _, w := range m.waiters {
		if !w.gone() {
			live = append(live, w)
		}
	}
	clear(m.waiters[len(live):])
	m.waiters = live
}

func (m *mailbox) moveNext() Next {
	p := m.cur.Prompt
	return Next{Round: m.cur.Round, Status: NextMove, Table: m.table, Seat: m.seat, Game: m.game,
		Envelope: m.cur.Envelope, Prompt: &p}
}

func (m *mailbox) resultNext() Next {
	r := *m.result
	return Next{Round: m.round, Status: NextRevealed, Table: m.table, Seat: m.seat, Game: m.game, Result: &r}
}

// silentBody is the away rule's answer: the echo of the move and nothing else (§4.5, §13: an
// empty answer).
func silentBody(round string, mv games.Move) json.RawMessage {
	body := map[string]any{"round": round, "turn": mv.Turn, "phase": mv.Phase}
	if mv.Exchange > 0 {
		body["exchange"] = mv.Exchange
	}
	b, _ := json.Marshal(body) // plain map of strings and ints: cannot fail
	return b
}

func exchangeSuffix(mv games.Move) string {
	if mv.Exchange == 0 {
		return ""
	}
	return " exchange " + strconv.Itoa(mv.Exchange)
}
