package main

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"
)

// placedAt is where the cluster's walkin queue lives among members at addrs: the rendezvous
// choice of cluster.Member.Placed, worked out again here (the test's own check of which member
// opens the table).
func placedAt(addrs []string) string {
	var best string
	var bestSum [sha256.Size]byte
	for _, a := range addrs {
		sum := sha256.Sum256([]byte(walkinQueue + "\x00" + a))
		if best == "" || bytes.Compare(sum[:], bestSum[:]) > 0 {
			best, bestSum = a, sum
		}
	}
	return best
}

// walker is a walk-in of a cluster test, registered at (and always talking to) one member.
type walker struct {
	name, tok string
	at        *member
	lat       *latencies // answers timed here, when set
	forwarded bool       // its door forwards it (its owner is another member): timed as forwarded
}

// latencies are the accepted answers' round trips (POST /v1/walkin/answer) of walk-ins served by
// their door's own member and of those forwarded to another, for the forwarding figure.
type latencies struct {
	mu               sync.Mutex
	local, forwarded []time.Duration
}

func (l *latencies) add(forwarded bool, d time.Duration) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if forwarded {
		l.forwarded = append(l.forwarded, d)
	} else {
		l.local = append(l.local, d)
	}
}

// log logs each kind's count, p50 and p99.
func (l *latencies) log(t *testing.T) {
	t.Helper()
	l.mu.Lock()
	defer l.mu.Unlock()
	q := func(ds []time.Duration) string {
		if len(ds) == 0 {
			return "none"
		}
		ds = slices.Sorted(slices.Values(ds))
		return fmt.Sprintf("%d, p50 %v p99 %v", len(ds), ds[len(ds)/2].Round(time.Microsecond), ds[len(ds)*99/100].Round(time.Microsecond))
	}
	t.Logf("figure: walk-in answers accepted: at the walk-in's own member %s; forwarded to another %s", q(l.local), q(l.forwarded))
}

// wcall is one walk-in request to url, for goroutines: failures are returned, never fatal.
func wcall(ctx context.Context, url, method, path, tok string, body any) (int, []byte, http.Header, error) {
	return hcall(ctx, "", url, method, path, tok, body)
}

// hcall is wcall to the site of Host host ("" the main one: DOTDOTDOT).
func hcall(ctx context.Context, host, url, method, path, tok string, body any) (int, []byte, http.Header, error) {
	var rd io.Reader
	if body != nil {
		b, _ := json.Marshal(body)
		rd = bytes.NewReader(b)
	}
	req, err := http.NewRequestWithContext(ctx, method, url+path, rd)
	if err != nil {
		return 0, nil, nil, err
	}
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	if tok != "" {
		req.Header.Set("X-Walkin", tok)
	}
	if host != "" {
		req.Host = host
	}
	r, err := http.DefaultClient.Do(req)
	if err != nil {
		return 0, nil, nil, err
	}
	defer r.Body.Close()
	raw, err := io.ReadAll(r.Body)
	return r.StatusCode, raw, r.Header, err
}

// errPaused is playSeat's answer when it stopped after the answers it was asked for.
var errPaused = errors.New("paused")

