package warden

import (
	"encoding/json"
	"fmt"
	"log/slog"
	"strings"
	"testing"
	"time"

	"github.com/asynkron/protoactor-go/actor"

	"arena/actors"
	aw "arena/actors/warden"
	"arena/actors/warden/wardenpay"
	"arena/chain/evm/evmtest"
	"arena/chain/x402"
	"arena/games"
	"arena/games/warden/claims"
	"arena/games/warden/dilemma"
	"arena/games/warden/feed"
	"arena/storage"
)

// playRig is the stake rig with the match actors behind its doors: a LIVE match is played by
// actors/warden on a fake clock (the stakes' authorizations and the chain keep real time), on
// the §3.2 test seed, and a finished match's payouts are queued with wardenpay.
type playRig struct {
	*rig
	clock *actors.FakeClock
	play  *aw.Warden
}

func newPlayRig(t *testing.T, chain *evmtest.Chain) *playRig {
	r := &playRig{rig: newRig(t, chain), clock: actors.NewFakeClock(time.Now().UTC().Truncate(time.Millisecond))}
	sys := actor.NewActorSystem(actor.WithLoggerFactory(func(*actor.ActorSystem) *slog.Logger {
		return slog.New(slog.DiscardHandler)
	}))
	t.Cleanup(sys.Shutdown)
	b, err := games.NewBracket(claims.Engine{}, dilemma.Engine{})
	if err != nil {
		t.Fatal(err)
	}
	var seed [32]byte
	for i := range seed {
		seed[i] = byte(i)
	}
	r.play, err = aw.Start(aw.Options{Store: r.store, Bracket: b, System: sys, Clock: r.clock,
		Rake: map[string]int64{claims.GameID: claims.RakeBps}, Rail: r.doors.Rail.ID, Network: fmt.Sprintf("eip155:%d", chain.ID),
		Seed: func() [32]byte { return seed }, Feed: true,
		FeedStep: map[string]string{"message": feed.StepMessage, "claim": feed.StepClaim},
		Queue: func(tx storage.WardenTx, match string, rows [2]storage.WardenRow) error {
			return wardenpay.QueueSettlement(tx, wardenpay.Settlement{Match: match, Rows: rows, Network: fmt.Sprintf("eip155:%d", chain.ID)})
		}})
	if err != nil {
		t.Fatal(err)
	}
	r.doors.Play = r.play
	return r
}

// live registers and funds two Contenders, pairs them for game and pays both stakes: LIVE.
func (r *playRig) live(game string, ka, kb byte) (a, b player, id string, minted map[x402.Address]int64) {
	r.t.Helper()
	a, b = r.register(ka, "gambler"), r.register(kb, "steadfast")
	minted = map[x402.Address]int64{a.wallet: 3 * testStake, b.wallet: 3 * testStake}
	for w, v := range minted {
		r.chain.Mint(r.t, w, v)
	}
	o := r.do("POST", "/v1/warden/matches", a.token, map[string]any{"game": game, "stake": testStake}, nil)
	id, _ = o.body["match_id"].(string)
	if j := r.do("POST", "/v1/warden/matches/"+id+"/join", b.token, nil, nil); j.status != 200 {
		r.t.Fatalf("join: %d %v", j.status, j.body)
	}
	for i, p := range []player{a, b} {
		got := r.do("POST", "/v1/warden/matches/"+id+"/stake", p.token, nil, r.pay(p, byte(i+1)))
		if got.status != 200 || got.body["status"] != "cleared" {
			r.t.Fatalf("stake %d: %d %v", i, got.status, got.body)
		}
	}
	return a, b, id, minted
}

func (r *playRig) act(p player, id string, round int, action string, args any, hdr map[string]string) answer {
	r.t.Helper()
	return r.do("POST", "/v1/warden/matches/"+id+"/actions", p.token, map[string]any{"round": round, "action": action, "args": args}, hdr)
}

func (r *playRig) mustAct(p player, id string, round int, action string, args any) answer {
	r.t.Helper()
	got := r.act(p, id, round, action, args, nil)
	if got.status != 200 || got.body["accepted"] != true {
		r.t.Fatalf("%s round %d %s %v: %d %v", p.wallet, round, action, args, got.status, got.body)
	}
	return got
}

func (r *playRig) me(p player, id, query string) answer {
	r.t.Helper()
	got := r.do("GET", "/v1/warden/matches/"+id+"/me"+query, p.token, nil, nil)
	if got.status != 200 {
		r.t.Fatalf("me: %d %v", got.status, got.body)
	}
	return got
}

