package dotdotdot

import (
	"context"
	"encoding/hex"
	"errors"
	"fmt"
	"sort"
	"strings"
	"time"

	"github.com/asynkron/protoactor-go/actor"

	"arena/actors"
	"arena/actors/internal/ask"
	"arena/chain/anchor"
	"arena/games"
	"arena/games/blitz"
	"arena/storage"
)

// Showings (docs/protocol-notes.md "DOTDOTDOT recordings"): a revealed round's public
// transcript shown again on a page of its own, each event at its recorded instant divided by the
// showing's speed. Every showing, when it starts, has the arena register a replay anchor (§5.5
// kind 5: the round's number, seq the Unix second it started, the recorded transcript's hash)
// through the chain actor, which answers at once and never holds the showing up.
//
// One actor owns the showings (showingsName): it starts them (at most MaxShowings at once, one
// per round), saves each (storage showings) before it is answered, and hears the chain actor's
// answer. Each running showing is a child actor that holds the public events and moves on by a
// scheduled message, one timer at a time, on the runtime's clock. A restart resumes every
// showing not ended where its clock says it is (the same start, the same speed), and registers
// nothing new: a showing's anchor is its start's.

// CodeNotRevealed refuses a showing of a round not revealed: there is no recording (§11.4; 409).
const CodeNotRevealed = "not_revealed"

// showingsName is the showings actor's name under the root.
const showingsName = "dotdotdot-showings"

// MaxShowings is how many showings may run at once, arena-wide: each one costs a chain fee when
// it starts, and the operator starts them (`arena ops showing`).
const MaxShowings = 4

// MaxShowingSpeed is the fastest speed a showing may be shown at (1 is the recorded pace).
const MaxShowingSpeed = 10

// Showing is one showing as the pages and the ops door read it: its record (round, start, speed,
// hash, the replay anchor's transaction) and the public events shown so far, in order, of Total.
type Showing struct {
	storage.Showing
	Events []games.Event
	Total  int
}

// Replay is a showing's replay anchor as a transcript's body lists it beside its events
// ("replays"; chain/verify.Replay reads it): the round, seq the Unix second it started, the
// recorded transcript's hash and the transaction (hex), and which showing it was.
type Replay struct {
	Showing string `json:"showing"`
	Round   string `json:"round"`
	Seq     uint32 `json:"seq"`
	Hash    string `json:"hash"`
	Tx      string `json:"tx"`
	Speed   int    `json:"speed"`
	Started string `json:"started"`
}

// ShowingPath is a showing's page on the DOTDOTDOT site: /r/<round>/showings/<seq>.
func ShowingPath(round string, seq uint32) string {
	return fmt.Sprintf("/r/%s/showings/%d", round, seq)
}

type showStart struct {
	rec    storage.Showing
	events []games.Event
}

type showStartReply struct {
	rec storage.Showing
	err error
}

type showAsk struct {
	Round string
	Seq   uint32
}

type showAskReply struct {
	found  bool
	shown  []games.Event
	total  int
	rec    storage.Showing
	ended  bool
	notRun bool // not running here: read the record
}

type showTick struct{ gen uint64 }

type showEnded struct{ key string }

// showings is the showings actor.
type showings struct {
	a       *Arena
	running map[string]*running // by round + "/" + seq
}

type running struct {
	rec storage.Showing
	pid *actor.PID
}

// showingKey is a running showing's key.
func showingKey(round string, seq uint32) string { return fmt.Sprintf("%s/%d", round, seq) }

func startShowings(a *Arena) error {
	props := actor.PropsFromProducer(func() actor.Actor { return &showings{a: a, running: map[string]*running{}} })
	pid, err := a.System().Root.SpawnNamed(props, showingsName)
	if err != nil {
		return err
	}
	a.showings = pid
	return nil
}

func (s *showings) Receive(ctx actor.Context) {
	switch m := ctx.Message().(type) {
	case *actor.Started:
		s.restore(ctx)
	case *showStart:
		ctx.Respond(s.start(ctx, m.rec, m.events, true))
	case *showAsk:
		r := s.running[showingKey(m.Round, m.Seq)]
		if r == nil {
			ctx.Respond(&showAskReply{notRun: true})
			return
		}
		ctx.Forward(r.pid)
	case *showEnded:
		r := s.running[m.key]
		if r == nil {
			return
		}
		delete(s.running, m.key)
		ctx.Stop(r.pid)
		r.rec.Ended = true
		s.save(r.rec)
	case *actors.Anchored:
		s.anchored(m)
	}
}

