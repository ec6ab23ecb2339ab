package dotdotdot

import (
	"context"
	"crypto/ed25519"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/asynkron/protoactor-go/actor"

	"arena/actors"
	"arena/actors/dotdotdot/envelope"
	"arena/games"
	"arena/games/blitz"
	"arena/storage"
	"arena/storage/storagetest"
)

// Tests of the walk-in desk on the real actor tree (G's tables, rounds and seats), a fake clock,
// a bbolt file in a temp dir and the stand-in game of desk_game_test.go. No test sleeps: a long
// poll returns when the move reaches the mailbox; real-time bounds only guard against hangs.

var deskT0 = time.Date(2026, 11, 30, 12, 0, 0, 0, time.UTC)

type deskEnv struct {
	a        *Arena
	clock    *actors.FakeClock
	armed    chan time.Time // every instant a timer was armed for (deskArmClock)
	db       *storage.Store
	dir      string
	finished chan string // ids of tables that finished (Options.OnStatus)
}

// deskArmClock is the fake clock telling the test each instant a timer is armed for, so a test
// can wait for a table to arm its deadline before moving the clock, without sleeping.
type deskArmClock struct {
	*actors.FakeClock
	armed chan time.Time
}

func (c deskArmClock) AfterFunc(d time.Duration, f func()) func() bool {
	at := c.Now().Add(d)
	stop := c.FakeClock.AfterFunc(d, f)
	select {
	case c.armed <- at:
	default: // a test that never waits for timers: drop
	}
	return stop
}

// newDeskEnv starts an arena on a fresh data dir (or dir, to restart on the same file), with
// the desk wired as Options.BeforeRecover.
func newDeskEnv(t testing.TB, dir string, clock *actors.FakeClock) *deskEnv {
	t.Helper()
	return startDeskEnv(t, dir, clock, startDesk, deskGame{})
}

// startDeskEnv is newDeskEnv with the BeforeRecover hook (nil: the desk starts on first use) and
// the "blitz" engine given.
func startDeskEnv(t testing.TB, dir string, clock *actors.FakeClock, before func(*Arena) error, eng games.Engine) *deskEnv {
	t.Helper()
	return startDeskEnvPaces(t, dir, clock, before, eng, Paces{})
}

// startDeskEnvPaces is startDeskEnv with the arena's Options.Paces.
func startDeskEnvPaces(t testing.TB, dir string, clock *actors.FakeClock, before func(*Arena) error, eng games.Engine, paces Paces) *deskEnv {
	t.Helper()
	if dir == "" {
		dir = filepath.Dir(storagetest.Path(t)) // the file is checked when the test ends
	}
	if clock == nil {
		clock = actors.NewFakeClock(deskT0)
	}
	db, err := storage.Open(filepath.Join(dir, "arena.db"), storage.Options{NoSync: true})
	if err != nil {
		t.Fatal(err)
	}
	br, err := games.NewBracket(eng)
	if err != nil {
		t.Fatal(err)
	}
	seed := sha256.Sum256([]byte("desk test instance"))
	finished := make(chan string, 64)
	armed := make(chan time.Time, 4096)
	var a *Arena
	instance, agent := ed25519.NewKeyFromSeed(seed[:]), "ccd:4221332d34e1694168c2a0c0b3fd0f27/cis-2:12802,0/7"
	_, err = actors.Start(actors.Options{DB: db, Bracket: br, Clock: deskArmClock{FakeClock: clock, armed: armed}, InstanceKey: instance,
		InstanceAgent: agent, Keys: &Keys{Instance: instance, Agent: agent}, AskTimeout: 5 * time.Second,
		BeforeRecover: func(x *actors.Arena) error {
			a = newArena(x, Options{Paces: paces})
			if before == nil {
				return nil
			}
			return before(a)
		},
		OnStatus: func(table, status string) {
			if status == actors.StatusFinished {
				select {
				case finished <- table:
				default:
				}
			}
		}})
	if err != nil {
		t.Fatal(err)
	}
	e := &deskEnv{a: a, clock: clock, armed: armed, db: db, dir: dir, finished: finished}
	t.Cleanup(e.stop)
	return e
}

