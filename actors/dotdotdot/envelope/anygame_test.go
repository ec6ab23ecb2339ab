package envelope

import (
	"crypto/ed25519"
	"encoding/json"
	"errors"
	"strings"
	"testing"
	"time"

	"arena/actors/internal/countdown"
	"arena/games"
)

// TestEnvelopeOfAnotherGamesPrompt: the §4 envelope is made from any game's prompt, not Blitz's
// alone: the first prompt of the runtime's test game (countdown: a move of 20 s, its state
// {"total":0,"turn":1}) signs into {v, round, turn, phase, seat, deadline, state, inbox, sig},
// with no exchange outside talk and an empty inbox written as [], and verifies with the key.
func TestEnvelopeOfAnotherGamesPrompt(t *testing.T) {
	key := ed25519.NewKeyFromSeed(make([]byte, 32))
	start := time.Date(2026, 9, 9, 14, 0, 0, 0, time.UTC)
	m, err := (&countdown.Engine{}).New(games.Setup{Game: countdown.ID, Format: "short", Round: "T-5", Start: start,
		Seats: []games.Seat{{Seat: 1, Name: "seat"}, {Seat: 2, Name: "seat"}},
		Pace:  games.Pace{CloseEarly: true, Steps: map[string]time.Duration{"commit": 20 * time.Second}}}, noKeys{})
	if err != nil {
		t.Fatal(err)
	}
	var p *games.Prompt
	for _, q := range m.Advance(start).Prompts {
		if q.Seat == 1 {
			p = &q
		}
	}
	if p == nil {
		t.Fatal("no prompt for seat 1")
	}
	raw, err := Sign(key, "T-5", *p)
	if err != nil {
		t.Fatal(err)
	}
	if err := Verify(key.Public().(ed25519.PublicKey), raw); err != nil {
		t.Fatalf("envelope does not verify: %v\n%s", err, raw)
	}
	var env map[string]json.RawMessage
	if err := json.Unmarshal(raw, &env); err != nil {
		t.Fatal(err)
	}
	want := map[string]string{"v": `1`, "round": `"T-5"`, "turn": `1`, "phase": `"move"`, "seat": `1`,
		"deadline": `"2026-09-09T14:00:20Z"`, "state": `{"total":0,"turn":1}`, "inbox": `[]`}
	for k, v := range want {
		if string(env[k]) != v {
			t.Errorf("envelope %s = %s, want %s", k, env[k], v)
		}
	}
	if _, ok := env["exchange"]; ok || len(env) != 9 || !strings.HasPrefix(string(env["sig"]), `"ed25519:`) {
		t.Fatalf("envelope members: %s", raw)
	}
}

// noKeys is a Keyring with no seat's key.
type noKeys struct{}

func (noKeys) PublicKey(int) (ed25519.PublicKey, bool) { return nil, false }
func (noKeys) Sign(int, []byte) ([]byte, error)        { return nil, errors.New("no keys") }
