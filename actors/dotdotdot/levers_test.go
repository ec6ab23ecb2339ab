package dotdotdot

import (
	"bytes"
	"context"
	"encoding/json"
	"reflect"
	"strings"
	"testing"
	"testing/synctest"
	"time"

	"arena/actors"
	"arena/actors/ledger"
	"arena/games"
	"arena/games/blitz"
)

// storedLevers reads each seat's SeatOptions.Levers from table id's record as the store holds
// it (what the game was set up with, and replays with after a restart).
func storedLevers(t *testing.T, a *Arena, id string) []string {
	t.Helper()
	b, err := a.Store().LoadTable(id)
	if err != nil {
		t.Fatal(err)
	}
	var rec struct {
		Spec actors.TableSpec `json:"spec"`
	}
	if err := json.Unmarshal(b[:bytes.IndexByte(b, '\n')], &rec); err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, s := range rec.Spec.Seats {
		o, err := blitz.SeatOptionsOf(s.Seat)
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, o.Levers)
	}
	return out
}

// TestSeatLeversRule is §12's table of who may carry an accusation in an answer: a one-human
// table at AI speed, every in-house seat at a Showcase, every walk-in; everywhere else the
// human holds the levers over its session, or nobody does.
func TestSeatLeversRule(t *testing.T) {
	walkin := blitz.SeatOptions{Kind: "walkin", Walkin: true, Human: true}
	house := blitz.SeatOptions{Kind: "house", Walkin: true}
	arena := blitz.SeatOptions{Kind: "arena", Walkin: true}
	agent := blitz.SeatOptions{Kind: "byo", Human: true}
	bare := blitz.SeatOptions{Kind: "byo"}
	agentPace, chat := blitz.AgentPace(), blitz.ChatPace()
	for _, tc := range []struct {
		name   string
		kind   string
		pace   games.Pace
		o      blitz.SeatOptions
		humans int
		want   string
	}{
		{"walk-in at chat Practice", "practice", chat, walkin, 1, blitz.LeversOwn},
		{"walk-in at agent Practice", "practice", agentPace, walkin, 1, blitz.LeversOwn},
		{"walk-in at the walkin table", "walkin", chat, walkin, 6, blitz.LeversOwn},
		{"walk-in at a hosted table", "hosted", chat, walkin, 3, blitz.LeversOwn},
		{"house seat at Practice", "practice", chat, house, 1, blitz.LeversNone},
		{"house seat at agent Practice", "practice", agentPace, house, 1, blitz.LeversNone},
		{"house seat at the walkin table", "walkin", chat, house, 2, blitz.LeversNone},
		{"house seat at a hosted table", "hosted", chat, house, 2, blitz.LeversNone},
		{"house seat at a paid table", "open", agentPace, house, 1, blitz.LeversNone},
		{"house seat at a Showcase", KindShowcase, chat, house, 0, blitz.LeversAgent},
		{"arena seat at a Showcase", KindShowcase, agentPace, arena, 0, blitz.LeversAgent},
		{"the one human at AI speed", "practice", agentPace, agent, 1, blitz.LeversAgent},
		{"the one human at AI speed, zero pace", "practice", games.Pace{}, agent, 1, blitz.LeversAgent},
		{"the one paid human at AI speed", "open", agentPace, agent, 1, blitz.LeversAgent},
		{"the one human on the chat clock", "practice", chat, agent, 1, blitz.LeversHuman},
		{"one of two paid humans", "open", agentPace, agent, 2, blitz.LeversHuman},
		{"an agent with no human", "practice", agentPace, bare, 0, blitz.LeversNone},
	} {
		if got := seatLevers(tc.kind, tc.pace, tc.o, tc.humans); got != tc.want {
			t.Errorf("%s: levers %q, want %q", tc.name, got, tc.want)
		}
	}
}

