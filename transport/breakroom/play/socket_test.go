package play

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/gorilla/websocket"

	"arena/games/breakroom/wire"
	"arena/transport/breakroom/auth"
)

// playTurn answers s's your_turn yt with a cooperate.
func playTurn(s *sock, yt map[string]any) {
	s.send(map[string]any{"type": "move", "v": 0, "match_id": yt["match_id"], "round": yt["round"], "turn": yt["turn"], "action": "cooperate"})
}

// TestSocketPlaysAMatch: challenge on open, join → queued → seated → your_turn → move → event …
// → match_end, a state on request, feedback → feedback_received.
func TestSocketPlaysAMatch(t *testing.T) {
	r := newRig(t, nil)
	ka, kb := newKey(t, 1), newKey(t, 2)
	a, b := r.dial(), r.dial()
	a.joinAs(ka, "coin")
	if q := a.expect("queued"); num(q, "position") != 1 || q["game"] != "coin" || q["token"] != nil {
		t.Fatalf("queued %v", q)
	}
	b.joinAs(kb, "coin")
	if q := b.expect("queued"); num(q, "position") != 2 {
		t.Fatalf("queued %v", q)
	}
	sa, sb := a.expect("seated"), b.expect("seated")
	if sa["match_id"] != "m_1" || num(sa, "seat") != 0 || num(sb, "seat") != 1 {
		t.Fatalf("seated %v / %v", sa, sb)
	}
	socks := []*sock{a, b}
	for step := 0; step < 4; step++ {
		me := socks[step%2]
		yt := me.expect("your_turn")
		if num(yt, "round") != int64(step/2+1) || num(yt, "turn") != int64(step%2) {
			t.Fatalf("step %d: %v", step, yt)
		}
		if step == 1 {
			me.send(map[string]any{"type": "state", "v": 0, "match_id": "m_1"})
			if st := me.expect("state"); st["status"] != "your_turn" || num(st, "deadline_ms") != 9000 {
				t.Fatalf("state %v", st)
			}
		}
		playTurn(me, yt)
		for _, s := range socks {
			if ev := s.expect("event"); ev["match_id"] != "m_1" {
				t.Fatalf("event %v", ev)
			}
		}
	}
	for i, s := range socks {
		end := s.expect("match_end")
		if num(end, "your_rank") != int64(i+1) || end["replay_url"] != "http://br.test/r/m_1" {
			t.Fatalf("match_end %v", end)
		}
	}
	a.send(map[string]any{"type": "feedback", "v": 0, "match_id": "m_1", "text": "fun", "rating": 5})
	if fr := a.expect("feedback_received"); fr["match_id"] != "m_1" {
		t.Fatalf("feedback_received %v", fr)
	}
	if got := r.f.feedback[Agent{Key: ka.pub, Game: "coin"}]; got != "fun" {
		t.Fatalf("stored feedback %q", got)
	}
}

