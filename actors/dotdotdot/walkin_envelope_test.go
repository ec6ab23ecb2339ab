package dotdotdot

import (
	"bytes"
	"crypto/ed25519"
	"crypto/sha256"
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"arena/actors/dotdotdot/envelope"
	"arena/games"
	"arena/games/blitz"
	"arena/games/canon"
)

// Envelopes a walk-in collects from a live Blitz table (the seat actor signs them on its own
// goroutine from a state that shares the public log's chunks with the table, which keeps
// appending to them). Several arenas play at once (run with -race). Every envelope must be valid
// JSON whose signature verifies, come back byte-identical when polled again, never change after
// it was handed out, carry in state.public_log a prefix of the round's public events in their
// JCS form (every one up to its own phase's opening, none of a later phase), and its state must
// be the prompt's state (games.Doc) as the desk handed it out.

type heldEnvelope struct {
	env    []byte // as returned (not copied)
	copyOf []byte
	prompt games.Prompt
	state  []byte // canonical state at collection
}

var stageRank = map[string]int{"seating": 0, "scouting": 1, "talk": 2, "commit": 3, "settle": 4, "settled": 5, "revealed": 6}

func TestWalkinEnvelopesHoldUnderLoad(t *testing.T) {
	seed := sha256.Sum256([]byte("desk test instance"))
	pub := ed25519.NewKeyFromSeed(seed[:]).Public().(ed25519.PublicKey)
	for i := 0; i < 3; i++ {
		t.Run(fmt.Sprintf("arena%d", i), func(t *testing.T) {
			t.Parallel()
			inBubble(t, func(t *testing.T) {
				e := startDeskEnv(t, "", nil, startDesk, blitz.NewEngine(blitz.DefaultFees()))
				ctx := deskCtx(t)
				token, err := e.a.RegisterWalkin(ctx, fmt.Sprintf("Ivo%d", i), "test-model")
				if err != nil {
					t.Fatal(err)
				}
				j, err := e.a.JoinWalkin(ctx, token, JoinRequest{Format: "blitz"})
				if err != nil {
					t.Fatal(err)
				}
				var held []heldEnvelope
				for moves := 0; ; moves++ {
					if moves > 40 {
						t.Fatal("round did not end")
					}
					n, err := deskBlitzPoll(t, e, token)
					if err != nil {
						t.Fatal(err)
					}
					if n.Status == NextRevealed {
						break
					}
					if err := envelope.Verify(pub, n.Envelope); err != nil {
						t.Fatalf("move %d: %v\n%.300s", moves, err, n.Envelope)
					}
					var env struct {
						State json.RawMessage `json:"state"`
					}
					if err := json.Unmarshal(n.Envelope, &env); err != nil {
						t.Fatalf("move %d: envelope is not JSON: %v", moves, err)
					}
					st, err := canon.Canonical(env.State)
					if err != nil {
						t.Fatal(err)
					}
					again, err := e.a.NextMove(ctx, token, 0)
					if err != nil || again.Status != NextMove || !bytes.Equal(again.Envelope, n.Envelope) {
						t.Fatalf("move %d: polled again, the envelope differs (%v, %s)", moves, err, again.Status)
					}
					held = append(held, heldEnvelope{env: n.Envelope, copyOf: bytes.Clone(n.Envelope), prompt: *n.Prompt, state: st})
					body := strings.Replace(string(n.Answer), `"text":""`, `"text":"I trust seat 2 <&> \u2028 40 CCD"`, 1)
					if _, err := e.a.AnswerMove(ctx, token, []byte(body)); err != nil {
						t.Fatalf("answer %s: %v", body, err)
					}
				}
				evs, revealed, err := e.a.Transcript(ctx, j.Round)
				if err != nil || !revealed {
					t.Fatalf("transcript: %v %v", revealed, err)
				}
				var public []games.Event
				var publicJCS [][]byte
				for _, ev := range evs {
					if ev.Visibility != "public" {
						continue
					}
					b, _ := json.Marshal(ev)
					c, err := canon.Canonical(b)
					if err != nil {
						t.Fatal(err)
					}
					public = append(public, ev)
					publicJCS = append(publicJCS, c)
				}
				if len(held) < 15 {
					t.Fatalf("%d envelopes, want a round's", len(held))
				}
				for k, h := range held {
					if !bytes.Equal(h.env, h.copyOf) {
						t.Fatalf("envelope %d changed after it was handed out", k)
					}
					if err := envelope.Verify(pub, h.env); err != nil {
						t.Fatalf("envelope %d: %v", k, err)
					}
					if ps, err := canon.Canonical(h.prompt.State.Bytes()); err != nil || !bytes.Equal(ps, h.state) {
						t.Fatalf("envelope %d: the prompt's state is no longer the state signed (%v)", k, err)
					}
					var st struct {
						PublicLog []json.RawMessage `json:"public_log"`
					}
					if err := json.Unmarshal(h.state, &st); err != nil {
						t.Fatal(err)
					}
					mv := h.prompt.Move
					own := false
					for i, raw := range st.PublicLog {
						if i >= len(publicJCS) || !bytes.Equal(raw, publicJCS[i]) {
							t.Fatalf("envelope %d %+v: public_log[%d] is not the round's public event %d in JCS:\n %s\nwant\n %s", k, mv, i, i, raw, publicJCS[min(i, len(publicJCS)-1)])
						}
						ev := public[i]
						if ev.Turn > mv.Turn || ev.Turn == mv.Turn && stageRank[ev.Phase] > stageRank[mv.Phase] {
							t.Fatalf("envelope %d %+v carries event %d of a later phase (%d %s)", k, mv, ev.Seq, ev.Turn, ev.Phase)
						}
						var pl struct{ Phase string }
						if ev.Type == "phase.started" && json.Unmarshal(ev.Payload, &pl) == nil && ev.Turn == mv.Turn && pl.Phase == mv.Phase {
							own = true
						}
					}
					if !own && mv.Phase != "scouting" { // scouting opens with no phase.started
						t.Fatalf("envelope %d %+v: public_log (%d events) lacks its own phase.started", k, mv, len(st.PublicLog))
					}
				}
			})
		})
	}
}
