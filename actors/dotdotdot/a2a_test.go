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
)

// fakeAgent is an A2A agent: it checks the envelope's signature and answers n = seat.
type fakeAgent struct {
	pub   ed25519.PublicKey
	mu    sync.Mutex
	calls int
	bad   error
}

func (f *fakeAgent) Call(ctx context.Context, endpoint string, env []byte, deadline time.Time) ([]byte, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.calls++
	if err := envelope.Verify(f.pub, env); err != nil {
		f.bad = err
		return nil, err
	}
	if endpoint != "https://agent.example/a2a" {
		f.bad = errors.New("endpoint " + endpoint)
	}
	if _, ok := ctx.Deadline(); !ok {
		f.bad = errors.New("no deadline on the call")
	}
	b, err := echoAnswer(env, `"n":8`)
	if err != nil {
		f.bad = err
	}
	return b, err
}

// echoAnswer is an answer echoing env's round, turn, phase, seat (and exchange), as a DOTDOTDOT
// answer must (§4; the channel reads it strictly, CheckAnswer), with extra members ("" none).
func echoAnswer(env []byte, extra string) ([]byte, error) {
	var e struct {
		Round    string `json:"round"`
		Turn     int    `json:"turn"`
		Phase    string `json:"phase"`
		Seat     int    `json:"seat"`
		Exchange int    `json:"exchange,omitempty"`
	}
	if err := json.Unmarshal(env, &e); err != nil {
		return nil, err
	}
	echo, _ := json.Marshal(e)
	if extra == "" {
		return echo, nil
	}
	return append(append(echo[:len(echo)-1], ','), extra+"}"...), nil
}

func TestA2ASeatAnswersThroughTheCaller(t *testing.T) {
	h := newHarness(t)
	ag := &fakeAgent{pub: h.key.Public().(ed25519.PublicKey)}
	h.agents = ag
	h.stop()
	h.start()
	sp := seats(ChannelA2A, actors.ChannelHouse)
	sp[0].Kind, sp[0].Lent, sp[0].Seat.Agent, sp[0].Endpoint = "byo", false, "ccd:x/cis-2:agent", "https://agent.example/a2a"
	round := h.open(actors.TableSpec{ID: "a2a-1", Seats: sp, Pace: games.Pace{CloseEarly: true, Steps: map[string]time.Duration{"commit": 20 * time.Second}}})
	h.waitStatus("a2a-1", actors.StatusFinished)
	evs, _, _ := h.arena.Transcript(context.Background(), round)
	n := 0
	for _, e := range evs {
		if e.Type == "answer" && e.Visibility == "private:1" {
			if string(e.Payload) != `{"n":8,"seat":1}` {
				t.Fatalf("agent answer %s", e.Payload)
			}
			n++
		}
	}
	ag.mu.Lock()
	defer ag.mu.Unlock()
	if n != 3 || ag.calls != 3 || ag.bad != nil {
		t.Fatalf("%d answers from %d calls; agent saw %v", n, ag.calls, ag.bad)
	}
}