// TestSocketRefusals: each refusal is an error frame with the protocol's code that changes
// nothing: the socket stays open and the turn stays with the seat.
func TestSocketRefusals(t *testing.T) {
	r := newRig(t, nil)
	ka, kb := newKey(t, 1), newKey(t, 2)
	a, b := r.dial(), r.dial()
	ch := a.expect("challenge")
	nonce := ch["nonce"].(string)

	// Before a join: every other message is not_joined; malformed frames are refused alike.
	for raw, code := range map[string]string{
		`{"type":"move","v":0,"match_id":"m_1","round":1,"turn":0,"action":"cooperate"}`: "not_joined",
		`{"type":"state","v":0,"match_id":"m_1"}`:                                        "not_joined",
		`not json`:                            "bad_request",
		`{"type":"move","v":1}`:               "bad_version",
		`{"type":"hello","v":0}`:              "bad_request",
		`{"type":"join","v":0,"game":"coin"}`: "bad_request",
		`{"type":"paid","v":0,"payment_hash":"x","payout_lnaddr":"a@b.c"}`: "not_joined",
	} {
		a.sendRaw(raw)
		if e := a.expect("error"); e["code"] != code || e["detail"] == "" {
			t.Fatalf("%s: %v, want %s", raw, e, code)
		}
	}
	// An unknown game names the games and keeps the nonce good.
	a.send(ka.joinMsg(t, "chess", nonce, true))
	if e := a.expect("error"); e["code"] != "unknown_game" || !strings.Contains(e["detail"].(string), "coin, dilemma") {
		t.Fatalf("unknown game: %v", e)
	}
	// A paid join: payments_disabled, nonce kept.
	paid := ka.joinMsg(t, "coin", nonce, true)
	paid["stake_sats"] = 10
	a.send(paid)
	if e := a.expect("error"); e["code"] != "payments_disabled" {
		t.Fatalf("paid join: %v", e)
	}
	// A bad signature: auth_failed, then a fresh challenge (the old nonce discarded).
	bad := ka.joinMsg(t, "coin", nonce, true)
	bad["sig"] = kb.sign(t, nonce)
	a.send(bad)
	if e := a.expect("error"); e["code"] != "auth_failed" {
		t.Fatalf("bad sig: %v", e)
	}
	fresh := a.expect("challenge")["nonce"].(string)
	if fresh == nonce {
		t.Fatal("the fresh challenge repeats the nonce")
	}
	if _, err := r.nonces.VerifyJoin(ka.pub, nonce, ka.sign(t, nonce)); err == nil {
		t.Fatal("the discarded nonce still verifies")
	}
	a.send(ka.joinMsg(t, "coin", fresh, true))
	a.expect("queued")
	a.send(ka.joinMsg(t, "coin", fresh, true))
	if e := a.expect("error"); e["code"] != "already_joined" {
		t.Fatalf("second join: %v", e)
	}
	b.joinAs(kb, "coin")
	b.expect("queued")
	a.expect("seated")
	b.expect("seated")
	yt := a.expect("your_turn")

	// On the turn: the move refusals, none consuming it.
	move := func(over map[string]any) map[string]any {
		m := map[string]any{"type": "move", "v": 0, "match_id": "m_1", "round": 1, "turn": 0, "action": "cooperate"}
		for k, v := range over {
			m[k] = v
		}
		return m
	}
	for _, tc := range []struct {
		s    *sock
		over map[string]any
		code string
	}{
		{a, map[string]any{"action": "fold"}, "illegal_move"},
		{a, map[string]any{"round": 2}, "stale_turn"},
		{a, map[string]any{"match_id": "m_9"}, "unknown_match"},
		{b, nil, "not_your_turn"},
		{a, map[string]any{"round": "1"}, "bad_request"},
	} {
		tc.s.send(move(tc.over))
		e := tc.s.expect("error")
		if e["code"] != tc.code {
			t.Fatalf("%v: %v, want %s", tc.over, e, tc.code)
		}
		if tc.code != "bad_request" && e["match_id"] == nil {
			t.Fatalf("%v: error names no match: %v", tc.over, e)
		}
	}
	// An oversized frame is too_large with the decoder's words; binary is bad_request; the
	// socket stays open.
	big := `{"type":"state","v":0,"match_id":"` + strings.Repeat("m", wire.MaxFrame) + `"}`
	a.sendRaw(big)
	_, wantErr := wire.Decode([]byte(big))
	if e := a.expect("error"); e["code"] != "too_large" || !strings.Contains(wantErr.Error(), e["detail"].(string)) {
		t.Fatalf("big frame: %v (decoder: %v)", e, wantErr)
	}
	if err := a.c.WriteMessage(websocket.BinaryMessage, []byte(`{}`)); err != nil {
		t.Fatal(err)
	}
	if e := a.expect("error"); e["code"] != "bad_request" {
		t.Fatalf("binary: %v", e)
	}
	a.send(map[string]any{"type": "feedback", "v": 0, "match_id": "m_1", "text": "early"})
	if e := a.expect("error"); e["code"] != "match_running" {
		t.Fatalf("early feedback: %v", e)
	}
	// The turn is still open: the right move is taken.
	playTurn(a, yt)
	a.expect("event")
	b.expect("event")
	b.expect("your_turn")
}

