package main

import (
	"context"
	"encoding/json"
	"fmt"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"
)

// etcdBinary is the etcd server the cluster tests run: Debian's etcd-server, which
// scripts/install-test-deps.sh installs. A machine without it fails the test (the test command
// installs it; a skip would hide the cluster from CI).
func etcdBinary(t *testing.T) string {
	t.Helper()
	if p, err := exec.LookPath("etcd"); err == nil {
		return p
	}
	if _, err := os.Stat("/usr/bin/etcd"); err == nil {
		return "/usr/bin/etcd"
	}
	t.Fatal("no etcd binary (Debian etcd-server): run scripts/install-test-deps.sh, as bash scripts/test.sh does")
	return ""
}

// freePort is a loopback TCP port free when asked (closed again for the caller to bind).
func freePort(t *testing.T) int {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	return ln.Addr().(*net.TCPAddr).Port
}

// etcdDataDir is a fresh directory for etcd's data, in memory (/dev/shm) where the machine has
// it: etcd fsyncs every write, and on a disk shared with other work one stalled fsync longer than
// the members' 3 s lease expires every member at once (protoactor's provider then never lists
// itself again). Removed when the test ends.
func etcdDataDir(t *testing.T) string {
	t.Helper()
	if st, err := os.Stat("/dev/shm"); err == nil && st.IsDir() {
		if dir, err := os.MkdirTemp("/dev/shm", "arena-etcd-"); err == nil {
			t.Cleanup(func() { os.RemoveAll(dir) })
			return filepath.Join(dir, "etcd")
		}
	}
	return filepath.Join(t.TempDir(), "etcd")
}

// startEtcd runs a one-node etcd on loopback with its data in a temp dir, waits until it
// answers /health, and returns its client endpoint HOST:PORT; the test's cleanup kills it.
func startEtcd(t *testing.T) string {
	t.Helper()
	bin := etcdBinary(t)
	client := "127.0.0.1:" + strconv.Itoa(freePort(t))
	peer := "http://127.0.0.1:" + strconv.Itoa(freePort(t))
	logs := &syncBuf{}
	cmd := exec.Command(bin, "--name", "arena-test", "--data-dir", etcdDataDir(t),
		"--listen-client-urls", "http://"+client, "--advertise-client-urls", "http://"+client,
		"--listen-peer-urls", peer, "--initial-advertise-peer-urls", peer,
		"--initial-cluster", "arena-test="+peer, "--listen-metrics-urls", "")
	cmd.Stdout, cmd.Stderr = logs, logs
	if err := cmd.Start(); err != nil {
		t.Fatalf("start etcd: %v", err)
	}
	t.Cleanup(func() {
		cmd.Process.Kill()
		cmd.Wait()
		if t.Failed() {
			t.Logf("etcd logs:\n%s", logs)
		}
	})
	deadline := time.Now().Add(30 * time.Second)
	for {
		r, err := http.Get("http://" + client + "/health")
		if err == nil {
			var h struct{ Health string }
			json.NewDecoder(r.Body).Decode(&h)
			r.Body.Close()
			if h.Health == "true" {
				return client
			}
		}
		if time.Now().After(deadline) {
			t.Fatalf("etcd not healthy within 30s (%v); logs:\n%s", err, logs)
		}
		time.Sleep(100 * time.Millisecond)
	}
}

// member is one `arena serve --cluster` process of a test cluster: its own data dir, name and
// remote port, kept across restarts so a restarted member has the same address.
type member struct {
	name, data string
	port       int // the cluster remote's port
	etcd       string
	extra      []string // more serve flags
	s          *server
}

func (m *member) address() string { return "127.0.0.1:" + strconv.Itoa(m.port) }

func (m *member) start(t *testing.T, bin string) {
	t.Helper()
	m.s = startServeArgs(t, bin, m.data, append([]string{"--name", m.name, "--cluster", "etcd://" + m.etcd,
		"--cluster-name", "arena-test", "--cluster-port", strconv.Itoa(m.port)}, m.extra...), nil)
}

// healthCluster is /healthz's "cluster" member.
type healthCluster struct {
	Status  string `json:"status"`
	Cluster *struct {
		Self    struct{ ID, Address string }   `json:"self"`
		Members []struct{ ID, Address string } `json:"members"`
	} `json:"cluster"`
}

