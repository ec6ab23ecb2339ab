package main

import (
	"bufio"
	"context"
	"crypto/ed25519"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	v2 "github.com/Concordium/concordium-go-sdk/v2"
	"github.com/labstack/echo/v4"

	"arena/actors"
	"arena/actors/dotdotdot"
	"arena/actors/ledger"
	"arena/chain/badge"
	"arena/chain/devchain"
	"arena/config"
	"arena/storage"
	"arena/transport/dotdotdot/codes"
	"arena/transport/dotdotdot/join"
)

// externalNode is a Concordium node the arena does not run: a devchain on its own listener and
// data directory (posing as testnet, as the arena's configured network), with its escrow at
// an address no constant of the arena names. Its arena account's key is written to a key file
// for chain_key_file; the house identity account is the devchain's "house".
type externalNode struct {
	node    *devchain.Node
	keyFile string
	escrow  devchain.ContractAddress
	house   string // base58
}

// nodeEscrow is the external node's escrow instance: not devchain.DefaultEscrow.
var nodeEscrow = devchain.ContractAddress{Index: 9100, Subindex: 0}

// startExternalNode starts the node; arenaBalance (microCCD, 0: the devchain's default) is the
// arena account's at genesis, energyPrice the fee per NRG (0: free).
func startExternalNode(t testing.TB, arenaBalance, energyPrice uint64) *externalNode {
	t.Helper()
	g, err := devchain.DefaultGenesis()
	if err != nil {
		t.Fatal(err)
	}
	h, _ := hex.DecodeString(devchain.TestnetGenesisHash)
	g.BlockHash = [32]byte(h)
	for i := range g.Accounts {
		if g.Accounts[i].Name == devchain.AccountArena && arenaBalance > 0 {
			g.Accounts[i].Balance = arenaBalance
		}
	}
	dir := t.TempDir()
	node, err := devchain.Start(context.Background(), devchain.Options{Dir: filepath.Join(dir, "node"), Genesis: &g,
		Escrow: nodeEscrow, FinalizeAfter: -1, BlockTime: 20 * time.Millisecond, EnergyPrice: energyPrice})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(node.Stop)
	arena, _ := node.Account(devchain.AccountArena)
	house, _ := node.Account(devchain.AccountHouse)
	key, _ := json.Marshal(map[string]string{"address": arena.Address.ToBase58(), "seed": hex.EncodeToString(arena.Seed)})
	keyFile := filepath.Join(dir, "arena-account.json")
	if err := os.WriteFile(keyFile, key, 0o600); err != nil {
		t.Fatal(err)
	}
	return &externalNode{node: node, keyFile: keyFile, escrow: nodeEscrow, house: house.Address.ToBase58()}
}

// flags are `arena serve`'s chain flags naming this node.
func (n *externalNode) flags() []string {
	return []string{"--chain-node", n.node.Addr(), "--chain-key", n.keyFile,
		"--chain-escrow", fmt.Sprintf("<%d,%d>", n.escrow.Index, n.escrow.Subindex), "--chain-house-account", n.house,
		"--chain-network", "ccd:" + devchain.TestnetGenesisHash[:32]}
}

// registerAgent registers a player Badge (token id tok) owned by the genesis account owner on
// the node, its card served on loopback, its endpoint a closed port (the seat plays by the
// fallback policy); it returns the agent id and its key.
func (n *externalNode) registerAgent(t testing.TB, tok uint64, owner string) (string, ed25519.PrivateKey) {
	t.Helper()
	seed := sha256.Sum256([]byte(fmt.Sprintf("agent %d", tok)))
	key := ed25519.NewKeyFromSeed(seed[:])
	id := badge.NewAgentID(badge.Testnet, badge.TestnetRegistry, tok)
	acc, _ := n.node.Account(owner)
	card, err := badge.WriteCard(badge.CardSpec{Agent: id, Name: "Payer " + strconv.FormatUint(tok, 10), Kind: badge.KindPlayer,
		SigningKey: key.Public().(ed25519.PublicKey), Endpoint: "http://127.0.0.1:1/a2a", Owner: acc.Address.Value,
		Registry: badge.TestnetRegistry})
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		w.Write(card)
	}))
	t.Cleanup(srv.Close)
	sum := sha256.Sum256(card)
	if err := n.node.PutAgent(devchain.Agent{TokenID: tok, Owner: v2.AccountAddress{Value: acc.Address.Value},
		AgentURI: srv.URL + "/card.json", MetadataHash: sum[:], Status: devchain.AgentActive,
		RegisteredAtMs: uint64(time.Now().UnixMilli())}); err != nil {
		t.Fatal(err)
	}
	return id.String(), key
}