// playSeat plays w's seat through w's own member: polls and answers (a public line naming the
// walk-in, the turn and the exchange on every talk exchange) until the round's result, or until
// stopAfter answers were accepted (errPaused; 0: no limit). A 503 from the door (a member
// restarting) is polled again when retry503. It returns the lines whose answers were accepted,
// the round, and the result's raw poll answer.
func playSeat(ctx context.Context, w walker, stopAfter int, retry503 bool) (said []string, round string, result []byte, err error) {
	for answered := 0; ; {
		if ctx.Err() != nil {
			return said, round, nil, ctx.Err()
		}
		code, raw, _, err := wcall(ctx, w.at.s.url, "GET", "/v1/walkin/next?wait=30", w.tok, nil)
		if err != nil {
			return said, round, nil, err
		}
		if code == http.StatusServiceUnavailable && retry503 {
			time.Sleep(200 * time.Millisecond) // a retry, not a wait for an event
			continue
		}
		var n map[string]any
		if code != 200 || json.Unmarshal(raw, &n) != nil {
			return said, round, nil, fmt.Errorf("%s: next %d %.300s", w.name, code, raw)
		}
		if n["result"] != nil {
			return said, round, raw, nil
		}
		if n["waiting"] == true {
			continue
		}
		var e envelope
		if err := json.Unmarshal(raw, &e); err != nil {
			return said, round, nil, fmt.Errorf("%s: envelope %.200s: %v", w.name, raw, err)
		}
		if round == "" {
			round = e.Round
		} else if e.Round != round {
			return said, round, nil, fmt.Errorf("%s: envelope of round %s in round %s", w.name, e.Round, round)
		}
		a := answerFor(e)
		line := ""
		if e.Phase == "talk" {
			line = fmt.Sprintf("%s says: turn %d, exchange %d", w.name, e.Turn, e.Exchange)
			a["messages"] = []any{map[string]any{"type": "public", "text": line, "tone": "ask"}}
		}
		sent := time.Now()
		code, raw, _, err = wcall(ctx, w.at.s.url, "POST", "/v1/walkin/answer", w.tok, a)
		if err != nil {
			return said, round, nil, err
		}
		if code == 200 && w.lat != nil {
			w.lat.add(w.forwarded, time.Since(sent))
		}
		if code == http.StatusServiceUnavailable && retry503 {
			continue // not accepted: the move comes again
		}
		if code != 200 {
			// A move that closed meanwhile (the round went on without it) is stale, not lost.
			if strings.Contains(string(raw), `"stale"`) {
				continue
			}
			return said, round, nil, fmt.Errorf("%s: answer %d/%s/%d: %d %.300s", w.name, e.Turn, e.Phase, e.Exchange, code, raw)
		}
		if line != "" {
			said = append(said, line)
		}
		answered++
		if stopAfter > 0 && answered >= stopAfter {
			return said, round, nil, errPaused
		}
	}
}

// playAll plays every walker's seat at once (playSeat) and fails the test on any error but the
// pause asked for.
func playAll(t *testing.T, ctx context.Context, ws []walker, stopAfter int, retry503 bool) (said [][]string, rounds []string, results [][]byte) {
	t.Helper()
	said, rounds, results = make([][]string, len(ws)), make([]string, len(ws)), make([][]byte, len(ws))
	errs := make([]error, len(ws))
	var wg sync.WaitGroup
	for i, w := range ws {
		wg.Go(func() { said[i], rounds[i], results[i], errs[i] = playSeat(ctx, w, stopAfter, retry503) })
	}
	wg.Wait()
	for i, err := range errs {
		if err != nil && !(stopAfter > 0 && errors.Is(err, errPaused)) {
			t.Fatalf("%s at %s: %v; its member's logs:\n%s", ws[i].name, ws[i].at.name, err, ws[i].at.s.logs)
		}
	}
	return said, rounds, results
}

// opsTableKind is the kind /ops/tables on s lists table-of-round round under, "" when s does not
// hold it.
func opsTableKind(t *testing.T, s *server, round string) string {
	t.Helper()
	tok, err := os.ReadFile(filepath.Join(s.data, "operator.token"))
	if err != nil {
		t.Fatal(err)
	}
	req, _ := http.NewRequest("GET", s.url+"/ops/tables", nil)
	req.Header.Set("Authorization", "Bearer "+strings.TrimSpace(string(tok)))
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var l struct {
		Tables []struct{ ID, Round, Kind string }
	}
	if err := json.NewDecoder(resp.Body).Decode(&l); err != nil {
		t.Fatal(err)
	}
	for _, x := range l.Tables {
		if x.Round == round {
			return x.Kind
		}
	}
	return ""
}

// checkTranscript reads round's revealed transcript on s (once its transcript anchor is
// recorded) and fails unless every line in said is in it, the round was revealed once and no
// anchor event is there twice.
func checkTranscript(t *testing.T, ctx context.Context, s *server, round string, said [][]string) {
	t.Helper()
	raw := revealedTranscript(t, ctx, s, round)
	var tr struct {
		Events []struct {
			Type    string          `json:"type"`
			Payload json.RawMessage `json:"payload"`
		} `json:"events"`
	}
	if err := json.Unmarshal(raw, &tr); err != nil {
		t.Fatal(err)
	}
	texts, anchors, revealed := map[string]bool{}, map[string]int{}, 0
	for _, e := range tr.Events {
		var p struct {
			Text string `json:"text"`
		}
		json.Unmarshal(e.Payload, &p)
		texts[p.Text] = true
		if strings.HasPrefix(e.Type, "anchor.") || e.Type == "transcript.anchored" {
			anchors[e.Type+" "+string(e.Payload)]++
		}
		if e.Type == "round.revealed" {
			revealed++
		}
	}
	for _, lines := range said {
		for _, l := range lines {
			if !texts[l] {
				t.Fatalf("round %s: the accepted line %q is not in the transcript", round, l)
			}
		}
	}
	for a, n := range anchors {
		if n != 1 {
			t.Fatalf("round %s: anchor event %s recorded %d times", round, a, n)
		}
	}
	if revealed != 1 || len(anchors) == 0 {
		t.Fatalf("round %s: revealed %d times, %d anchor events", round, revealed, len(anchors))
	}
}

