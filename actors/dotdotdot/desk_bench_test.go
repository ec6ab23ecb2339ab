package dotdotdot

import (
	"fmt"
	"testing"

	"arena/games/blitz"
)

// BenchmarkDeskNextMove is one poll that finds a move waiting: door → desk (token) → walk-in →
// mailbox and back, with the brief rendered (the stand-in game's Briefer).
func BenchmarkDeskNextMove(b *testing.B) {
	e := startDeskEnv(b, "", nil, startDesk, deskGame{})
	ctx := b.Context()
	token, _ := e.a.RegisterWalkin(ctx, "Bench", "")
	if _, err := e.a.JoinWalkin(ctx, token, JoinRequest{Format: "short", Pace: "agent"}); err != nil {
		b.Fatal(err)
	}
	if n, err := e.a.NextMove(ctx, token, MaxPollWait); err != nil || n.Status != NextMove {
		b.Fatalf("%+v %v", n, err)
	}
	b.ReportAllocs()
	for b.Loop() {
		if n, err := e.a.NextMove(ctx, token, 0); err != nil || n.Status != NextMove {
			b.Fatalf("%+v %v", n, err)
		}
	}
}

// BenchmarkDeskBlitzPracticeRound is a whole Practice round of real Blitz (short: 10 moves for
// the walk-in, two house seats) played over the desk on the chat clock: join, poll and answer
// every move, to the result and the record.
func BenchmarkDeskBlitzPracticeRound(b *testing.B) {
	e := startDeskEnv(b, "", nil, startDesk, blitz.NewEngine(blitz.DefaultFees()))
	ctx := b.Context()
	b.ReportAllocs()
	i := 0
	for b.Loop() {
		i++
		token, err := e.a.RegisterWalkin(ctx, fmt.Sprintf("Bench %d", i), "")
		if err != nil {
			b.Fatal(err)
		}
		if _, err := e.a.JoinWalkin(ctx, token, JoinRequest{Format: "short"}); err != nil {
			b.Fatal(err)
		}
		for {
			n, err := e.a.NextMove(ctx, token, MaxPollWait)
			if err != nil {
				b.Fatal(err)
			}
			if n.Status == NextRevealed {
				break
			}
			if n.Status != NextMove {
				b.Fatalf("poll %+v", n)
			}
			if _, err := e.a.AnswerMove(ctx, token, n.Answer); err != nil {
				b.Fatal(err)
			}
		}
	}
}
