package dotdotdot

import (
	"maps"
	"reflect"
	"testing"
	"time"

	"arena/games"
	"arena/games/blitz"
)

// TestPacesDefaults: a zero field is the spec's value (Blitz's own clocks, the lobby's waits); a
// set one is kept; the clocks' names and closeEarly are their own.
func TestPacesDefaults(t *testing.T) {
	chatPace, agentPace := blitz.ChatPace(), blitz.AgentPace()
	p := Paces{}.WithDefaults()
	if !reflect.DeepEqual(p.Chat, chatPace) || !reflect.DeepEqual(p.Agent, agentPace) || p.WalkinTopUp != 2*time.Minute || p.HostedStart != 10*time.Minute {
		t.Fatalf("zero paces: %+v", p)
	}
	if !reflect.DeepEqual(DefaultPaces(), p) {
		t.Fatalf("DefaultPaces %+v, want the zero paces filled %+v", DefaultPaces(), p)
	}
	p = Paces{Chat: games.Pace{CloseEarly: false, Name: "x", Steps: map[string]time.Duration{"talk": 40 * time.Second}}, Agent: games.Pace{CloseEarly: true, Steps: map[string]time.Duration{"commit": 9 * time.Second}},
		WalkinTopUp: 30 * time.Second}.WithDefaults()
	want := withStep(chatPace, "talk", 40*time.Second)
	if !reflect.DeepEqual(p.Chat, want) {
		t.Errorf("chat %+v, want %+v", p.Chat, want)
	}
	wantA := withStep(agentPace, "commit", 9*time.Second)
	if !reflect.DeepEqual(p.Agent, wantA) {
		t.Errorf("agent %+v, want %+v", p.Agent, wantA)
	}
	if p.WalkinTopUp != 30*time.Second || p.HostedStart != hostedStartAfter {
		t.Errorf("top-up %v, hosted start %v", p.WalkinTopUp, p.HostedStart)
	}
}

// withStep is p with step name of length d (p's own Steps left as they are).
func withStep(p games.Pace, name string, d time.Duration) games.Pace {
	p.Steps = maps.Clone(p.Steps)
	p.Steps[name] = d
	return p
}

// TestConfiguredPaceReachesDeadlines: the paces given in Options are the deadlines of the
// moves a walk-in is handed, on the chat clock and on the agent clock, and a hosted table's
// start.
func TestConfiguredPaceReachesDeadlines(t *testing.T) {
	paces := Paces{
		Chat:        games.Pace{Steps: map[string]time.Duration{"scouting": 70 * time.Second, "talk": 40 * time.Second, "commit": 50 * time.Second}},
		Agent:       games.Pace{Steps: map[string]time.Duration{"scouting": 11 * time.Second, "talk": 7 * time.Second, "commit": 9 * time.Second}},
		HostedStart: 4 * time.Minute,
	}
	e := startDeskEnvPaces(t, "", nil, startDesk, blitz.NewEngine(blitz.DefaultFees()), paces)
	ctx := deskCtx(t)
	chat, _ := e.a.RegisterWalkin(ctx, "Chatty", "")
	agent, _ := e.a.RegisterWalkin(ctx, "Agenty", "")
	host, _ := e.a.RegisterWalkin(ctx, "Hosty", "")
	if _, err := e.a.JoinWalkin(ctx, chat, JoinRequest{Format: "short", Pace: "chat"}); err != nil {
		t.Fatal(err)
	}
	if _, err := e.a.JoinWalkin(ctx, agent, JoinRequest{Format: "short", Pace: "agent"}); err != nil {
		t.Fatal(err)
	}
	if n := deskMustPoll(t, e.a, chat); !n.Prompt.Deadline.Equal(deskT0.Add(70 * time.Second)) {
		t.Errorf("chat scouting deadline %v, want %v", n.Prompt.Deadline, deskT0.Add(70*time.Second))
	}
	n := deskMustPoll(t, e.a, agent)
	if !n.Prompt.Deadline.Equal(deskT0.Add(11 * time.Second)) {
		t.Fatalf("agent scouting deadline %v, want %v", n.Prompt.Deadline, deskT0.Add(11*time.Second))
	}
	deskWaitArmed(t, e, n.Prompt.Deadline)
	e.clock.Set(n.Prompt.Deadline)
	n2, err := e.a.NextMove(ctx, agent, MaxPollWait)
	if err != nil || n2.Status != NextMove || n2.Prompt.Move.Phase != "talk" {
		t.Fatalf("agent move after scouting: %+v %v", n2, err)
	}
	// The exchange is the configured 7 s; Blitz answers it within the exchange less two seconds
	// (§5.3's 13 s of 15), so the prompt's deadline is 5 s after the talk began.
	if got := n2.Prompt.Deadline.Sub(n.Prompt.Deadline); got != 5*time.Second {
		t.Errorf("agent talk response deadline %v after the talk began, want 5s (a 7 s exchange)", got)
	}
	h, err := e.a.HostTable(ctx, host, "short", 0)
	if err != nil {
		t.Fatal(err)
	}
	if want := e.clock.Now().Add(4 * time.Minute); !h.StartsBy.Equal(want) {
		t.Errorf("hosted table starts by %v, want %v", h.StartsBy, want)
	}
}