// membership is the sorted remote addresses s's /healthz lists as members, and its status.
func membership(t *testing.T, s *server) ([]string, healthCluster) {
	t.Helper()
	r, err := http.Get(s.url + "/healthz")
	if err != nil {
		t.Fatalf("GET %s/healthz: %v", s.url, err)
	}
	defer r.Body.Close()
	var h healthCluster
	if err := json.NewDecoder(r.Body).Decode(&h); err != nil || r.StatusCode != 200 {
		t.Fatalf("/healthz %d: %v", r.StatusCode, err)
	}
	if h.Cluster == nil {
		t.Fatalf("/healthz of a --cluster server has no cluster: %+v", h)
	}
	var addrs []string
	for _, m := range h.Cluster.Members {
		addrs = append(addrs, m.Address)
	}
	slices.Sort(addrs)
	return addrs, h
}

// awaitMembers polls each of ss's /healthz until it lists exactly want (remote addresses),
// failing after a minute: a deadline for a hung cluster, not a claim on how fast it converges.
func awaitMembers(t *testing.T, ss []*member, want ...string) {
	t.Helper()
	want = slices.Sorted(slices.Values(want)) // a copy: the caller's order is kept
	deadline := time.Now().Add(time.Minute)
	for _, m := range ss {
		for {
			got, _ := membership(t, m.s)
			if slices.Equal(got, want) {
				break
			}
			if time.Now().After(deadline) {
				t.Fatalf("%s lists members %v, want %v; logs:\n%s", m.name, got, want, m.s.logs)
			}
			time.Sleep(200 * time.Millisecond)
		}
	}
}

// A cluster of three `arena serve --cluster etcd://…` processes on a real etcd: each member's
// /healthz lists all three and its own self; `arena ops members` prints them; a member killed
// with SIGKILL drops out of the others' membership (its etcd lease runs out) while they keep
// serving walk-ins; restarted on its data dir and port it rejoins; stopped with SIGTERM it exits
// cleanly and the others drop it.
func TestClusterMembershipOnEtcd(t *testing.T) {
	bin := buildArena(t)
	etcd := startEtcd(t)
	ms := make([]*member, 3)
	var addrs []string
	for i := range ms {
		ms[i] = &member{name: fmt.Sprintf("member-%d", i), data: filepath.Join(t.TempDir(), "data"),
			port: freePort(t), etcd: etcd}
		ms[i].start(t, bin)
		addrs = append(addrs, ms[i].address())
	}
	awaitMembers(t, ms, addrs...)
	for _, m := range ms {
		_, h := membership(t, m.s)
		if h.Status != "ok" || h.Cluster.Self.Address != m.address() || h.Cluster.Self.ID == "" {
			t.Fatalf("%s's /healthz: status %q self %+v, want ok and %s", m.name, h.Status, h.Cluster.Self, m.address())
		}
		var ids []string
		for _, x := range h.Cluster.Members {
			ids = append(ids, x.ID)
		}
		if !slices.Contains(ids, h.Cluster.Self.ID) {
			t.Fatalf("%s's self %s is not among its members %v", m.name, h.Cluster.Self.ID, ids)
		}
	}

	// arena ops members prints every member, this server's own marked.
	out, err := exec.Command(bin, "ops", "members", "--server", ms[0].s.url).CombinedOutput()
	if err != nil {
		t.Fatalf("arena ops members: %v\n%s", err, out)
	}
	lines := strings.Split(strings.TrimSpace(string(out)), "\n")
	if len(lines) != 4 || !strings.HasPrefix(lines[0], "ID") {
		t.Fatalf("arena ops members printed %q, want a header and 3 members", out)
	}
	_, h0 := membership(t, ms[0].s)
	for _, a := range addrs {
		found := false
		for _, l := range lines[1:] {
			f := strings.Fields(l)
			if len(f) >= 2 && f[1] == a {
				found = true
				if self := len(f) == 3 && f[2] == "*"; self != (a == ms[0].address()) || (self && f[0] != h0.Cluster.Self.ID) {
					t.Fatalf("arena ops members line %q: self mark wrong (self is %s at %s)", l, h0.Cluster.Self.ID, ms[0].address())
				}
			}
		}
		if !found {
			t.Fatalf("arena ops members printed %q, no member at %s", out, a)
		}
	}

	// kill -9 member 2: the others drop it once its lease runs out, and keep serving.
	if err := ms[2].s.cmd.Process.Kill(); err != nil {
		t.Fatal(err)
	}
	ms[2].s.cmd.Wait()
	awaitMembers(t, ms[:2], addrs[:2]...)
	ctx, cancel := context.WithTimeout(t.Context(), time.Minute)
	defer cancel()
	for _, m := range ms[:2] {
		reg := m.s.call(ctx, "POST", "/v1/walkin", "", map[string]any{"name": "Walker at " + m.name})
		if tok, _ := reg.body["token"].(string); reg.status != http.StatusCreated || tok == "" {
			t.Fatalf("%s with a member dead: register %d %s", m.name, reg.status, reg.raw)
		}
	}

	// Restarted on its data dir and port, member 2 rejoins: every member lists all three again.
	ms[2].start(t, bin)
	awaitMembers(t, ms, addrs...)

	// SIGTERM: member 2 leaves cleanly (exit 0) and the others drop it.
	ms[2].s.stop()
	awaitMembers(t, ms[:2], addrs[:2]...)
}