func (e *deskEnv) stop() {
	if e.a == nil {
		return
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	_ = e.a.Shutdown(ctx)
	_ = e.db.Close()
	e.a = nil
}

func deskCtx(t testing.TB) context.Context {
	ctx, cancel := context.WithTimeout(t.Context(), 20*time.Second)
	t.Cleanup(cancel)
	return ctx
}

func deskWantCode(t *testing.T, err error, code string) {
	t.Helper()
	var ge *games.Error
	if !errors.As(err, &ge) || ge.Code != code {
		t.Fatalf("got error %v, want code %s", err, code)
	}
}

// deskanswerBody echoes a move and says something.
func deskAnswer(round string, mv games.Move, say string) []byte {
	body := map[string]any{"round": round, "turn": mv.Turn, "phase": mv.Phase, "say": say}
	if mv.Exchange > 0 {
		body["exchange"] = mv.Exchange
	}
	b, _ := json.Marshal(body)
	return b
}

// deskplayRound polls and answers every move of the token's round until the result, and returns it.
func deskPlayRound(t *testing.T, a *Arena, token string) Next {
	t.Helper()
	ctx := deskCtx(t)
	for moves := 0; moves < 50; moves++ {
		n, err := a.NextMove(ctx, token, MaxPollWait)
		if err != nil {
			t.Fatalf("next: %v", err)
		}
		switch n.Status {
		case NextRevealed:
			return n
		case NextMove:
			if _, err := a.AnswerMove(ctx, token, deskAnswer(n.Round, n.Prompt.Move, "hello")); err != nil {
				t.Fatalf("answer %+v: %v", n.Prompt.Move, err)
			}
		default:
			t.Fatalf("poll ended without a move or result: %+v", n)
		}
	}
	t.Fatal("round did not end in 50 moves")
	return Next{}
}

type deskRecordJSON struct {
	Name             string `json:"name"`
	Practice         int    `json:"practice"`
	Rounds           int    `json:"rounds"`
	Net              int64  `json:"net"`
	WouldHavePaid    int64  `json:"would_have_paid"`
	MoleRounds       int    `json:"mole_rounds"`
	Rungs            int    `json:"rungs"`
	Accusations      int    `json:"accusations"`
	AccusationsRight int    `json:"accusations_right"`
	WalkinTable      bool   `json:"walkin_table"`
	VsHouse          []struct {
		Name   string `json:"name"`
		Rounds int    `json:"rounds"`
		Ahead  int    `json:"ahead"`
		Behind int    `json:"behind"`
		Even   int    `json:"even"`
	} `json:"vs_house"`
	Marks []string `json:"marks"`
	Live  *struct {
		Round string `json:"round"`
		Table string `json:"table"`
		Seat  int    `json:"seat"`
	} `json:"live"`
	Last []walkinRoundLine `json:"last"`
}

func deskRecord(t *testing.T, a *Arena, token string) deskRecordJSON {
	t.Helper()
	b, err := a.WalkinRecord(deskCtx(t), token)
	if err != nil {
		t.Fatal(err)
	}
	var r deskRecordJSON
	if err := json.Unmarshal(b, &r); err != nil {
		t.Fatalf("record %s: %v", b, err)
	}
	return r
}

func TestDeskPracticeRoundToRecord(t *testing.T) {
	e := newDeskEnv(t, "", nil)
	ctx := deskCtx(t)
	token, err := e.a.RegisterWalkin(ctx, "  Ada Lovelace ", "claude")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(token, "w_") || len(token) != 45 {
		t.Fatalf("token %q", token)
	}
	// The raw token is nowhere in storage; its hash keys the record.
	sum := sha256.Sum256([]byte(token))
	if _, err := e.db.Walkins().Get(hex.EncodeToString(sum[:])); err != nil {
		t.Fatalf("record under sha256(token): %v", err)
	}
	_ = e.db.Walkins().Scan("", func(k string, v []byte) error {
		if strings.Contains(k, token) || strings.Contains(string(v), token) {
			t.Fatalf("raw token stored under %q", k)
		}
		return nil
	})
	if n, err := e.a.NextMove(ctx, token, 0); err != nil || n.Status != NextIdle || !n.Waiting {
		t.Fatalf("poll before joining: %+v %v", n, err)
	}

	mole := 1
	j, err := e.a.JoinWalkin(ctx, token, JoinRequest{Table: "practice", Format: "short", Mole: &mole})
	if err != nil {
		t.Fatal(err)
	}
	if j.Round == "" || j.Seat != 1 || j.Pace != "chat" || j.Status != "seated" || j.Kind != "practice" || !strings.HasPrefix(j.Table, "p") {
		t.Fatalf("join reply %+v", j)
	}
	_, err = e.a.JoinWalkin(ctx, token, JoinRequest{Table: "practice"})
	deskWantCode(t, err, CodeInARound)

	// The table was opened as asked: the walk-in and two named house agents, chat clock.
	tables, err := e.a.Tables(ctx)
	if err != nil {
		t.Fatal(err)
	}
	var info *actors.TableInfo
	for i := range tables {
		if tables[i].ID == j.Table {
			info = &tables[i]
		}
	}
	if info == nil || len(info.Seats) != 3 || info.Seats[0].Channel != ChannelMailbox || info.Seats[0].Name != "Ada Lovelace" ||
		info.Seats[1].Channel != actors.ChannelHouse || info.Seats[1].Kind != "house" || info.Kind != "practice" {
		t.Fatalf("table info %+v", info)
	}

	first, err := e.a.NextMove(ctx, token, MaxPollWait)
	if err != nil || first.Status != NextMove || first.Prompt.Move.Phase != "scouting" {
		t.Fatalf("first move: %+v %v", first, err)
	}
	if !json.Valid(first.Envelope) || first.Brief == "" || len(first.Answer) == 0 {
		t.Fatalf("envelope %s brief %q answer %s", first.Envelope, first.Brief, first.Answer)
	}
	// Polling again gives the same move, byte for byte.
	again, err := e.a.NextMove(ctx, token, 0)
	if err != nil || string(again.Envelope) != string(first.Envelope) {
		t.Fatalf("re-poll: %+v %v", again, err)
	}

	end := deskPlayRound(t, e.a, token)
	if end.Result == nil || end.Round != j.Round || end.Brief == "" {
		t.Fatalf("end: %+v", end)
	}
	// The stand-in game pays 1 CCD per answered move with a line: scouting, talk, commit.
	if got, want := end.Result.Payouts[1], walkinEntry+3_000_000; got != want {
		t.Fatalf("payout %d, want %d", got, want)
	}

	r := deskRecord(t, e.a, token)
	if r.Name != "Ada Lovelace" || r.Practice != 1 || r.Rounds != 1 || r.Net != 3_000_000 ||
		r.WouldHavePaid != walkinEntry+blitz.DefaultFees().Table || r.MoleRounds != 1 || r.Rungs != 2 || r.Live != nil {
		t.Fatalf("record %+v", r)
	}
	if len(r.VsHouse) != 2 {
		t.Fatalf("vs house %+v", r.VsHouse)
	}
	for _, vs := range r.VsHouse {
		if vs.Rounds != 1 || vs.Even != 1 { // house seats answered every move too: equal payouts
			t.Fatalf("vs %+v", vs)
		}
	}
	if len(r.Last) != 1 || r.Last[0].Round != j.Round || r.Last[0].Role != "mole" || r.Last[0].Net != 3_000_000 || r.Last[0].Format != "short" {
		t.Fatalf("last %+v", r.Last)
	}
	// After the round the poll answers the result, and the token may join again.
	if n, err := e.a.NextMove(ctx, token, 0); err != nil || n.Status != NextRevealed || n.Result == nil {
		t.Fatalf("poll after the round: %+v %v", n, err)
	}

	// The board and the public page.
	b, err := e.a.Board(ctx)
	if err != nil {
		t.Fatal(err)
	}
	var board BoardView
	if err := json.Unmarshal(b, &board); err != nil || board.Week != "2026-W49" || len(board.Lines) != 1 ||
		board.Lines[0].Name != "Ada Lovelace" || board.Lines[0].Net != 3_000_000 || board.Lines[0].Rounds != 1 {
		t.Fatalf("board %s (%v)", b, err)
	}
	page, err := e.a.WalkinPage(ctx, "ada lovelace")
	if err != nil || !strings.Contains(string(page), `"rounds":1`) || strings.Contains(string(page), token) {
		t.Fatalf("page %s %v", page, err)
	}
	_, err = e.a.WalkinPage(ctx, "nobody")
	deskWantCode(t, err, CodeUnknownName)
}

func TestDeskRefusals(t *testing.T) {
	e := newDeskEnv(t, "", nil)
	ctx := deskCtx(t)
	token, err := e.a.RegisterWalkin(ctx, "Basil", "")
	if err != nil {
		t.Fatal(err)
	}
	_, err = e.a.RegisterWalkin(ctx, "BASIL", "")
	deskWantCode(t, err, CodeNameTaken)
	for _, name := range []string{"", "a\x00b", strings.Repeat("x", 33)} {
		_, err = e.a.RegisterWalkin(ctx, name, "")
		deskWantCode(t, err, games.CodeBadRequest)
	}
	forged := "w_" + strings.Repeat("A", 43)
	for _, tok := range []string{"", "w_short", forged, token + "x", strings.Replace(token, "w_", "x_", 1)} {
		_, err := e.a.NextMove(ctx, tok, 0)
		deskWantCode(t, err, CodeUnknownToken)
		_, err = e.a.WalkinRecord(ctx, tok)
		deskWantCode(t, err, CodeUnknownToken)
	}

	j, err := e.a.JoinWalkin(ctx, token, JoinRequest{Table: "walkin"})
	deskWantCode(t, err, CodeNotYet)
	if j.Practice != 0 || j.Status != CodeNotYet || !strings.Contains(err.Error(), "0 done") {
		t.Fatalf("not_yet reply %+v (%v)", j, err)
	}
	// A table a walk-in cannot join is bad_table, as at the agents' and off-the-shelf doors;
	// rated and badge-gated say why (no Badge of its own).
	for _, table := range []string{"open", "rated", "gated", "showcase", "hosted", "nope"} {
		_, err := e.a.JoinWalkin(ctx, token, JoinRequest{Table: table})
		deskWantCode(t, err, CodeBadTable)
		if (table == "rated" || table == "gated") && !strings.Contains(err.Error(), "registered agents' own Badges") {
			t.Errorf("%s: %v", table, err)
		}
	}
	bad := []JoinRequest{
		{Pace: "fast"}, {Format: "long"}, {Mole: new(int)}, {Mole: deskIntPtr(7)},
		{Format: "short", Mole: deskIntPtr(4)}, {Code: "AB0"}, // a malformed hosted code (hosted.go)
	}
	for _, req := range bad {
		_, err := e.a.JoinWalkin(ctx, token, req)
		deskWantCode(t, err, games.CodeBadRequest)
	}

	_, err = e.a.AnswerMove(ctx, token, []byte(`{"round":"T-1","turn":1,"phase":"commit"}`))
	deskWantCode(t, err, games.CodeStale) // no move waiting
	_, err = e.a.Lever(ctx, token, "T-1", "accuse", []byte(`{"seat":2}`))
	deskWantCode(t, err, games.CodeNotSeated)
	_, err = e.a.Lever(ctx, token, "T-1", "bribe", []byte(`{}`))
	deskWantCode(t, err, games.CodeBadRequest)
	for _, body := range []string{``, `[]`, `{"seat":2} x`, `{"seat":2,"seat":3}`} {
		_, err = e.a.Lever(ctx, token, "T-1", "accuse", []byte(body))
		deskWantCode(t, err, games.CodeBadRequest)
	}

	j, err = e.a.JoinWalkin(ctx, token, JoinRequest{Pace: "agent"})
	if err != nil || j.Pace != "agent" || j.Format != "blitz" {
		t.Fatalf("join %+v %v", j, err)
	}
	n, err := e.a.NextMove(ctx, token, MaxPollWait)
	if err != nil || n.Status != NextMove {
		t.Fatalf("move: %+v %v", n, err)
	}
	mv := n.Prompt.Move
	other := mv
	other.Turn++
	for name, body := range map[string][]byte{
		"another turn":  deskAnswer(n.Round, other, ""),
		"another round": deskAnswer("T-999", mv, ""),
	} {
		_, err := e.a.AnswerMove(ctx, token, body)
		if err == nil {
			t.Fatalf("%s: accepted", name)
		}
		deskWantCode(t, err, games.CodeStale)
	}
	// A body the game refuses leaves the move open for a better answer.
	_, err = e.a.AnswerMove(ctx, token, deskAnswer(n.Round, mv, "refuse me"))
	deskWantCode(t, err, "bad_condition")
	reply, err := e.a.AnswerMove(ctx, token, deskAnswer(n.Round, mv, "fine"))
	if err != nil || string(reply) != `{"dropped":[]}` {
		t.Fatalf("answer: %s %v", reply, err)
	}
	_, err = e.a.AnswerMove(ctx, token, deskAnswer(n.Round, mv, "twice"))
	deskWantCode(t, err, games.CodeStale)

	// Levers go to the table over the walk-in's own seat.
	if _, err := e.a.Lever(ctx, token, n.Round, "accuse", []byte(`{"seat":3}`)); err != nil {
		t.Fatalf("accuse: %v", err)
	}
	_, err = e.a.Lever(ctx, token, n.Round, "call", []byte(`{"text":"hi"}`))
	deskWantCode(t, err, "not_now")

	// The agent clock does not close early: the next move comes at the scouting deadline.
	deskWaitArmed(t, e, n.Prompt.Deadline)
	e.clock.Set(n.Prompt.Deadline)
	n2, err := e.a.NextMove(ctx, token, MaxPollWait)
	if err != nil || n2.Status != NextMove || n2.Prompt.Move != (games.Move{Turn: 1, Phase: "talk", Exchange: 1}) {
		t.Fatalf("move: %+v %v", n2, err)
	}
	if got := n2.Prompt.Deadline.Sub(n.Prompt.Deadline); got != blitz.AgentPace().Step("talk") {
		t.Fatalf("talk exchange of %v on the agent clock", got)
	}
	// At its deadline the move is gone: the answer is stale.
	e.clock.Set(n2.Prompt.Deadline)
	_, err = e.a.AnswerMove(ctx, token, deskAnswer(n2.Round, n2.Prompt.Move, "late"))
	deskWantCode(t, err, games.CodeStale)
}

func deskIntPtr(n int) *int { return &n }

func TestDeskParseEcho(t *testing.T) {
	tests := []struct {
		body string
		ok   bool
		want walkinEcho
	}{
		{`{"round":"T-1","turn":2,"phase":"talk","exchange":3,"messages":[]}`, true, walkinEcho{Round: "T-1", Move: games.Move{Turn: 2, Phase: "talk", Exchange: 3}}},
		{`{"round":"T-1","turn":2,"phase":"commit","seat":4}`, true, walkinEcho{Round: "T-1", Move: games.Move{Turn: 2, Phase: "commit"}, Seat: 4}},
		{`{"round":"T-1","turn":0,"phase":"scouting"}`, true, walkinEcho{Round: "T-1", Move: games.Move{Phase: "scouting"}}},
		{`{"round":"T-1","turn":2,"phase":"talk"}`, false, walkinEcho{}},                 // exchange missing on talk
		{`{"round":"T-1","turn":"2","phase":"commit"}`, false, walkinEcho{}},             // turn as a string
		{`{"round":"T-1","turn":2.5,"phase":"commit"}`, false, walkinEcho{}},             // fractional
		{`{"round":"T-1","turn":2e0,"phase":"commit"}`, false, walkinEcho{}},             // exponent
		{`{"round":"T-1","turn":-1,"phase":"commit"}`, false, walkinEcho{}},              // negative
		{`{"round":1,"turn":2,"phase":"commit"}`, false, walkinEcho{}},                   // round a number
		{`{"round":"","turn":2,"phase":"commit"}`, false, walkinEcho{}},                  // empty round
		{`{"round":"T-1","round":"T-2","turn":2,"phase":"commit"}`, false, walkinEcho{}}, // duplicate
		{`{"round":"T-1","turn":2,"phase":"commit"} {}`, false, walkinEcho{}},            // trailing data
		{`[{"round":"T-1"}]`, false, walkinEcho{}},                                       // not an object
		{``, false, walkinEcho{}}, // empty
		{`{"round":"T-1","turn":2,"phase":"commit","seat":0}`, false, walkinEcho{}},           // seat 0
		{`{"round":"T-1","turn":2,"phase":"talk","exchange":0}`, false, walkinEcho{}},         // exchange 0
		{`{"round":"T-1","turn":99999999999999999999,"phase":"commit"}`, false, walkinEcho{}}, // overflow
	}
	for _, tt := range tests {
		got, err := parseEcho([]byte(tt.body))
		if tt.ok != (err == nil) {
			t.Errorf("%s: err %v, want ok=%v", tt.body, err, tt.ok)
			continue
		}
		if err != nil {
			deskWantCode(t, err, games.CodeBadRequest)
			continue
		}
		if got != tt.want {
			t.Errorf("%s: got %+v, want %+v", tt.body, got, tt.want)
		}
	}
}

func FuzzDeskParseEcho(f *testing.F) {
	f.Add([]byte(`{"round":"T-1","turn":2,"phase":"talk","exchange":3}`))
	f.Add([]byte(`{"round":"T-1","turn":2,"phase":"commit","commitments":[{"payee":2,"chips":3}]}`))
	f.Add([]byte(`{"a":{"b":[1,2,{"c":null}]}}`))
	f.Fuzz(func(t *testing.T, b []byte) {
		e, err := parseEcho(b)
		if err != nil {
			var ge *games.Error
			if !errors.As(err, &ge) || ge.Code != games.CodeBadRequest {
				t.Fatalf("refusal %v is not bad_request", err)
			}
			return
		}
		if e.Round == "" || e.Move.Phase == "" || e.Move.Turn < 0 || (e.Move.Phase == "talk" && e.Move.Exchange < 1) || !json.Valid(b) {
			t.Fatalf("accepted %q as %+v", b, e)
		}
	})
}

// TestDeskDroppedPoll: a poll abandoned just before the move is issued; the re-poll gets that
// same move, 100 times out of 100, whichever way the abandonment and the move interleave.
func TestDeskDroppedPoll(t *testing.T) {
	e := newDeskEnv(t, "", nil)
	ctx := deskCtx(t)
	token, _ := e.a.RegisterWalkin(ctx, "Cleo", "")
	// The agent clock: with the fake clock standing still, the table sends nothing after the
	// scouting move, so only the moves injected below reach the mailbox.
	j, err := e.a.JoinWalkin(ctx, token, JoinRequest{Format: "short", Pace: "agent"})
	if err != nil {
		t.Fatal(err)
	}
	first, err := e.a.NextMove(ctx, token, MaxPollWait) // the scouting move is there
	if err != nil || first.Status != NextMove {
		t.Fatalf("%+v %v", first, err)
	}
	mbox := e.a.System().NewLocalPID("desk/" + mailboxName(j.Table, 1))
	for i := 0; i < 100; i++ {
		// Answer what is waiting, so the next poll waits. The moves injected below are not the
		// game's: the table refuses their answers as stale, which closes them just the same.
		_, err := e.a.AnswerMove(ctx, token, deskAnswer(j.Round, deskMustPoll(t, e.a, token).Prompt.Move, ""))
		if i == 0 && err != nil {
			t.Fatalf("answer: %v", err)
		} else if i > 0 {
			deskWantCode(t, err, games.CodeStale)
		}
		pctx, cancel := context.WithCancel(ctx)
		got := make(chan Next, 1)
		go func() {
			n, _ := e.a.NextMove(pctx, token, MaxPollWait)
			got <- n
		}()
		cancel() // the client drops...
		mv := games.Move{Turn: 100 + i, Phase: "commit"}
		p := games.Prompt{Seat: 1, Move: mv, Deadline: deskT0.Add(time.Hour)}
		env, err := envelope.Sign(e.a.InstanceKey(), j.Round, p) // what the mailbox signs
		if err != nil {
			t.Fatal(err)
		}
		// ...just as the move is issued (sent the way the seat actor sends it).
		e.a.System().Root.Send(mbox, &actors.DeliverPrompt{Table: j.Table, Round: j.Round, Seat: 1, Prompt: p})
		<-got // whatever the dropped poll saw, it went nowhere
		n, err := e.a.NextMove(ctx, token, MaxPollWait)
		if err != nil || n.Status != NextMove || n.Prompt.Move != mv || string(n.Envelope) != string(env) {
			t.Fatalf("iteration %d: re-poll got %+v %v, want move %+v", i, n, err, mv)
		}
	}
}

func deskMustPoll(t *testing.T, a *Arena, token string) Next {
	t.Helper()
	n, err := a.NextMove(deskCtx(t), token, MaxPollWait)
	if err != nil || n.Status != NextMove {
		t.Fatalf("poll: %+v %v", n, err)
	}
	return n
}

// TestDeskAwayRuleOnTable: a walk-in that stops answering is answered with silence after two
// missed moves, so the chat-clock table moves on without waiting three minutes a move.
func TestDeskAwayRuleOnTable(t *testing.T) {
	e := newDeskEnv(t, "", nil)
	ctx := deskCtx(t)
	token, _ := e.a.RegisterWalkin(ctx, "Dara", "")
	j, err := e.a.JoinWalkin(ctx, token, JoinRequest{Format: "blitz"})
	if err != nil {
		t.Fatal(err)
	}
	// Two moves pass by their deadlines unanswered (scouting, talk 1.1).
	for i := 0; i < 2; i++ {
		n := deskMustPoll(t, e.a, token)
		if i == 0 && n.Prompt.Move.Phase != "scouting" {
			t.Fatalf("first move %+v", n.Prompt.Move)
		}
		deskWaitArmed(t, e, n.Prompt.Deadline)
		e.clock.Set(n.Prompt.Deadline)
	}
	// From now on every move is answered with silence at once: the table runs to its end with
	// the clock standing still, and nobody polls (a poll would end the away rule).
	select {
	case id := <-e.finished:
		if id != j.Table {
			t.Fatalf("table %s finished, want %s", id, j.Table)
		}
	case <-ctx.Done():
		t.Fatal("table did not finish while the seat was away")
	}
	var res Next
	res, err = e.a.NextMove(ctx, token, MaxPollWait) // the result reaches the mailbox just after
	if err != nil || res.Status != NextRevealed {
		t.Fatalf("after the round: %+v %v", res, err)
	}
	if got := res.Result.Payouts[1]; got != walkinEntry-2_000_000 { // two moves missed, the rest silent
		t.Fatalf("payout %d", got)
	}
	if e.clock.Now() != deskT0.Add(blitz.ChatPace().Step("scouting")+blitz.ChatPace().Step("talk")) {
		t.Fatalf("clock moved: %v", e.clock.Now())
	}
}

// deskwaitArmed waits until a timer is armed for the instant at (the table arms its deadline right
// after delivering the move).
func deskWaitArmed(t *testing.T, e *deskEnv, at time.Time) {
	t.Helper()
	ctx := deskCtx(t)
	for {
		select {
		case got := <-e.armed:
			if got.Equal(at) {
				return
			}
		case <-ctx.Done():
			t.Fatalf("no timer armed for %v", at)
		}
	}
}

// TestDeskTableRestartKeepsMove: an ops restart of the table mid-round redelivers the open
// move, which the mailbox keeps; the walk-in answers it and plays on to the result.
func TestDeskTableRestartKeepsMove(t *testing.T) {
	e := newDeskEnv(t, "", nil)
	ctx := deskCtx(t)
	token, _ := e.a.RegisterWalkin(ctx, "Emil", "")
	j, err := e.a.JoinWalkin(ctx, token, JoinRequest{Format: "short"})
	if err != nil {
		t.Fatal(err)
	}
	n := deskMustPoll(t, e.a, token)
	if _, err := e.a.AnswerMove(ctx, token, deskAnswer(j.Round, n.Prompt.Move, "one")); err != nil {
		t.Fatal(err)
	}
	before := deskMustPoll(t, e.a, token) // talk 1
	if err := e.a.RestartTable(ctx, j.Table); err != nil {
		t.Fatal(err)
	}
	after := deskMustPoll(t, e.a, token)
	if after.Prompt.Move != before.Prompt.Move || !after.Prompt.Deadline.Equal(before.Prompt.Deadline) {
		t.Fatalf("after the restart: %+v, want %+v", after.Prompt, before.Prompt)
	}
	if _, err := e.a.AnswerMove(ctx, token, deskAnswer(j.Round, after.Prompt.Move, "two")); err != nil {
		t.Fatalf("answer after the restart: %v", err)
	}
	end := deskPlayRound(t, e.a, token)
	if got := end.Result.Payouts[1]; got != walkinEntry+3_000_000 {
		t.Fatalf("payout %d: a move was lost", got)
	}
}

// TestDeskServerRestart: the server stops mid-round and starts again on the same file. The
// token still works, the record is kept, and the open move is back in the mailbox: with the desk
// wired before recovery (startDesk) and with the desk started late, on first use.
func TestDeskServerRestart(t *testing.T) {
	for _, tc := range []struct {
		name   string
		before func(*Arena) error
	}{{"before recovery", startDesk}, {"on first use", nil}} {
		t.Run(tc.name, func(t *testing.T) {
			e := newDeskEnv(t, "", nil)
			ctx := deskCtx(t)
			token, _ := e.a.RegisterWalkin(ctx, "Faye", "gpt")
			j, err := e.a.JoinWalkin(ctx, token, JoinRequest{Format: "short"})
			if err != nil {
				t.Fatal(err)
			}
			n := deskMustPoll(t, e.a, token)
			if _, err := e.a.AnswerMove(ctx, token, deskAnswer(j.Round, n.Prompt.Move, "one")); err != nil {
				t.Fatal(err)
			}
			open := deskMustPoll(t, e.a, token) // talk 1, open when the server stops
			dir, clock := e.dir, e.clock
			e.stop()

			e2 := startDeskEnv(t, dir, clock, tc.before, deskGame{})
			again := deskMustPoll(t, e2.a, token)
			if again.Round != j.Round || again.Prompt.Move != open.Prompt.Move || !again.Prompt.Deadline.Equal(open.Prompt.Deadline) {
				t.Fatalf("after the restart: %+v, want %+v", again.Prompt, open.Prompt)
			}
			_, err = e2.a.JoinWalkin(ctx, token, JoinRequest{})
			deskWantCode(t, err, CodeInARound)
			if _, err := e2.a.AnswerMove(ctx, token, deskAnswer(j.Round, again.Prompt.Move, "two")); err != nil {
				t.Fatal(err)
			}
			end := deskPlayRound(t, e2.a, token)
			if got := end.Result.Payouts[1]; got != walkinEntry+3_000_000 {
				t.Fatalf("payout %d", got)
			}
			r := deskRecord(t, e2.a, token)
			if r.Rounds != 1 || r.Practice != 1 || r.Name != "Faye" || r.Live != nil {
				t.Fatalf("record %+v", r)
			}
			// Restarted once more after the round: the poll still answers its result.
			e2.stop()
			e3 := startDeskEnv(t, dir, clock, tc.before, deskGame{})
			last, err := e3.a.NextMove(ctx, token, 0)
			if err != nil || last.Status != NextRevealed || last.Round != j.Round || last.Result == nil ||
				last.Result.Payouts[1] != end.Result.Payouts[1] || last.Brief == "" {
				t.Fatalf("poll after a restart past the round: %+v %v", last, err)
			}
		})
	}
}

// TestDeskWalkinTable: two walk-ins with three Practice rounds each queue for the short walkin
// table; two minutes after the first came, a house agent takes the third seat and the round is
// played; levers and the record follow.
func TestDeskWalkinTable(t *testing.T) {
	e := newDeskEnv(t, "", nil)
	ctx := deskCtx(t)
	a, _ := e.a.RegisterWalkin(ctx, "Gideon", "")
	b, _ := e.a.RegisterWalkin(ctx, "Hana", "")
	for i := 0; i < PracticeRoundsForWalkin; i++ {
		for _, tok := range []string{a, b} {
			if i == PracticeRoundsForWalkin-1 && tok == b {
				j, err := e.a.JoinWalkin(ctx, tok, JoinRequest{Table: "walkin", Format: "short"})
				deskWantCode(t, err, CodeNotYet)
				if j.Practice != 2 {
					t.Fatalf("not_yet count %d, want 2", j.Practice)
				}
			}
			if _, err := e.a.JoinWalkin(ctx, tok, JoinRequest{Format: "short"}); err != nil {
				t.Fatal(err)
			}
			deskPlayRound(t, e.a, tok)
		}
	}
	ja, err := e.a.JoinWalkin(ctx, a, JoinRequest{Table: "walkin", Format: "short"})
	if err != nil || ja.Status != "gathering" || ja.Round != "" || ja.Practice != 3 {
		t.Fatalf("join: %+v %v", ja, err)
	}
	_, err = e.a.JoinWalkin(ctx, a, JoinRequest{Format: "short"})
	deskWantCode(t, err, CodeInARound)
	if n, err := e.a.NextMove(ctx, a, 0); err != nil || n.Status != NextGathering || !n.Waiting {
		t.Fatalf("poll while gathering: %+v %v", n, err)
	}
	if _, err := e.a.JoinWalkin(ctx, b, JoinRequest{Table: "walkin", Format: "short"}); err != nil {
		t.Fatal(err)
	}
	if _, err := e.a.Board(ctx); err != nil { // the desk has queued both (FIFO behind the joins)
		t.Fatal(err)
	}
	// A long poll started while gathering is handed the first move once the table opens.
	// (Advancing the fake clock may also end that poll's own wait first: it then asks again.)
	first := make(chan Next, 1)
	go func() {
		for {
			n, err := e.a.NextMove(ctx, a, MaxPollWait)
			if err != nil || n.Status != NextGathering {
				first <- n
				return
			}
		}
	}()
	e.clock.Advance(walkinTopUpAfter)
	results := make(chan Next, 2)
	for _, tok := range []string{b} {
		go func() { results <- deskPlayRoundAsync(e.a, tok) }()
	}
	n := <-first
	if n.Status != NextMove || n.Seat != 1 || !strings.HasPrefix(n.Table, "w") {
		t.Fatalf("first move at the walkin table: %+v", n)
	}
	if _, err := e.a.Lever(ctx, a, n.Round, "accuse", []byte(`{"seat":2}`)); err != nil {
		t.Fatalf("accuse: %v", err)
	}
	endA := deskPlayRound(t, e.a, a)
	endB := <-results
	if endA.Round != endB.Round || endB.Seat != 2 || endB.Result == nil {
		t.Fatalf("a %+v / b %+v", endA, endB)
	}
	tables, _ := e.a.Tables(ctx)
	for _, ti := range tables {
		if ti.ID == endA.Table {
			if ti.Kind != "walkin" || len(ti.Seats) != 3 || ti.Seats[2].Channel != actors.ChannelHouse || ti.Seats[1].Name != "Hana" {
				t.Fatalf("walkin table %+v", ti)
			}
		}
	}
	ra := deskRecord(t, e.a, a)
	if ra.Rounds != 4 || ra.Practice != 3 || ra.Accusations != 1 || ra.AccusationsRight != 1 || ra.Last[0].Kind != "walkin" || ra.Last[0].Accused != 2 {
		t.Fatalf("record of a %+v", ra)
	}
	if !ra.WalkinTable || !deskHas(ra.Marks, markPractised) || !deskHas(ra.Marks, markCaught) {
		t.Fatalf("marks %v", ra.Marks)
	}
	_, err = e.a.Lever(ctx, a, endA.Round, "accuse", []byte(`{"seat":3}`))
	deskWantCode(t, err, games.CodeRoundOver)
}

// deskplayRoundNoFatal is playRound for another goroutine: it returns the zero Next on failure.
func deskPlayRoundAsync(a *Arena, token string) Next {
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	for moves := 0; moves < 50; moves++ {
		n, err := a.NextMove(ctx, token, MaxPollWait)
		if err != nil {
			return Next{}
		}
		switch n.Status {
		case NextRevealed:
			return n
		case NextMove:
			if _, err := a.AnswerMove(ctx, token, deskAnswer(n.Round, n.Prompt.Move, "hi")); err != nil {
				return Next{}
			}
		case NextGathering:
		default:
			return Next{}
		}
	}
	return Next{}
}

func deskHas(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// TestDeskIdleWalkinPassivates: a walk-in actor with nothing going on stops after
// walkinIdleAfter (with its last seat's mailbox); the next request loads the record again and
// the poll still answers the last result.
func TestDeskIdleWalkinPassivates(t *testing.T) {
	e := newDeskEnv(t, "", nil)
	ctx := deskCtx(t)
	token, _ := e.a.RegisterWalkin(ctx, "Jun", "")
	j, err := e.a.JoinWalkin(ctx, token, JoinRequest{Format: "short"})
	if err != nil {
		t.Fatal(err)
	}
	end := deskPlayRound(t, e.a, token)
	w, err := e.a.walkinPID(ctx, token)
	if err != nil {
		t.Fatal(err)
	}
	mbox := e.a.System().NewLocalPID("desk/" + mailboxName(j.Table, 1))
	gone := deskWatch(t, e.a, w, mbox)
	// The record has taken the round's end (messages to the walk-in are handled in order), and
	// the idle timer is armed from now.
	if r := deskRecord(t, e.a, token); r.Rounds != 1 {
		t.Fatalf("record %+v", r)
	}
	e.clock.Advance(walkinIdleAfter)
	for i := 0; i < 2; i++ {
		select {
		case <-gone:
		case <-ctx.Done():
			t.Fatal("idle walk-in (and its mailbox) not stopped")
		}
	}
	n, err := e.a.NextMove(ctx, token, 0)
	if err != nil || n.Status != NextRevealed || n.Round != end.Round || n.Result.Payouts[1] != end.Result.Payouts[1] {
		t.Fatalf("poll after passivation: %+v %v", n, err)
	}
	if r := deskRecord(t, e.a, token); r.Rounds != 1 || r.Name != "Jun" {
		t.Fatalf("record %+v", r)
	}
	if _, err := e.a.JoinWalkin(ctx, token, JoinRequest{Format: "short"}); err != nil {
		t.Fatalf("join after passivation: %v", err)
	}
}

// deskWatch signals on the returned channel each time one of pids terminates.
func deskWatch(t *testing.T, a *Arena, pids ...*actor.PID) <-chan struct{} {
	t.Helper()
	out := make(chan struct{}, len(pids))
	props := actor.PropsFromFunc(func(c actor.Context) {
		switch c.Message().(type) {
		case *actor.Started:
			for _, p := range pids {
				c.Watch(p)
			}
		case *actor.Terminated:
			out <- struct{}{}
		}
	})
	if _, err := a.System().Root.SpawnNamed(props, "desk-test-watch-"+t.Name()); err != nil {
		t.Fatal(err)
	}
	return out
}

// TestDeskWalkinTableFills: three walk-ins ready for the walkin table fill a short one at once,
// with no house seat and no wait for the top-up.
func TestDeskWalkinTableFills(t *testing.T) {
	e := newDeskEnv(t, "", nil)
	ctx := deskCtx(t)
	var tokens []string
	for _, name := range []string{"Kai", "Lea", "Mo"} {
		tok, err := e.a.RegisterWalkin(ctx, name, "")
		if err != nil {
			t.Fatal(err)
		}
		// Give the record its three Practice rounds (the actor loads it on first use).
		sum := sha256.Sum256([]byte(tok))
		key := hex.EncodeToString(sum[:])
		var rec walkinRecord
		b, _ := e.db.Walkins().Get(key)
		if err := json.Unmarshal(b, &rec); err != nil {
			t.Fatal(err)
		}
		rec.Practice, rec.Rounds = 3, 3
		b, _ = json.Marshal(&rec)
		if err := e.db.Walkins().Put(key, b); err != nil {
			t.Fatal(err)
		}
		tokens = append(tokens, tok)
	}
	for _, tok := range tokens {
		if j, err := e.a.JoinWalkin(ctx, tok, JoinRequest{Table: "walkin", Format: "short"}); err != nil || j.Status != "gathering" {
			t.Fatalf("join %+v %v", j, err)
		}
	}
	results := make(chan Next, len(tokens))
	for _, tok := range tokens {
		go func() { results <- deskPlayRoundAsync(e.a, tok) }()
	}
	seats := map[int]bool{}
	var round string
	for range tokens {
		n := <-results
		if n.Status != NextRevealed || (round != "" && n.Round != round) {
			t.Fatalf("result %+v", n)
		}
		round = n.Round
		seats[n.Seat] = true
	}
	if len(seats) != 3 {
		t.Fatalf("seats %v", seats)
	}
	tables, _ := e.a.Tables(ctx)
	for _, ti := range tables {
		for _, s := range ti.Seats {
			if s.Channel != ChannelMailbox {
				t.Fatalf("a house seat at a full walkin table: %+v", ti)
			}
		}
	}
	for _, tok := range tokens {
		if r := deskRecord(t, e.a, tok); r.Rounds != 4 || r.Last[0].Kind != "walkin" || len(r.VsHouse) != 0 {
			t.Fatalf("record %+v", r)
		}
	}
}