// healthFigures is what s's /healthz shows of every member, by remote address.
func healthFigures(t *testing.T, s *server) map[string]memberView {
	t.Helper()
	r := s.call(t.Context(), "GET", "/healthz", "", nil)
	var h struct {
		Cluster clusterView `json:"cluster"`
	}
	if err := json.Unmarshal(r.raw, &h); err != nil || r.status != 200 {
		t.Fatalf("/healthz %d %.300s", r.status, r.raw)
	}
	out := map[string]memberView{}
	for _, m := range h.Cluster.Members {
		out[m.Address] = m
	}
	return out
}

// Three `arena serve --cluster` processes on a real etcd, one data dir each, one walk-in
// registered at each. After their Practice rounds at home, each joins the walkin table through
// its own member: the cluster has one walkin queue, on the member the queue's identity places it
// (rendezvous over the membership), so the three are seated at one table there and play a whole
// Blitz round (format short) through their own members' doors, every poll through a door byte
// for byte the queue member's own answer. Then a second round at that member is cut by kill -9
// of it: a Practice round on another member plays on to its end untouched; the dead member's
// walk-ins are answered 503 with Retry-After; a walk-in joining the walkin table meanwhile is
// queued on a survivor and plays there; restarted on its data dir, the member resumes the round
// and it finishes with every accepted line in its transcript, one reveal and no anchor twice.
func TestClusterWalkinQueueSeatsAcrossMembers(t *testing.T) {
	bin := buildArena(t)
	etcd := startEtcd(t)
	ms := make([]*member, 3)
	var addrs []string
	for i := range ms {
		ms[i] = &member{name: fmt.Sprintf("member-%d", i), data: filepath.Join(t.TempDir(), "data"),
			port: freePort(t), etcd: etcd, extra: []string{"--walkin-top-up", "10s",
				"--limit-register", "off", "--limit-tables", "off"}} // the figure's walk-ins come from one address
		ms[i].start(t, bin)
		addrs = append(addrs, ms[i].address())
	}
	awaitMembers(t, ms, addrs...)
	ctx, cancel := context.WithTimeout(t.Context(), 5*time.Minute)
	defer cancel()
	// Break Room's live figures are every member's: an agent queued at member 0 shows on member
	// 1's /v0/live (waiting there, or playing once house seats joined it), member 1 having none of
	// its own.
	_, chRaw, _, err := hcall(ctx, "breakroom.localhost", ms[0].s.url, "GET", "/v0/challenge", "", nil)
	var ch struct{ Nonce string }
	if err != nil || json.Unmarshal(chRaw, &ch) != nil || ch.Nonce == "" {
		t.Fatalf("challenge at member 0: %.200s %v", chRaw, err)
	}
	bk := newBrKey(41)
	code, jRaw, _, err := hcall(ctx, "breakroom.localhost", ms[0].s.url, "POST", "/v0/join", "", map[string]any{"game": "dilemma", "author_pubkey": bk.pub,
		"nonce": ch.Nonce, "sig": bk.sign(ch.Nonce), "agent_name": "Far Agent"})
	if err != nil || code != 200 || !bytes.Contains(jRaw, []byte(`"queued"`)) {
		t.Fatalf("Break Room join at member 0: %d %.200s %v", code, jRaw, err)
	}
	for _, m := range ms[1:] {
		code, raw, _, err := hcall(ctx, "breakroom.localhost", m.s.url, "GET", "/v0/live", "", nil)
		var lv struct{ Waiting, Playing int }
		if err != nil || code != 200 || json.Unmarshal(raw, &lv) != nil || lv.Waiting+lv.Playing < 1 {
			t.Fatalf("%s's /v0/live with an agent queued at member 0: %d %.300s %v", m.name, code, raw, err)
		}
	}

	var q *member // the member holding the walkin queue
	var others []*member
	for _, m := range ms {
		if m.address() == placedAt(addrs) {
			q = m
		} else {
			others = append(others, m)
		}
	}

	// One walk-in per member, and one more at a member other than q, each with its Practice
	// rounds played at home.
	register := func(m *member, name string) walker {
		t.Helper()
		reg := m.s.call(ctx, "POST", "/v1/walkin", "", map[string]any{"name": name})
		tok, _ := reg.body["token"].(string)
		if reg.status != http.StatusCreated || tok == "" {
			t.Fatalf("register %s at %s: %d %s", name, m.name, reg.status, reg.raw)
		}
		return walker{name: name, tok: tok, at: m}
	}
	var ws []walker
	for i, m := range ms {
		ws = append(ws, register(m, fmt.Sprintf("Walker %d", i)))
	}
	late := register(others[0], "Late Walker")
	// Twin's name is held at q by another walk-in (names are unique per member): it cannot move
	// there, and is queued at its own member instead.
	twin := register(others[1], "Twin Walker")
	register(q, "Twin Walker")
	for range 3 {
		for _, w := range append(ws, late, twin) {
			j := w.at.s.call(ctx, "POST", "/v1/walkin/join", w.tok, map[string]any{"table": "practice", "format": "short"})
			if j.status != 200 {
				t.Fatalf("%s: practice join %d %s", w.name, j.status, j.raw)
			}
		}
		playAll(t, ctx, append(ws, late, twin), 0, false)
	}

	// Round 1: the three join the walkin table through their own members and are seated at one
	// table on q.
	join := func(w walker) {
		t.Helper()
		j := w.at.s.call(ctx, "POST", "/v1/walkin/join", w.tok, map[string]any{"table": "walkin", "format": "short"})
		if j.status != 200 || j.body["status"] != "gathering" || j.body["kind"] != "walkin" || j.body["format"] != "short" {
			t.Fatalf("%s: walkin join through %s: %d %s", w.name, w.at.name, j.status, j.raw)
		}
	}
	join(twin)
	// The first to join from another member sends its join twice at once: one is seated (moved to
	// q), the other is answered in_a_round, as on one machine.
	first := others[0]
	for _, w := range ws {
		if w.at != first {
			continue
		}
		codes := make([]int, 2)
		bodies := make([][]byte, 2)
		var wg sync.WaitGroup
		for i := range 2 {
			wg.Go(func() {
				codes[i], bodies[i], _, _ = wcall(ctx, w.at.s.url, "POST", "/v1/walkin/join", w.tok, map[string]any{"table": "walkin", "format": "short"})
			})
		}
		wg.Wait()
		slices.Sort(codes)
		if codes[0] != 200 || codes[1] != http.StatusConflict || !bytes.Contains(bytes.Join(bodies, nil), []byte(`"in_a_round"`)) {
			t.Fatalf("%s's two joins at once: %v %q", w.name, codes, bodies)
		}
	}
	for _, w := range ws {
		if w.at != first {
			join(w)
		}
	}
	lat := &latencies{} // round 1's answers, at one table: q's walk-in's local, the others' forwarded
	for i := range ws {
		ws[i].forwarded = ws[i].at != q // moved to q: its door forwards it there from now on
		ws[i].lat = lat
	}
	for _, w := range ws {
		viaDoor, e := nextEnvelope(ctx, t, w.at.s, w.tok)
		if w.at != q {
			atQ := q.s.call(ctx, "GET", "/v1/walkin/next?wait=30", w.tok, nil)
			if atQ.status != viaDoor.status || string(atQ.raw) != string(viaDoor.raw) {
				t.Fatalf("%s: poll through %s: %d %.300s\nat the queue's member: %d %.300s", w.name, w.at.name, viaDoor.status, viaDoor.raw, atQ.status, atQ.raw)
			}
		}
		if kind := opsTableKind(t, q.s, e.Round); kind != "walkin" {
			t.Fatalf("%s's round %s is not a walkin table on the queue's member %s (kind %q)", w.name, e.Round, q.name, kind)
		}
	}
	said, rounds, results := playAll(t, ctx, ws, 0, false)
	for i, w := range ws {
		if rounds[i] != rounds[0] || rounds[0] == "" {
			t.Fatalf("the walk-ins played rounds %v, want one", rounds)
		}
		var r struct {
			Round  string         `json:"round"`
			Status string         `json:"status"`
			Result map[string]any `json:"result"`
		}
		if err := json.Unmarshal(results[i], &r); err != nil || r.Round != rounds[0] || r.Status != "revealed" || r.Result["payouts"] == nil {
			t.Fatalf("%s's result %.300s", w.name, results[i])
		}
		me := w.at.s.call(ctx, "GET", "/v1/walkin/me", w.tok, nil)
		meQ := q.s.call(ctx, "GET", "/v1/walkin/me", w.tok, nil)
		if me.status != 200 || string(me.raw) != string(meQ.raw) {
			t.Fatalf("%s's record through %s: %d %.300s\nat the queue's member: %.300s", w.name, w.at.name, me.status, me.raw, meQ.raw)
		}
	}
	checkTranscript(t, ctx, q.s, rounds[0], said)
	// Twin, topped up with house seats at its own member, plays a whole round there; its record is
	// still that member's (reached through q too), and q's own Twin is untouched.
	_, twinRound, twinResult := playAll(t, ctx, []walker{twin}, 0, false)
	if twinResult[0] == nil || opsTableKind(t, twin.at.s, twinRound[0]) != "walkin" {
		t.Fatalf("Twin's round %q at %s: %.200s", twinRound[0], twin.at.name, twinResult[0])
	}
	twinMe := twin.at.s.call(ctx, "GET", "/v1/walkin/me", twin.tok, nil)
	twinMeQ := q.s.call(ctx, "GET", "/v1/walkin/me", twin.tok, nil)
	if twinMe.status != 200 || string(twinMe.raw) != string(twinMeQ.raw) || twinMe.body["name"] != "Twin Walker" {
		t.Fatalf("Twin's record at home %d %.200s, through q %.200s", twinMe.status, twinMe.raw, twinMeQ.raw)
	}
	lat.log(t)
	for i := range ws {
		ws[i].lat = nil
	}

	// Round 2 at q, cut by kill -9 of q after two answers each; a Practice round on another
	// member is under way meanwhile.
	for _, w := range ws {
		join(w)
	}
	said2, rounds2, _ := playAll(t, ctx, ws, 2, false)
	// Every member's /healthz shows every member's own figures: q's (asked of it over the remote)
	// count the two walkin rounds it opened and the first it finished.
	for _, m := range ms {
		hf := healthFigures(t, m.s)
		for _, x := range ms {
			v, ok := hf[x.address()]
			if !ok || v.Figures == nil || v.Unreachable {
				t.Fatalf("%s's /healthz shows %s as %+v", m.name, x.name, v)
			}
		}
		if f := hf[q.address()].Figures; f.Tables["live"] < 1 || f.Tables["finished"] < 4 || f.RoundsStarted < 5 || f.RoundsFinished < 4 || f.Moves < 1 {
			t.Fatalf("%s's /healthz shows the queue member's figures %+v", m.name, f)
		}
	}
	home := register(others[1], "Home Walker")
	if j := home.at.s.call(ctx, "POST", "/v1/walkin/join", home.tok, map[string]any{"table": "practice", "format": "short"}); j.status != 200 {
		t.Fatalf("practice join at %s: %d %s", home.at.name, j.status, j.raw)
	}
	homeSaid, homeRound, _ := playAll(t, ctx, []walker{home}, 1, false)
	if err := q.s.cmd.Process.Kill(); err != nil {
		t.Fatal(err)
	}
	q.s.cmd.Wait()
	// Dead, q is shown unreachable (until the others drop it) or not at all, never with figures.
	for _, m := range others {
		if v, ok := healthFigures(t, m.s)[q.address()]; ok && (!v.Unreachable || v.Figures != nil) {
			t.Fatalf("%s's /healthz shows the dead member as %+v", m.name, v)
		}
	}

	homeSaid2, _, homeResult := playAll(t, ctx, []walker{home}, 0, false)
	if homeResult[0] == nil {
		t.Fatalf("the Practice round at %s did not finish with the queue's member dead", home.at.name)
	}
	checkTranscript(t, ctx, home.at.s, homeRound[0], [][]string{append(homeSaid[0], homeSaid2[0]...)})

	var up []*member
	var upAddrs []string
	for _, m := range ms {
		if m != q {
			up, upAddrs = append(up, m), append(upAddrs, m.address())
		}
	}
	awaitMembers(t, up, upAddrs...)
	for _, w := range ws {
		if w.at == q {
			continue
		}
		code, raw, h, err := wcall(ctx, w.at.s.url, "GET", "/v1/walkin/next?wait=1", w.tok, nil)
		var refusal struct {
			Code       string `json:"code"`
			Retry      bool   `json:"retry"`
			RetryAfter int    `json:"retry_after"`
		}
		json.Unmarshal(raw, &refusal)
		if err != nil || code != http.StatusServiceUnavailable || h.Get("Retry-After") != "5" || refusal.Code != "busy" || !refusal.Retry || refusal.RetryAfter != 5 {
			t.Fatalf("%s's poll through %s with its table's member dead: %d %q %.300s %v", w.name, w.at.name, code, h.Get("Retry-After"), raw, err)
		}
	}

	// The queue goes on among the survivors: a walk-in joining now is queued there and, topped up
	// with house seats, plays a whole round.
	join(late)
	_, lateRound, lateResult := playAll(t, ctx, []walker{late}, 0, false)
	if lateResult[0] == nil {
		t.Fatal("the walk-in queued with the queue's member dead got no result")
	}
	lateAt := placedAt(upAddrs)
	for _, m := range up {
		if m.address() == lateAt {
			if kind := opsTableKind(t, m.s, lateRound[0]); kind != "walkin" {
				t.Fatalf("the late walk-in's round %s is not a walkin table on %s (kind %q)", lateRound[0], m.name, kind)
			}
		}
	}

	// q restarts on its data dir: the round resumes and finishes.
	q.start(t, bin)
	awaitMembers(t, ms, addrs...)
	said3, rounds3, results3 := playAll(t, ctx, ws, 0, true)
	for i := range ws {
		if results3[i] == nil || (rounds3[i] != "" && rounds3[i] != rounds2[0]) || rounds2[i] != rounds2[0] {
			t.Fatalf("after the restart: rounds %v then %v, results %q", rounds2, rounds3, results3)
		}
		said2[i] = append(said2[i], said3[i]...)
	}
	checkTranscript(t, ctx, q.s, rounds2[0], said2)

	logOpenRate(t, ctx, ms, 20)
}

