package dotdotdot

import (
	"context"
	"crypto/ed25519"
	"encoding/json"
	"errors"
	"sync"
	"testing"
	"time"

	"arena/actors"
	"arena/actors/dotdotdot/envelope"
	"arena/games"
	"arena/games/blitz"
)

// recordingCaller records every A2A call (endpoint and envelope) and answers nothing.
type recordingCaller struct {
	mu    sync.Mutex
	calls chan [2]string
}

func (r *recordingCaller) Call(_ context.Context, endpoint string, env []byte, _ time.Time) ([]byte, error) {
	r.calls <- [2]string{endpoint, string(env)}
	return nil, errors.New("no answer")
}

const joinAgentID = "ccd:4221332d34e1694168c2a0c0b3fd0f27/cis-2:AgentJoin1"

func blitzHarness(t *testing.T) (*harness, *recordingCaller) {
	h := newHarness(t)
	rc := &recordingCaller{calls: make(chan [2]string, 1000)}
	h.eng2 = blitz.NewEngine(blitz.DefaultFees())
	h.agents = rc
	h.stop()
	h.start()
	return h, rc
}

func TestJoinAgentSeatsOnA2A(t *testing.T) {
	h, rc := blitzHarness(t)
	ctx := context.Background()
	r, err := h.arena.JoinAgent(ctx, AgentJoin{Agent: joinAgentID, Name: "Ada", Endpoint: "https://ada.example/a2a", Table: "practice", Format: "short", Human: true})
	if err != nil {
		t.Fatal(err)
	}
	if r.Seat != 1 || r.Format != "short" || r.Pace != "agent" || r.Status != "seated" || r.Round == "" {
		t.Fatalf("reply %+v", r)
	}
	ti, err := h.arena.Table(ctx, r.Table)
	if err != nil {
		t.Fatal(err)
	}
	if len(ti.Seats) != 3 || ti.Seats[0].Agent != joinAgentID || ti.Seats[0].Channel != ChannelA2A || ti.Seats[0].Name != "Ada" || ti.Seats[0].Kind != "byo" {
		t.Fatalf("seats %+v", ti.Seats)
	}
	for _, s := range ti.Seats[1:] {
		if s.Channel != actors.ChannelHouse || s.Kind != "house" {
			t.Fatalf("seat %+v", s)
		}
	}
	// The first move (scouting) goes to the card's endpoint, signed by the instance.
	h.clock.Advance(time.Second)
	select {
	case c := <-rc.calls:
		if c[0] != "https://ada.example/a2a" {
			t.Fatalf("called %s", c[0])
		}
		if err := envelope.Verify(h.key.Public().(ed25519.PublicKey), []byte(c[1])); err != nil {
			t.Fatalf("envelope: %v", err)
		}
		var env struct {
			Round string `json:"round"`
			Seat  int    `json:"seat"`
			Phase string `json:"phase"`
		}
		json.Unmarshal([]byte(c[1]), &env)
		if env.Round != r.Round || env.Seat != 1 || env.Phase != "scouting" {
			t.Fatalf("envelope %s", c[1])
		}
	case <-time.After(waitMax):
		t.Fatal("the agent was never called")
	}
	// One live seat per Badge.
	if _, err := h.arena.JoinAgent(ctx, AgentJoin{Agent: joinAgentID, Name: "Ada", Endpoint: "https://ada.example/a2a", Table: "practice"}); !isCode(err, CodeInARound) {
		t.Fatalf("second join: %v", err)
	}
	for _, bad := range []AgentJoin{
		{Agent: "x", Endpoint: "https://e", Table: "hosted"},
		{Agent: "x", Table: "practice"},
		{Agent: "x", Endpoint: "https://e", Table: "practice", Format: "marathon"},
	} {
		if _, err := h.arena.JoinAgent(ctx, bad); err == nil {
			t.Fatalf("join %+v accepted", bad)
		}
	}
}

func isCode(err error, code string) bool {
	var ge *games.Error
	return errors.As(err, &ge) && ge.Code == code
}

func TestAgentLeverReachesTheGame(t *testing.T) {
	h, _ := blitzHarness(t)
	ctx := context.Background()
	r, err := h.arena.JoinAgent(ctx, AgentJoin{Agent: joinAgentID, Name: "Ada", Endpoint: "https://ada.example/a2a", Table: "practice", Format: "short", Human: true})
	if err != nil {
		t.Fatal(err)
	}
	h.clock.Advance(time.Second)
	h.waitEvent("scouting", func(e games.Event) bool { return e.Type == "scouting.started" })
	if _, err := h.arena.AgentLever(ctx, joinAgentID, r.Round, "call", []byte(`{"text":"watch seat 2"}`)); err != nil {
		t.Fatalf("call: %v", err)
	}
	if _, err := h.arena.AgentLever(ctx, joinAgentID, r.Round, "call", []byte(`{"text":"again"}`)); err != nil {
		t.Fatalf("second call: %v", err)
	}
	if _, err := h.arena.AgentLever(ctx, joinAgentID, r.Round, "call", []byte(`{"text":"third"}`)); !isCode(err, "lever_spent") {
		t.Fatalf("third call: %v", err)
	}
	// Veto outside commit: not_now, retry true (the game's rule, §12).
	_, err = h.arena.AgentLever(ctx, joinAgentID, r.Round, "veto", []byte(`{"pending_id":"sha256:00"}`))
	var ge *games.Error
	if !errors.As(err, &ge) || ge.Code != "not_now" || !ge.Retry {
		t.Fatalf("veto in scouting: %v", err)
	}
	if _, err := h.arena.AgentLever(ctx, joinAgentID, "T-999999", "accuse", []byte(`{"seat":2}`)); !isCode(err, "not_seated") {
		t.Fatalf("lever in another round: %v", err)
	}
	if _, err := h.arena.AgentLever(ctx, "ccd:4221332d34e1694168c2a0c0b3fd0f27/cis-2:Other", r.Round, "accuse", []byte(`{"seat":2}`)); !isCode(err, "not_seated") {
		t.Fatalf("lever by another Badge: %v", err)
	}
	if _, err := h.arena.AgentLever(ctx, joinAgentID, r.Round, "bribe", []byte(`{}`)); !isCode(err, games.CodeBadRequest) {
		t.Fatalf("unknown lever: %v", err)
	}
}
