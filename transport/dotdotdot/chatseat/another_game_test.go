package chatseat

import (
	"crypto/ed25519"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"arena/actors/dotdotdot"
	"arena/actors/dotdotdot/envelope"
	"arena/games"
	"arena/games/warden/dilemma"
)

// TestAnotherGameThroughTheDoor: Game II's commit and result come through next_move in Game II's
// words (games.Describer) around the door's own parts (the head line, the token and round/turn
// echo, the closing), with no word of Blitz's.
func TestAnotherGameThroughTheDoor(t *testing.T) {
	t0 := time.Date(2026, 12, 1, 9, 0, 0, 0, time.UTC)
	m, err := dilemma.Engine{}.New(games.Setup{Game: dilemma.GameID, Round: "T-41", Start: t0,
		Seats: []games.Seat{{Seat: 1, Agent: "a", Name: "Ada", Entry: 1_000_000}, {Seat: 2, Agent: "b", Name: "Bo", Entry: 1_000_000}}}, nil)
	if err != nil {
		t.Fatal(err)
	}
	p := m.Advance(t0).Prompts[0]
	env, err := envelope.Sign(ed25519.NewKeyFromSeed(make([]byte, 32)), "T-41", p)
	if err != nil {
		t.Fatal(err)
	}
	now := t0.Add(15 * time.Second)
	f := &fakeDesk{next: dotdotdot.Next{Round: "T-41", Status: "move", Envelope: env, Prompt: &p, Brief: "Game II: your commit is open."}}
	srv := seat(t, f, Options{Describer: dilemma.Engine{}, Now: func() time.Time { return now }})
	move, _ := call(t, srv, "next_move", `{"token":"`+tok+`","wait":0}`)
	want := "Round T-41, turn 1, commit: 45s left (deadline 2026-12-01T09:01:00Z).\n" +
		"Game II: your commit is open.\n" +
		"You are seat A; each seat staked 1000000 micro-units and the pot is 2000000. You have not committed yet; your opponent has not committed yet.\n" +
		"Shares of the pot: both cooperate: you 45%, they 45%; you alone defect: you 65%, they 15%; they alone defect: you 15%, they 65%; both defect: you 30%, they 30%. A seat that does not commit in time plays COOPERATE.\n" +
		"\nPut two or three numbered moves to your human with your pick marked, and wait for their choice (play on alone only if they told you to). Then answer with one call:\n" +
		`- commit {"token", "round": "T-41", "turn": 1, "choice": "COOPERATE"} to cooperate` + "\n" +
		`- commit {"token", "round": "T-41", "turn": 1, "choice": "DEFECT"} to defect`
	if move != want {
		t.Fatalf("the move:\n%s\nwant:\n%s", move, want)
	}

	if _, err := m.Act(t0.Add(time.Second), games.Input{Seat: 1, Kind: "answer", Move: p.Move, Body: json.RawMessage(`{"choice":"DEFECT"}`)}); err != nil {
		t.Fatal(err)
	}
	for {
		d, ok := m.Deadline()
		if !ok {
			break
		}
		m.Advance(d)
	}
	r, _ := m.Result()
	f.next = dotdotdot.Next{Round: "T-41", Status: "revealed", Result: &r}
	result, _ := call(t, srv, "next_move", `{"token":"`+tok+`","wait":0}`)
	want = "Round T-41 is over and revealed.\n" +
		"Returns (gross, micro-units): seat A 1300000; seat B 300000; the house 400000.\n" +
		"The outcome: BETRAYAL. Seat A chose DEFECT; seat B chose COOPERATE (defaulted at the deadline).\n" +
		"my_record shows your human's record; play_practice or join_table plays another round.\n\n" + Closing
	if result != want {
		t.Fatalf("the result:\n%s\nwant:\n%s", result, want)
	}
	for _, blitzWord := range []string{"messages", "commitments", "payee", "chips", "tone", "accusation", "exchange", "mole", "CCD", "talk", "promise", "collateral", "rung"} {
		if strings.Contains(move, blitzWord) || strings.Contains(result, blitzWord) {
			t.Errorf("Game II's text says %q", blitzWord)
		}
	}
}

// TestNoDescriberNoGameWords: a chat seat given no Describer writes only its own parts and
// sends the assistant to the brief for how to answer.
func TestNoDescriberNoGameWords(t *testing.T) {
	now := time.Date(2026, 11, 30, 6, 0, 0, 0, time.UTC)
	got := renderNext(moveNext("talk", 2, now.Add(150*time.Second)), now, nil)
	want := "Round T-7, turn 2, talk (exchange 2): 2m30s left (deadline 2026-11-30T06:02:30Z).\n" +
		"You are seat 1, the mole. Your task is whisper (trust): rung 1 one seat whispers.\nSeat 2 said: hello\n" +
		"\nPut two or three numbered moves to your human with your pick marked, and wait for their choice (play on alone only if they told you to). Then answer as the brief above says."
	if got != want {
		t.Fatalf("got:\n%s\nwant:\n%s", got, want)
	}
	res := renderNext(dotdotdot.Next{Round: "T-7", Result: &games.Result{Payouts: map[int]int64{1: 5}}}, now, nil)
	if res != "Round T-7 is over and revealed.\nmy_record shows your human's record; play_practice or join_table plays another round.\n\n"+Closing {
		t.Fatalf("result without a Describer:\n%s", res)
	}
}
