package dotdotdot

import (
	"bytes"
	"crypto/ed25519"
	"crypto/sha256"
	"encoding/json"
	"strings"
	"testing"
	"testing/synctest"

	"arena/actors"
	"arena/actors/dotdotdot/envelope"
	"arena/games"
	"arena/games/blitz"
	"arena/games/canon"
)

// keptEnvelope is one envelope a walk-in collected: the bytes as handed out (not copied) and a copy
// taken then, and the move's prompt as data with a copy of its state.
type keptEnvelope struct {
	env, envCopy []byte
	prompt       games.Prompt
	state        []byte
}

// TestDeskPracticePackedEnvelopes: a walk-in plays a whole Practice round of Blitz (five house
// seats answered by the round actor, the table's public log packed between steps) over the desk
// to the reveal, with hostile answers posted before each good one, the same move collected
// twice, and the table crashed once mid-round. Every envelope collected is JCS JSON whose sig
// verifies with the instance key; its state is the prompt's state (in JCS) byte for byte; its
// state.public_log is, event by event, the round's public transcript from its start (the JCS of
// each stored event), longer with every move; the same move collected again (also after the
// crash) is the same envelope byte for byte; and at the end of the round every envelope and state
// handed out reads as it did when collected.
func TestDeskPracticePackedEnvelopes(t *testing.T) { inBubble(t, deskPracticePackedEnvelopes) }

