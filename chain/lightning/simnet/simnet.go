// Package simnet runs a real Lightning network for tests: one btcd on simnet and two lnd nodes,
// alice (the arena's node) and bob (a player's wallet), each on free loopback ports in its own
// temporary directory, with one confirmed, active channel from alice to bob whose opening pushes
// part of its capacity to bob, so either side can pay the other.
//
// The binaries come from scripts/build-lnd.sh (pinned btcd and lnd, cached outside the clone);
// ARENA_LND_TOOLS names a directory holding btcd, btcctl, lnd and lncli to use instead. Every
// process is started with a parent-death signal and stopped by Close (SIGTERM, then SIGKILL), so
// none outlives the test binary.
package simnet

import (
	"bytes"
	"context"
	"crypto/tls"
	"crypto/x509"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"
)

// The channel the harness opens, in satoshis: alice funds ChannelSat and pushes PushSat of it to
// bob at opening.
const (
	ChannelSat = 1_000_000
	PushSat    = 400_000
)

// rpcUser and rpcPass are btcd's RPC credentials (loopback only, a throwaway chain).
const (
	rpcUser = "arena"
	rpcPass = "arena"
)

// Net is a running simnet. Close stops it.
type Net struct {
	Alice, Bob *Node
	// Dir holds every process's data and logs (removed by Close unless KeepDir).
	Dir string
	// Started is how long Start took, from the first process to the channel being active.
	Started time.Duration

	tools   string
	btcd    *proc
	btcdRPC string // host:port
	btcdP2P string
	mu      sync.Mutex
	closed  bool
}

// Node is one lnd node of the Net.
type Node struct {
	Name string
	// RESTURL is the node's REST listener ("https://127.0.0.1:port"); TLSCert and Macaroon are
	// what chain/lightning/lnd needs to reach it (the node's tls.cert and admin.macaroon).
	RESTURL  string
	TLSCert  []byte
	Macaroon []byte
	// PubKey is the node's identity key, hex.
	PubKey  string
	P2PAddr string // host:port
	RPCAddr string // host:port (gRPC, for lncli)
	Dir     string

	p    *proc
	http *http.Client
	net  *Net
}

// Options tune Start. The zero value is fine.
type Options struct {
	// Log, when set, receives a line per step of Start (with its elapsed time).
	Log func(format string, args ...any)
}

// Tools is the directory holding btcd, btcctl, lnd and lncli: ARENA_LND_TOOLS, or what
// scripts/build-lnd.sh (found by walking up from the working directory) prints.
func Tools() (string, error) {
	if d := os.Getenv("ARENA_LND_TOOLS"); d != "" {
		return d, nil
	}
	dir, err := os.Getwd()
	if err != nil {
		return "", err
	}
	for {
		script := filepath.Join(dir, "scripts", "build-lnd.sh")
		if _, err := os.Stat(script); err == nil {
			var stderr bytes.Buffer
			cmd := exec.Command(script)
			cmd.Stderr = &stderr
			out, err := cmd.Output()
			if err != nil {
				return "", fmt.Errorf("simnet: %s: %v\n%s", script, err, stderr.String())
			}
			return strings.TrimSpace(string(out)), nil
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "", errors.New("simnet: no scripts/build-lnd.sh above the working directory and ARENA_LND_TOOLS unset")
		}
		dir = parent
	}
}

