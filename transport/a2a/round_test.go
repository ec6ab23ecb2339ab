package a2a

import (
	"context"
	"crypto/ed25519"
	"encoding/json"
	"fmt"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"arena/actors"
	"arena/actors/dotdotdot"
	"arena/actors/dotdotdot/envelope"
	"arena/games"
	"arena/games/blitz"
	"arena/games/canon"
	"arena/storage"
	"arena/storage/storagetest"
)

// staticKeys is a KeyResolver over a fixed map (the chain resolution is chain/badge's; here the
// point is the A2A leg).
type staticKeys map[string]ed25519.PublicKey

func (k staticKeys) Resolve(_ context.Context, agent string) (ed25519.PublicKey, error) {
	if pub, ok := k[agent]; ok {
		return pub, nil
	}
	return nil, fmt.Errorf("no key for %s", agent)
}

const testAgentID = "ccd:4221332d34e1694168c2a0c0b3fd0f27/cis-2:AdaTestAgent1"

// The A2A JS SDK agent plays a whole Short round at a table beside two house seats, called by
// this package's client from the seat actor: every move is an A2A message/send; its signed
// commitments are verified with its key and seal, and settle.
func TestJSAgentPlaysFullRound(t *testing.T) {
	instance := ed25519.NewKeyFromSeed(make([]byte, 32))
	js := startJSAgent(t, testAgentID, 7, canon.FormatKey(instance.Public().(ed25519.PublicKey)))

	st, err := storage.Open(storagetest.Path(t), storage.Options{NoSync: true})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	br, err := games.NewBracket(blitz.NewEngine(blitz.DefaultFees()))
	if err != nil {
		t.Fatal(err)
	}
	done := make(chan string, 16)
	a, err := dotdotdot.Start(actors.Options{DB: st, Bracket: br, InstanceKey: instance,
		InstanceAgent: "ccd:4221332d34e1694168c2a0c0b3fd0f27/cis-2:ArenaInstance",
		OnStatus: func(table, status string) {
			if status == actors.StatusFinished || status == actors.StatusFailed {
				done <- status
			}
		}}, dotdotdot.Options{Agents: New(Options{PollInterval: 20 * time.Millisecond}),
		Resolver: staticKeys{testAgentID: js.Key.Public().(ed25519.PublicKey)}})
	if err != nil {
		t.Fatal(err)
	}
	defer a.Shutdown(context.Background())

	seats := []actors.SeatSpec{{Seat: games.Seat{Seat: 1, Agent: testAgentID, Name: "Ada",
		Entry: 100_000_000, Options: blitz.SeatOptions{Kind: "byo", Collateral: 60_000_000}.JSON()}, Kind: "byo", Channel: dotdotdot.ChannelA2A, Endpoint: js.Endpoint}}
	for i := 2; i <= 3; i++ {
		seats = append(seats, actors.SeatSpec{Seat: games.Seat{Seat: i, Name: fmt.Sprintf("House %d", i),
			Entry: 100_000_000, Options: blitz.SeatOptions{Kind: "house", Collateral: 60_000_000}.JSON()}, Kind: "house", Channel: actors.ChannelHouse})
	}
	// Short format with a quick clock: every phase closes as soon as all three seats answered;
	// each move still has a real deadline the client honours.
	round, err := a.OpenTable(context.Background(), actors.TableSpec{ID: "a2a-1", Game: blitz.ID, Format: "short",
		Kind: "practice", Seats: seats, Pace: games.Pace{Name: "agent", CloseEarly: true, Steps: map[string]time.Duration{"scouting": 3 * time.Second, "talk": 3 * time.Second, "commit": 4 * time.Second, "settle": 50 * time.Millisecond}}})
	if err != nil {
		t.Fatal(err)
	}
	select {
	case s := <-done:
		if s != actors.StatusFinished {
			t.Fatalf("table ended %s", s)
		}
	case <-time.After(60 * time.Second):
		t.Fatal("round not finished in 60 s")
	}
	evs, revealed, err := a.Transcript(context.Background(), round)
	if err != nil || !revealed {
		t.Fatalf("transcript: revealed %v err %v", revealed, err)
	}
	var talked, sealed, settled, rejected int
	sealedIDs := map[string]bool{}
	for _, e := range evs {
		var p map[string]any
		_ = json.Unmarshal(e.Payload, &p)
		switch e.Type {
		case "message.public":
			if p["seat"] == float64(1) || p["from"] == float64(1) {
				talked++
			}
		case "commitment.sealed":
			if p["payer"] == float64(1) || p["payer"] == testAgentID {
				sealed++
				id, _ := p["id"].(string)
				sealedIDs[id] = true
			}
		case "commitment.settled": // a public event and its sealed twin with the amounts
			if id, _ := p["id"].(string); sealedIDs[id] && e.Visibility == "public" {
				settled++
				if p["outcome"] != "honoured" {
					t.Errorf("commitment %s settled %v, want honoured ({always:true}, well within collateral)", id, p["outcome"])
				}
			}
		case "commitment.rejected":
			if e.Visibility == "private:1" {
				rejected++
				t.Logf("rejected: %s", e.Payload)
			}
		}
	}
	stats := js.stats(t)
	t.Logf("agent stats %v; seat 1: %d public lines, %d sealed, %d settled, %d rejected", stats, talked, sealed, settled, rejected)
	if stats["forged"] != float64(0) || stats["answered"].(float64) < 9 {
		t.Fatalf("agent stats %v", stats)
	}
	if stats["extensionHeader"] != stats["calls"] {
		t.Fatalf("X-A2A-Extensions missing on some calls: %v", stats)
	}
	if talked < 6 {
		t.Fatalf("the agent's lines reached the table %d times, want 6 (3 turns × 2 exchanges)", talked)
	}
	if sealed < 1 || settled != sealed || rejected != 0 {
		t.Fatalf("agent commitments: %d sealed, %d settled, %d rejected", sealed, settled, rejected)
	}
}

