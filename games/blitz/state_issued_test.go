package blitz

import (
	"bytes"
	"crypto/sha256"
	"encoding/json"
	"fmt"
	"io"
	"math/rand/v2"
	"strings"
	"sync"
	"testing"
	"time"

	"arena/games"
	"arena/games/canon"
)

// Hostile tests of the shared §5.4 state (games.Doc over the public log's chunks): every state a
// round hands out must stay byte for byte what it was when it was issued, be valid JSON, and carry
// in public_log exactly the JCS of the public events emitted up to its issue, while the match goes
// on appending to the same chunks and other goroutines read the states (run with -race).

// issued is one prompt as it left the match, with what it must stay.
type issued struct {
	p       games.Prompt
	at      []byte // State's bytes when issued
	public  int    // public events emitted before it was issued
	stepIdx int
}

// jcsEvent is the JCS form of an event, computed independently of the engine's writer.
func jcsEvent(t testing.TB, ev games.Event) []byte {
	t.Helper()
	b, err := json.Marshal(ev)
	if err != nil {
		t.Fatal(err)
	}
	c, err := canon.Canonical(b)
	if err != nil {
		t.Fatalf("event %d %s: payload is not canonical JSON: %v", ev.Seq, ev.Type, err)
	}
	return c
}

// playShared plays one varied, partly hostile round (the fingerprint's answers) from seed and
// returns every prompt it issued and every event it emitted, in order. each, when not nil, sees
// every prompt as it is issued (from the match's goroutine).
func playShared(t *testing.T, seed uint64, each func(issued)) ([]issued, []games.Event, *Match) {
	t.Helper()
	r := rand.New(rand.NewPCG(seed, 3))
	s := testSetup("blitz", 6, `{"mole":4,"task":{"kind":"broker","named":[]}}`)
	if seed%2 == 0 { // mole and task drawn from a seed of its own
		s.Options = json.RawMessage(`{}`)
		s.Seed = sha256.Sum256(fmt.Appendf(nil, "hostile3-%d", seed))
	}
	for i := 0; i < 3; i++ {
		seatOpts(&s.Seats[i], func(o *SeatOptions) { o.Walkin, o.Kind = false, "byo" })
	}
	keys := newTestKeys(6)
	gm, err := NewEngine(DefaultFees()).New(s, keys)
	if err != nil {
		t.Fatal(err)
	}
	m := gm.(*Match)
	var all []issued
	var events []games.Event
	public := 0
	steps := 0
	take := func(st games.Step) {
		steps++
		for _, ev := range st.Events {
			events = append(events, ev)
			if ev.Visibility == visPublic {
				public++
			}
		}
		for _, p := range st.Prompts {
			is := issued{p: p, at: bytes.Clone(p.State.Bytes()), public: public, stepIdx: steps}
			all = append(all, is)
			if each != nil {
				each(is)
			}
		}
	}
	seqs := map[int]*int{}
	for i := 1; i <= 6; i++ {
		seqs[i] = new(int)
	}
	for n := 0; n < 1000; n++ {
		dl, ok := m.Deadline()
		if !ok {
			break
		}
		take(m.Advance(dl))
		mv := m.Phase()
		for _, p := range m.Prompts() {
			var body string
			switch mv.Phase {
			case "talk":
				body = fpTalk(r, p.Seat, 6, mv)
			case "commit":
				var subs []string
				for i, k := 0, r.IntN(5); i < k; i++ {
					if p.Seat <= 3 {
						subs = append(subs, fpSigned(r, keys, p.Seat, 6, mv.Turn, seqs[p.Seat]))
					} else {
						subs = append(subs, fpIntent(r, p.Seat, 6, mv.Turn))
					}
				}
				body = `{"commitments":[` + strings.Join(subs, ",") + `]}`
			default:
				continue
			}
			st, err := m.Act(dl.Add(time.Millisecond), games.Input{Seat: p.Seat, Kind: "answer", Move: mv, Body: json.RawMessage(body)})
			if err == nil {
				take(st)
			}
			// a call now and then: an event mid-phase, after the phase's prompts were issued
			if r.IntN(8) == 0 {
				if st, err := m.Act(dl.Add(2*time.Millisecond), games.Input{Seat: p.Seat, Kind: "call",
					Body: json.RawMessage(fmt.Sprintf(`{"text":"call %d <&> \u2028"}`, n))}); err == nil {
					take(st)
				}
			}
		}
	}
	if _, ok := m.Result(); !ok {
		t.Fatal("round not revealed")
	}
	return all, events, m
}

