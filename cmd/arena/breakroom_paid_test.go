package main

import (
	"context"
	"crypto/ed25519"
	"crypto/sha256"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/btcsuite/btcd/btcec/v2"

	"arena/actors"
	"arena/actors/breakroom"
	"arena/actors/breakroom/cashier"
	"arena/chain/lightning/bolt11"
	"arena/chain/lightning/devwallet"
	"arena/config"
	"arena/games"
	brgames "arena/games/breakroom"
	brdilemma "arena/games/breakroom/dilemma"
	"arena/storage"
	"arena/storage/storagetest"
	brsite "arena/transport/breakroom"
	"arena/transport/breakroom/auth"
	brmcp "arena/transport/breakroom/mcp"
	"arena/transport/breakroom/play"
	"arena/transport/breakroom/public"
	"arena/transport/httpapi"
)

// paidSite is the Break Room site (play's doors, the public reads, the MCP door and the dev
// wallet's route) over a real Room (the Dilemma at tables of three, two
// iterations) with paid tables on the development wallet, as serve wires them (paymentsOf,
// devRoute, roomDoors), and a LUD-16 service on loopback for the payout addresses.
type paidSite struct {
	srv    *httptest.Server
	room   *breakroom.Room
	dev    *devwallet.Wallet
	payees *lnService
}

func newPaidSite(t *testing.T, noTable, idle time.Duration) *paidSite {
	t.Helper()
	return newPaidSiteWith(t, noTable, idle, nil)
}

// newPaidSiteWith is newPaidSite with the cashier's options changed by tune (nil: as serve has
// them) before the Room starts: a wallet wrapped, a lower escrow cap.
func newPaidSiteWith(t *testing.T, noTable, idle time.Duration, tune func(*cashier.Options)) *paidSite {
	t.Helper()
	st := storagetest.Open(t, storage.Options{NoSync: true})
	br, err := games.NewBracket(brdilemma.Engine{})
	if err != nil {
		t.Fatal(err)
	}
	cfg, _ := loadForTest(nil)
	w, dev, err := breakroomWallet(cfg.Breakroom.Lightning)
	if err != nil {
		t.Fatal(err)
	}
	pay := paymentsOf(w, dev, cfg.Breakroom.Lightning)
	pay.Backoff = time.Millisecond
	if tune != nil {
		tune(pay)
	}
	info := brdilemma.Engine{}.Info()
	room, err := breakroom.New(breakroom.Options{PublicURL: "http://breakroom.test", HousePause: 5 * time.Millisecond,
		LobbyWait: 50 * time.Millisecond, HouseAfter: 50 * time.Millisecond, NoTableAfter: noTable, PaidIdle: idle, Payments: pay,
		Games: []breakroom.Game{{ID: info.ID, Name: info.Name, RulesVersion: info.RulesVersion, TableSize: 3, Min: 3,
			Options: json.RawMessage(`{"max_iterations":2,"stop_one_in":2}`),
			Pace:    games.Pace{Steps: map[string]time.Duration{"turn": 20 * time.Second}}}}})
	if err != nil {
		t.Fatal(err)
	}
	a, err := actors.Start(actors.Options{DB: st, Bracket: br, InstanceKey: ed25519.NewKeyFromSeed(make([]byte, 32)),
		Products: []actors.Product{room.Product()}})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { room.Cashier().Wait(); a.Shutdown(context.Background()) })
	<-room.Ready()
	side := &breakroomSide{room: room, catalog: []brgames.GameInfo{info}, public: "http://breakroom.test"}
	pd, err := play.New(play.Options{Backend: roomDoors{room: room, catalog: side.catalog, public: side.public},
		Nonces: auth.New(auth.Options{}), Payments: side.terms()})
	if err != nil {
		t.Fatal(err)
	}
	rd, err := public.New(public.Options{Backend: roomReads{room: room, catalog: side.catalog}, PublicURL: side.public, Payments: side.paymentsPage()})
	if err != nil {
		t.Fatal(err)
	}
	md, err := brmcp.New(brmcp.Options{Door: pd, Rules: rulesOf(side.catalog), PublicURL: side.public, Version: "test"})
	if err != nil {
		t.Fatal(err)
	}
	e, err := httpapi.Build(brsite.Site{Doors: doorSet{pd, rd, md, devRoute{dev}}}, httpapi.Global{})
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(e)
	t.Cleanup(srv.Close)
	return &paidSite{srv: srv, room: room, dev: dev, payees: newLNService(t)}
}

