package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"path/filepath"
	"strconv"
	"syscall"
	"testing"

	"arena/chain/evm/evmtest"
	"arena/storage"
)

// TestWardenPlaySurvivesKill9: `arena serve` with a stake rail on a real geth --dev. Two
// Contenders stake a Game II match with x402 and it goes LIVE; A commits DEFECT and the server
// is killed (SIGKILL) before B has committed. Restarted on the same data, the match resumes
// exactly: the public log and A's private events are the same bytes as before the kill (no
// step_extended: the deadline has not passed), B commits COOPERATE, and the match finishes and
// settles by §2.2 (BETRAYAL: A gross 1 300 000, net +300 000, win; B gross 300 000, net −700 000,
// loss; house 400 000): its payouts are queued and the bank balances (stakes in = paid out +
// house) with the two stakes on payTo. No wallet key is given, so the payouts wait in their
// queue (wardenpay's tests pay them): the match stays SETTLING.
func TestWardenPlaySurvivesKill9(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: runs geth --dev and kills the binary mid-match")
	}
	bin := buildArena(t)
	chain := evmtest.Start(t)
	_, payTo := evmtest.Key(0x7e)
	data := filepath.Join(t.TempDir(), "data")
	args := []string{"--warden-evm-rpc", chain.URL, "--warden-evm-chain-id", strconv.FormatUint(chain.ID, 10),
		"--warden-evm-token", chain.Token.Address.String(), "--warden-evm-relayer", chain.Dev.String(),
		"--warden-evm-pay-to", payTo.String()}
	s := startServeArgs(t, bin, data, args, nil)
	w := &wardenClient{t: t, base: s.url}

	a, b := w.register(0x51), w.register(0x52)
	chain.Mint(t, a.wallet, 3*wardenTestStake)
	chain.Mint(t, b.wallet, 3*wardenTestStake)
	_, o := w.must("POST", "/v1/warden/matches", a.token, map[string]any{"game": "warden.dilemma", "stake": wardenTestStake}, nil, 201)
	id := o["match_id"].(string)
	w.must("POST", "/v1/warden/matches/"+id+"/join", b.token, nil, nil, 200)
	for i, c := range []contender{a, b} {
		w.must("POST", "/v1/warden/matches/"+id+"/stake", c.token, nil, w.payment(c, id, chain.ID, byte(i+1)), 200)
	}
	_, act := w.must("POST", "/v1/warden/matches/"+id+"/actions", a.token,
		map[string]any{"round": 1, "action": "commit", "args": map[string]any{"choice": "DEFECT"}}, nil, 200)
	if act["accepted"] != true {
		t.Fatalf("A's commit: %v", act)
	}
	logBefore, meBefore := w.playLog(id), w.events(a, id)

	if err := s.cmd.Process.Signal(syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	s.cmd.Wait()
	s = startServeArgs(t, bin, data, args, nil)
	w.base = s.url

	if got := w.playLog(id); !bytes.Equal(got, logBefore) {
		t.Fatalf("public log changed across the kill:\n%s\n%s", logBefore, got)
	}
	if got := w.events(a, id); !bytes.Equal(got, meBefore) {
		t.Fatalf("A's events changed across the kill:\n%s\n%s", meBefore, got)
	}
	if _, again := w.must("POST", "/v1/warden/matches/"+id+"/actions", a.token,
		map[string]any{"round": 1, "action": "commit", "args": map[string]any{"choice": "COOPERATE"}}, nil, 409); again["error"] != "already_acted" {
		t.Fatalf("A's second commit after the restart: %v", again)
	}
	w.must("POST", "/v1/warden/matches/"+id+"/actions", b.token,
		map[string]any{"round": 1, "action": "commit", "args": map[string]any{"choice": "COOPERATE"}}, nil, 200)
	// The reveal pause runs out on the server's clock: long-poll B's view until play has ended.
	var view map[string]any
	for range 20 {
		_, view = w.must("GET", "/v1/warden/matches/"+id+"/me?wait=20000&after=1000000", b.token, nil, nil, 200)
		if view["status"] != "live" {
			break
		}
	}
	_, pub := w.must("GET", "/v1/warden/matches/"+id, "", nil, nil, 200)
	set, _ := pub["settlement"].(map[string]any)
	if pub["status"] != "SETTLING" || set == nil {
		t.Fatalf("after play: %v", pub)
	}
	seats := set["seats"].(map[string]any)
	fig := func(seat string) string {
		f := seats[seat].(map[string]any)
		return fmt.Sprintf("%v/%v/%v/%v", int64(f["gross_return"].(float64)), int64(f["paid_out"].(float64)), int64(f["net"].(float64)), f["result"])
	}
	if fig("A") != "1300000/1300000/300000/win" || fig("B") != "300000/300000/-700000/loss" || set["house"] != float64(400_000) {
		t.Fatalf("settlement %v", set)
	}
	raw, _ := json.Marshal(pub["log"])
	if !bytes.HasPrefix(raw, logBefore[:len(logBefore)-1]) || bytes.Contains(raw, []byte("step_extended")) {
		t.Fatalf("the finished log does not continue the one before the kill:\n%s\n%s", logBefore, raw)
	}
	s.stop()

	st, err := storage.Open(filepath.Join(data, "arena.db"), storage.Options{ReadOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	var pend struct {
		Rows [2]storage.WardenRow `json:"rows"`
	}
	if err := st.WardenView(func(tx storage.WardenTx) error { _, err := tx.Get("settle/"+id, &pend); return err }); err != nil {
		t.Fatal(err)
	}
	rows := pend.Rows
	for i := range rows {
		rows[i].SettledAt = rows[i].FinishedAt
		ref := "0xpending"
		rows[i].PayoutRef = &ref
	}
	if err := storage.CheckWardenMatch(rows[:]); err != nil {
		t.Fatalf("ledger invariant: %v", err)
	}
	if got := chain.Balance(t, payTo); got != 2*wardenTestStake || rows[0].PaidOut+rows[1].PaidOut+rows[0].HouseShare+rows[1].HouseShare != got {
		t.Fatalf("payTo %d, rows pay out %d + %d with house %d + %d", got, rows[0].PaidOut, rows[1].PaidOut, rows[0].HouseShare, rows[1].HouseShare)
	}
	if err := st.Check(); err != nil {
		t.Errorf("store check: %v", err)
	}
}

// playLog is match id's public log as the public view serves it (JSON).
func (w *wardenClient) playLog(id string) []byte {
	w.t.Helper()
	_, pub := w.must("GET", "/v1/warden/matches/"+id, "", nil, nil, 200)
	b, _ := json.Marshal(pub["log"])
	return b
}

// events is c's private events of match id (JSON).
func (w *wardenClient) events(c contender, id string) []byte {
	w.t.Helper()
	_, me := w.must("GET", "/v1/warden/matches/"+id+"/me", c.token, nil, nil, 200)
	b, _ := json.Marshal(me["events"])
	return b
}