func deskPracticePackedEnvelopes(t *testing.T) {
	e := startDeskEnv(t, "", nil, startDesk, blitz.NewEngine(blitz.DefaultFees()))
	ctx := deskCtx(t)
	seed := sha256.Sum256([]byte("desk test instance"))
	pub := ed25519.NewKeyFromSeed(seed[:]).Public().(ed25519.PublicKey)
	token, err := e.a.RegisterWalkin(ctx, "Packer", "test-model")
	if err != nil {
		t.Fatal(err)
	}
	j, err := e.a.JoinWalkin(ctx, token, JoinRequest{Format: "blitz"})
	if err != nil {
		t.Fatal(err)
	}
	var kept []keptEnvelope
	crashed := false
	var end Next
	for moves := 0; ; moves++ {
		if moves > 40 {
			t.Fatal("the round did not end")
		}
		n, err := deskBlitzPoll(t, e, token)
		if err != nil {
			t.Fatal(err)
		}
		if n.Status == NextRevealed {
			end = n
			break
		}
		if n.Status != NextMove || n.Prompt == nil {
			t.Fatalf("poll: %+v", n)
		}
		if !json.Valid(n.Envelope) {
			t.Fatalf("envelope is not JSON: %.200s", n.Envelope)
		}
		if err := envelope.Verify(pub, n.Envelope); err != nil {
			t.Fatalf("move %+v: %v", n.Prompt.Move, err)
		}
		if c, err := canon.Canonical(n.Envelope); err != nil || !bytes.Equal(c, n.Envelope) {
			t.Fatalf("move %+v: envelope is not JCS (%v)", n.Prompt.Move, err)
		}
		k := keptEnvelope{env: n.Envelope, envCopy: bytes.Clone(n.Envelope), prompt: *n.Prompt, state: bytes.Clone(n.Prompt.State.Bytes())}
		kept = append(kept, k)
		// the same move, collected again, is the same envelope
		again, err := e.a.NextMove(ctx, token, 0)
		if err != nil || again.Status != NextMove || !bytes.Equal(again.Envelope, k.envCopy) {
			t.Fatalf("move %+v collected again: %v, %s, envelope equal %v", n.Prompt.Move, err, again.Status, bytes.Equal(again.Envelope, k.envCopy))
		}
		if !crashed && n.Prompt.Move.Phase == "commit" {
			// the table panics and comes back from the store; the open move is the same envelope
			crashed = true
			e.a.System().Root.Send(e.a.TablePID(j.Table), &actors.CrashTable{Tag: "hostile4"})
			synctest.Wait() // the table has restarted from the store and redelivered the open move
			again, err = e.a.NextMove(ctx, token, 0)
			if err != nil || again.Status != NextMove || !bytes.Equal(again.Envelope, k.envCopy) {
				t.Fatalf("after the crash, move %+v is %v %s (envelope equal %v)", n.Prompt.Move, err, again.Status,
					bytes.Equal(again.Envelope, k.envCopy))
			}
		}
		// hostile answers first: each refused, none taking the move
		for _, bad := range []string{``, `{`, `[]`, `{"round":"T-0","messages":[]}`, `{"commitments":[{"payee":99,"amount":-1}]}`,
			`{"messages":[{"type":"public","text":"` + strings.Repeat("x", 70000) + `"}]}`, "{\"messages\":[{\"text\":\"\xff\"}]}"} {
			if _, err := e.a.AnswerMove(ctx, token, []byte(bad)); err == nil && bad != `{"commitments":[{"payee":99,"amount":-1}]}` {
				t.Fatalf("move %+v: hostile answer %.60q accepted", n.Prompt.Move, bad)
			}
		}
		if still, err := e.a.NextMove(ctx, token, 0); err == nil && still.Status == NextMove && still.Prompt.Move == n.Prompt.Move &&
			!bytes.Equal(still.Envelope, k.envCopy) {
			t.Fatalf("move %+v: envelope changed after refused answers", n.Prompt.Move)
		}
		body := strings.Replace(string(n.Answer), `"text":""`, `"text":"seat 2 is the mole, I say"`, 1)
		if _, err := e.a.AnswerMove(ctx, token, []byte(body)); err != nil && !isAnsweredErr(err) {
			t.Fatalf("answer %s: %v", body, err)
		}
	}
	if !crashed || len(kept) != 1+5*4 {
		t.Fatalf("%d moves collected (crashed %v)", len(kept), crashed)
	}
	if end.Result == nil {
		t.Fatal("no result")
	}
	evs, revealed, err := e.a.Transcript(ctx, j.Round)
	if err != nil || !revealed {
		t.Fatalf("transcript: %v %v", revealed, err)
	}
	var public [][]byte
	for _, ev := range evs {
		if ev.Visibility == "public" {
			b, err := canon.Marshal(ev)
			if err != nil {
				t.Fatal(err)
			}
			public = append(public, b)
		}
	}
	last, packed := 0, 0
	for i, k := range kept {
		if k.prompt.State.Packed() {
			packed++
		}
		if !bytes.Equal(k.env, k.envCopy) {
			t.Fatalf("envelope %d (%+v) changed after it was collected", i, k.prompt.Move)
		}
		if got := k.prompt.State.Bytes(); !bytes.Equal(got, k.state) {
			t.Fatalf("state %d (%+v) changed after it was collected", i, k.prompt.Move)
		}
		var env struct {
			State json.RawMessage `json:"state"`
		}
		want, err := canon.Canonical(k.state) // the envelope is JCS: the state's members sorted
		if err != nil {
			t.Fatalf("envelope %d: the prompt's state is not JSON: %v", i, err)
		}
		if err := json.Unmarshal(k.env, &env); err != nil || !bytes.Equal(env.State, want) {
			t.Fatalf("envelope %d: state member is not the prompt's state (%v)", i, err)
		}
		var st struct {
			Log []json.RawMessage `json:"public_log"`
		}
		if err := json.Unmarshal(env.State, &st); err != nil {
			t.Fatal(err)
		}
		if len(st.Log) <= last || len(st.Log) > len(public) {
			t.Fatalf("envelope %d (%+v): public_log of %d events (the one before had %d, the round %d)", i, k.prompt.Move,
				len(st.Log), last, len(public))
		}
		for x, ev := range st.Log {
			if !bytes.Equal(ev, public[x]) {
				t.Fatalf("envelope %d (%+v): public_log[%d] is\n %s\nthe transcript's is\n %s", i, k.prompt.Move, x, ev, public[x])
			}
		}
		last = len(st.Log)
	}
	if packed == 0 {
		t.Fatal("no state collected had a packed public log: the packing went untested")
	}
	t.Logf("%d envelopes, %d with a packed log, public transcript %d events", len(kept), packed, len(public))
}

// isAnsweredErr: an answer that came after the phase closed or after an earlier answer of the
// same move (a close-early table may have moved on).
func isAnsweredErr(err error) bool {
	s := err.Error()
	return strings.Contains(s, "answered") || strings.Contains(s, "closed") || strings.Contains(s, "not_now") ||
		strings.Contains(s, "stale")
}
