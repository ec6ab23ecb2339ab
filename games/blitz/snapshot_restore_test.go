package blitz

import (
	"bytes"
	"crypto/sha256"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"
	"time"

	"arena/games"
)

// Restore after the inputs moved to snapshot JSON in chunks (snapshot.go): a match restored from
// Snapshot() at any point, from a snapshot the previous code wrote (one json.Marshal of
// snapshotV1: "log" an array, or null before the first input), must go on exactly as the match
// it was taken from: same prompts (state bytes), same events, same replies, same result.

// tick is one input of a driven round: an Advance at At when In is nil.
type tick struct {
	At time.Time
	In *games.Input
}

// roundGen draws the fingerprint's varied, partly hostile answers.
type roundGen struct {
	r    *rand.Rand
	keys *testKeys
	seqs map[int]*int
}

func newRoundGen(seed uint64, keys *testKeys) *roundGen {
	g := &roundGen{r: rand.New(rand.NewPCG(seed, 9)), keys: keys, seqs: map[int]*int{}}
	for i := 1; i <= 6; i++ {
		g.seqs[i] = new(int)
	}
	return g
}

// next draws the inputs of one phase of m: the Advance to its deadline, then answers (and now
// and then a call, with HTML characters and U+2028 the snapshot's encoding/json escapes).
func (g *roundGen) next(m *Match) ([]tick, bool) {
	dl, ok := m.Deadline()
	if !ok {
		return nil, false
	}
	return []tick{{At: dl}}, true
}

func (g *roundGen) answers(m *Match) []tick {
	var out []tick
	mv := m.Phase()
	dl, _ := m.Deadline()
	for _, p := range m.Prompts() {
		var body string
		switch mv.Phase {
		case "talk":
			body = fpTalk(g.r, p.Seat, 6, mv)
		case "commit":
			var subs []string
			for i, k := 0, g.r.IntN(5); i < k; i++ {
				if p.Seat <= 3 {
					subs = append(subs, fpSigned(g.r, g.keys, p.Seat, 6, mv.Turn, g.seqs[p.Seat]))
				} else {
					subs = append(subs, fpIntent(g.r, p.Seat, 6, mv.Turn))
				}
			}
			body = `{"commitments":[` + strings.Join(subs, ",") + `]}`
		default:
			continue
		}
		out = append(out, tick{At: dl.Add(time.Millisecond), In: &games.Input{Seat: p.Seat, Kind: "answer", Move: mv, Body: json.RawMessage(body)}})
		if g.r.IntN(6) == 0 {
			out = append(out, tick{At: dl.Add(2 * time.Millisecond), In: &games.Input{Seat: p.Seat, Kind: "call",
				Body: json.RawMessage(`{"text":"<b>a&b</b> \u2028 x"}`)}})
		}
	}
	return out
}

// apply runs one tick and writes everything it handed out.
func apply(m *Match, tk tick) string {
	var st games.Step
	var err error
	if tk.In == nil {
		st = m.Advance(tk.At)
	} else {
		st, err = m.Act(tk.At, *tk.In)
	}
	if err != nil {
		return "error " + err.Error()
	}
	var b strings.Builder
	ev, _ := json.Marshal(st.Events)
	b.Write(ev)
	for _, p := range st.Prompts {
		fmt.Fprintf(&b, "\nprompt %d %+v %s %v ", p.Seat, p.Move, p.Deadline.Format(time.RFC3339Nano), p.Legal)
		b.Write(p.State.Bytes())
		for _, it := range p.Inbox {
			b.Write(it)
		}
	}
	b.Write(st.Reply)
	an, _ := json.Marshal(st.Anchors)
	b.Write(an)
	return b.String()
}

func promptsOf(m *Match) string {
	var b strings.Builder
	for _, p := range m.Prompts() {
		fmt.Fprintf(&b, "%d %+v %v ", p.Seat, p.Move, p.Legal)
		b.Write(p.State.Bytes())
		for _, it := range p.Inbox {
			b.Write(it)
		}
		b.WriteByte('\n')
	}
	return b.String()
}

func hostileSetup(seed uint64) games.Setup {
	s := testSetup("blitz", 6, `{"mole":4,"task":{"kind":"broker","named":[]}}`)
	if seed%2 == 0 {
		s.Options = json.RawMessage(`{}`)
		s.Seed = sha256.Sum256(fmt.Appendf(nil, "hostile3-%d", seed))
	}
	for i := 0; i < 3; i++ {
		seatOpts(&s.Seats[i], func(o *SeatOptions) { o.Walkin, o.Kind = false, "byo" })
	}
	return s
}

