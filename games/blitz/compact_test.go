package blitz

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"arena/games"
)

// hostileTwin is one of two matches of the same round, played in lockstep from partly hostile
// inputs (BYO seats' signed commitments, some forged; walk-in intents; levers; accusations;
// answers to the wrong move; unknown kinds): a compacted after every step and every refused
// input as the table actor does, b never.
func hostileTwins(t *testing.T, seed uint64) (*Match, *Match, *testKeys) {
	t.Helper()
	mk := func() (*Match, *testKeys) {
		s := testSetup("blitz", 6, `{"mole":5,"task":{"kind":"broker","named":[]}}`)
		for i := 0; i < 3; i++ {
			seatOpts(&s.Seats[i], func(o *SeatOptions) { o.Walkin, o.Kind = false, "byo" })
		}
		s.Seats[0].Entry = 2000 * ccd
		seatOpts(&s.Seats[0], func(o *SeatOptions) { o.Collateral = 1000 * ccd })
		s.Seats[3].Name = "Zoë <b>&\u2028"
		copy(s.Seed[:], fmt.Sprintf("hostile4 compact %d", seed))
		keys := newTestKeys(6)
		gm, err := NewEngine(DefaultFees()).New(s, keys)
		if err != nil {
			t.Fatal(err)
		}
		return gm.(*Match), keys
	}
	a, keys := mk()
	b, _ := mk()
	return a, b, keys
}

// hostileInput is one random input for the open move (or a stray one).
func hostileInput(r *rand.Rand, keys *testKeys, seqs map[int]*int, mv games.Move, seat int) games.Input {
	in := games.Input{Seat: seat, Kind: "answer", Move: mv}
	switch k := r.IntN(40); {
	case k == 0:
		in.Kind, in.Body = "call", json.RawMessage(fmt.Sprintf(`{"text":%q}`, fpTexts[r.IntN(len(fpTexts))]))
		return in
	case k == 1:
		in.Kind, in.Body = "veto", json.RawMessage(`{"ref":"r`+strconv.Itoa(r.IntN(3))+`"}`)
		return in
	case k == 2:
		in.Kind, in.Body = "accuse", json.RawMessage(`{"seat":`+strconv.Itoa(r.IntN(8))+`}`)
		return in
	case k == 3:
		in.Kind, in.Body = "bogus", json.RawMessage(`{}`)
		return in
	case k == 4:
		in.Move.Turn++ // a stale or early move
	case k == 5:
		in.Seat = []int{0, 7, -1}[r.IntN(3)]
	}
	switch mv.Phase {
	case "talk":
		in.Body = json.RawMessage(fpTalk(r, seat, 6, mv))
	case "commit":
		var subs []string
		for i, n := 0, r.IntN(6); i < n; i++ {
			if seat <= 3 {
				subs = append(subs, fpSigned(r, keys, seat, 6, mv.Turn, seqs[seat]))
			} else {
				subs = append(subs, fpIntent(r, seat, 6, mv.Turn))
			}
		}
		in.Body = json.RawMessage(`{"commitments":[` + strings.Join(subs, ","+fpWS(r)) + `]}`)
	default:
		in.Body = json.RawMessage(`{"pass":true}`)
	}
	return in
}

// publicLogOf is the public_log member of a state object, as its raw bytes.
func publicLogOf(state []byte) ([]byte, error) {
	var s map[string]json.RawMessage
	if err := json.Unmarshal(state, &s); err != nil {
		return nil, err
	}
	l, ok := s["public_log"]
	if !ok {
		return nil, fmt.Errorf("no public_log")
	}
	return l, nil
}

// TestCompactHostileTwins: rounds played from hostile inputs, one twin compacted after every step
// (and after every refused input), the other never. The twins refuse the same inputs with the same
// errors and hand out the same bytes; every state's public_log is, byte for byte, the public
// events handed out so far (written from the events' own fields, not from the log); everything
// handed out (events' payloads, states, inboxes, replies) reads the same at the end of the round
// as when it was handed out, also read on other goroutines while the round goes on (go test
// -race); and a snapshot of the compacted twin taken mid-round restores to the plain twin's open
// prompts.
func TestCompactHostileTwins(t *testing.T) {
	for seed := uint64(1); seed <= 2; seed++ {
		t.Run(strconv.FormatUint(seed, 10), func(t *testing.T) { playHostileTwins(t, seed) })
	}
}