// Start brings the network up: btcd, alice and bob, 400 blocks mined to alice (past coinbase
// maturity and simnet's segwit activation), a channel alice→bob opened and confirmed, and both
// sides seeing it active. ctx bounds the whole start; on any error everything started is stopped.
func Start(ctx context.Context, opts Options) (_ *Net, err error) {
	begin := time.Now()
	logf := func(format string, args ...any) {
		if opts.Log != nil {
			opts.Log("simnet %5.1fs: "+format, append([]any{time.Since(begin).Seconds()}, args...)...)
		}
	}
	tools, err := Tools()
	if err != nil {
		return nil, err
	}
	for _, b := range []string{"btcd", "btcctl", "lnd", "lncli"} {
		if _, err := os.Stat(filepath.Join(tools, b)); err != nil {
			return nil, fmt.Errorf("simnet: %v", err)
		}
	}
	dir, err := os.MkdirTemp("", "arena-simnet-")
	if err != nil {
		return nil, err
	}
	n := &Net{Dir: dir, tools: tools}
	defer func() {
		if err != nil {
			logs := n.tails()
			n.Close()
			err = fmt.Errorf("%w\n%s", err, logs)
		}
	}()
	ports, err := freePorts(8)
	if err != nil {
		return nil, err
	}
	n.btcdRPC = "127.0.0.1:" + strconv.Itoa(ports[0])
	n.btcdP2P = "127.0.0.1:" + strconv.Itoa(ports[1])
	if err := n.startBtcd(ctx, ""); err != nil {
		return nil, err
	}
	logf("btcd up")
	n.Alice = &Node{Name: "alice", net: n, RPCAddr: addr(ports[2]), P2PAddr: addr(ports[3]), RESTURL: "https://" + addr(ports[4])}
	n.Bob = &Node{Name: "bob", net: n, RPCAddr: addr(ports[5]), P2PAddr: addr(ports[6]), RESTURL: "https://" + addr(ports[7])}
	var wg sync.WaitGroup
	errs := make([]error, 2)
	for i, node := range []*Node{n.Alice, n.Bob} {
		wg.Add(1)
		go func() {
			defer wg.Done()
			errs[i] = node.start(ctx)
		}()
	}
	wg.Wait()
	if err := errors.Join(errs...); err != nil {
		return nil, err
	}
	logf("alice and bob up")
	var a struct {
		Address string `json:"address"`
	}
	if err := n.Alice.Call(ctx, http.MethodGet, "/v1/newaddress?type=WITNESS_PUBKEY_HASH", nil, &a); err != nil {
		return nil, err
	}
	// btcd mines only to addresses given on its command line: restart it with alice's.
	if err := n.btcd.stop(); err != nil {
		return nil, err
	}
	if err := n.startBtcd(ctx, a.Address); err != nil {
		return nil, err
	}
	logf("btcd restarted mining to %s", a.Address)
	if err := n.Mine(ctx, 400); err != nil {
		return nil, err
	}
	logf("400 blocks mined")
	for _, node := range []*Node{n.Alice, n.Bob} {
		if err := node.waitSynced(ctx); err != nil {
			return nil, err
		}
	}
	if err := n.Alice.waitBalance(ctx, ChannelSat*2); err != nil {
		return nil, err
	}
	logf("synced; alice funded")
	if err := n.Alice.Call(ctx, http.MethodPost, "/v1/peers", map[string]any{
		"addr": map[string]string{"pubkey": n.Bob.PubKey, "host": n.Bob.P2PAddr},
	}, nil); err != nil {
		return nil, err
	}
	bobKey, _ := hex.DecodeString(n.Bob.PubKey)
	if err := n.Alice.Call(ctx, http.MethodPost, "/v1/channels", map[string]any{
		"node_pubkey":          base64.StdEncoding.EncodeToString(bobKey),
		"local_funding_amount": strconv.Itoa(ChannelSat),
		"push_sat":             strconv.Itoa(PushSat),
		"private":              true,
	}, nil); err != nil {
		return nil, err
	}
	logf("channel funding published")
	if err := n.Mine(ctx, 6); err != nil {
		return nil, err
	}
	for _, node := range []*Node{n.Alice, n.Bob} {
		if err := node.waitActiveChannel(ctx); err != nil {
			return nil, err
		}
	}
	logf("channel active")
	// An active channel can still refuse HTLCs for a moment (FAILURE_REASON_INSUFFICIENT_BALANCE
	// while the link comes up): pay 1 sat each way until it goes, which leaves balances as opened.
	if err := n.Bob.probe(ctx, n.Alice); err != nil {
		return nil, err
	}
	if err := n.Alice.probe(ctx, n.Bob); err != nil {
		return nil, err
	}
	if _, _, err := n.Settled(ctx); err != nil {
		return nil, err
	}
	n.Started = time.Since(begin)
	logf("channel carries payments both ways, at rest")
	return n, nil
}

func addr(port int) string { return "127.0.0.1:" + strconv.Itoa(port) }