// TestTableSpecsLevers: every table the product builds gets its seats' levers from §12 as it
// opens (Arena.OpenTable): walk-ins hold their own, house seats none, whatever the table.
func TestTableSpecsLevers(t *testing.T) {
	ws := []lobbyWalkin{{Name: "Ivo"}, {Name: "Jun"}}
	for _, kind := range []string{"practice", "walkin", "hosted"} {
		spec, _ := walkinTableSpec("t1", kind, "blitz", 6, blitz.ChatPace(), ws, nil)
		got := storedOf(t, setLevers(spec))
		want := []string{"own", "own", "none", "none", "none", "none"}
		if !reflect.DeepEqual(got, want) {
			t.Errorf("%s table: levers %v, want %v", kind, got, want)
		}
	}
	spec, _ := walkinTableSpec("t2", KindShowcase, "short", 3, blitz.ChatPace(), nil, nil)
	if got := storedOf(t, setLevers(spec)); !reflect.DeepEqual(got, []string{"agent", "agent", "agent"}) {
		t.Errorf("Showcase: levers %v", got)
	}
	// The bench's Practice tables open through actors.Arena: their spec carries the rule itself.
	bench, err := PracticeBench(blitz.NewEngine(blitz.DefaultFees()), "short")
	if err != nil {
		t.Fatal(err)
	}
	if got := storedOf(t, bench("b1")); !reflect.DeepEqual(got, []string{"none", "none", "none"}) {
		t.Errorf("bench: levers %v", got)
	}
}

func storedOf(t *testing.T, spec actors.TableSpec) []string {
	t.Helper()
	var out []string
	for _, s := range spec.Seats {
		o, err := blitz.SeatOptionsOf(s.Seat)
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, o.Levers)
	}
	return out
}

// TestAgentHoldsTheLeverAtAISpeed: an agent's Practice (one human, the agent clock) is a
// one-human table at AI speed (§12): the agent's seat is stored with the accusation its own,
// the house seats with none, and the owner's accuse over its session is refused ai_speed (409,
// retry false) while its call still goes through.
func TestAgentHoldsTheLeverAtAISpeed(t *testing.T) {
	h, _ := blitzHarness(t)
	ctx := context.Background()
	r, err := h.arena.JoinAgent(ctx, AgentJoin{Agent: joinAgentID, Name: "Ada", Endpoint: "https://ada.example/a2a", Table: "practice", Format: "short", Human: true})
	if err != nil {
		t.Fatal(err)
	}
	if got := storedLevers(t, h.arena, r.Table); !reflect.DeepEqual(got, []string{"agent", "none", "none"}) {
		t.Fatalf("levers %v", got)
	}
	h.clock.Advance(time.Second)
	h.waitEvent("scouting", func(e games.Event) bool { return e.Type == "scouting.started" })
	_, err = h.arena.AgentLever(ctx, joinAgentID, r.Round, "accuse", []byte(`{"seat":2}`))
	if ge, ok := err.(*games.Error); !ok || ge.Code != blitz.CodeAISpeed || ge.Retry {
		t.Fatalf("the owner's accuse at AI speed: %v", err)
	}
	if _, err := h.arena.AgentLever(ctx, joinAgentID, r.Round, "call", []byte(`{"text":"watch seat 2"}`)); err != nil {
		t.Fatalf("call: %v", err)
	}
}