// check is the paid tables' invariant (after every step).
func (p *paidSite) check(t *testing.T, step string) cashier.Totals {
	t.Helper()
	tot, err := p.room.Cashier().Check(context.Background())
	if err != nil {
		t.Fatalf("after %s: %v", step, err)
	}
	return tot
}

// do is one HTTP call's status and body (the paid routes' 402s are the protocol's).
func (p *paidSite) do(t *testing.T, method, path, token, body string) (int, map[string]any) {
	t.Helper()
	var rd io.Reader
	if body != "" {
		rd = strings.NewReader(body)
	}
	req, _ := http.NewRequest(method, p.srv.URL+path, rd)
	if body != "" {
		req.Header.Set("Content-Type", "application/json")
	}
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var m map[string]any
	json.NewDecoder(resp.Body).Decode(&m)
	return resp.StatusCode, m
}

// signed is a body signed with a fresh challenge: fields plus author_pubkey, nonce and sig.
func (p *paidSite) signed(t *testing.T, k brKey, fields map[string]any) string {
	t.Helper()
	_, ch := p.do(t, "GET", "/v0/challenge", "", "")
	nonce, _ := ch["nonce"].(string)
	fields["author_pubkey"], fields["nonce"], fields["sig"] = k.pub, nonce, k.sign(nonce)
	b, _ := json.Marshal(fields)
	return string(b)
}

// paidJoin joins at stake over HTTP: 402 payment_required; answers it.
func (p *paidSite) paidJoin(t *testing.T, k brKey, stake int64) map[string]any {
	t.Helper()
	st, pr := p.do(t, "POST", "/v0/join", "", p.signed(t, k, map[string]any{"game": "dilemma", "stake_sats": stake}))
	if st != 402 || pr["type"] != "payment_required" || pr["stake_sats"].(float64) != float64(stake) || pr["rake_bps"].(float64) != 2000 ||
		pr["expires_in_s"].(float64) != 120 || !strings.HasPrefix(pr["bolt11"].(string), "lnbcrt") || !strings.Contains(pr["note"].(string), "test sats") {
		t.Fatalf("paid join: %d %v", st, pr)
	}
	return pr
}

// payDev pays an invoice through the development wallet's route.
func (p *paidSite) payDev(t *testing.T, bolt11 string) {
	t.Helper()
	st, m := p.do(t, "POST", devwallet.PayPath, "", `{"bolt11":"`+bolt11+`"}`)
	if st != 200 || m["state"] != "ACCEPTED" {
		t.Fatalf("dev pay: %d %v", st, m)
	}
}