// startBtcd starts btcd on the Net's ports, mining to miningAddr if it is set.
func (n *Net) startBtcd(ctx context.Context, miningAddr string) error {
	d := filepath.Join(n.Dir, "btcd")
	if err := os.MkdirAll(d, 0o700); err != nil {
		return err
	}
	// An empty config file: the flags are the whole configuration.
	if err := os.WriteFile(filepath.Join(d, "btcd.conf"), nil, 0o600); err != nil {
		return err
	}
	args := []string{
		"--simnet", "--txindex", "--nobanning",
		"--configfile=" + filepath.Join(d, "btcd.conf"),
		"--datadir=" + filepath.Join(d, "data"), "--logdir=" + filepath.Join(d, "logs"),
		"--rpccert=" + filepath.Join(d, "rpc.cert"), "--rpckey=" + filepath.Join(d, "rpc.key"),
		"--rpcuser=" + rpcUser, "--rpcpass=" + rpcPass,
		"--rpclisten=" + n.btcdRPC, "--listen=" + n.btcdP2P,
	}
	if miningAddr != "" {
		args = append(args, "--miningaddr="+miningAddr)
	}
	p, err := startProc(filepath.Join(n.tools, "btcd"), args, filepath.Join(d, "btcd.out"))
	if err != nil {
		return err
	}
	n.mu.Lock()
	n.btcd = p
	n.mu.Unlock()
	return poll(ctx, "btcd RPC", func() error {
		_, err := n.btcctl(ctx, "getblockcount")
		return err
	})
}

// btcctl runs btcctl against the Net's btcd and returns its output.
func (n *Net) btcctl(ctx context.Context, args ...string) (string, error) {
	d := filepath.Join(n.Dir, "btcd")
	if err := os.WriteFile(filepath.Join(d, "btcctl.conf"), nil, 0o600); err != nil {
		return "", err
	}
	full := append([]string{
		"--simnet", "--configfile=" + filepath.Join(d, "btcctl.conf"),
		"--rpcuser=" + rpcUser, "--rpcpass=" + rpcPass, "--rpcserver=" + n.btcdRPC,
		"--rpccert=" + filepath.Join(d, "rpc.cert"),
	}, args...)
	cmd := exec.CommandContext(ctx, filepath.Join(n.tools, "btcctl"), full...)
	var out, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &stderr
	if err := cmd.Run(); err != nil {
		return "", fmt.Errorf("btcctl %s: %v: %s%s", strings.Join(args, " "), err, stderr.String(), out.String())
	}
	return strings.TrimSpace(out.String()), nil
}

// Mine mines blocks (to alice) and waits for both nodes to reach the new height.
func (n *Net) Mine(ctx context.Context, blocks int) error {
	if _, err := n.btcctl(ctx, "generate", strconv.Itoa(blocks)); err != nil {
		return err
	}
	h, err := n.btcctl(ctx, "getblockcount")
	if err != nil {
		return err
	}
	height, err := strconv.Atoi(h)
	if err != nil {
		return fmt.Errorf("btcctl getblockcount: %q", h)
	}
	for _, node := range []*Node{n.Alice, n.Bob} {
		if node == nil || node.p == nil {
			continue
		}
		if err := poll(ctx, node.Name+" at height "+h, func() error {
			info, err := node.Info(ctx)
			if err != nil {
				return err
			}
			if info.BlockHeight < height {
				return fmt.Errorf("at %d", info.BlockHeight)
			}
			return nil
		}); err != nil {
			return err
		}
	}
	return nil
}

// Close stops every process and removes Dir. It is safe to call twice.
func (n *Net) Close() {
	n.mu.Lock()
	if n.closed {
		n.mu.Unlock()
		return
	}
	n.closed = true
	n.mu.Unlock()
	var wg sync.WaitGroup
	for _, node := range []*Node{n.Alice, n.Bob} {
		if node != nil && node.p != nil {
			wg.Add(1)
			go func() { defer wg.Done(); _ = node.p.stop() }()
		}
	}
	wg.Wait()
	if n.btcd != nil {
		_ = n.btcd.stop()
	}
	_ = os.RemoveAll(n.Dir)
}