// toDeadline moves the match clock to the open step's deadline and waits for the actor to
// apply it (the timer's message is ahead of the next ask in the match's mailbox).
func (r *playRig) toDeadline(id string) {
	r.t.Helper()
	v, err := r.play.View(r.t.Context(), id, 0, 0)
	if err != nil || v.Deadline.IsZero() {
		r.t.Fatalf("no open deadline: %v", err)
	}
	r.clock.Set(v.Deadline)
	if _, err := r.play.View(r.t.Context(), id, 0, 0); err != nil {
		r.t.Fatal(err)
	}
}

// settled checks the money of a match that reached SETTLING: the stake account holds the two
// stakes; the queued rows, once the payouts fill what they own, pass the Ledger's check (Σ
// paid_out + house = 2S); a payout job is queued per non-zero paid_out; nothing is credited
// on the Ledger yet (§12.2). It returns the public view's settlement.
func (r *playRig) settled(id string, minted map[x402.Address]int64) map[string]any {
	r.t.Helper()
	pub := r.do("GET", "/v1/warden/matches/"+id, "", nil, nil)
	if pub.status != 200 || pub.body["status"] != aw.StatusSettling {
		r.t.Fatalf("public view after play: %d %v", pub.status, pub.body)
	}
	var pend struct {
		Rows [2]storage.WardenRow `json:"rows"`
		Jobs []string             `json:"jobs"`
	}
	var jobs int
	if err := r.store.WardenView(func(tx storage.WardenTx) error {
		if _, err := tx.Get("settle/"+id, &pend); err != nil {
			return err
		}
		return tx.Scan("payoutq/"+id+"/", func(string, []byte) error { jobs++; return nil })
	}); err != nil {
		r.t.Fatal(err)
	}
	rows := pend.Rows
	want := 0
	for i := range rows {
		rows[i].SettledAt = rows[i].FinishedAt
		if rows[i].PaidOut > 0 {
			ref := "0xpending"
			rows[i].PayoutRef = &ref
			want++
		}
	}
	if err := storage.CheckWardenMatch(rows[:]); err != nil {
		r.t.Fatalf("ledger invariant: %v", err)
	}
	if jobs != want {
		r.t.Fatalf("%d payout jobs, want %d", jobs, want)
	}
	if _, err := r.store.WardenMatch(id); err == nil {
		r.t.Fatal("Ledger rows before any payout confirmed")
	}
	r.invariant(minted)
	if got := r.chain.Balance(r.t, r.payTo); got != 2*testStake {
		r.t.Fatalf("stake account %d", got)
	}
	s, _ := pub.body["settlement"].(map[string]any)
	house, _ := s["house"].(float64)
	if int64(house) != 2*testStake-rows[0].PaidOut-rows[1].PaidOut {
		r.t.Fatalf("public house %v, rows pay out %d + %d", s["house"], rows[0].PaidOut, rows[1].PaidOut)
	}
	return s
}

func seatFig(s map[string]any, seat string) string {
	f := s["seats"].(map[string]any)[seat].(map[string]any)
	n := func(k string) int64 { v, _ := f[k].(float64); return int64(v) }
	return fmt.Sprintf("%d/%d/%d/%d/%v", n("gross_return"), n("rake"), n("paid_out"), n("net"), f["result"])
}