// TestBreakroomPaidDilemmaOnTheDevWallet: three agents join the Dilemma at 100 sats over HTTP:
// 402 payment_required; POST /v0/paid before paying is 402 not_paid (the nonce kept: the same
// request is sent again after paying and queues); queued says waiting_here and min_players; the
// table seats them with stake_sats, pot_sats and rake_bps (no house bot); they play to
// match_end, whose settlement splits the 300-sat pot by the payout rule; the winners' payouts
// arrive at their Lightning addresses; the invariant holds after every step; a replayed paid is
// auth_failed.
func TestBreakroomPaidDilemmaOnTheDevWallet(t *testing.T) {
	p := newPaidSite(t, time.Hour, time.Hour)
	keys := []brKey{newBrKey(51), newBrKey(52), newBrKey(53)}
	tokens := make([]string, 3)
	var replay string
	for i, k := range keys {
		pr := p.paidJoin(t, k, 100)
		p.check(t, "paid join")
		body := p.signed(t, k, map[string]any{"payment_hash": pr["payment_hash"], "payout_lnaddr": p.payees.addr(fmt.Sprintf("agent%d", i))})
		if st, m := p.do(t, "POST", "/v0/paid", "", body); st != 402 || m["code"] != "not_paid" {
			t.Fatalf("paid before paying: %d %v", st, m)
		}
		p.payDev(t, pr["bolt11"].(string))
		st, q := p.do(t, "POST", "/v0/paid", "", body)
		if st != 200 || q["type"] != "queued" || q["stake_sats"].(float64) != 100 || q["min_players"].(float64) != 3 ||
			q["waiting_here"].(float64) != float64(i+1) || q["token"] == nil {
			t.Fatalf("paid %d: %d %v", i, st, q)
		}
		tokens[i] = q["token"].(string)
		replay = body
		p.check(t, "paid")
	}
	if st, m := p.do(t, "POST", "/v0/paid", "", replay); st != 401 || m["code"] != "auth_failed" {
		t.Fatalf("replayed paid: %d %v", st, m)
	}
	match := ""
	userOfSeat := map[int]string{}
	for _, tok := range tokens {
		for {
			_, m := p.do(t, "GET", "/v0/join/"+tok+"?wait=2000", "", "")
			if m["type"] == "seated" {
				if m["stake_sats"].(float64) != 100 || m["pot_sats"].(float64) != 300 || m["rake_bps"].(float64) != 2000 || m["tier"] != "paid" {
					t.Fatalf("seated %v", m)
				}
				for _, pl := range m["players"].([]any) {
					pl := pl.(map[string]any)
					if pl["house"] == true {
						t.Fatalf("a house bot at a paid table: %v", m)
					}
					for i, k := range keys {
						if pl["pubkey"] == k.pub {
							userOfSeat[int(pl["seat"].(float64))] = fmt.Sprintf("agent%d", i)
						}
					}
				}
				match = m["match_id"].(string)
				break
			}
		}
	}
	if tot := p.check(t, "seated"); tot.InPots != 300 || tot.Held != 0 {
		t.Fatalf("totals at the table %+v", tot)
	}
	ends := make([]map[string]any, 3)
	deadline := time.Now().Add(90 * time.Second)
	for n := 0; ends[0] == nil || ends[1] == nil || ends[2] == nil; n++ {
		if time.Now().After(deadline) {
			t.Fatal("the match did not end")
		}
		for i, tok := range tokens {
			_, s := p.do(t, "GET", "/v0/matches/"+match+"/state", tok, "")
			switch s["status"] {
			case "ended":
				ends[i], _ = s["match_end"].(map[string]any)
			case "your_turn":
				action := []string{"cooperate", "defect"}[(i+n)%2]
				mv, _ := json.Marshal(map[string]any{"round": s["round"], "turn": s["turn"], "action": action})
				if st, r := p.do(t, "POST", "/v0/matches/"+match+"/move", tok, string(mv)); st != 200 {
					t.Fatalf("move: %d %v", st, r)
				}
			}
		}
	}
	set := ends[0]["settlement"].(map[string]any)
	payouts := set["payouts"].([]any)
	if set["pot_sats"].(float64) != 300 || len(payouts) == 0 {
		t.Fatalf("settlement %v", set)
	}
	var paidOut int64
	want := map[string]int64{}
	for _, po := range payouts {
		po := po.(map[string]any)
		paidOut += int64(po["sats"].(float64))
		want[userOfSeat[int(po["seat"].(float64))]] += int64(po["sats"].(float64))
	}
	if int64(set["rake_sats"].(float64))+paidOut != 300 {
		t.Fatalf("settlement does not add up: %v", set)
	}
	p.room.Cashier().Wait()
	tot := p.check(t, "payouts")
	got := p.payees.received(p.dev)
	if tot.Payouts != paidOut || tot.Rake != int64(set["rake_sats"].(float64)) || tot.Credited != 0 || fmt.Sprint(got) != fmt.Sprint(want) {
		t.Fatalf("totals %+v, received %v, want %v (seats %v)", tot, got, want, userOfSeat)
	}
	lines, err := p.room.MoneyLines(context.Background(), match)
	if err != nil || len(lines) < 5 || lines[0].Type != "escrow_lock" || lines[3].Type != "rake_taken" || lines[4].Type != "payout" {
		t.Fatalf("money lines %+v %v", lines, err)
	}
	// The public log ends with them, after match_end, numbered on.
	_, _, log := getRaw(t, p.srv, "/r/"+match+".jsonl", "")
	ls := strings.Split(strings.TrimSpace(log), "\n")
	var types []string
	for _, l := range ls {
		var m struct{ Type string }
		json.Unmarshal([]byte(l), &m)
		types = append(types, m.Type)
	}
	tail := strings.Join(types[len(types)-len(lines)-1:], ",")
	if !strings.HasPrefix(tail, "match_end,escrow_lock,escrow_lock,escrow_lock,rake_taken,payout") {
		t.Fatalf("the log's tail: %s", tail)
	}
	// The agents' money ledgers.
	var paidSum int64
	for _, k := range keys {
		_, ag := p.do(t, "GET", "/v0/agents/"+k.pub, "", "")
		led, _ := ag["ledger"].(map[string]any)
		if led == nil || led["staked_sats"].(float64) != 100 || led["credited_unpaid_sats"].(float64) != 0 {
			t.Fatalf("agent ledger %v", ag)
		}
		paidSum += int64(led["paid_sats"].(float64))
	}
	if paidSum != paidOut {
		t.Fatalf("the ledgers' payouts %d, the settlement's %d", paidSum, paidOut)
	}
	// The terms: /v0/games and /payments say test sats.
	_, g := p.do(t, "GET", "/v0/games", "", "")
	pay := g["payments"].(map[string]any)
	if pay["enabled"] != true || pay["test_sats"] != true || pay["rake_bps"].(float64) != 2000 || len(pay["tiers"].([]any)) != 4 {
		t.Fatalf("/v0/games payments %v", pay)
	}
	if _, _, text := getRaw(t, p.srv, "/payments", ""); !strings.Contains(text, "Test sats") || !strings.Contains(text, "Payout rule") {
		t.Fatalf("/payments:\n%s", text)
	}
}

