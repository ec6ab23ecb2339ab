package dotdotdot

import (
	"encoding/json"
	"strings"
	"testing"

	"arena/games/blitz"
)

// The inboxes a walk-in's envelopes carry (an inbox starts at 8 lines and grows once to an
// exchange's worth; payloads and items written into one buffer per answer): every line that
// reached the walk-in (others' public lines, private lines to it, §6) is in exactly one envelope
// (the first after it was said), in the order said, and no other line is; lines said after the
// last envelope are in none.
func TestWalkinInboxesCarryEachLineOnce(t *testing.T) { inBubble(t, walkinInboxesCarryEachLineOnce) }

func walkinInboxesCarryEachLineOnce(t *testing.T) {
	e := startDeskEnv(t, "", nil, startDesk, blitz.NewEngine(blitz.DefaultFees()))
	ctx := deskCtx(t)
	token, err := e.a.RegisterWalkin(ctx, "Inez", "test-model")
	if err != nil {
		t.Fatal(err)
	}
	j, err := e.a.JoinWalkin(ctx, token, JoinRequest{Format: "blitz"})
	if err != nil {
		t.Fatal(err)
	}
	type item struct {
		From     int    `json:"from"`
		To       int    `json:"to"`
		Text     string `json:"text"`
		Type     string `json:"type"`
		Turn     int    `json:"turn"`
		Exchange int    `json:"exchange"`
	}
	var got []item
	lastTurn := 0
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
		var env struct {
			Inbox []json.RawMessage `json:"inbox"`
		}
		if err := json.Unmarshal(n.Envelope, &env); err != nil {
			t.Fatal(err)
		}
		for _, raw := range env.Inbox {
			var it item
			if json.Unmarshal(raw, &it) == nil && (it.Type == "public" || it.Type == "private") {
				got = append(got, it)
			}
		}
		lastTurn = n.Prompt.Move.Turn
		body := strings.Replace(string(n.Answer), `"text":""`, `"text":"my line"`, 1)
		if _, err := e.a.AnswerMove(ctx, token, []byte(body)); err != nil {
			t.Fatalf("answer %s: %v", body, err)
		}
	}
	evs, _, err := e.a.Transcript(ctx, j.Round)
	if err != nil {
		t.Fatal(err)
	}
	// the lines that may have reached seat 1: others' public lines and private lines to it, up to
	// its last envelope's turn; the envelopes' lines must be exactly their first ones, in order
	var want []item
	for _, ev := range evs {
		if ev.Type != "message.public" && ev.Type != "message.private" {
			continue
		}
		var p item
		if err := json.Unmarshal(ev.Payload, &p); err != nil {
			t.Fatal(err)
		}
		if p.From == 1 || (ev.Type == "message.private" && p.To != 1) {
			continue
		}
		if ev.Turn > lastTurn {
			continue
		}
		p.Type = strings.TrimPrefix(ev.Type, "message.")
		want = append(want, p)
	}
	if len(got) > len(want) {
		t.Fatalf("the envelopes carried %d lines, only %d reached the seat", len(got), len(want))
	}
	for i, g := range got {
		w := want[i]
		if g.From != w.From || g.Text != w.Text || g.Type != w.Type || (w.Type == "private" && g.To != 1) {
			t.Fatalf("inbox line %d is %+v, want the transcript's %+v", i, g, w)
		}
	}
	if len(got) < 20 {
		t.Fatalf("only %d lines reached the walk-in's inboxes", len(got))
	}
}