// checkIssued holds one issued state to what it must be.
func checkIssued(t *testing.T, is issued, publicJCS [][]byte) {
	t.Helper()
	got := is.p.State.Bytes()
	if !bytes.Equal(got, is.at) {
		t.Fatalf("seat %d %+v: the state changed after it was issued (len %d → %d)", is.p.Seat, is.p.Move, len(is.at), len(got))
	}
	if !json.Valid(got) {
		t.Fatalf("seat %d %+v: state is not valid JSON", is.p.Seat, is.p.Move)
	}
	var st struct {
		PublicLog []json.RawMessage `json:"public_log"`
	}
	if err := json.Unmarshal(got, &st); err != nil {
		t.Fatal(err)
	}
	if len(st.PublicLog) != is.public {
		t.Fatalf("seat %d %+v: public_log holds %d events, %d public events were emitted before the state was issued",
			is.p.Seat, is.p.Move, len(st.PublicLog), is.public)
	}
	for i, e := range st.PublicLog {
		if !bytes.Equal(e, publicJCS[i]) {
			t.Fatalf("seat %d %+v: public_log[%d] is\n %s\nwant the event's JCS\n %s", is.p.Seat, is.p.Move, i, e, publicJCS[i])
		}
	}
}

// TestIssuedStatesNeverChange: after a whole round, every state the round issued is still the
// bytes it was issued with, valid JSON, and its public_log is the JCS of the public events so
// far, byte for byte.
func TestIssuedStatesNeverChange(t *testing.T) {
	for seed := uint64(1); seed <= 2; seed++ {
		all, events, _ := playShared(t, seed, nil)
		var publicJCS [][]byte
		for _, ev := range events {
			if ev.Visibility == visPublic {
				publicJCS = append(publicJCS, jcsEvent(t, ev))
			}
		}
		if len(all) < 100 {
			t.Fatalf("seed %d: %d prompts, want a whole round's", seed, len(all))
		}
		for _, is := range all {
			checkIssued(t, is, publicJCS)
		}
	}
}

// TestIssuedStatesReadConcurrently: other goroutines flatten, write out and decode every state
// (the seat actor signing, the MCP brief, the house policy) while the match keeps appending to
// the log chunks those states share. Under -race any write into a byte a state holds is
// reported; without it, a state read on the other goroutine must still equal its issued bytes.
func TestIssuedStatesReadConcurrently(t *testing.T) {
	ch := make(chan issued, 64)
	var wg sync.WaitGroup
	var mu sync.Mutex
	var bad []string
	eng := NewEngine(DefaultFees())
	for w := 0; w < 3; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for is := range ch {
				for k := 0; k < 2; k++ {
					flat := is.p.State.Bytes()
					var buf bytes.Buffer
					_, _ = is.p.State.WriteTo(&buf)
					_, _ = is.p.State.WriteTo(io.Discard)
					ok := bytes.Equal(flat, is.at) && bytes.Equal(buf.Bytes(), is.at) && json.Valid(flat)
					if _, dok := decodeState(is.p.State); !dok {
						ok = false
					}
					if is.p.Move.Phase == "talk" || is.p.Move.Phase == "commit" {
						if a := eng.HouseAnswer(is.p, 7); !json.Valid(a) {
							ok = false
						}
					}
					if !ok {
						mu.Lock()
						bad = append(bad, fmt.Sprintf("seat %d %+v", is.p.Seat, is.p.Move))
						mu.Unlock()
					}
				}
			}
		}()
	}
	playShared(t, 11, func(is issued) { ch <- is })
	close(ch)
	wg.Wait()
	if len(bad) > 0 {
		t.Fatalf("%d states read on another goroutine differed from their issued bytes or did not decode: %v", len(bad), bad[:min(5, len(bad))])
	}
}

// TestDecodeStateOfJSONPrompt: a prompt that went through JSON (a desk's Next, a stored prompt)
// holds its state as one segment; the house policy reads it as it reads the shared form.
func TestDecodeStateOfJSONPrompt(t *testing.T) {
	all, _, _ := playShared(t, 5, nil)
	n := 0
	for i, is := range all {
		if is.p.Move.Phase != "talk" || i%3 != 0 { // a third of the talk prompts: enough, and quick
			continue
		}
		b, err := json.Marshal(is.p)
		if err != nil {
			t.Fatal(err)
		}
		var back games.Prompt
		if err := json.Unmarshal(b, &back); err != nil {
			t.Fatal(err)
		}
		// encoding/json escapes <, >, & and U+2028 in a Marshaler's output (as it did for the
		// json.RawMessage state before): the same JSON value, not the same bytes.
		ca, err1 := canon.Canonical(is.p.State.Bytes())
		cb, err2 := canon.Canonical(back.State.Bytes())
		if err1 != nil || err2 != nil || !bytes.Equal(ca, cb) {
			t.Fatalf("seat %d %+v: state changed through JSON (%v, %v)", is.p.Seat, is.p.Move, err1, err2)
		}
		a, ok := decodeState(is.p.State)
		c, ok2 := decodeState(back.State)
		if !ok || !ok2 {
			t.Fatalf("seat %d %+v: decodeState %v (shared) %v (one segment)", is.p.Seat, is.p.Move, ok, ok2)
		}
		ja, _ := json.Marshal(a)
		jc, _ := json.Marshal(c)
		if !bytes.Equal(ja, jc) {
			t.Fatalf("seat %d %+v: decodeState differs between the shared and the one-segment form", is.p.Seat, is.p.Move)
		}
		n++
	}
	if n == 0 {
		t.Fatal("no talk prompt")
	}
}