// TestBreakroomPaidRefunds: a paid agent alone at its stake gets left no_table with its stake
// refunded in full when no table opens; another leaves the queue itself (DELETE): left with
// refunded_sats; a paid join at a stake that is no tier is bad_stake; the invariant holds.
func TestBreakroomPaidRefunds(t *testing.T) {
	p := newPaidSite(t, 300*time.Millisecond, time.Hour)
	k := newBrKey(61)
	if st, m := p.do(t, "POST", "/v0/join", "", p.signed(t, k, map[string]any{"game": "dilemma", "stake_sats": 7})); st != 400 || m["code"] != "bad_stake" {
		t.Fatalf("bad stake: %d %v", st, m)
	}
	queue := func(k brKey, stake int64) string {
		pr := p.paidJoin(t, k, stake)
		p.payDev(t, pr["bolt11"].(string))
		st, q := p.do(t, "POST", "/v0/paid", "", p.signed(t, k, map[string]any{"payment_hash": pr["payment_hash"], "payout_lnaddr": p.payees.addr("x")}))
		if st != 200 || q["type"] != "queued" {
			t.Fatalf("paid: %d %v", st, q)
		}
		return q["token"].(string)
	}
	tok := queue(k, 10)
	var left map[string]any
	for left == nil {
		_, m := p.do(t, "GET", "/v0/join/"+tok+"?wait=2000", "", "")
		if m["type"] == "left" {
			left = m
		}
	}
	if left["reason"] != "no_table" || left["refunded_sats"].(float64) != 10 {
		t.Fatalf("no table: %v", left)
	}
	p.check(t, "no_table")
	tok = queue(newBrKey(62), 1000)
	// GET /v0/games counts the waiting agent at its paid queue ("Choosing a game").
	paidWaiting := func() (string, any) {
		st, g := p.do(t, "GET", "/v0/games", "", "")
		if st != 200 {
			t.Fatalf("/v0/games: %d %v", st, g)
		}
		var dilemma string
		for _, x := range g["games"].([]any) {
			if gi := x.(map[string]any); gi["id"] == "dilemma" {
				b, _ := json.Marshal(gi["waiting_paid"])
				dilemma = string(b)
			}
		}
		return dilemma, g["recommended_paid"]
	}
	if wp, rec := paidWaiting(); wp != `{"1000":1}` || fmt.Sprint(rec) != "map[game:dilemma stake_sats:1000 waiting:1]" {
		t.Fatalf("queued at 1000: waiting_paid %s, recommended_paid %v", wp, rec)
	}
	st, m := p.do(t, "DELETE", "/v0/join/"+tok, "", "")
	if st != 200 || m["reason"] != "left" || m["refunded_sats"].(float64) != 1000 {
		t.Fatalf("leave: %d %v", st, m)
	}
	if wp, rec := paidWaiting(); wp != `{}` || rec != nil {
		t.Fatalf("after leaving: waiting_paid %s, recommended_paid %v", wp, rec)
	}
	if tot := p.check(t, "left"); tot.StakesIn != 1010 || tot.Refunds != 1010 {
		t.Fatalf("totals %+v", tot)
	}
}

