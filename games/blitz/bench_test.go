package blitz_test

import (
	"crypto/ed25519"
	"crypto/sha256"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"arena/games"
	"arena/games/blitz"
	"arena/games/canon"
)

// The round of BenchmarkRound: six BYO seats, five turns; in
// every talk exchange every seat sends 8 public and 8 private messages of 120 characters; in
// every commit every seat submits 4 commitments it signed itself, due that turn, so all are
// sealed and settled; the engine builds every seat's §5.4 state object for every envelope.
// BYO seats sign their own commitments (the arena only verifies, §7.3), so the round's
// cryptography is exactly its signature checks, which BenchmarkVerifyOnly repeats alone.

const (
	benchSeats    = 6
	benchRound    = "T-424242"
	benchEntry    = 1_000_000_000 // 1000 CCD: the budget pays 20 action fees with room to spare
	benchCollat   = 600_000_000
	benchAmount   = 2_000_000
	benchLine     = 120 // characters per message
	benchCommits  = 4
	benchMessages = 8
)

var benchStart = time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)

// benchKeys is a Keyring of BYO seats: public keys only, counting the keys looked up, which is
// one per signature the engine checks.
type benchKeys struct {
	pub     []ed25519.PublicKey
	lookups int
}

func (k *benchKeys) PublicKey(seat int) (ed25519.PublicKey, bool) {
	if seat < 1 || seat > len(k.pub) {
		return nil, false
	}
	k.lookups++
	return k.pub[seat-1], true
}

func (k *benchKeys) Sign(int, []byte) ([]byte, error) {
	return nil, fmt.Errorf("BYO seats sign for themselves")
}

// benchFixture is everything a BenchmarkRound iteration replays: the setup, the talk answers
// by seat, the signed commit answers by seat and turn, and each signature check the round does.
type benchFixture struct {
	setup   games.Setup
	keys    *benchKeys
	talk    [benchSeats + 1]json.RawMessage
	commit  [benchSeats + 1][6]json.RawMessage // [seat][turn]
	digests [][32]byte
	sigs    [][]byte
	signers []ed25519.PublicKey
}

func newBenchFixture(tb testing.TB) *benchFixture {
	tb.Helper()
	f := &benchFixture{keys: &benchKeys{}}
	var seed [32]byte
	copy(seed[:], "benchmark round seed, fixed.....")
	f.setup = games.Setup{Game: blitz.ID, Format: "blitz", Round: benchRound, Seed: seed, Start: benchStart,
		Arena: "ccd:4221332d34e1694168c2a0c0b3fd0f27/cis-2:BenchArena1"}
	privs := make([]ed25519.PrivateKey, benchSeats+1)
	agents := make([]string, benchSeats+1)
	for n := 1; n <= benchSeats; n++ {
		s := sha256.Sum256([]byte("bench seat " + strconv.Itoa(n)))
		privs[n] = ed25519.NewKeyFromSeed(s[:])
		pub := privs[n].Public().(ed25519.PublicKey)
		f.keys.pub = append(f.keys.pub, pub)
		agents[n] = "ccd:4221332d34e1694168c2a0c0b3fd0f27/cis-2:BenchSeat" + strconv.Itoa(n)
		f.setup.Seats = append(f.setup.Seats, games.Seat{Seat: n, Agent: agents[n], Name: "Seat" + strconv.Itoa(n), Entry: benchEntry, Options: blitz.SeatOptions{Kind: "byo", Collateral: benchCollat}.JSON()})
	}
	f.setup.Options = json.RawMessage(`{"mole":6,"task":{"kind":"broker","named":[]}}`)
	line := strings.Repeat("x", benchLine)
	for n := 1; n <= benchSeats; n++ {
		var msgs []map[string]any
		for i := 0; i < benchMessages; i++ {
			msgs = append(msgs, map[string]any{"type": "public", "text": line, "tone": "offer"})
		}
		for i := 0; i < benchMessages; i++ {
			to := (n+i)%benchSeats + 1
			if to == n {
				to = n%benchSeats + 1
			}
			msgs = append(msgs, map[string]any{"type": "private", "to": to, "text": line, "tone": "ask"})
		}
		f.talk[n] = mustJSON(tb, map[string]any{"messages": msgs})
		seq := 0
		for turn := 1; turn <= 5; turn++ {
			var subs []json.RawMessage
			for i := 0; i < benchCommits; i++ {
				seq++
				payee := (n+i)%benchSeats + 1
				if payee == n {
					payee = n%benchSeats + 1
				}
				obj := map[string]any{"v": 1, "round": benchRound, "turn": turn, "seq": seq, "payer": agents[n],
					"payee": agents[payee], "amount": benchAmount, "condition": map[string]any{"always": true}, "due": turn}
				c, err := canon.Marshal(obj)
				if err != nil {
					tb.Fatal(err)
				}
				d := canon.Digest(c)
				sig := ed25519.Sign(privs[n], d[:])
				obj["sig"] = canon.FormatSig(sig)
				subs = append(subs, mustJSON(tb, obj))
				f.digests = append(f.digests, d)
				f.sigs = append(f.sigs, sig)
				f.signers = append(f.signers, privs[n].Public().(ed25519.PublicKey))
			}
			f.commit[n][turn] = mustJSON(tb, map[string]any{"commitments": subs})
		}
	}
	return f
}

func mustJSON(tb testing.TB, v any) json.RawMessage {
	tb.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		tb.Fatal(err)
	}
	return b
}

// body is seat's answer to move mv in the benchmark round, nil for a move it does not answer
// (scouting, settle).
func (f *benchFixture) body(mv games.Move, seat int) json.RawMessage {
	switch mv.Phase {
	case "talk":
		return f.talk[seat]
	case "commit":
		return f.commit[seat][mv.Turn]
	}
	return nil
}

