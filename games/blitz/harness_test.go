package blitz

import (
	"crypto/ed25519"
	"crypto/sha256"
	"encoding/json"
	"fmt"
	"testing"
	"time"

	"arena/games"
)

// testKeys derives one ed25519 key per seat from a label; deterministic.
type testKeys struct {
	priv map[int]ed25519.PrivateKey
	pub  map[int]ed25519.PublicKey // overrides (hostile keys)
}

func newTestKeys(n int) *testKeys {
	k := &testKeys{priv: map[int]ed25519.PrivateKey{}, pub: map[int]ed25519.PublicKey{}}
	for i := 1; i <= n; i++ {
		s := sha256.Sum256([]byte(fmt.Sprintf("blitz-test-seat-%d", i)))
		k.priv[i] = ed25519.NewKeyFromSeed(s[:])
	}
	return k
}

func (k *testKeys) PublicKey(seat int) (ed25519.PublicKey, bool) {
	if p, ok := k.pub[seat]; ok {
		return p, true
	}
	p, ok := k.priv[seat]
	if !ok {
		return nil, false
	}
	return p.Public().(ed25519.PublicKey), true
}

func (k *testKeys) Sign(seat int, msg []byte) ([]byte, error) {
	p, ok := k.priv[seat]
	if !ok {
		return nil, fmt.Errorf("no key for seat %d", seat)
	}
	return ed25519.Sign(p, msg), nil
}

var t0 = time.Date(2026, 9, 9, 14, 0, 0, 0, time.UTC)

func agentID(i int) string {
	return fmt.Sprintf("ccd:4221332d34e1694168c2a0c0b3fd0f27/cis-2:agent%d", i)
}

// testSetup: n seats, entry 200 CCD, collateral 100 CCD (bounty 10, budget 90), walk-ins.
func testSetup(format string, n int, opts string) games.Setup {
	s := games.Setup{Game: ID, Format: format, Round: "T-7", Arena: "ccd:4221332d34e1694168c2a0c0b3fd0f27/cis-2:arena",
		Start: t0, Options: json.RawMessage(opts)}
	s.Seed = sha256.Sum256([]byte("blitz-test-seed"))
	for i := 1; i <= n; i++ {
		s.Seats = append(s.Seats, games.Seat{Seat: i, Agent: agentID(i), Name: fmt.Sprintf("Agent%d", i), Entry: 200 * ccd, Options: SeatOptions{Kind: "walkin", Walkin: true, Collateral: 100 * ccd}.JSON()})
	}
	return s
}

// harness drives one match and checks the §8.3 invariant after every step.
type harness struct {
	t     testing.TB
	m     *Match
	keys  *testKeys
	now   time.Time
	steps []games.Step
	setup games.Setup
	log   []games.Logged // every call that changed the match, as a table's input log keeps it
}

func newHarness(t testing.TB, s games.Setup) *harness {
	t.Helper()
	keys := newTestKeys(len(s.Seats))
	mm, err := NewEngine(DefaultFees()).New(s, keys)
	if err != nil {
		t.Fatalf("New: %v", err)
	}
	return &harness{t: t, m: mm.(*Match), keys: keys, now: s.Start, setup: s}
}

// replayLog rebuilds the match from the harness's input log as a table's boot recovery does
// (games.ReplayLog of the stored head and entries).
func (h *harness) replayLog() *Match {
	h.t.Helper()
	head, err := json.Marshal(games.LogHead{V: 1, Setup: h.setup})
	if err != nil {
		h.t.Fatal(err)
	}
	entries := make([][]byte, len(h.log))
	for i, l := range h.log {
		if entries[i], err = json.Marshal(l); err != nil {
			h.t.Fatal(err)
		}
	}
	m, err := games.ReplayLog(NewEngine(DefaultFees()), head, entries, h.keys)
	if err != nil {
		h.t.Fatalf("ReplayLog: %v", err)
	}
	return m.(*Match)
}