// TestPracticeHouseSeatsNeverAccuse plays a Blitz Practice round over the desk: the walk-in
// accuses the mole and its accusation resolves; the five house seats never accuse (their
// prompts offer no accusation, §12), so the only accusation stake the round moves is the
// walk-in's.
func TestPracticeHouseSeatsNeverAccuse(t *testing.T) {
	inBubble(t, func(t *testing.T) {
		e := startDeskEnv(t, "", nil, startDesk, blitz.NewEngine(blitz.DefaultFees()))
		ctx := deskCtx(t)
		token, err := e.a.RegisterWalkin(ctx, "Ivo", "test-model")
		if err != nil {
			t.Fatal(err)
		}
		j, err := e.a.JoinWalkin(ctx, token, JoinRequest{Format: "blitz", Mole: deskIntPtr(4)})
		if err != nil {
			t.Fatal(err)
		}
		if got := storedLevers(t, e.a, j.Table); !reflect.DeepEqual(got, []string{"own", "none", "none", "none", "none", "none"}) {
			t.Fatalf("levers %v", got)
		}
		accused := false
		for moves := 0; ; moves++ {
			n, err := deskBlitzPoll(t, e, token)
			if err != nil {
				t.Fatal(err)
			}
			if n.Status == NextRevealed {
				break
			}
			if moves > 40 {
				t.Fatal("round did not end")
			}
			body := strings.Replace(string(n.Answer), `"text":""`, `"text":"seat 4 steers"`, 1)
			if !accused && n.Prompt.Move.Phase == "talk" {
				body = strings.TrimSuffix(body, "}") + `,"accusation":4}`
				accused = true
			}
			if _, err := e.a.AnswerMove(ctx, token, []byte(body)); err != nil {
				t.Fatalf("answer %s: %v", body, err)
			}
		}
		evs, revealed, err := e.a.Transcript(ctx, j.Round)
		if err != nil || !revealed {
			t.Fatalf("transcript: %v (revealed %v)", err, revealed)
		}
		var placed, resolved []string
		for _, ev := range evs {
			switch ev.Type {
			case "accusation.sealed", "accusation.moved":
				placed = append(placed, string(ev.Payload))
			case "accusation.resolved":
				resolved = append(resolved, string(ev.Payload))
			}
		}
		if len(placed) != 1 || !strings.Contains(placed[0], `"seat":1`) || !strings.Contains(placed[0], `"on":4`) {
			t.Fatalf("accusations placed %v: only the walk-in's", placed)
		}
		var res struct {
			Seat, On int
			Correct  bool
		}
		if len(resolved) != 1 || json.Unmarshal([]byte(resolved[0]), &res) != nil || res.Seat != 1 || res.On != 4 || !res.Correct {
			t.Fatalf("accusations resolved %v: only the walk-in's, and right", resolved)
		}
	})
}

// TestShowcaseInHouseSeatsAccuse: at a Showcase every in-house seat holds its accusation and
// the house policy places it (§12): a round of house seats alone ends with accusations
// resolved, every one an in-house seat's.
func TestShowcaseInHouseSeatsAccuse(t *testing.T) {
	inBubble(t, func(t *testing.T) {
		e := startDeskEnv(t, "", nil, startDesk, blitz.NewEngine(blitz.DefaultFees()))
		ctx := deskCtx(t)
		spec, _ := walkinTableSpec("s1", KindShowcase, "blitz", 6, e.a.pace("chat"), nil, nil)
		spec.Seed = bytes.Repeat([]byte{7}, 32)
		round, err := e.a.OpenTable(ctx, spec)
		if err != nil {
			t.Fatal(err)
		}
		if got := storedLevers(t, e.a, "s1"); !reflect.DeepEqual(got, []string{"agent", "agent", "agent", "agent", "agent", "agent"}) {
			t.Fatalf("levers %v", got)
		}
		select {
		case id := <-e.finished:
			if id != "s1" {
				t.Fatalf("finished %s", id)
			}
		case <-ctx.Done():
			t.Fatal("the Showcase round did not end")
		}
		evs, revealed, err := e.a.Transcript(ctx, round)
		if err != nil || !revealed {
			t.Fatalf("transcript: %v (revealed %v)", err, revealed)
		}
		n := 0
		for _, ev := range evs {
			if ev.Type == "accusation.resolved" {
				n++
			}
		}
		if n == 0 {
			t.Fatal("no in-house seat accused at the Showcase")
		}
	})
}