// logOpenRate logs how many Practice tables per second n walk-ins per member open, all joining
// at once through their own members, first on ms[0] alone and then on every member: the
// tables-opened figure of docs/performance.md. A figure, not an assertion on speed; every join
// must be seated.
func logOpenRate(t *testing.T, ctx context.Context, ms []*member, n int) {
	t.Helper()
	rate := func(on []*member) (int, time.Duration) {
		var ws []walker
		for _, m := range on {
			for range n {
				name := fmt.Sprintf("Rate Walker %d", walkers.Add(1))
				reg := m.s.call(ctx, "POST", "/v1/walkin", "", map[string]any{"name": name})
				tok, _ := reg.body["token"].(string)
				if reg.status != http.StatusCreated || tok == "" {
					t.Fatalf("register at %s: %d %s", m.name, reg.status, reg.raw)
				}
				ws = append(ws, walker{name: name, tok: tok, at: m})
			}
		}
		errs := make([]error, len(ws))
		var wg sync.WaitGroup
		start := time.Now()
		for i, w := range ws {
			wg.Go(func() {
				code, raw, _, err := wcall(ctx, w.at.s.url, "POST", "/v1/walkin/join", w.tok, map[string]any{"table": "practice", "format": "short"})
				if err == nil && (code != 200 || !bytes.Contains(raw, []byte(`"status":"seated"`))) {
					err = fmt.Errorf("join at %s: %d %.200s", w.at.name, code, raw)
				}
				errs[i] = err
			})
		}
		wg.Wait()
		took := time.Since(start)
		for _, err := range errs {
			if err != nil {
				t.Fatal(err)
			}
		}
		return len(ws), took
	}
	n1, d1 := rate(ms[:1])
	n3, d3 := rate(ms)
	t.Logf("figure: practice tables opened, joins all at once: %d on one member in %v (%.0f/s); %d across %d members in %v (%.0f/s)",
		n1, d1.Round(time.Millisecond), float64(n1)/d1.Seconds(), n3, len(ms), d3.Round(time.Millisecond), float64(n3)/d3.Seconds())
}