// The JS agent, given the arena key (as resolved from the chain, §4.3), answers an envelope the
// instance signed and refuses one signed by any other key: the forged signature is caught on
// the agent's side, and the refusal reaches the arena as an empty move.
func TestJSAgentCatchesForgedEnvelope(t *testing.T) {
	instance := ed25519.NewKeyFromSeed(make([]byte, 32))
	js := startJSAgent(t, testAgentID, 8, canon.FormatKey(instance.Public().(ed25519.PublicKey)))
	c := New(Options{})
	p := games.Prompt{Seat: 2, Move: games.Move{Turn: 1, Phase: "talk", Exchange: 1},
		Deadline: time.Now().Add(5 * time.Second).UTC(), State: games.RawDoc([]byte(`{"format":{"seats":3}}`))}
	good, err := envelope.Sign(instance, "T-7", p)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := c.Call(context.Background(), js.Endpoint, good, p.Deadline); err != nil {
		t.Fatalf("genuine envelope: %v", err)
	}
	forger := ed25519.NewKeyFromSeed(bytesOf(9, 32))
	forged, _ := envelope.Sign(forger, "T-7", p)
	if _, err := c.Call(context.Background(), js.Endpoint, forged, p.Deadline); err == nil {
		t.Fatal("a forged envelope was answered")
	}
	// Tampering with a signed envelope (one byte of state) breaks it the same way.
	tampered := []byte(strings.Replace(string(good), `"seats":3`, `"seats":4`, 1))
	if string(tampered) == string(good) {
		t.Fatal("tamper did not change the envelope")
	}
	if _, err := c.Call(context.Background(), js.Endpoint, tampered, p.Deadline); err == nil {
		t.Fatal("a tampered envelope was answered")
	}
	if st := js.stats(t); st["forged"] != float64(2) || st["answered"] != float64(1) {
		t.Fatalf("agent stats %v", st)
	}
}

func bytesOf(b byte, n int) []byte {
	out := make([]byte, n)
	for i := range out {
		out[i] = b
	}
	return out
}