// startServeArgs runs `arena serve` on data with extra arguments and environment, and waits for
// its listen line.
func startServeArgs(t *testing.T, bin, data string, args, env []string) *server {
	t.Helper()
	s := &server{t: t, data: data, logs: &syncBuf{}}
	s.cmd = exec.Command(bin, append([]string{"serve", "--addr", "127.0.0.1:0", "--data", data, "--log-format", "json"}, args...)...)
	s.cmd.Env = append(os.Environ(), env...)
	s.cmd.Stderr = s.logs
	out, err := s.cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := s.cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if s.cmd.ProcessState == nil {
			s.cmd.Process.Kill()
			s.cmd.Wait()
		}
		if t.Failed() {
			t.Logf("serve logs:\n%s", s.logs)
		}
	})
	sc := bufio.NewScanner(out)
	for sc.Scan() {
		if u, ok := strings.CutPrefix(sc.Text(), "arena: listening on "); ok {
			s.url = u
		}
		if c, ok := strings.CutPrefix(sc.Text(), "arena: chain node "); ok {
			s.chain = c
			break
		}
	}
	go io.Copy(io.Discard, out)
	if s.url == "" || s.chain == "" {
		t.Fatalf("serve did not start; logs:\n%s", s.logs)
	}
	return s
}