// play runs one whole round and returns it; every answer must be taken whole.
func (f *benchFixture) play(tb testing.TB) *blitz.Match {
	gm, err := blitz.NewEngine(blitz.DefaultFees()).New(f.setup, f.keys)
	if err != nil {
		tb.Fatal(err)
	}
	m := gm.(*blitz.Match)
	for {
		dl, ok := m.Deadline()
		if !ok {
			return m
		}
		m.Advance(dl)
		cur := m.Phase()
		for _, p := range m.Prompts() {
			body := f.body(cur, p.Seat)
			if body == nil {
				continue
			}
			st, err := m.Act(dl, games.Input{Seat: p.Seat, Kind: "answer", Move: cur, Body: body})
			if err != nil {
				tb.Fatalf("seat %d %+v: %v", p.Seat, cur, err)
			}
			if !strings.Contains(string(st.Reply), `"dropped":[]`) {
				tb.Fatalf("seat %d %+v: parts dropped: %s", p.Seat, cur, st.Reply)
			}
		}
	}
}

// TestBenchRoundShape checks the benchmark's round is what it claims: 120 commitments sealed
// and honoured, 1440 messages, 120 signature checks, money conserved.
func TestBenchRoundShape(t *testing.T) {
	f := newBenchFixture(t)
	m := f.play(t)
	cs := m.Commitments()
	if len(cs) != benchSeats*5*benchCommits {
		t.Fatalf("sealed %d commitments, want %d", len(cs), benchSeats*5*benchCommits)
	}
	for _, c := range cs {
		if c.Outcome != "honoured" {
			t.Fatalf("commitment %s: %s, want honoured", c.ID, c.Outcome)
		}
	}
	// One lookup per commitment (its signature check) and one per seat at seating (seat.taken
	// publishes the seat's signing key): the round's cryptography is still its 120 checks.
	if want := len(f.digests) + benchSeats; f.keys.lookups != want {
		t.Errorf("the engine looked up %d keys, want one per commitment and one per seat (%d)", f.keys.lookups, want)
	}
	msgs := 0
	for _, e := range mustEvents(m.Events()) { // a replay, which looks the keys up again
		if e.Type == "message.public" || e.Type == "message.private" {
			msgs++
		}
	}
	if want := benchSeats * 15 * 2 * benchMessages; msgs != want {
		t.Errorf("%d messages, want %d", msgs, want)
	}
	if err := m.CheckInvariant(); err != nil {
		t.Error(err)
	}
}

// cpuTime is the CPU time (user + system) the process has used. The machine these benchmarks
// run on is shared, so wall time per op swings with other work while CPU time per op does not:
// both benchmarks report it as cpu-ns/op, and the ratio is best taken between those.
func cpuTime(b *testing.B) time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		b.Fatalf("getrusage: %v", err)
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

func reportCPU(b *testing.B, start time.Duration) {
	b.ReportMetric(float64(cpuTime(b)-start)/float64(b.N), "cpu-ns/op")
}

// BenchmarkRound plays the whole round above: rules, state objects and signature checks.
func BenchmarkRound(b *testing.B) {
	f := newBenchFixture(b)
	b.ReportAllocs()
	start := cpuTime(b)
	for b.Loop() {
		f.play(b)
	}
	reportCPU(b, start)
}

// BenchmarkVerifyOnly does the round's signature checks and nothing else: one canon.Verify
// (small-order and canonical-encoding checks on key and R, then Ed25519) per commitment, over
// the same digests, signatures and keys.
func BenchmarkVerifyOnly(b *testing.B) {
	f := newBenchFixture(b)
	b.ReportAllocs()
	start := cpuTime(b)
	for b.Loop() {
		for i := range f.digests {
			if !canon.Verify(f.signers[i], f.digests[i][:], f.sigs[i]) {
				b.Fatal("signature does not verify")
			}
		}
	}
	reportCPU(b, start)
}

// BenchmarkStateFlatten is what the round's 126 envelopes' states would cost as bytes of their
// own (25 MB: each carries the public log so far), each flattened into fresh memory once and
// nothing else. BenchmarkRound does not pay it: its states share the log (games.Doc). A seat
// whose envelope must leave as bytes (an agent's A2A call, a walk-in's mailbox) pays its share
// where the envelope is signed, in actors; house seats never do.
func BenchmarkStateFlatten(b *testing.B) {
	f := newBenchFixture(b)
	gm, err := blitz.NewEngine(blitz.DefaultFees()).New(f.setup, f.keys)
	if err != nil {
		b.Fatal(err)
	}
	m := gm.(*blitz.Match)
	var states []games.Doc
	for {
		dl, ok := m.Deadline()
		if !ok {
			break
		}
		m.Advance(dl)
		cur := m.Phase()
		for _, p := range m.Prompts() {
			states = append(states, p.State)
			body := f.body(cur, p.Seat)
			if body == nil {
				continue
			}
			if _, err := m.Act(dl, games.Input{Seat: p.Seat, Kind: "answer", Move: cur, Body: body}); err != nil {
				b.Fatal(err)
			}
		}
	}
	if len(states) != 126 {
		b.Fatalf("%d states, want 126", len(states))
	}
	b.ReportAllocs()
	start := cpuTime(b)
	for b.Loop() {
		for _, s := range states {
			stateSink = s.Bytes()
		}
	}
	reportCPU(b, start)
}

var stateSink []byte

// mustEvents is Match.Events for tests, whose matches never journal: an error panics.
func mustEvents(evs []games.Event, err error) []games.Event {
	if err != nil {
		panic(err)
	}
	return evs
}