// tails is the end of every process's output, for a failed start.
func (n *Net) tails() string {
	var b strings.Builder
	for _, f := range []string{"btcd/btcd.out", "alice/lnd.out", "bob/lnd.out"} {
		data, err := os.ReadFile(filepath.Join(n.Dir, f))
		if err != nil {
			continue
		}
		if len(data) > 3000 {
			data = data[len(data)-3000:]
		}
		fmt.Fprintf(&b, "--- %s ---\n%s\n", f, data)
	}
	return b.String()
}

// start runs the node's lnd and waits for its REST API to answer.
func (node *Node) start(ctx context.Context) error {
	n := node.net
	node.Dir = filepath.Join(n.Dir, node.Name)
	if err := os.MkdirAll(node.Dir, 0o700); err != nil {
		return err
	}
	if err := os.WriteFile(filepath.Join(node.Dir, "lnd.conf"), nil, 0o600); err != nil {
		return err
	}
	args := []string{
		"--lnddir=" + node.Dir, "--configfile=" + filepath.Join(node.Dir, "lnd.conf"),
		"--noseedbackup", "--nobootstrap", "--alias=" + node.Name,
		"--bitcoin.active", "--bitcoin.simnet", "--bitcoin.node=btcd",
		"--btcd.rpchost=" + n.btcdRPC, "--btcd.rpcuser=" + rpcUser, "--btcd.rpcpass=" + rpcPass,
		"--btcd.rpccert=" + filepath.Join(n.Dir, "btcd", "rpc.cert"),
		"--rpclisten=" + node.RPCAddr, "--listen=" + node.P2PAddr, "--restlisten=" + strings.TrimPrefix(node.RESTURL, "https://"),
		"--debuglevel=info", "--trickledelay=50", "--bitcoin.defaultchanconfs=1",
	}
	p, err := startProc(filepath.Join(n.tools, "lnd"), args, filepath.Join(node.Dir, "lnd.out"))
	if err != nil {
		return err
	}
	node.p = p
	certPath := filepath.Join(node.Dir, "tls.cert")
	macPath := filepath.Join(node.Dir, "data", "chain", "bitcoin", "simnet", "admin.macaroon")
	if err := poll(ctx, node.Name+" credentials", func() error {
		if p.exited() {
			return errStop
		}
		cert, err := os.ReadFile(certPath)
		if err != nil {
			return err
		}
		mac, err := os.ReadFile(macPath)
		if err != nil {
			return err
		}
		pool := x509.NewCertPool()
		if !pool.AppendCertsFromPEM(cert) {
			return errors.New("tls.cert not PEM yet")
		}
		node.TLSCert, node.Macaroon = cert, mac
		node.http = &http.Client{Transport: &http.Transport{TLSClientConfig: &tls.Config{RootCAs: pool, MinVersion: tls.VersionTLS12}}}
		return nil
	}); err != nil {
		return err
	}
	return poll(ctx, node.Name+" getinfo", func() error {
		if p.exited() {
			return errStop
		}
		info, err := node.Info(ctx)
		if err != nil {
			return err
		}
		node.PubKey = info.IdentityPubkey
		return nil
	})
}

// Info is the part of GET /v1/getinfo the harness reads.
type Info struct {
	IdentityPubkey    string `json:"identity_pubkey"`
	BlockHeight       int    `json:"block_height"`
	SyncedToChain     bool   `json:"synced_to_chain"`
	NumActiveChannels int    `json:"num_active_channels"`
}

// Info is the node's GET /v1/getinfo.
func (node *Node) Info(ctx context.Context) (Info, error) {
	var info Info
	err := node.Call(ctx, http.MethodGet, "/v1/getinfo", nil, &info)
	return info, err
}