// TestBreakroomPaidIdleRefund: a paid HTTP agent that stops polling its token is refunded in
// full (left, idle) once PaidIdle passes; its next poll says so; the invariant holds.
func TestBreakroomPaidIdleRefund(t *testing.T) {
	p := newPaidSite(t, time.Hour, 200*time.Millisecond)
	k := newBrKey(63)
	pr := p.paidJoin(t, k, 100)
	p.payDev(t, pr["bolt11"].(string))
	st, q := p.do(t, "POST", "/v0/paid", "", p.signed(t, k, map[string]any{"payment_hash": pr["payment_hash"], "payout_lnaddr": p.payees.addr("x")}))
	if st != 200 || q["type"] != "queued" {
		t.Fatalf("paid: %d %v", st, q)
	}
	// No poll: the ledger says when the refund is written.
	for {
		ag, err := p.room.Cashier().Agent(context.Background(), k.pub)
		if err != nil {
			t.Fatal(err)
		}
		if ag.Refunded == 100 {
			break
		}
		time.Sleep(20 * time.Millisecond)
	}
	p.check(t, "idle")
	var left map[string]any
	for left == nil {
		_, m := p.do(t, "GET", "/v0/join/"+q["token"].(string), "", "")
		if m["type"] == "left" {
			left = m
		}
	}
	if left["reason"] != "idle" || left["refunded_sats"].(float64) != 100 {
		t.Fatalf("idle: %v", left)
	}
}

// lnService is a LUD-16 service on loopback whose invoices are signed by its own key with the
// description hash of its metadata; received says what the wallet paid each user. While holding
// (holdCallbacks), an invoice fetch (the LNURL callback) is answered never: it signals arrived and
// waits until its caller hangs up (a killed server), counted in blocked.
type lnService struct {
	srv     *httptest.Server
	mu      sync.Mutex
	issued  map[[32]byte]string
	n       int
	holding bool
	blocked int
	arrived chan struct{}
}

// holdCallbacks makes every invoice fetch from now on hang unanswered (on is true) or be answered
// again (false); arrived gets one signal for each fetch held.
func (s *lnService) holdCallbacks(on bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.holding = on
	if on && s.arrived == nil {
		s.arrived = make(chan struct{}, 16)
	}
}

func newLNService(t *testing.T) *lnService {
	key, _ := btcec.NewPrivateKey()
	s := &lnService{issued: map[[32]byte]string{}}
	const meta = `[["text/plain","winnings"]]`
	mux := http.NewServeMux()
	mux.HandleFunc("GET /.well-known/lnurlp/{user}", func(w http.ResponseWriter, r *http.Request) {
		json.NewEncoder(w).Encode(map[string]any{"tag": "payRequest", "callback": s.srv.URL + "/cb/" + r.PathValue("user"),
			"minSendable": 1000, "maxSendable": 1_000_000_000, "metadata": meta})
	})
	mux.HandleFunc("GET /cb/{user}", func(w http.ResponseWriter, r *http.Request) {
		msat, _ := strconv.ParseUint(r.URL.Query().Get("amount"), 10, 64)
		amt, _ := bolt11.AmountMsat(msat)
		s.mu.Lock()
		if s.holding {
			s.blocked++
			s.mu.Unlock()
			s.arrived <- struct{}{}
			<-r.Context().Done()
			return
		}
		s.n++
		hash := sha256.Sum256([]byte("invoice " + strconv.Itoa(s.n)))
		s.issued[hash] = r.PathValue("user")
		s.mu.Unlock()
		h := sha256.Sum256([]byte(meta))
		inv, err := bolt11.Sign(bolt11.Unsigned{Currency: bolt11.Regtest, Amount: amt, Timestamp: uint64(time.Now().Unix()),
			Fields: []bolt11.Field{bolt11.PaymentHashField(hash), bolt11.DescriptionHashField(h), bolt11.ExpiryField(3600),
				bolt11.PaymentSecretField(hash), bolt11.FeaturesField(8, 14)}}, key)
		if err != nil {
			t.Error(err)
			return
		}
		json.NewEncoder(w).Encode(map[string]any{"pr": inv.Encode(), "routes": []any{}})
	})
	s.srv = httptest.NewServer(mux)
	t.Cleanup(s.srv.Close)
	return s
}

func (s *lnService) addr(user string) string {
	return user + "@" + strings.TrimPrefix(s.srv.URL, "http://")
}

func (s *lnService) received(w *devwallet.Wallet) map[string]int64 {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := map[string]int64{}
	for hash, p := range w.Payments() {
		if u, ok := s.issued[hash]; ok {
			out[u] += int64(p.Msat / 1000)
		}
	}
	return out
}

var _ = config.WalletDev