func playHostileTwins(t *testing.T, seed uint64) {
	r := rand.New(rand.NewPCG(seed, 4))
	a, b, keys := hostileTwins(t, seed)
	seqs := map[int]*int{}
	for i := 1; i <= 6; i++ {
		seqs[i] = new(int)
	}
	var pubLog []byte
	for _, ev := range mustEvents(a.Events()) {
		if ev.Visibility == visPublic {
			if len(pubLog) > 0 {
				pubLog = append(pubLog, ',')
			}
			pubLog = appendEvent(pubLog, ev)
		}
	}
	type issued struct {
		step games.Step
		want []byte
	}
	var kept []issued
	var wg sync.WaitGroup
	errs := make(chan error, 100000)
	// A reader of a step waits for a later Compact (the signal of compaction k is closed once
	// the k-th has run) and reads while the round goes on, concurrently with what follows it.
	var sigMu sync.Mutex
	signals := map[int]chan struct{}{}
	signal := func(k int) chan struct{} {
		sigMu.Lock()
		defer sigMu.Unlock()
		if signals[k] == nil {
			signals[k] = make(chan struct{})
		}
		return signals[k]
	}
	compactions, ended := 0, make(chan struct{})
	packedStates, refused, steps, restored := 0, 0, 0, 0
	take := func(what string, sa, sb games.Step, ea, eb error) {
		t.Helper()
		steps++
		if fmt.Sprint(ea) != fmt.Sprint(eb) {
			t.Fatalf("%s: compacted twin %v, plain twin %v", what, ea, eb)
		}
		if ea != nil {
			refused++
		}
		ba, bb := stepBytes(sa), stepBytes(sb)
		if !bytes.Equal(ba, bb) {
			t.Fatalf("%s: compacted twin's step differs:\n%.400s\n%.400s", what, ba, bb)
		}
		for _, ev := range sa.Events {
			if ev.Visibility == visPublic {
				if len(pubLog) > 0 {
					pubLog = append(pubLog, ',')
				}
				pubLog = appendEvent(pubLog, ev)
			}
		}
		want := append(append([]byte{'['}, pubLog...), ']')
		for _, p := range sa.Prompts {
			st := p.State.Bytes()
			if p.State.Packed() {
				packedStates++
			}
			l, err := publicLogOf(st)
			if err != nil {
				t.Fatalf("%s: seat %d's state is not JSON (%v): %.300s", what, p.Seat, err, st)
			}
			if !bytes.Equal(l, want) {
				t.Fatalf("%s: seat %d's public_log is not the public events so far:\n got  %.300s\n want %.300s",
					what, p.Seat, l[max(0, len(l)-300):], want[max(0, len(want)-300):])
			}
		}
		kept = append(kept, issued{sa, bytes.Clone(ba)})
		s, w := sa, bytes.Clone(ba)
		after := signal(compactions + 1 + len(w)%3) // one to three compactions on
		wg.Add(1)
		go func() { // a walk-in's mailbox or an A2A call reading the step elsewhere, later
			defer wg.Done()
			select {
			case <-after:
			case <-ended:
			}
			if got := stepBytes(s); !bytes.Equal(got, w) {
				errs <- fmt.Errorf("%s: step read on another goroutine differs", what)
			}
		}()
		a.Compact(testPacker)
		compactions++
		close(signal(compactions))
	}
	for i := 0; i < 2000; i++ {
		dl, ok := a.Deadline()
		if !ok {
			break
		}
		sa := a.Advance(dl)
		sb := b.Advance(dl)
		take(fmt.Sprintf("advance %d", i), sa, sb, nil, nil)
		mv := a.Phase()
		if r.IntN(7) == 0 { // a restart from the compacted twin's snapshot
			snap, err := a.Snapshot()
			if err != nil {
				t.Fatal(err)
			}
			gm, err := NewEngine(DefaultFees()).Restore(snap, keys)
			if err != nil {
				t.Fatalf("restore a compacted match: %v", err)
			}
			pr, pb := gm.Prompts(), b.Prompts()
			if len(pr) != len(pb) {
				t.Fatalf("restored: %d open prompts, plain twin %d", len(pr), len(pb))
			}
			for k := range pr {
				if !bytes.Equal(pr[k].State.Bytes(), pb[k].State.Bytes()) {
					t.Fatalf("restored: seat %d's state differs from the plain twin's", pr[k].Seat)
				}
			}
			restored++
		}
		for _, p := range a.Prompts() {
			for k := 0; k < 1+r.IntN(2); k++ {
				in := hostileInput(r, keys, seqs, mv, p.Seat)
				at := dl.Add(time.Duration(1+r.IntN(900)) * time.Millisecond)
				sa, ea := a.Act(at, in)
				sb, eb := b.Act(at, in)
				take(fmt.Sprintf("act %d seat %d %s %.80s", i, in.Seat, in.Kind, in.Body), sa, sb, ea, eb)
			}
		}
	}
	if _, ok := a.Result(); !ok {
		t.Fatal("round not revealed")
	}
	if !bytes.Equal(a.pubLog.bytes(), pubLog) {
		t.Fatalf("the compacted match's public log is not the public events handed out")
	}
	for k, is := range kept {
		if got := stepBytes(is.step); !bytes.Equal(got, is.want) {
			t.Fatalf("step %d changed after it was handed out:\n got  %.300s\n want %.300s", k, got, is.want)
		}
	}
	close(ended)
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Fatal(err)
	}
	if packedStates == 0 || refused == 0 || restored == 0 {
		t.Fatalf("%d packed states, %d refusals, %d restores: the round tested too little", packedStates, refused, restored)
	}
	t.Logf("seed %d: %d steps, %d refused, %d packed states, %d restores, log %d bytes packed to %d", seed, steps,
		refused, packedStates, restored, a.pubLog.packed.Len(), a.pubLog.packed.PackedLen())
}