// TestSocketReconnect: the same signed join on a new socket re-seats (seated, state, your_turn);
// a dropped socket is Away; a second connection with the same key takes the seat from the
// first, which is closed with CloseReplaced and is no Away.
func TestSocketReconnect(t *testing.T) {
	r := newRig(t, nil)
	ka, kb := newKey(t, 1), newKey(t, 2)
	a, b := r.dial(), r.dial()
	a.joinAs(ka, "coin")
	a.expect("queued")
	b.joinAs(kb, "coin")
	b.expect("queued")
	a.expect("seated")
	b.expect("seated")
	a.expect("your_turn")

	// a drops: the product hears Drop for it.
	a.c.Close()
	waitFor(t, func() bool { return slices.Contains(r.f.log(), "drop "+ka.pub[:8]) })

	a2 := r.dial()
	a2.joinAs(ka, "coin")
	var got []string
	for _, want := range []string{"seated", "state", "your_turn"} {
		m := a2.read()
		got = append(got, m["type"].(string))
		if m["type"] != want {
			t.Fatalf("after a reconnect: %v, want seated, state, your_turn", got)
		}
		if want == "seated" && (num(m, "seat") != 0 || m["match_id"] != "m_1") {
			t.Fatalf("re-seated at %v", m)
		}
	}
	// A second connection with a's key takes the seat: a2 is closed with CloseReplaced.
	a3 := r.dial()
	a3.joinAs(ka, "coin")
	a3.expect("seated")
	a3.expect("state")
	yt := a3.expect("your_turn")
	_ = a2.c.SetReadDeadline(time.Now().Add(10 * time.Second))
	for {
		_, _, err := a2.c.ReadMessage()
		var ce *websocket.CloseError
		if errors.As(err, &ce) {
			if ce.Code != CloseReplaced {
				t.Fatalf("replaced socket closed with %d", ce.Code)
			}
			break
		}
		if err != nil {
			t.Fatalf("replaced socket: %v", err)
		}
	}
	playTurn(a3, yt)
	a3.expect("event")
	b.expect("event")
	a2.c.Close()
	playTurn(b, b.expect("your_turn"))
	a3.expect("event")
	b.expect("event")
	if n := strings.Count(strings.Join(r.f.log(), ","), "drop "+ka.pub[:8]); n != 1 {
		t.Fatalf("a drop counted %d times for a (the replaced socket's is no drop): %v", n, r.f.log())
	}
}

// TestSocketClosedBeforeJoinDiscardsNonce: a socket that closes before joining frees its
// challenge (the caller's slot; the nonce is then unknown).
func TestSocketClosedBeforeJoinDiscardsNonce(t *testing.T) {
	var nonces *auth.Nonces
	r := newRig(t, func(o *Options) {
		nonces = auth.New(auth.Options{PerCaller: 1})
		o.Nonces = nonces
	})
	r.nonces = nonces
	k := newKey(t, 1)
	s := r.dial()
	nonce := s.expect("challenge")["nonce"].(string)
	if st, e := r.httpDo("GET", "/v0/challenge", "", nil); st != 429 || e["code"] != "rate_limited" {
		t.Fatalf("second challenge while the socket holds one: %d %v", st, e)
	}
	s.c.Close()
	waitFor(t, func() bool {
		_, err := nonces.Check(k.pub, nonce, k.sign(t, nonce))
		return err != nil
	})
	if st, ch := r.httpDo("GET", "/v0/challenge", "", nil); st != 200 || ch["nonce"] == nil {
		t.Fatalf("challenge after the socket closed: %d %v", st, ch)
	}
}

// waitFor polls cond until it holds (10 s at most): the doors' goroutines run on their own.
func waitFor(t *testing.T, cond func() bool) {
	t.Helper()
	for end := time.Now().Add(10 * time.Second); time.Now().Before(end); time.Sleep(5 * time.Millisecond) {
		if cond() {
			return
		}
	}
	t.Fatal(fmt.Sprintf("condition not met within 10 s"))
}