// oldSnapshot is snap as the previous Snapshot wrote it: json.Marshal of the whole snapshotV1.
func oldSnapshot(t *testing.T, snap []byte) []byte {
	t.Helper()
	var sn snapshotV1
	if err := json.Unmarshal(snap, &sn); err != nil {
		t.Fatalf("snapshot does not decode as snapshotV1: %v", err)
	}
	b, err := json.Marshal(sn)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// TestRestoreGoesOnAsTheOriginal: at several points of varied rounds, the match restored from
// Snapshot() (and from the previous code's form of the same snapshot) holds the same prompts and,
// fed the same inputs, hands out byte for byte what the original hands out, to the reveal.
// Snapshot taken twice in a row is the same bytes.
func TestRestoreGoesOnAsTheOriginal(t *testing.T) {
	for seed := uint64(1); seed <= 2; seed++ {
		s := hostileSetup(seed)
		keys := newTestKeys(6)
		eng := NewEngine(DefaultFees())
		gm, err := eng.New(s, keys)
		if err != nil {
			t.Fatal(err)
		}
		a := gm.(*Match)
		g := newRoundGen(seed, keys)
		var twins []*Match
		var names []string
		for phase := 0; ; phase++ {
			ticks, ok := g.next(a)
			if !ok {
				break
			}
			if phase%9 == 4 { // a checkpoint: restore twins from the snapshot as it is now
				snap, err := a.Snapshot()
				if err != nil {
					t.Fatalf("seed %d phase %d: Snapshot: %v", seed, phase, err)
				}
				again, err := a.Snapshot()
				if err != nil || !bytes.Equal(snap, again) {
					t.Fatalf("seed %d phase %d: a second Snapshot differs (%v):\n %.300s\n %.300s", seed, phase, err, snap, again)
				}
				for _, form := range []struct {
					name string
					b    []byte
				}{{"snapshot", snap}, {"previous form", oldSnapshot(t, snap)}} {
					rm, err := eng.Restore(form.b, keys)
					if err != nil {
						t.Fatalf("seed %d phase %d: Restore(%s): %v", seed, phase, form.name, err)
					}
					b := rm.(*Match)
					if got, want := promptsOf(b), promptsOf(a); got != want {
						t.Fatalf("seed %d phase %d: restored from the %s, the open prompts differ", seed, phase, form.name)
					}
					twins = append(twins, b)
					names = append(names, fmt.Sprintf("%s at phase %d", form.name, phase))
				}
			}
			all := ticks
			want := apply(a, ticks[0])
			for i, b := range twins {
				if got := apply(b, ticks[0]); got != want {
					t.Fatalf("seed %d phase %d: match restored from the %s handed out\n %.400s\nwant\n %.400s", seed, phase, names[i], got, want)
				}
			}
			for _, tk := range g.answers(a) {
				all = append(all, tk)
				want := apply(a, tk)
				for i, b := range twins {
					if got := apply(b, tk); got != want {
						t.Fatalf("seed %d phase %d: match restored from the %s answered\n %.400s\nwant\n %.400s", seed, phase, names[i], got, want)
					}
				}
			}
		}
		ra, ok := a.Result()
		if !ok {
			t.Fatal("no result")
		}
		if len(twins) < 4 {
			t.Fatalf("seed %d: %d restored twins, want checkpoints through the round", seed, len(twins))
		}
		for i, b := range twins {
			rb, _ := b.Result()
			ja, _ := json.Marshal(ra)
			jb, _ := json.Marshal(rb)
			if !bytes.Equal(ja, jb) {
				t.Fatalf("seed %d: result of the match restored from the %s differs", seed, names[i])
			}
		}
	}
}

// TestRestoreNullLog: a snapshot the previous code wrote before the match's first input carried
// "log":null; it restores to the match New makes, and its Snapshot is the same as New's.
func TestRestoreNullLog(t *testing.T) {
	s := hostileSetup(1)
	keys := newTestKeys(6)
	eng := NewEngine(DefaultFees())
	gm, err := eng.New(s, keys)
	if err != nil {
		t.Fatal(err)
	}
	a := gm.(*Match)
	snap, err := a.Snapshot()
	if err != nil {
		t.Fatal(err)
	}
	var sn snapshotV1
	if err := json.Unmarshal(snap, &sn); err != nil {
		t.Fatal(err)
	}
	sn.Log = nil
	old, _ := json.Marshal(sn)
	if !bytes.Contains(old, []byte(`"log":null`)) {
		t.Fatalf("the previous form of an input-less snapshot: %s", old)
	}
	rm, err := eng.Restore(old, keys)
	if err != nil {
		t.Fatalf("Restore of a snapshot with \"log\":null: %v", err)
	}
	b := rm.(*Match)
	sb, err := b.Snapshot()
	if err != nil || !bytes.Equal(sb, snap) {
		t.Fatalf("restored from \"log\":null, Snapshot is %s (%v), want %s", sb, err, snap)
	}
	dl, _ := a.Deadline()
	if x, y := apply(a, tick{At: dl}), apply(b, tick{At: dl}); x != y {
		t.Fatalf("restored from \"log\":null, the first Advance differs")
	}
}