// TestGameIOverDoorsOnDevChain: two Contenders stake 1 USDC each with x402 on a geth --dev
// chain and play the whole §3.9 worked example through the REST doors (B silent in round 4:
// its claim and offer default at the deadlines). The private view shows each seat its own
// valuation (6900 / 3100 in round 1, the §3.2 vector) and never the other's; the public view
// follows the play. Settlement by hand (§3.9): A gross 725 000, no rake, paid 725 000, net
// −275 000, loss; B gross 1 005 000, rake 250, paid 1 004 750, net +4 750, win; house
// 270 250. The match is SETTLING with the rows and payout jobs queued in that write.
func TestGameIOverDoorsOnDevChain(t *testing.T) {
	chain := evmtest.Start(t)
	r := newPlayRig(t, chain)
	a, b, id, minted := r.live(claims.GameID, 0x71, 0x72)

	va := r.me(a, id, "")
	state, _ := va.body["state"].(map[string]any)
	if va.body["status"] != "live" || va.body["seat"] != "A" || va.body["round"] != float64(1) || va.body["step"] != "message" ||
		state["valuation_bps"] != float64(6900) || len(va.body["legal_moves"].([]any)) != 2 {
		t.Fatalf("A's first view %v", va.body)
	}
	if vb := r.me(b, id, ""); vb.body["state"].(map[string]any)["valuation_bps"] != float64(3100) ||
		strings.Contains(fmt.Sprint(vb.body), "6900") {
		t.Fatalf("B's first view %v", vb.body)
	}
	// The door's refusals (§7.3), each with its status, none using up the step.
	for _, c := range []struct {
		name   string
		p      player
		body   any
		code   string
		status int
	}{
		{"stale round", a, map[string]any{"round": 2, "action": "pass", "args": map[string]any{}}, "stale_round", 409},
		{"illegal action", a, map[string]any{"round": 1, "action": "claim", "args": map[string]any{"claim_bps": 1}}, "illegal_action", 422},
		{"bad args", a, map[string]any{"round": 1, "action": "message", "args": []int{1}}, "bad_args", 422},
		{"no round", a, map[string]any{"action": "pass"}, "bad_request", 400},
		{"unknown member", a, map[string]any{"round": 1, "action": "pass", "x": 1}, "bad_request", 400},
		{"no token", player{}, map[string]any{"round": 1, "action": "pass"}, "unauthorized", 401},
	} {
		got := r.do("POST", "/v1/warden/matches/"+id+"/actions", c.p.token, c.body, nil)
		if got.status != c.status || got.body["error"] != c.code {
			t.Errorf("%s: %d %v, want %d %s", c.name, got.status, got.body, c.status, c.code)
		}
	}
	stranger := r.register(0x73, "shark")
	if got := r.act(stranger, id, 1, "pass", map[string]any{}, nil); got.status != 403 || got.body["error"] != "not_seated" {
		t.Errorf("stranger: %d %v", got.status, got.body)
	}
	if got := r.do("GET", "/v1/warden/matches/"+id+"/me", stranger.token, nil, nil); got.status != 403 {
		t.Errorf("stranger's view: %d %v", got.status, got.body)
	}

	// Round 1's message step: A's message with an Idempotency-Key, twice: one action, one answer.
	key := map[string]string{"Idempotency-Key": "msg-1"}
	m1 := r.act(a, id, 1, "message", map[string]any{"text": "I hold little."}, key)
	m2 := r.act(a, id, 1, "message", map[string]any{"text": "I hold little."}, key)
	if m1.status != 200 || m2.status != 200 || m1.body["seq"] != m2.body["seq"] || m1.body["step_closes_at"] == nil {
		t.Fatalf("idempotent act: %v then %v", m1.body, m2.body)
	}
	if got := r.act(a, id, 1, "pass", map[string]any{}, nil); got.status != 409 || got.body["error"] != "already_acted" {
		t.Fatalf("second act: %d %v", got.status, got.body)
	}
	// B long-polls after what it has seen; A's pass... B's own pass closes the step and wakes it.
	seen := r.me(b, id, "").body["last_seq"].(float64)
	polled := make(chan answer, 1)
	go func() {
		polled <- r.do("GET", fmt.Sprintf("/v1/warden/matches/%s/me?after=%d&wait=20000", id, int64(seen)), b.token, nil, nil)
	}()
	r.mustAct(b, id, 1, "pass", map[string]any{})
	got := <-polled
	if evs, _ := got.body["events"].([]any); len(evs) == 0 {
		t.Fatalf("long poll woke with no events: %v", got.body)
	}
	// The message reached B once its step closed, and only B; the public view never holds it.
	if vb := r.me(b, id, ""); !strings.Contains(fmt.Sprint(vb.body["events"]), "I hold little.") {
		t.Fatalf("B's events lack A's delivered message: %v", vb.body["events"])
	}
	if pub := r.do("GET", "/v1/warden/matches/"+id, "", nil, nil); strings.Contains(fmt.Sprint(pub.body), "I hold little") ||
		strings.Contains(fmt.Sprint(pub.body), "valuation_bps") || pub.body["status"] != "LIVE" || pub.body["step"] != "claim" {
		t.Fatalf("public view during play: %v", pub.body)
	}

	for n, rd := range workedExample {
		rn := n + 1
		if rn > 1 {
			r.mustAct(a, id, rn, "pass", map[string]any{})
			r.mustAct(b, id, rn, "pass", map[string]any{})
		}
		for s, p := range []player{a, b} {
			if rd.claim[s] >= 0 {
				r.mustAct(p, id, rn, "claim", map[string]any{"claim_bps": rd.claim[s]})
			}
		}
		if rd.claim[1] < 0 {
			r.toDeadline(id)
		}
		if rn == 1 {
			if got := r.act(a, id, 1, "offer", map[string]any{"ask_bps": 7000, "escalate": 0}, nil); got.status != 422 || got.body["error"] != "ask_above_valuation" {
				t.Fatalf("ask above valuation: %d %v", got.status, got.body)
			}
		}
		for s, p := range []player{a, b} {
			if rd.ask[s] >= 0 {
				r.mustAct(p, id, rn, "offer", map[string]any{"ask_bps": rd.ask[s], "escalate": rd.esc[s]})
			}
		}
		if rd.ask[1] < 0 {
			r.toDeadline(id)
		}
		r.toDeadline(id) // the reveal pause
	}
	s := r.settled(id, minted)
	if got := seatFig(s, "A"); got != "725000/0/725000/-275000/loss" {
		t.Errorf("A's figures %s", got)
	}
	if got := seatFig(s, "B"); got != "1005000/250/1004750/4750/win" {
		t.Errorf("B's figures %s", got)
	}
	if s["house"] != float64(270_250) || s["seed"] != "000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f" {
		t.Errorf("house %v seed %v", s["house"], s["seed"])
	}
	if got := r.act(a, id, 5, "pass", map[string]any{}, nil); got.status != 409 || got.body["error"] != "wrong_state" {
		t.Errorf("act after play: %d %v", got.status, got.body)
	}
}