// start saves rec (write before speak), spawns its showing and, when fresh, asks the chain
// actor for its replay anchor. Refusals: busy while MaxShowings run or the round is showing.
func (s *showings) start(ctx actor.Context, rec storage.Showing, evs []games.Event, fresh bool) *showStartReply {
	if fresh {
		for _, r := range s.running {
			if r.rec.Round == rec.Round {
				return &showStartReply{err: &games.Error{Code: CodeBusy, Retry: true,
					Msg: fmt.Sprintf("round %s is being shown now (speed %d, since %s): watch it at %s", rec.Round, r.rec.Speed, r.rec.Started.UTC().Format(time.RFC3339), ShowingPath(r.rec.Round, r.rec.Seq))}}
			}
		}
		if len(s.running) >= MaxShowings {
			return &showStartReply{err: &games.Error{Code: CodeBusy, Retry: true,
				Msg: fmt.Sprintf("%d showings are running, the most at once; start this one when one has ended", MaxShowings)}}
		}
		if _, err := s.a.Store().Showing(rec.Round, rec.Seq); err == nil {
			return &showStartReply{err: &games.Error{Code: CodeBusy, Retry: true, Msg: "round " + rec.Round + " had a showing start this second; try again"}}
		} else if !errors.Is(err, storage.ErrNotFound) {
			return &showStartReply{err: err}
		}
		if err := s.a.Store().PutShowing(rec); err != nil {
			return &showStartReply{err: &games.Error{Code: CodeBusy, Retry: true, Msg: "the showing could not be saved: " + err.Error()}}
		}
	}
	key := showingKey(rec.Round, rec.Seq)
	sa := &showingActor{rec: rec, events: evs, clock: s.a.deskClock(), parent: ctx.Self(), key: key}
	pid, err := ctx.SpawnNamed(actor.PropsFromProducer(func() actor.Actor { return sa }), "showing-"+strings.ReplaceAll(key, "/", "-"))
	if err != nil {
		return &showStartReply{err: err}
	}
	s.running[key] = &running{rec: rec, pid: pid}
	if rec.Tx == "" {
		s.anchor(ctx, rec)
	}
	return &showStartReply{rec: rec}
}

// anchor hands the showing's replay anchor to the chain actor (§5.5), which answers this actor
// with the transaction (actors.Anchored). The same bytes asked again (after a restart before the
// answer was saved) are answered with the transaction already made.
func (s *showings) anchor(ctx actor.Context, rec storage.Showing) {
	if s.a.opts.Replays == nil {
		return
	}
	var h [32]byte
	if b, err := hex.DecodeString(rec.Hash); err != nil || len(b) != 32 {
		s.a.Logger().Error("showing: the recorded transcript's hash is not 32 bytes of hex", "round", rec.Round, "hash", rec.Hash)
		return
	} else {
		copy(h[:], b)
	}
	s.a.opts.Replays.Anchor(actors.AnchorJob{Table: rec.Table, Round: rec.Round,
		Request: games.AnchorRequest{Kind: anchor.Replay.String(), Seq: rec.Seq, Hash: h}, ReplyTo: ctx.Self()})
}

// anchored records the replay anchor's transaction in its showing.
func (s *showings) anchored(m *actors.Anchored) {
	if m.Err != "" {
		s.a.Logger().Error("showing: the chain actor refused the replay anchor; asked again at the next start", "round", m.Round, "seq", m.Request.Seq, "err", m.Err)
		return
	}
	key := showingKey(m.Round, m.Request.Seq)
	if r := s.running[key]; r != nil {
		r.rec.Tx = m.Tx
		s.save(r.rec)
		return
	}
	rec, err := s.a.Store().Showing(m.Round, m.Request.Seq)
	if err != nil {
		s.a.Logger().Error("showing: a replay anchor for no showing", "round", m.Round, "seq", m.Request.Seq, "err", err)
		return
	}
	rec.Tx = m.Tx
	s.save(rec)
}

// save writes rec, keeping what another write set: Tx and Ended only ever get set.
func (s *showings) save(rec storage.Showing) {
	if old, err := s.a.Store().Showing(rec.Round, rec.Seq); err == nil {
		rec.Tx = firstOf(rec.Tx, old.Tx)
		rec.Ended = rec.Ended || old.Ended
	}
	if err := s.a.Store().PutShowing(rec); err != nil {
		s.a.Logger().Error("showing: record not saved", "round", rec.Round, "seq", rec.Seq, "err", err)
	}
}

func firstOf(a, b string) string {
	if a != "" {
		return a
	}
	return b
}