// `arena serve` on a configured node, the real-network path (the node is another listener; the
// escrow, the house account and the network are config): the instance card names the house
// identity account as owner; a registered agent's `table: "open"` join is held with the deposit
// instruction naming the configured escrow; the owner's deposit seats it; the round opens and
// settles on that escrow, paying the seat's payout to paid_by, the house seats' collateral
// gains to the season pool (the configured house identity account, §11.3) and the rest to the
// arena's account; the escrow keeps nothing and the ledger balances with the escrow.
func TestServePaidTableOnAConfiguredNode(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: runs the binary through a paid round")
	}
	bin := buildArena(t)
	n := startExternalNode(t, 0, 0)
	agentID, key := n.registerAgent(t, 6101, "test-1")
	dir := t.TempDir()
	cfgFile := filepath.Join(dir, "arena.json")
	os.WriteFile(cfgFile, []byte(`{"dotdotdot":{"pace":{"agent_talk":"150ms","agent_commit":"150ms","scouting":"100ms","paid_gather":"3s"}}}`), 0o600)
	data := filepath.Join(dir, "data")
	args := append(n.flags(), "--config", cfgFile, "--agent", badge.NewAgentID(badge.Testnet, badge.TestnetRegistry, 77).String())
	s := startServeArgs(t, bin, data, args, []string{"ARENA_EGRESS_LOOPBACK=1"})
	if s.chain != n.node.Addr() {
		t.Fatalf("serve anchors on %s, the configured node is %s", s.chain, n.node.Addr())
	}

	// The instance card names the configured house identity account as its Badge's owner (§3).
	_, raw := getJSON(t, s.url+"/.well-known/agent.json")
	var card struct {
		Capabilities struct {
			Extensions []struct {
				Params struct {
					Owner struct {
						Account string `json:"account"`
					} `json:"owner"`
				} `json:"params"`
			} `json:"extensions"`
		} `json:"capabilities"`
	}
	json.Unmarshal(raw, &card)
	if ext := card.Capabilities.Extensions; len(ext) != 1 || ext[0].Params.Owner.Account != string(badge.Testnet)+":"+n.house {
		t.Fatalf("the instance card names another owner than the house identity account %s: %s", n.house, raw)
	}

	body := signedObj(t, key, map[string]any{"agent": agentID, "table": "open", "issued_at": time.Now().UTC().Format(time.RFC3339), "nonce": "node-paid-nonce-000001"})
	code, hold, raw := postJSON(t, s.url+"/v1/join", body, nil)
	if code != 200 {
		t.Fatalf("table open on a configured node: %d %s", code, raw)
	}
	tok, _ := hold["seat_token"].(string)
	entry, _ := hold["entry"].(map[string]any)
	amount, _ := entry["amount"].(float64)
	wantContract := fmt.Sprintf("%s:%d.%d", badge.Testnet, n.escrow.Index, n.escrow.Subindex)
	if tok == "" || entry["contract"] != wantContract || amount <= 0 {
		t.Fatalf("the hold names %v, want the configured escrow %s: %s", entry["contract"], wantContract, raw)
	}
	owner, _ := n.node.Account("test-1")
	arena, _ := n.node.Account(devchain.AccountArena)
	before, _ := n.node.AccountState(owner.Address)
	arenaBefore, _ := n.node.AccountState(arena.Address)
	h, err := n.node.SendUpdate("test-1", n.escrow, "escrow.deposit", devchain.EncodeDeposit(tok), uint64(amount))
	if err != nil {
		t.Fatal(err)
	}
	wctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if _, err := n.node.WaitFinalized(wctx, h); err != nil {
		t.Fatal(err)
	}

	check, _ := hold["check"].(string)
	var round string
	eventually(t, 30*time.Second, 200*time.Millisecond, func() bool {
		req, _ := http.NewRequest("GET", s.url+check, nil)
		req.Header.Set("x-seat-token", tok)
		r, err := http.DefaultClient.Do(req)
		if err != nil {
			return false
		}
		defer r.Body.Close()
		var c struct{ Status, Round string }
		json.NewDecoder(r.Body).Decode(&c)
		round = c.Round
		return c.Status == "seated" && round != ""
	}, func() string { return "the paid seat was not seated within 30 s" })
	rn, _ := strconv.ParseUint(strings.TrimPrefix(round, "T-"), 10, 64)
	var er devchain.EscrowRound
	eventually(t, 90*time.Second, 200*time.Millisecond, func() bool {
		var ok bool
		er, ok, _ = n.node.EscrowRound(rn)
		un, _ := n.node.EscrowUnspent()
		return ok && er.Settled && len(un) == 0
	}, func() string { return fmt.Sprintf("round %s not settled on the configured escrow: %+v", round, er) })
	// The operators' check of the ledger against the escrow (`arena ops check paid`) finds them agreeing.
	var out, errb strings.Builder
	eventually(t, 30*time.Second, 200*time.Millisecond, func() bool {
		out.Reset()
		errb.Reset()
		return opsMain(context.Background(), []string{"check", "paid", "--server", s.url, "--data", data}, noEnv, &out, &errb) == 0
	}, func() string { return fmt.Sprintf("arena ops check paid: %s%s", out.String(), errb.String()) })
	if out.String() != "paid: ok\n" {
		t.Fatalf("arena ops check paid: %q", out.String())
	}
	s.stop()

	houseAcc, _ := n.node.Account(devchain.AccountHouse)
	var toOwner, toArena, toPool uint64
	for _, p := range er.Payouts {
		switch p.To {
		case owner.Address:
			toOwner += p.Amount
		case arena.Address:
			toArena += p.Amount
		case houseAcc.Address:
			toPool += p.Amount
		default:
			t.Fatalf("a payout to %s, neither paid_by, the season pool nor the arena's account", p.To.ToBase58())
		}
	}
	// serve's paid tables are Blitz: six seats, the five the agent does not take the house's.
	const seats = 6
	if er.HouseFunds != (seats-1)*uint64(amount) || toOwner+toArena+toPool != seats*uint64(amount) {
		t.Fatalf("escrow round: house funds %d, payouts owner %d + arena %d + season pool %d, want %d and %d entries of %v",
			er.HouseFunds, toOwner, toArena, toPool, seats-1, seats, amount)
	}
	after, _ := n.node.AccountState(owner.Address)
	arenaAfter, _ := n.node.AccountState(arena.Address)
	if after.Balance != before.Balance-uint64(amount)+toOwner || arenaAfter.Balance != arenaBefore.Balance-(seats-1)*uint64(amount)+toArena {
		t.Fatalf("balances: owner %d → %d, arena %d → %d (payouts owner %d arena %d)", before.Balance, after.Balance,
			arenaBefore.Balance, arenaAfter.Balance, toOwner, toArena)
	}
	if bal, _ := n.node.EscrowBalance(); bal != 0 {
		t.Fatalf("the escrow keeps %d microCCD", bal)
	}
	st, err := storage.Open(filepath.Join(data, "arena.db"), storage.Options{ReadOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	lst, err := ledger.Replay(st)
	if err != nil {
		t.Fatal(err)
	}
	if err := ledger.Check(lst); err != nil {
		t.Fatal(err)
	}
	if got := lst.Units["microCCD"]; got.Received != seats*int64(amount) || got.PaidOut != int64(toOwner+toPool) || got.House != int64(toArena) || got.Held != 0 || got.Staked != 0 {
		t.Fatalf("ledger %+v, the escrow paid the owner %d, the arena %d and the season pool %d", got, toOwner, toArena, toPool)
	}
	if got := lst.PaidTo("microCCD", dotdotdot.SeasonPoolAccount); got != int64(toPool) {
		t.Fatalf("the ledger's season pool %d, the escrow paid it %d", got, toPool)
	}
}

// nodeConfig is serve's config on data naming the external node: its address, key, escrow,
// house account and network, as n.flags() does.
func (n *externalNode) config(data string) config.Config {
	cfg := config.Default()
	cfg.DataDir = data
	cfg.ChainNode, cfg.ChainKeyFile = n.node.Addr(), n.keyFile
	cfg.ChainEscrow = fmt.Sprintf("<%d,%d>", n.escrow.Index, n.escrow.Subindex)
	cfg.ChainHouseAccount = n.house
	cfg.ChainNetwork = "ccd:" + devchain.TestnetGenesisHash[:32]
	return cfg
}

// A configured node without its escrow or its house identity account serves no paid table:
// `table: "open"` is refused with bad_table naming the missing setting (not the devchain's
// constants standing in), and without the house account no instance card names an owner.
func TestConfiguredNodeWithoutEscrowOrHouse(t *testing.T) {
	n := startExternalNode(t, 0, 0)
	for _, tc := range []struct {
		name, missing string
		drop          func(*config.Config)
	}{
		{"no escrow", "chain_escrow", func(c *config.Config) { c.ChainEscrow = "" }},
		{"no house account", "chain_house_account", func(c *config.Config) { c.ChainHouseAccount = "" }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			cfg := n.config(t.TempDir())
			tc.drop(&cfg)
			st, err := storage.Open(cfg.DBPath(), storage.Options{NoSync: true})
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
				InstanceAgent: badge.NewAgentID(badge.Testnet, badge.TestnetRegistry, 77).String(), BeforeRecover: ch.start}, dotdotdot.Options{})
			if err != nil {
				t.Fatal(err)
			}
			defer a.Shutdown(context.Background())
			o, err := ag.joinOptions(a, cfg, st)
			if err != nil {
				t.Fatal(err)
			}
			if o.Paid != nil || !strings.Contains(o.PaidOff, tc.missing) {
				t.Fatalf("paid tables on (%v) or off for another reason: %q", o.Paid != nil, o.PaidOff)
			}
			e := echo.New()
			e.HTTPErrorHandler = codes.ErrorHandler(log)
			join.Mount(e, *o)
			rec := httptest.NewRecorder()
			req := httptest.NewRequest("POST", "/v1/join", strings.NewReader(`{"agent":"ccd:4221332d34e1694168c2a0c0b3fd0f27/cis-2:JyP9VLgGmGbqk4qZG5jTB","table":"open","issued_at":"2026-01-01T00:00:00Z","nonce":"nonce-000000000000001","sig":"ed25519:00"}`))
			req.Header.Set("Content-Type", "application/json")
			e.ServeHTTP(rec, req)
			var body struct{ Code, Error string }
			json.Unmarshal(rec.Body.Bytes(), &body)
			if rec.Code != 409 || body.Code != "bad_table" || !strings.Contains(body.Error, tc.missing) {
				t.Fatalf("table open: %d %s, want 409 bad_table naming %s", rec.Code, rec.Body, tc.missing)
			}
			err = ag.registerInstance(badge.NewAgentID(badge.Testnet, badge.TestnetRegistry, 77).String(), "arena",
				ed25519.NewKeyFromSeed(make([]byte, 32)).Public().(ed25519.PublicKey), "http://127.0.0.1:1")
			if tc.missing == "chain_house_account" && (!errors.Is(err, errNoHouse) || ag.instanceCard() != nil) {
				t.Fatalf("no house account: the card was written (%v): %s", err, ag.instanceCard())
			}
			if tc.missing != "chain_house_account" && (err != nil || !strings.Contains(string(ag.instanceCard()), n.house)) {
				t.Fatalf("the card does not name the house account %s (%v): %s", n.house, err, ag.instanceCard())
			}
		})
	}
}