// round is one round of the §3.9 worked example; a negative claim or ask is B staying silent.
type round struct{ claim, ask, esc [2]int }

var workedExample = []round{
	{[2]int{6900, 4600}, [2]int{6900, 3100}, [2]int{0, 2}},
	{[2]int{5500, 7200}, [2]int{2800, 7200}, [2]int{1, 1}},
	{[2]int{6500, 6100}, [2]int{5500, 6100}, [2]int{4, 0}},
	{[2]int{4300, -1}, [2]int{4300, -1}, [2]int{0, 0}},
	{[2]int{4000, 6300}, [2]int{3700, 6300}, [2]int{2, 2}},
}

// TestGameIIOverDoorsSilentDefaults: a whole Game II match over the doors with real stakes on
// the dev chain; A commits DEFECT (through §7.2's commit form), B stays silent and is recorded
// COOPERATE at the deadline (§4.3). BETRAYAL by hand (§4.2): A gross 1 300 000, net +300 000,
// win; B gross 300 000, net −700 000, loss; house 400 000, no rake. Before the reveal neither
// B's view nor the public one shows A's choice.
func TestGameIIOverDoorsSilentDefaults(t *testing.T) {
	chain := evmtest.Start(t)
	r := newPlayRig(t, chain)
	a, b, id, minted := r.live(dilemma.GameID, 0x75, 0x76)
	r.mustAct(a, id, 1, "commit", map[string]any{"choice": "DEFECT"})
	if vb := r.me(b, id, ""); strings.Contains(fmt.Sprint(vb.body), "DEFECT") || len(vb.body["legal_moves"].([]any)) != 2 {
		t.Fatalf("B's view before the reveal: %v", vb.body)
	}
	if pub := r.do("GET", "/v1/warden/matches/"+id, "", nil, nil); strings.Contains(fmt.Sprint(pub.body), "DEFECT") {
		t.Fatalf("public view before the reveal: %v", pub.body)
	}
	// The MCP door's match-tied reads see the same view (MatchViews).
	raw, err := r.doors.View(t.Context(), id, "B", 0, 0)
	var mv map[string]any
	if err != nil || json.Unmarshal(raw, &mv) != nil || strings.Contains(string(raw), "DEFECT") || mv["seat"] != "B" ||
		len(mv["legal_moves"].([]any)) != 2 || mv["status"] != "live" {
		t.Fatalf("MCP view for B: %s %v", raw, err)
	}
	moves := r.do("GET", "/v1/warden/matches/"+id+"/me/moves", b.token, nil, nil)
	if lm, _ := moves.body["legal_moves"].([]any); moves.status != 200 || len(lm) != 2 || moves.body["step"] != "commit" {
		t.Fatalf("B's moves: %d %v", moves.status, moves.body)
	}
	r.toDeadline(id) // B's commit defaults
	r.toDeadline(id) // the reveal pause
	s := r.settled(id, minted)
	if got := seatFig(s, "A"); got != "1300000/0/1300000/300000/win" {
		t.Errorf("A's figures %s", got)
	}
	if got := seatFig(s, "B"); got != "300000/0/300000/-700000/loss" {
		t.Errorf("B's figures %s", got)
	}
	if s["house"] != float64(400_000) {
		t.Errorf("house %v", s["house"])
	}
	pub := r.do("GET", "/v1/warden/matches/"+id, "", nil, nil)
	raw, _ = json.Marshal(pub.body["log"])
	if !strings.Contains(string(raw), `"choices_revealed"`) || !strings.Contains(string(raw), `"defaulted":{"A":false,"B":true}`) {
		t.Errorf("public log %s", raw)
	}
}
