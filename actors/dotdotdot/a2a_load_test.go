package dotdotdot

import (
	"bytes"
	"context"
	"crypto/ed25519"
	"encoding/json"
	"fmt"
	"sync"
	"testing"
	"time"

	"arena/actors/dotdotdot/envelope"
	"arena/games"
	"arena/games/blitz"
	"arena/games/canon"
)

// answeringCaller is an A2A agent that keeps every envelope it is sent (as sent) and answers
// each talk move with a public line, so the shared public log grows while envelopes are out.
type answeringCaller struct {
	mu   sync.Mutex
	envs map[string][][]byte // endpoint → envelopes, in order
}

func (c *answeringCaller) Call(_ context.Context, endpoint string, env []byte, _ time.Time) ([]byte, error) {
	c.mu.Lock()
	c.envs[endpoint] = append(c.envs[endpoint], env) // kept as handed over: must never change
	c.mu.Unlock()
	var e struct {
		Round    string `json:"round"`
		Turn     int    `json:"turn"`
		Phase    string `json:"phase"`
		Exchange int    `json:"exchange"`
	}
	if err := json.Unmarshal(env, &e); err != nil {
		return nil, err
	}
	if e.Phase != "talk" {
		return echoAnswer(env, "")
	}
	return echoAnswer(env, fmt.Sprintf(`"messages":[{"type":"public","text":"a2a %s turn %d exchange %d <&> \u2028 12 CCD"}]`, endpoint, e.Turn, e.Exchange))
}

// TestA2AEnvelopesHoldUnderLoad: three agents play practice rounds at once in one arena, each
// answering every talk move. Every envelope an agent was sent verifies with the instance key, is
// still the bytes it was sent, and carries in state.public_log a prefix of its round's public
// events byte for byte (the envelope is JCS), its own phase's opening included.
func TestA2AEnvelopesHoldUnderLoad(t *testing.T) {
	h := newHarness(t)
	caller := &answeringCaller{envs: map[string][][]byte{}}
	h.eng2 = blitz.NewEngine(blitz.DefaultFees())
	h.agents = caller
	h.stop()
	h.start()
	ctx := context.Background()
	pace := games.Pace{Name: "chat", CloseEarly: true, Steps: map[string]time.Duration{"scouting": time.Minute, "talk": time.Minute, "commit": time.Minute, "settle": time.Minute}}
	rounds := map[string]string{}
	for i := 1; i <= 3; i++ {
		agent := fmt.Sprintf("ccd:4221332d34e1694168c2a0c0b3fd0f27/cis-2:AgentLoad%d", i)
		endpoint := fmt.Sprintf("https://agent%d.example/a2a", i)
		r, err := h.arena.JoinAgent(ctx, AgentJoin{Agent: agent, Name: fmt.Sprintf("Load %d", i), Endpoint: endpoint,
			Table: "practice", Format: "blitz", Pace: pace})
		if err != nil {
			t.Fatal(err)
		}
		rounds[endpoint] = r.Round
	}
	for _, round := range rounds {
		h.waitEvent("round.revealed "+round, and(roundIs(round), typeIs("round.revealed")))
	}
	pub := h.key.Public().(ed25519.PublicKey)
	stage := map[string]int{"seating": 0, "scouting": 1, "talk": 2, "commit": 3, "settle": 4, "settled": 5, "revealed": 6}
	caller.mu.Lock()
	defer caller.mu.Unlock()
	for endpoint, round := range rounds {
		evs, revealed, err := h.arena.Transcript(ctx, round)
		if err != nil || !revealed {
			t.Fatalf("transcript %s: %v %v", round, revealed, err)
		}
		var public []games.Event
		var publicJCS [][]byte
		lines := 0
		for _, ev := range evs {
			if ev.Visibility != "public" {
				continue
			}
			b, _ := json.Marshal(ev)
			c, err := canon.Canonical(b)
			if err != nil {
				t.Fatal(err)
			}
			public, publicJCS = append(public, ev), append(publicJCS, c)
			if ev.Type == "message.public" && bytes.Contains(ev.Payload, []byte(endpoint)) {
				lines++
			}
		}
		envs := caller.envs[endpoint]
		if len(envs) < 15 || lines < 10 {
			t.Fatalf("%s: %d envelopes sent, %d of its lines in the transcript: want a round's", endpoint, len(envs), lines)
		}
		for k, env := range envs {
			if err := envelope.Verify(pub, env); err != nil {
				t.Fatalf("%s envelope %d: %v", endpoint, k, err)
			}
			var e struct {
				Round string `json:"round"`
				Turn  int    `json:"turn"`
				Phase string `json:"phase"`
				State struct {
					PublicLog []json.RawMessage `json:"public_log"`
				} `json:"state"`
			}
			if err := json.Unmarshal(env, &e); err != nil || e.Round != round {
				t.Fatalf("%s envelope %d: %v (round %q)", endpoint, k, err, e.Round)
			}
			own := e.Phase == "scouting"
			for i, raw := range e.State.PublicLog {
				if i >= len(publicJCS) || !bytes.Equal(raw, publicJCS[i]) {
					t.Fatalf("%s envelope %d (%d %s): public_log[%d] is not the round's public event %d:\n %s", endpoint, k, e.Turn, e.Phase, i, i, raw)
				}
				ev := public[i]
				if ev.Turn > e.Turn || ev.Turn == e.Turn && stage[ev.Phase] > stage[e.Phase] {
					t.Fatalf("%s envelope %d (%d %s) carries event %d of a later phase", endpoint, k, e.Turn, e.Phase, ev.Seq)
				}
				var pl struct{ Phase string }
				if ev.Type == "phase.started" && ev.Turn == e.Turn && json.Unmarshal(ev.Payload, &pl) == nil && pl.Phase == e.Phase {
					own = true
				}
			}
			if !own {
				t.Fatalf("%s envelope %d (%d %s) lacks its own phase.started", endpoint, k, e.Turn, e.Phase)
			}
		}
	}
}