// nextEnvelope polls /v1/walkin/next on s for tok until it is a move (not waiting), failing on
// any other status or a result.
func nextEnvelope(ctx context.Context, t *testing.T, s *server, tok string) (resp, envelope) {
	t.Helper()
	for {
		r := s.call(ctx, "GET", "/v1/walkin/next?wait=30", tok, nil)
		if r.status != 200 || r.body["result"] != nil {
			t.Fatalf("next via %s: %d %.300s", s.url, r.status, r.raw)
		}
		if r.body["waiting"] == true {
			continue
		}
		var e envelope
		if err := json.Unmarshal(r.raw, &e); err != nil {
			t.Fatalf("envelope is not JSON: %v", err)
		}
		return r, e
	}
}

// A walk-in registered on member 0 is owned there (its tables and records are member 0's):
// joined and polled through member 1, it gets the very answer member 0 gives; its answer through
// member 1 is accepted; with member 0 killed (SIGKILL), member 1 answers its poll 503 busy with
// Retry-After and DOTDOTDOT's refusal body (right after the kill, while member 0's lease may still
// run, and once it is dropped), and keeps serving its own walk-ins; with member 0
// restarted on its data dir, the walk-in's practice round resumes (boot recovery) and plays on
// through member 1.
func TestClusterWalkinForwardedToOwner(t *testing.T) {
	bin := buildArena(t)
	etcd := startEtcd(t)
	ms := make([]*member, 3)
	var addrs []string
	for i := range ms {
		ms[i] = &member{name: fmt.Sprintf("member-%d", i), data: filepath.Join(t.TempDir(), "data"),
			port: freePort(t), etcd: etcd}
		ms[i].start(t, bin)
		addrs = append(addrs, ms[i].address())
	}
	awaitMembers(t, ms, addrs...)
	ctx, cancel := context.WithTimeout(t.Context(), 3*time.Minute)
	defer cancel()
	owner, door := ms[0], ms[1]

	reg := owner.s.call(ctx, "POST", "/v1/walkin", "", map[string]any{"name": "Far Walker"})
	tok, _ := reg.body["token"].(string)
	if reg.status != http.StatusCreated || tok == "" {
		t.Fatalf("register at the owner: %d %s", reg.status, reg.raw)
	}
	join := door.s.call(ctx, "POST", "/v1/walkin/join", tok, map[string]any{"table": "practice"})
	if round, _ := join.body["round"].(string); join.status != 200 || round == "" {
		t.Fatalf("join through another member: %d %s", join.status, join.raw)
	}
	atOwner, e := nextEnvelope(ctx, t, owner.s, tok)
	viaDoor := door.s.call(ctx, "GET", "/v1/walkin/next?wait=30", tok, nil)
	if viaDoor.status != atOwner.status || string(viaDoor.raw) != string(atOwner.raw) {
		t.Fatalf("next through member 1: %d %.300s\nat the owner: %d %.300s", viaDoor.status, viaDoor.raw, atOwner.status, atOwner.raw)
	}
	logForwardCost(ctx, t, owner.s, door.s, tok, atOwner.raw)
	if r := door.s.call(ctx, "POST", "/v1/walkin/answer", tok, answerFor(e)); r.status != 200 {
		t.Fatalf("answer through member 1: %d %s", r.status, r.raw)
	}
	// The door's own walk-ins are its own: registered and polled there, never forwarded.
	local := door.s.call(ctx, "POST", "/v1/walkin", "", map[string]any{"name": "Near Walker"})
	localTok, _ := local.body["token"].(string)
	if local.status != http.StatusCreated || localTok == "" {
		t.Fatalf("register at member 1: %d %s", local.status, local.raw)
	}

	// The owner dies: once the others have dropped it, its walk-in is refused 503 with
	// Retry-After, in DOTDOTDOT's refusal shape; member 1's own walk-in is untouched.
	if err := owner.s.cmd.Process.Kill(); err != nil {
		t.Fatal(err)
	}
	owner.s.cmd.Wait()
	ownerDown := func(when string) {
		t.Helper()
		req, _ := http.NewRequestWithContext(ctx, "GET", door.s.url+"/v1/walkin/next?wait=1", nil)
		req.Header.Set("X-Walkin", tok)
		r, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		var refusal struct {
			Error      string `json:"error"`
			Code       string `json:"code"`
			Retry      bool   `json:"retry"`
			RetryAfter int    `json:"retry_after"`
		}
		json.NewDecoder(r.Body).Decode(&refusal)
		r.Body.Close()
		if r.StatusCode != http.StatusServiceUnavailable || r.Header.Get("Retry-After") != "5" ||
			refusal.Code != "busy" || !refusal.Retry || refusal.RetryAfter != 5 || refusal.Error == "" {
			t.Fatalf("poll with the owner dead (%s): %d Retry-After %q %+v", when, r.StatusCode, r.Header.Get("Retry-After"), refusal)
		}
	}
	ownerDown("at once, its lease maybe still running: the forward is given up")
	awaitMembers(t, ms[1:], addrs[1:]...)
	ownerDown("dropped from the membership: refused without a forward")
	if j := door.s.call(ctx, "POST", "/v1/walkin/join", localTok, map[string]any{"table": "practice"}); j.status != 200 {
		t.Fatalf("member 1's own walk-in with member 0 dead: join %d %s", j.status, j.raw)
	}

	// The owner restarts on its data dir: boot recovery resumes the round, and the walk-in plays
	// on through member 1.
	restarted := time.Now()
	owner.start(t, bin)
	awaitMembers(t, ms, addrs...)
	_, e2 := nextEnvelope(ctx, t, door.s, tok)
	t.Logf("figure: owner restarted → its walk-in's next envelope through member 1 in %v", time.Since(restarted).Round(time.Millisecond))
	if e2.Round != e.Round {
		t.Fatalf("after the restart the walk-in is in round %q, was in %q", e2.Round, e.Round)
	}
	if r := door.s.call(ctx, "POST", "/v1/walkin/answer", tok, answerFor(e2)); r.status != 200 {
		t.Fatalf("answer after the restart: %d %s", r.status, r.raw)
	}
}

// logForwardCost logs the p50/p99 of 200 polls of a pending envelope (answered at once) at the
// owner and through another member, each checked to be the owner's answer byte for byte: the
// forwarding cost figure of docs/performance.md. A figure, not an assertion on speed.
func logForwardCost(ctx context.Context, t *testing.T, owner, door *server, tok string, want []byte) {
	t.Helper()
	const n = 200
	measure := func(s *server) (p50, p99 time.Duration) {
		ds := make([]time.Duration, n)
		for i := range ds {
			start := time.Now()
			r := s.call(ctx, "GET", "/v1/walkin/next?wait=30", tok, nil)
			ds[i] = time.Since(start)
			if r.status != 200 || string(r.raw) != string(want) {
				t.Fatalf("poll %d via %s: %d %.200s", i, s.url, r.status, r.raw)
			}
		}
		slices.Sort(ds)
		return ds[n/2], ds[n*99/100]
	}
	l50, l99 := measure(owner)
	f50, f99 := measure(door)
	t.Logf("figure: walk-in poll, %d each: at the owner p50 %v p99 %v; forwarded p50 %v p99 %v", n, l50, l99, f50, f99)
}