// Call makes one REST call to the node with its admin macaroon: body (nil: none) as JSON, the
// answer decoded into out (nil: discarded). A non-200 answer is an error holding its body.
func (node *Node) Call(ctx context.Context, method, path string, body, out any) error {
	var rd io.Reader
	if body != nil {
		b, err := json.Marshal(body)
		if err != nil {
			return err
		}
		rd = bytes.NewReader(b)
	}
	req, err := http.NewRequestWithContext(ctx, method, node.RESTURL+path, rd)
	if err != nil {
		return err
	}
	req.Header.Set("Grpc-Metadata-macaroon", hex.EncodeToString(node.Macaroon))
	if node.http == nil {
		return fmt.Errorf("%s: not started", node.Name)
	}
	resp, err := node.http.Do(req)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(io.LimitReader(resp.Body, 4<<20))
	if err != nil {
		return err
	}
	if resp.StatusCode != http.StatusOK {
		return fmt.Errorf("%s %s %s: HTTP %d: %s", node.Name, method, path, resp.StatusCode, b)
	}
	if out == nil {
		return nil
	}
	return json.Unmarshal(b, out)
}

// Lncli runs lncli against the node and returns its output.
func (node *Node) Lncli(ctx context.Context, args ...string) (string, error) {
	full := append([]string{
		"--network=simnet", "--lnddir=" + node.Dir, "--rpcserver=" + node.RPCAddr,
	}, args...)
	cmd := exec.CommandContext(ctx, filepath.Join(node.net.tools, "lncli"), full...)
	var out, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &stderr
	if err := cmd.Run(); err != nil {
		return "", fmt.Errorf("lncli %s: %v: %s%s", strings.Join(args, " "), err, stderr.String(), out.String())
	}
	return out.String(), nil
}

func (node *Node) waitSynced(ctx context.Context) error {
	return poll(ctx, node.Name+" synced", func() error {
		info, err := node.Info(ctx)
		if err != nil {
			return err
		}
		if !info.SyncedToChain {
			return errors.New("not synced")
		}
		return nil
	})
}

func (node *Node) waitBalance(ctx context.Context, sat int64) error {
	return poll(ctx, fmt.Sprintf("%s confirmed balance %d sat", node.Name, sat), func() error {
		var bal struct {
			Confirmed string `json:"confirmed_balance"`
		}
		if err := node.Call(ctx, http.MethodGet, "/v1/balance/blockchain", nil, &bal); err != nil {
			return err
		}
		v, _ := strconv.ParseInt(bal.Confirmed, 10, 64)
		if v < sat {
			return fmt.Errorf("%d sat", v)
		}
		return nil
	})
}

func (node *Node) waitActiveChannel(ctx context.Context) error {
	return poll(ctx, node.Name+" channel active", func() error {
		info, err := node.Info(ctx)
		if err != nil {
			return err
		}
		if info.NumActiveChannels < 1 {
			return errors.New("no active channel")
		}
		return nil
	})
}

// probe pays to a 1-sat invoice (POST /v1/invoices, then the unary POST
// /v1/channels/transactions), retrying every 50 ms until a payment succeeds.
func (node *Node) probe(ctx context.Context, to *Node) error {
	var inv struct {
		PaymentRequest string `json:"payment_request"`
	}
	if err := to.Call(ctx, http.MethodPost, "/v1/invoices", map[string]string{"value_msat": "1000", "memo": "probe"}, &inv); err != nil {
		return err
	}
	return poll(ctx, node.Name+" paying "+to.Name, func() error {
		var res struct {
			PaymentError string `json:"payment_error"`
		}
		if err := node.Call(ctx, http.MethodPost, "/v1/channels/transactions", map[string]string{"payment_request": inv.PaymentRequest}, &res); err != nil {
			return err
		}
		if res.PaymentError != "" {
			return errors.New(res.PaymentError)
		}
		return nil
	})
}

// Balance is the node's spendable balance in its channels, in millisatoshis (GET
// /v1/balance/channels, local_balance.msat).
func (node *Node) Balance(ctx context.Context) (uint64, error) {
	var b struct {
		Local struct {
			Msat string `json:"msat"`
		} `json:"local_balance"`
	}
	if err := node.Call(ctx, http.MethodGet, "/v1/balance/channels", nil, &b); err != nil {
		return 0, err
	}
	return strconv.ParseUint(b.Local.Msat, 10, 64)
}