func (h *harness) check() {
	h.t.Helper()
	if err := h.m.CheckInvariant(); err != nil {
		h.t.Fatalf("invariant after step at %v (%+v): %v", h.now, h.m.Phase(), err)
	}
	if n := len(h.steps); n > 0 {
		if err := CheckStates(h.m, h.steps[n-1].Prompts); err != nil {
			h.t.Fatal(err)
		}
	}
}

// next advances to the next deadline.
func (h *harness) next() games.Step {
	h.t.Helper()
	d, ok := h.m.Deadline()
	if !ok {
		h.t.Fatalf("next: match is over")
	}
	if d.After(h.now) {
		h.now = d
	}
	st := h.m.Advance(h.now)
	h.log = append(h.log, games.Logged{Op: games.OpAdvance, At: h.now})
	h.steps = append(h.steps, st)
	h.check()
	return st
}

// to advances until the open move is (turn, phase, exchange).
func (h *harness) to(turn int, phase string, exchange int) {
	h.t.Helper()
	want := games.Move{Turn: turn, Phase: phase, Exchange: exchange}
	for i := 0; i < 200 && h.m.Phase() != want; i++ {
		h.next()
	}
	if h.m.Phase() != want {
		h.t.Fatalf("never reached %+v (at %+v)", want, h.m.Phase())
	}
}

// finish advances until revealed.
func (h *harness) finish() games.Result {
	h.t.Helper()
	for i := 0; i < 500; i++ {
		if _, ok := h.m.Deadline(); !ok {
			break
		}
		h.next()
	}
	r, ok := h.m.Result()
	if !ok {
		h.t.Fatalf("no result")
	}
	return r
}

// act applies an input at the current instant (plus 1 ms so answers come after the prompt).
func (h *harness) act(seat int, kind, body string) (games.Step, error) {
	h.t.Helper()
	in := games.Input{Seat: seat, Kind: kind, Body: json.RawMessage(body)}
	if kind == "answer" {
		in.Move = h.m.Phase()
	}
	st, err := h.m.Act(h.now.Add(time.Millisecond), in)
	if err == nil {
		h.log = append(h.log, games.Logged{Op: games.OpAct, At: h.now.Add(time.Millisecond), Input: in})
	}
	h.steps = append(h.steps, st)
	h.check()
	return st, err
}

// answer must succeed; it returns the dropped list.
func (h *harness) answer(seat int, body string) []Dropped {
	h.t.Helper()
	st, err := h.act(seat, "answer", body)
	if err != nil {
		h.t.Fatalf("seat %d answer %s: %v", seat, body, err)
	}
	var r struct{ Dropped []Dropped }
	_ = json.Unmarshal(st.Reply, &r)
	return r.Dropped
}

func (h *harness) mustNoDrop(seat int, body string) {
	h.t.Helper()
	if d := h.answer(seat, body); len(d) > 0 {
		h.t.Fatalf("seat %d: dropped %+v", seat, d)
	}
}

func (h *harness) account(seat int) Account {
	return h.m.Accounts()[seat-1]
}

func (h *harness) events(typ string) []games.Event {
	var out []games.Event
	for _, e := range mustEvents(h.m.Events()) {
		if e.Type == typ {
			out = append(out, e)
		}
	}
	return out
}

func (h *harness) record(ref string) Record {
	h.t.Helper()
	for _, r := range h.m.Commitments() {
		if r.Ref == ref {
			return r
		}
	}
	h.t.Fatalf("no sealed commitment %q; rejections %+v", ref, h.m.Rejections())
	return Record{}
}

func commitBody(cs ...string) string {
	b := `{"commitments":[`
	for i, c := range cs {
		if i > 0 {
			b += ","
		}
		b += c
	}
	return b + `]}`
}

// mustEvents is Match.Events for tests, whose matches never journal: an error panics.
func mustEvents(evs []games.Event, err error) []games.Event {
	if err != nil {
		panic(err)
	}
	return evs
}

// seatOpts changes a seat's Blitz options (games.Seat.Options) in place.
func seatOpts(s *games.Seat, f func(*SeatOptions)) {
	o, err := SeatOptionsOf(*s)
	if err != nil {
		panic(err)
	}
	f(&o)
	s.Options = o.JSON()
}