// restore resumes every showing not ended, and asks again for the anchor of one whose
// transaction was never saved.
func (s *showings) restore(ctx actor.Context) {
	recs, err := s.a.Store().Showings("")
	if err != nil {
		s.a.Logger().Error("showings: records unreadable; none resumed", "err", err)
		return
	}
	for _, rec := range recs {
		if rec.Ended {
			if rec.Tx == "" {
				s.anchor(ctx, rec)
			}
			continue
		}
		evs, _, err := s.a.Transcript(context.Background(), rec.Round)
		if err != nil {
			s.a.Logger().Error("showing: its round is unreadable; not resumed", "round", rec.Round, "seq", rec.Seq, "err", err)
			continue
		}
		if r := s.start(ctx, rec, recording(evs), false); r.err != nil {
			s.a.Logger().Error("showing: not resumed", "round", rec.Round, "seq", rec.Seq, "err", r.err)
		}
	}
}

// showingActor is one running showing.
type showingActor struct {
	rec    storage.Showing
	events []games.Event // public, in seq order
	clock  actors.Clock
	parent *actor.PID
	key    string
	shown  int
	gen    uint64
	stop   func() bool
}

func (s *showingActor) Receive(ctx actor.Context) {
	switch m := ctx.Message().(type) {
	case *actor.Started:
		s.step(ctx)
	case *showTick:
		if m.gen == s.gen {
			s.step(ctx)
		}
	case *showAsk:
		ctx.Respond(&showAskReply{found: true, shown: s.events[:s.shown:s.shown], total: len(s.events), rec: s.rec})
	case *actor.Stopping:
		if s.stop != nil {
			s.stop()
		}
	}
}

// offset is event i's instant in the showing: its recorded instant's distance from the first
// event's, divided by the speed (an instant that does not parse is the one before it).
func (s *showingActor) offset(i int) time.Duration {
	for ; i > 0; i-- {
		at, err := time.Parse(time.RFC3339Nano, s.events[i].At)
		t0, err0 := time.Parse(time.RFC3339Nano, s.events[0].At)
		if err == nil && err0 == nil {
			return max(at.Sub(t0), 0) / time.Duration(max(s.rec.Speed, 1))
		}
	}
	return 0
}

// step shows every event due by now, then arms one timer for the next; the last shown, it tells
// the showings actor it has ended.
func (s *showingActor) step(ctx actor.Context) {
	now := s.clock.Now()
	for s.shown < len(s.events) && !s.rec.Started.Add(s.offset(s.shown)).After(now) {
		s.shown++
	}
	if s.shown == len(s.events) {
		ctx.Send(s.parent, &showEnded{key: s.key})
		return
	}
	s.gen++
	self, root, gen := ctx.Self(), ctx.ActorSystem().Root, s.gen
	s.stop = s.clock.AfterFunc(s.rec.Started.Add(s.offset(s.shown)).Sub(now), func() { root.Send(self, &showTick{gen: gen}) })
}

// recording is what a showing shows of a revealed round's transcript: its public events, up to
// and including the reveal's (a spectator's view, games.Redact: nothing sealed, and the reveal's
// own event carries what the reveal reveals).
func recording(evs []games.Event) []games.Event {
	pub := games.Redact(evs, 0, false)
	for i, e := range pub {
		if e.Type == "round.revealed" {
			return pub[:i+1]
		}
	}
	return pub
}

// recordedHash is the recorded transcript's hash: SHA-256 of JCS of the round's events up to and
// including round.revealed (the transcript hash its reveal fixed, games.Result.TranscriptHash),
// hex; false when the round was never revealed (abandoned, or not over).
func recordedHash(evs []games.Event) (string, bool, error) {
	for i, e := range evs {
		if e.Type == "round.revealed" {
			id, err := blitz.TranscriptHash(evs[:i+1])
			return strings.TrimPrefix(id, "sha256:"), true, err
		}
	}
	return "", false, nil
}