// Settled waits until the channel is at rest, no HTLC pending on either side and each side's
// view of both balances the same, and returns alice's and bob's local balances then, in
// millisatoshis (GET /v1/channels on each). A payment's sender learns it succeeded before the
// commitment updates finish; this is the state after they do.
func (n *Net) Settled(ctx context.Context) (alice, bob uint64, err error) {
	type view struct{ local, remote uint64 }
	read := func(node *Node) (view, error) {
		var res struct {
			Channels []struct {
				LocalBalance  string            `json:"local_balance"`
				RemoteBalance string            `json:"remote_balance"`
				PendingHTLCs  []json.RawMessage `json:"pending_htlcs"`
			} `json:"channels"`
		}
		if err := node.Call(ctx, http.MethodGet, "/v1/channels", nil, &res); err != nil {
			return view{}, err
		}
		if len(res.Channels) != 1 {
			return view{}, fmt.Errorf("%s has %d channels", node.Name, len(res.Channels))
		}
		c := res.Channels[0]
		if len(c.PendingHTLCs) > 0 {
			return view{}, fmt.Errorf("%s has %d pending HTLCs", node.Name, len(c.PendingHTLCs))
		}
		l, err1 := strconv.ParseUint(c.LocalBalance, 10, 64)
		r, err2 := strconv.ParseUint(c.RemoteBalance, 10, 64)
		if err := errors.Join(err1, err2); err != nil {
			return view{}, err
		}
		return view{l, r}, nil
	}
	err = poll(ctx, "the channel at rest", func() error {
		a, err := read(n.Alice)
		if err != nil {
			return err
		}
		b, err := read(n.Bob)
		if err != nil {
			return err
		}
		if a.local != b.remote || a.remote != b.local {
			return fmt.Errorf("alice sees %+v, bob %+v", a, b)
		}
		alice, bob = a.local, b.local
		return nil
	})
	// local_balance is in satoshis; the msat figure is what payments move.
	return alice * 1000, bob * 1000, err
}

// errStop ends a poll at once: the process being waited for has exited.
var errStop = errors.New("the process exited")

// poll calls f every 50 ms until it returns nil, ctx ends, or f returns errStop.
func poll(ctx context.Context, what string, f func() error) error {
	for {
		err := f()
		if err == nil {
			return nil
		}
		if errors.Is(err, errStop) {
			return fmt.Errorf("simnet: waiting for %s: %w", what, err)
		}
		select {
		case <-ctx.Done():
			return fmt.Errorf("simnet: waiting for %s: %w (last: %v)", what, ctx.Err(), err)
		case <-time.After(50 * time.Millisecond):
		}
	}
}

// proc is a started process with its output in a file.
type proc struct {
	cmd  *exec.Cmd
	done chan struct{}
	out  *os.File
}

func startProc(bin string, args []string, outPath string) (*proc, error) {
	out, err := os.Create(outPath)
	if err != nil {
		return nil, err
	}
	cmd := exec.Command(bin, args...)
	cmd.Stdout, cmd.Stderr = out, out
	cmd.SysProcAttr = sysProcAttr()
	if err := cmd.Start(); err != nil {
		out.Close()
		return nil, fmt.Errorf("simnet: start %s: %w", filepath.Base(bin), err)
	}
	p := &proc{cmd: cmd, done: make(chan struct{}), out: out}
	go func() {
		_ = cmd.Wait()
		out.Close()
		close(p.done)
	}()
	return p, nil
}

func (p *proc) exited() bool {
	select {
	case <-p.done:
		return true
	default:
		return false
	}
}

// stop sends SIGTERM, waits up to 10 s, then SIGKILLs, and waits for the exit.
func (p *proc) stop() error {
	if p.exited() {
		return nil
	}
	_ = p.cmd.Process.Signal(syscall.SIGTERM)
	select {
	case <-p.done:
		return nil
	case <-time.After(10 * time.Second):
	}
	_ = p.cmd.Process.Kill()
	<-p.done
	return nil
}

// freePorts are k distinct loopback TCP ports nobody listened on a moment ago.
func freePorts(k int) ([]int, error) {
	var ls []net.Listener
	defer func() {
		for _, l := range ls {
			l.Close()
		}
	}()
	var ports []int
	for range k {
		l, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			return nil, err
		}
		ls = append(ls, l)
		ports = append(ports, l.Addr().(*net.TCPAddr).Port)
	}
	return ports, nil
}