// TestPaidTableLevers: a paid table with one paid seat is a one-human table at AI speed: the
// paid agent holds its accusation, the house seats that fill the table hold no lever (§12).
func TestPaidTableLevers(t *testing.T) {
	h, _ := blitzHarness(t)
	ctx := context.Background()
	deps := &fakeDeposits{deps: map[string][]EscrowDeposit{}}
	opened := make(chan [2]string, 1)
	p, err := NewPaidTables(h.arena, PaidOptions{Deposits: deps, Entry: 100_000_000, Gather: time.Minute, Format: "short",
		Escrow: chainID + ":12810.0", OnOpen: func(table, round string, err error) {
			if err != nil {
				t.Errorf("open: %v", err)
			}
			opened <- [2]string{table, round}
		}})
	if err != nil {
		t.Fatal(err)
	}
	hold, err := p.Hold(ctx, AgentJoin{Agent: chainID + "/cis-2:AgentOne", Name: "Agent One", Endpoint: "https://one.example/a2a", Human: true}, []string{owner1})
	if err != nil {
		t.Fatal(err)
	}
	deps.add(hold.SeatToken, EscrowDeposit{Payer: "3kBxOwnerOne", Amount: 100_000_000, At: t0.Add(time.Second), Finalized: true})
	if c, err := p.Check(ctx, hold.Hold, hold.SeatToken); err != nil || !c.Paid {
		t.Fatalf("check %+v %v", c, err)
	}
	h.clock.Set(t0.Add(time.Minute))
	var tr [2]string
	select {
	case tr = <-opened:
	case <-time.After(waitMax):
		t.Fatal("the paid table did not open")
	}
	if got := storedLevers(t, h.arena, tr[0]); !reflect.DeepEqual(got, []string{"agent", "none", "none"}) {
		t.Fatalf("levers %v", got)
	}
	if err := ledger.Audit(ctx, p.Ledger()); err != nil {
		t.Fatal(err)
	}
}

// TestPracticeVetoComesTooLate: on the chat clock the house seats answer a commit at once, so
// once their answers are in (the bubble at rest) the walk-in's commit answer has closed the
// phase and its promises are sealed; the veto of one is refused not_now with retry false (retrying can never
// succeed), through the same lever a door calls.
func TestPracticeVetoComesTooLate(t *testing.T) {
	inBubble(t, func(t *testing.T) {
		e := startDeskEnv(t, "", nil, startDesk, blitz.NewEngine(blitz.DefaultFees()))
		ctx := deskCtx(t)
		token, err := e.a.RegisterWalkin(ctx, "Ivo", "test-model")
		if err != nil {
			t.Fatal(err)
		}
		j, err := e.a.JoinWalkin(ctx, token, JoinRequest{Format: "short", Mole: deskIntPtr(3)})
		if err != nil {
			t.Fatal(err)
		}
		for {
			n, err := deskBlitzPoll(t, e, token)
			if err != nil || n.Status != NextMove {
				t.Fatalf("poll %+v %v", n, err)
			}
			mv := n.Prompt.Move
			if mv.Phase == "talk" {
				if _, err := e.a.Lever(ctx, token, j.Round, "veto", []byte(`{"ref":"a"}`)); !leverCode(err, "not_now", true) {
					t.Fatalf("veto before the commitment is sent: %v", err)
				}
			}
			if mv.Phase != "commit" {
				if _, err := e.a.AnswerMove(ctx, token, n.Answer); err != nil {
					t.Fatal(err)
				}
				continue
			}
			body := `{"round":"` + j.Round + `","turn":1,"phase":"commit","commitments":[{"ref":"a","payee":2,"chips":2,"condition":{"always":true},"due":2}]}`
			if r, err := e.a.AnswerMove(ctx, token, []byte(body)); err != nil || !strings.Contains(string(r), `"dropped":[]`) {
				t.Fatalf("commit answer: %s %v", r, err)
			}
			break
		}
		synctest.Wait() // the house seats' commit answers, in flight when the walk-in's landed, are in
		if _, err := e.a.Lever(ctx, token, j.Round, "veto", []byte(`{"ref":"a"}`)); !leverCode(err, "not_now", false) {
			t.Fatalf("veto of a sealed promise: %v", err)
		}
	})
}

func leverCode(err error, code string, retry bool) bool {
	ge, ok := err.(*games.Error)
	return ok && ge.Code == code && ge.Retry == retry
}