// A slow agent and an agent answering with a wrong echo: their moves are empty, and the table
// never waits for them beyond each move's deadline (the round ends on the clock).
func TestSlowOrMisechoingAgentNeverDelaysTheTable(t *testing.T) {
	for name, f := range map[string]*fakeAgent{
		"slow": {delay: time.Minute, answer: func(env map[string]any) any { return message(echoOf(env, nil)) }},
		"wrong echo": {answer: func(env map[string]any) any {
			a := echoOf(env, map[string]any{"messages": []any{map[string]any{"type": "public", "text": "hi"}}})
			a["seat"] = 2
			return message(a)
		}},
		"working forever": {answer: func(env map[string]any) any { return task("working", nil) },
			task: func(int, map[string]any) any { return task("working", nil) }},
	} {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			f.t = t
			srv := httptest.NewServer(f)
			defer srv.Close()
			st, err := storage.Open(storagetest.Path(t), storage.Options{NoSync: true})
			if err != nil {
				t.Fatal(err)
			}
			defer st.Close()
			br, _ := games.NewBracket(blitz.NewEngine(blitz.DefaultFees()))
			done := make(chan struct{}, 1)
			a, err := dotdotdot.Start(actors.Options{DB: st, Bracket: br, InstanceKey: ed25519.NewKeyFromSeed(make([]byte, 32)),
				OnStatus: func(_, s string) {
					if s == actors.StatusFinished {
						done <- struct{}{}
					}
				}}, dotdotdot.Options{Agents: New(Options{PollInterval: 20 * time.Millisecond})})
			if err != nil {
				t.Fatal(err)
			}
			defer a.Shutdown(context.Background())
			seats := []actors.SeatSpec{{Seat: games.Seat{Seat: 1, Agent: testAgentID, Name: "Slow",
				Entry: 100_000_000, Options: blitz.SeatOptions{Kind: "byo", Collateral: 60_000_000}.JSON()}, Kind: "byo", Channel: dotdotdot.ChannelA2A, Endpoint: srv.URL}}
			for i := 2; i <= 3; i++ {
				seats = append(seats, actors.SeatSpec{Seat: games.Seat{Seat: i, Name: fmt.Sprintf("House %d", i),
					Entry: 100_000_000, Options: blitz.SeatOptions{Kind: "house", Collateral: 60_000_000}.JSON()}, Kind: "house", Channel: actors.ChannelHouse})
			}
			// Short: scouting + 3 turns × (2 exchanges + commit + settle) = 0.2 + 3 × 1.25 s.
			pace := games.Pace{Name: "test", CloseEarly: true, Steps: map[string]time.Duration{"scouting": 200 * time.Millisecond, "talk": 400 * time.Millisecond, "commit": 400 * time.Millisecond, "settle": 50 * time.Millisecond}}
			t0 := time.Now()
			round, err := a.OpenTable(context.Background(), actors.TableSpec{ID: "slow-1", Game: blitz.ID, Format: "short",
				Kind: "practice", Seats: seats, Pace: pace})
			if err != nil {
				t.Fatal(err)
			}
			select {
			case <-done:
			case <-time.After(20 * time.Second):
				t.Fatal("the round did not finish")
			}
			took := time.Since(t0)
			if took > 3950*time.Millisecond+1500*time.Millisecond {
				t.Fatalf("the round took %v: the table waited on the agent", took)
			}
			evs, _, _ := a.Transcript(context.Background(), round)
			houseLines := 0
			for _, e := range evs {
				var p map[string]any
				_ = json.Unmarshal(e.Payload, &p)
				if e.Type != "message.public" {
					continue
				}
				if p["seat"] == float64(1) || p["from"] == float64(1) {
					t.Fatalf("a move of seat 1 was taken: %s", e.Payload)
				}
				houseLines++
			}
			if houseLines == 0 {
				t.Fatal("no public line at all: the check above proves nothing")
			}
			t.Logf("%s: round finished in %v", name, took)
		})
	}
}