// StartShowing starts a showing of round at speed (1 to MaxShowingSpeed times the recorded pace)
// now, and registers its replay anchor (§5.5). Refusals: bad_request for a speed out of range,
// actors.ErrNoRound (unknown_round), and as *games.Error not_revealed for a round not revealed (still playing, or
// abandoned: there is no recording to show), busy while MaxShowings run or the round is being
// shown.
func (a *Arena) StartShowing(ctx context.Context, round string, speed int) (storage.Showing, error) {
	if speed < 1 || speed > MaxShowingSpeed {
		return storage.Showing{}, games.Errorf(games.CodeBadRequest, "speed must be a whole number from 1 to %d (times the recorded pace), not %d", MaxShowingSpeed, speed)
	}
	evs, ended, err := a.Transcript(ctx, round)
	if errors.Is(err, actors.ErrNoRound) {
		return storage.Showing{}, fmt.Errorf("%w: %s", actors.ErrNoRound, round)
	} else if err != nil {
		return storage.Showing{}, err
	}
	hash, revealed, err := recordedHash(evs)
	if err != nil {
		return storage.Showing{}, err
	}
	if !ended || !revealed {
		why := "is still being played"
		if ended {
			why = "ended without a reveal (abandoned)"
		}
		return storage.Showing{}, &games.Error{Code: CodeNotRevealed, Retry: !ended,
			Msg: "round " + round + " " + why + ": only a revealed round's recording can be shown (§11.4)"}
	}
	table, err := a.Store().RoundTable(round)
	if err != nil {
		return storage.Showing{}, err
	}
	now := a.deskClock().Now()
	seq, err := anchor.ReplaySeq(now)
	if err != nil {
		return storage.Showing{}, games.Errorf(games.CodeBadRequest, "%v", err)
	}
	rec := storage.Showing{Round: round, Table: table, Seq: seq, Speed: speed, Started: now.UTC(), Hash: hash}
	res, err := a.System().Root.RequestFuture(a.showings, &showStart{rec: rec, events: recording(evs)}, ask.Timeout(ctx, a.AskTimeout())).Result()
	if err != nil {
		return storage.Showing{}, &games.Error{Code: CodeBusy, Msg: "the showings did not answer: " + err.Error(), Retry: true}
	}
	r := res.(*showStartReply)
	return r.rec, r.err
}

// ShowingOf is the showing of round that started at Unix second seq: the events shown so far
// (every one, once it has ended). actors.ErrNoRound (unknown_round) when there is none such.
func (a *Arena) ShowingOf(ctx context.Context, round string, seq uint32) (Showing, error) {
	none := fmt.Errorf("%w: no showing of %s started at %d", actors.ErrNoRound, round, seq)
	if seq == 0 || strings.Contains(round, "/") || round == "" {
		return Showing{}, none
	}
	res, err := a.System().Root.RequestFuture(a.showings, &showAsk{Round: round, Seq: seq}, ask.Timeout(ctx, a.AskTimeout())).Result()
	if err != nil {
		return Showing{}, &games.Error{Code: CodeBusy, Msg: "the showing did not answer: " + err.Error(), Retry: true}
	}
	if r := res.(*showAskReply); r.found {
		rec, err := a.Store().Showing(round, seq) // the transaction, once the chain actor answered
		if err != nil {
			rec = r.rec
		}
		return Showing{Showing: rec, Events: r.shown, Total: r.total}, nil
	}
	rec, err := a.Store().Showing(round, seq)
	if errors.Is(err, storage.ErrNotFound) {
		return Showing{}, none
	} else if err != nil {
		return Showing{}, err
	}
	evs, _, err := a.Transcript(ctx, round)
	if err != nil {
		return Showing{}, err
	}
	all := recording(evs)
	if !rec.Ended { // saved, and not yet running (the start's answer is on its way)
		return Showing{Showing: rec, Total: len(all)}, nil
	}
	return Showing{Showing: rec, Events: all, Total: len(all)}, nil
}

// Replays are round's showings' replay anchors, in start order, as its transcript's body lists
// them; a showing whose anchor the chain actor has not answered yet is left out.
func (a *Arena) Replays(ctx context.Context, round string) ([]Replay, error) {
	recs, err := a.Store().Showings(round)
	if err != nil {
		return nil, err
	}
	out := []Replay{}
	for _, r := range recs {
		if r.Tx == "" {
			continue
		}
		out = append(out, Replay{Showing: ShowingPath(r.Round, r.Seq), Round: r.Round, Seq: r.Seq, Hash: r.Hash, Tx: r.Tx,
			Speed: r.Speed, Started: r.Started.UTC().Format(time.RFC3339)})
	}
	return out, nil
}

// RecentShowings are the latest n showings of every round, newest start first: those running
// (not Ended) and those already shown, each with its replay anchor's transaction once the chain
// actor has answered (Tx empty until then). n ≤ 0 lists none. Errors are the store's.
func (a *Arena) RecentShowings(_ context.Context, n int) ([]storage.Showing, error) {
	if n <= 0 {
		return []storage.Showing{}, nil
	}
	recs, err := a.Store().Showings("")
	if err != nil {
		return nil, err
	}
	sort.SliceStable(recs, func(i, j int) bool {
		if !recs[i].Started.Equal(recs[j].Started) {
			return recs[i].Started.After(recs[j].Started)
		}
		return recs[i].Round < recs[j].Round
	})
	if len(recs) > n {
		recs = recs[:n]
	}
	if recs == nil {
		recs = []storage.Showing{}
	}
	return recs, nil
}
