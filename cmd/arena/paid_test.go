package main

import (
	"context"
	"crypto/ed25519"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"log/slog"
	"net/http/httptest"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/labstack/echo/v4"

	"arena/actors"
	"arena/actors/dotdotdot"
	"arena/actors/ledger"
	"arena/chain/badge"
	"arena/chain/ccd"
	"arena/chain/devchain"
	"arena/chain/escrow"
	"arena/config"
	"arena/games"
	"arena/games/blitz"
	"arena/storage"
	"arena/storage/storagetest"
	"arena/transport/dotdotdot/codes"
	"arena/transport/dotdotdot/join"
)

// chainOf starts an embedded devchain posing as testnet and dials it.
func chainOf(t *testing.T) (*devchain.Node, *ccd.Client) {
	t.Helper()
	g, err := devchain.DefaultGenesis()
	if err != nil {
		t.Fatal(err)
	}
	h, _ := hex.DecodeString(devchain.TestnetGenesisHash)
	g.BlockHash = [32]byte(h)
	node, err := devchain.Start(context.Background(), devchain.Options{Genesis: &g, FinalizeAfter: -1, BlockTime: 20 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(node.Stop)
	c, err := ccd.Dial(context.Background(), node.Addr(), false)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	return node, c
}

// The escrow's deposits are read through the node API (view_deposits at the last final
// block): the amount and the payer as the chain has them, never a claim.
func TestEscrowDepositsFromTheChain(t *testing.T) {
	node, client := chainOf(t)
	ctx := context.Background()
	rd := escrow.Reader{Node: client, Contract: testEscrow}
	if got, err := rd.Deposits(ctx, "st_none"); err != nil || len(got) != 0 {
		t.Fatalf("no deposits: %v %v", got, err)
	}
	hash, err := node.SendUpdate("test-1", devchain.DefaultEscrow, "escrow.deposit", devchain.EncodeDeposit("st_abc"), 100_000_000)
	if err != nil {
		t.Fatal(err)
	}
	wctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	if _, err := node.WaitFinalized(wctx, hash); err != nil {
		t.Fatal(err)
	}
	got, err := rd.Deposits(ctx, "st_abc")
	if err != nil {
		t.Fatal(err)
	}
	acc, _ := node.Account("test-1")
	if len(got) != 1 || got[0].Amount != 100_000_000 || got[0].Payer != acc.Address.ToBase58() || !got[0].Finalized || got[0].At.IsZero() {
		t.Fatalf("deposits %+v (payer want %s)", got, acc.Address.ToBase58())
	}
	if _, err := escrow.DecodeDeposits([]byte{1, 0, 0, 0, 9}); err == nil {
		t.Fatal("a short view accepted")
	}
}

// A paid join on the arena's door: the hold names the escrow instruction; the check reads the
// chain; a deposit from the owner makes it paid by the owner; at starts_at the table opens with
// the seat, and payouts route to paid_by.
func TestPaidJoinReadsTheEscrow(t *testing.T) {
	node, client := chainOf(t)
	ctx := context.Background()
	st, err := storage.Open(storagetest.Path(t), storage.Options{NoSync: true})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	br, _ := newBracket()
	a, err := dotdotdot.Start(actors.Options{DB: st, Bracket: br, InstanceKey: ed25519.NewKeyFromSeed(make([]byte, 32)),
		InstanceAgent: badge.NewAgentID(badge.Testnet, badge.TestnetRegistry, 77).String()}, dotdotdot.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer a.Shutdown(ctx)
	opened := make(chan string, 1)
	paid, err := dotdotdot.NewPaidTables(a, dotdotdot.PaidOptions{Deposits: escrow.Reader{Node: client, Contract: testEscrow},
		Entry: 100_000_000, Gather: 6 * time.Second, Format: "short", Escrow: "ccd:4221332d34e1694168c2a0c0b3fd0f27:12810.0",
		OnOpen: func(_, round string, err error) {
			if err != nil {
				t.Errorf("open: %v", err)
			}
			opened <- round
		}})
	if err != nil {
		t.Fatal(err)
	}
	owner, _ := node.Account("test-1")
	key := ed25519.NewKeyFromSeed([]byte("paid join test agent key 32 byte"))
	agentID := badge.NewAgentID(badge.Testnet, badge.TestnetRegistry, 4243).String()
	res := staticResolver{join.Agent{ID: agentID, Owner: string(badge.Testnet) + ":" + owner.Address.ToBase58(), Name: "Payer",
		Kind: "player", Endpoint: "https://payer.example/a2a", SigningKey: key.Public().(ed25519.PublicKey)}}
	nonces := join.NewStoreNonces(st, nil)
	e := echo.New()
	e.HTTPErrorHandler = codes.ErrorHandler(slog.New(slog.DiscardHandler))
	join.Mount(e, join.Options{Seater: joinSeater{a: a}, Resolver: res, Nonces: nonces, Paid: paidAdapter{paid}})
	srv := httptest.NewServer(e)
	defer srv.Close()

	body := signedObj(t, key, map[string]any{"agent": agentID, "table": "open", "issued_at": time.Now().UTC().Format(time.RFC3339), "nonce": "paid-nonce-00000000001"})
	code, hold, raw := postJSON(t, srv.URL+"/v1/join", body, nil)
	if code != 200 {
		t.Fatalf("%d %s", code, raw)
	}
	tok, _ := hold["seat_token"].(string)
	entry, _ := hold["entry"].(map[string]any)
	check, _ := hold["check"].(string)
	if !strings.HasPrefix(tok, "st_") || entry["amount"] != float64(100_000_000) || entry["contract"] != "ccd:4221332d34e1694168c2a0c0b3fd0f27:12810.0" ||
		entry["parameter_hex"] != hex.EncodeToString(devchain.EncodeDeposit(tok)) || !strings.HasPrefix(check, "/v1/join/paid/h_") {
		t.Fatalf("hold %s", raw)
	}
	get := func() map[string]any {
		req := httptest.NewRequest("GET", check, nil)
		req.Header.Set(join.HeaderSeatToken, tok)
		rec := httptest.NewRecorder()
		e.ServeHTTP(rec, req)
		var m map[string]any
		json.Unmarshal(rec.Body.Bytes(), &m)
		if rec.Code != 200 {
			t.Fatalf("check: %d %s", rec.Code, rec.Body)
		}
		return m
	}
	if c := get(); c["paid"] != false {
		t.Fatalf("paid before any deposit: %v", c)
	}
	// A stranger's deposit does not count; the owner's does.
	for _, from := range []string{"test-2", "test-1"} {
		h, err := node.SendUpdate(from, devchain.DefaultEscrow, "escrow.deposit", devchain.EncodeDeposit(tok), 100_000_000)
		if err != nil {
			t.Fatal(err)
		}
		wctx, cancel := context.WithTimeout(ctx, 10*time.Second)
		_, err = node.WaitFinalized(wctx, h)
		cancel()
		if err != nil {
			t.Fatal(err)
		}
		c := get()
		if from == "test-2" && (c["paid"] != false || c["foreign"] != float64(100_000_000)) {
			t.Fatalf("a stranger's deposit: %v", c)
		}
		if from == "test-1" && (c["paid"] != true || c["paid_by"] != res.a.Owner) {
			t.Fatalf("the owner's deposit: %v", c)
		}
	}
	var round string
	select {
	case round = <-opened:
	case <-time.After(15 * time.Second):
		t.Fatal("the paid table did not open at starts_at")
	}
	if c := get(); c["status"] != "seated" || c["round"] != round || c["seat"] != float64(1) {
		t.Fatalf("after starts_at: %v", c)
	}
	pays, ok := paid.Payouts(round, games.Result{Payouts: map[int]int64{1: 150_000_000, 2: 1, 3: 2}})
	if !ok || len(pays) != 1 || pays[0].Account != res.a.Owner || pays[0].Amount != 150_000_000 {
		t.Fatalf("payouts %+v", pays)
	}
	if err := ledger.Audit(ctx, paid.Ledger()); err != nil {
		t.Fatal(err)
	}
}

// testEscrow is the devchain's escrow instance.
var testEscrow = escrow.Contract{Index: devchain.DefaultEscrow.Index, Subindex: devchain.DefaultEscrow.Subindex}

type staticResolver struct{ a join.Agent }

func (s staticResolver) Resolve(_ context.Context, agent string) (join.Agent, error) {
	if agent != s.a.ID {
		return join.Agent{}, games.Errorf("not_registered", "no such Badge")
	}
	return s.a, nil
}

// A paid round end to end on the embedded devchain, with serve's own chain wiring (startChain,
// the chain actor) and the agents hook: the owner deposits the entry, the table opens at
// starts_at, the house seats' entries are deposited by the arena's account, and when the round
// is over it is opened and settled on the escrow with the paid seat's payout to paid_by and the
// rest to the arena's account; the escrow is left empty.
func TestPaidRoundSettlesOnTheEscrow(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	cfg := config.Default()
	cfg.DataDir = filepath.Dir(storagetest.Path(t))
	st, err := storage.Open(filepath.Join(cfg.DataDir, "arena.db"), storage.Options{NoSync: true})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	log := slog.New(slog.DiscardHandler)
	ch, err := startChain(ctx, cfg, st, log)
	if err != nil {
		t.Fatal(err)
	}
	defer ch.stop()
	ag := startAgents(&ch, log, config.Dotdotdot{}, nil)
	br, _ := newBracket()
	a, err := dotdotdot.Start(actors.Options{DB: st, Bracket: br, InstanceKey: ed25519.NewKeyFromSeed(make([]byte, 32)),
		InstanceAgent: badge.NewAgentID(badge.Testnet, badge.TestnetRegistry, 77).String(), Anchorer: ch.anchorer,
		BeforeRecover: ch.start}, dotdotdot.Options{OnStatus: ag.onStatus, Anchorer: paidAnchorer{ag}})
	if err != nil {
		t.Fatal(err)
	}
	defer a.Shutdown(context.Background())
	opened := make(chan string, 1)
	escrowChain, house := ag.escrowWiring()
	pt, err := dotdotdot.NewPaidTables(a, dotdotdot.PaidOptions{Deposits: escrow.Reader{Node: ch.client, Contract: testEscrow},
		Chain: escrowChain, Contract: testEscrow, House: house, SeasonPool: ag.seasonPool(),
		Entry: 50_000_000, Gather: 5 * time.Second, Format: "short", Escrow: "ccd:4221332d34e1694168c2a0c0b3fd0f27:12810.0",
		Pace: games.Pace{Name: "test", CloseEarly: true, Steps: map[string]time.Duration{"scouting": 100 * time.Millisecond, "talk": 150 * time.Millisecond, "commit": 150 * time.Millisecond, "settle": 20 * time.Millisecond}},
		OnOpen: func(table, round string, err error) {
			if err != nil {
				t.Errorf("open: %v", err)
			}
			opened <- round
		}})
	if err != nil {
		t.Fatal(err)
	}
	ag.setPaid(pt)
	node := ch.node
	owner, _ := node.Account("test-1")
	arenaAcc, _ := node.Account(devchain.AccountArena)
	poolAcc, _ := node.Account(devchain.AccountHouse)
	ownerCAIP := string(badge.Testnet) + ":" + owner.Address.ToBase58()
	hold, err := pt.Hold(ctx, dotdotdot.AgentJoin{Agent: badge.NewAgentID(badge.Testnet, badge.TestnetRegistry, 4244).String(),
		Name: "Payer", Endpoint: "http://127.0.0.1:1/a2a", Human: true}, []string{ownerCAIP})
	if err != nil {
		t.Fatal(err)
	}
	h, err := node.SendUpdate("test-1", devchain.DefaultEscrow, "escrow.deposit", devchain.EncodeDeposit(hold.SeatToken), 50_000_000)
	if err != nil {
		t.Fatal(err)
	}
	wctx, wcancel := context.WithTimeout(ctx, 10*time.Second)
	defer wcancel()
	if _, err := node.WaitFinalized(wctx, h); err != nil {
		t.Fatal(err)
	}
	var round string
	select {
	case round = <-opened:
	case <-time.After(15 * time.Second):
		t.Fatal("the paid table did not open")
	}
	n, _ := strconv.ParseUint(strings.TrimPrefix(round, "T-"), 10, 64)
	var er devchain.EscrowRound
	var onEscrow bool
	eventually(t, 30*time.Second, 100*time.Millisecond, func() bool {
		var err error
		if er, onEscrow, err = node.EscrowRound(n); err != nil {
			t.Fatal(err)
		}
		return onEscrow && er.Settled
	}, func() string {
		return fmt.Sprintf("round %s not settled on the escrow in 30 s (opened %v)", round, onEscrow)
	})
	rec, ok := pt.Finished(mustTable(t, a, round))
	if !ok {
		t.Fatal("no settlement")
	}
	var toOwner, toArena, toPool uint64
	for _, p := range er.Payouts {
		switch p.To {
		case owner.Address:
			toOwner += p.Amount
		case arenaAcc.Address:
			toArena += p.Amount
		case poolAcc.Address:
			toPool += p.Amount
		default:
			t.Fatalf("payout to %s", p.To.ToBase58())
		}
	}
	// §11.3: the house seats' collateral gains (the game's Result.Pool) went to the season pool.
	var pool int64
	for seat := 2; seat <= 3; seat++ {
		pool += rec.Result.Pool[seat]
	}
	if int64(toOwner) != rec.Result.Payouts[1] || int64(toPool) != pool || rec.Pool != pool || toOwner+toArena+toPool != 3*50_000_000 {
		t.Fatalf("payouts: owner %d (seat 1 won %d), arena %d, season pool %d (the house seats gained %d)", toOwner, rec.Result.Payouts[1], toArena, toPool, pool)
	}
	if th := hex.EncodeToString(er.TranscriptHash[:]); "sha256:"+th != rec.Result.TranscriptHash {
		t.Fatalf("transcript hash %s vs %s", th, rec.Result.TranscriptHash)
	}
	if bal, _ := node.EscrowBalance(); bal != 0 {
		t.Fatalf("escrow balance %d after settle", bal)
	}
	// §5.5: the round was opened on the escrow before turn 1 with the open-round anchor the reveal
	// recomputes, and anchored once mid-round (Short: after the turn 2 settle), before settle.
	var rv blitz.Reveal
	if err := json.Unmarshal(rec.Result.Reveal, &rv); err != nil {
		t.Fatal(err)
	}
	_, open, err := blitz.OpenAnchor(rv)
	if err != nil {
		t.Fatal(err)
	}
	if er.Anchor != open {
		t.Fatalf("escrow open_round anchor %x, the reveal recomputes %x", er.Anchor, open)
	}
	if len(er.Turns) != 1 || er.Turns[0].Turn != 2 || er.OpenedAtMs > er.SettledAtMs {
		t.Fatalf("escrow round: opened at %d, mid-round anchors %+v, settled at %d: want one anchor at turn 2",
			er.OpenedAtMs, er.Turns, er.SettledAtMs)
	}
	// The ledger agrees with the escrow: every seat's entry received and settled, the owner's
	// payout paid out to paid_by, the rest the house's, nothing left in a hold or a pot.
	if err := ledger.Audit(ctx, pt.Ledger()); err != nil {
		t.Fatal(err)
	}
	lst, err := pt.Ledger().State(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if got := lst.Units[dotdotdot.PaidUnit]; got != (ledger.Totals{Received: 3 * 50_000_000, PaidOut: int64(toOwner + toPool), House: int64(toArena)}) {
		t.Fatalf("ledger totals %+v, the escrow paid the owner %d, the arena %d and the season pool %d", got, toOwner, toArena, toPool)
	}
	if got := lst.PaidTo(dotdotdot.PaidUnit, dotdotdot.SeasonPoolAccount); got != int64(toPool) {
		t.Fatalf("the ledger's season pool %d, the escrow paid it %d", got, toPool)
	}
	t.Logf("round %s settled on the escrow: owner %d, arena %d, season pool %d microCCD", round, toOwner, toArena, toPool)
}

func mustTable(t *testing.T, a *dotdotdot.Arena, round string) string {
	t.Helper()
	ts, err := a.Tables(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	for _, ti := range ts {
		if ti.Round == round {
			return ti.ID
		}
	}
	t.Fatalf("no table for %s", round)
	return ""
}