// A configured node is trusted only as far as config says: on another network than
// chain_network, or without the arena's key file, serve does not start (nothing is signed, and
// no key is generated for a real network).
func TestConfiguredNodeRefusals(t *testing.T) {
	n := startExternalNode(t, 0, 0)
	ctx := context.Background()
	log := slog.New(slog.DiscardHandler)
	for _, tc := range []struct {
		name string
		set  func(*config.Config)
		want string
	}{
		{"another network", func(c *config.Config) { c.ChainNetwork = "ccd:" + devchain.MainnetGenesisHash[:32] }, "another network"},
		{"escrow on another network", func(c *config.Config) {
			c.ChainNetwork, c.ChainEscrow = "", "ccd:"+devchain.MainnetGenesisHash[:32]+":9100.0"
		}, "another network"},
		{"no key file", func(c *config.Config) { c.ChainKeyFile = filepath.Join(c.DataDir, "missing.json") }, "chain_key_file"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			cfg := n.config(t.TempDir())
			tc.set(&cfg)
			st, err := storage.Open(cfg.DBPath(), storage.Options{NoSync: true})
			if err != nil {
				t.Fatal(err)
			}
			defer st.Close()
			ch, err := startChain(ctx, cfg, st, log)
			if err == nil {
				ch.stop()
				t.Fatal("serve's chain started")
			}
			if !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("err %v, want it to say %q", err, tc.want)
			}
			if _, err := os.Stat(filepath.Join(cfg.DataDir, "missing.json")); err == nil {
				t.Fatal("a key was generated for a configured node")
			}
		})
	}
}
