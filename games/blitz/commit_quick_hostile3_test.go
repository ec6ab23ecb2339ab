package blitz

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"
	"time"

	"arena/games"
)

// Commit answers now go through quickAnswer too (commitment.ScanQuick for the common signed
// shape). Each commit answer quickAnswer takes is also sent, spelled so that quickAnswer declines
// it ("commitments" written with a \u escape: the same JSON value), to a twin match, which reads
// it through canon.Parse, fastAnswer and commitment.ParseValue as before. Both must take or refuse
// the same (reply, dropped, commitment.pending/rejected events), and when the phase closes both
// must seal, reject and settle the same.

func commitSnapshot(t testing.TB) ([]byte, *testKeys) {
	t.Helper()
	s := hostileSetup(1)
	keys := newTestKeys(6)
	gm, err := NewEngine(DefaultFees()).New(s, keys)
	if err != nil {
		t.Fatal(err)
	}
	m := gm.(*Match)
	for i := 0; i < 50 && m.Phase() != (games.Move{Turn: 1, Phase: "commit"}); i++ {
		dl, _ := m.Deadline()
		m.Advance(dl)
	}
	if m.Phase() != (games.Move{Turn: 1, Phase: "commit"}) {
		t.Fatalf("never reached turn 1's commit: %+v", m.Phase())
	}
	snap, err := m.Snapshot()
	if err != nil {
		t.Fatal(err)
	}
	return snap, keys
}

var commitsName = []byte(`"commitments"`)

func TestQuickCommitSameAsStrictInMatch(t *testing.T) {
	snap, keys := commitSnapshot(t)
	eng := NewEngine(DefaultFees())
	r := rand.New(rand.NewPCG(21, 21))
	quick, rounds := 0, 0
	for round := 0; round < 25; round++ {
		ga, err := eng.Restore(snap, keys)
		if err != nil {
			t.Fatal(err)
		}
		gb, _ := eng.Restore(snap, keys)
		a, b := ga.(*Match), gb.(*Match)
		dl, _ := a.Deadline()
		seqs := map[int]*int{}
		for seat := 1; seat <= 6; seat++ {
			seqs[seat] = new(int)
			var subs []string
			for i, k := 0, r.IntN(5); i < k; i++ {
				if seat <= 3 {
					subs = append(subs, fpSigned(r, keys, seat, 6, 1, seqs[seat]))
				} else {
					subs = append(subs, fpIntent(r, seat, 6, 1))
				}
			}
			raw := []byte(`{"commitments":[` + strings.Join(subs, ",") + `]}`)
			if r.IntN(4) == 0 {
				raw = []byte(`{"v":1,"turn":1,"phase":"commit",` + string(raw[1:]))
			}
			in := games.Input{Seat: seat, Kind: "answer", Move: a.Phase(), Body: raw}
			forced := raw
			if _, ok := quickAnswer(raw); ok {
				quick++
				i := bytes.Index(raw, commitsName)
				forced = append(append(append([]byte{}, raw[:i]...), `"\u0063ommitments"`...), raw[i+len(commitsName):]...)
				if _, ok := quickAnswer(forced); ok {
					t.Fatalf("quickAnswer took the escaped spelling %s", forced)
				}
			}
			inB := in
			inB.Body = forced
			x := apply(a, tick{At: dl.Add(-time.Second), In: &in})
			y := apply(b, tick{At: dl.Add(-time.Second), In: &inB})
			if x != y {
				t.Fatalf("round %d seat %d: answer %s\nquick path handed out\n %.800s\nstrict path\n %.800s", round, seat, raw, x, y)
			}
		}
		// the phase closes: seal, reject, open settle; then on to the reveal
		for k := 0; k < 80; k++ {
			d, ok := a.Deadline()
			if !ok {
				break
			}
			x, y := apply(a, tick{At: d}), apply(b, tick{At: d})
			if x != y {
				t.Fatalf("round %d: after the same commit answers the twins differ at %v:\n %.800s\n %.800s", round, d, x, y)
			}
		}
		ra, _ := a.Result()
		rb, _ := b.Result()
		if fmt.Sprint(ra) != fmt.Sprint(rb) {
			t.Fatalf("round %d: results differ", round)
		}
		rounds++
	}
	if quick < 40 {
		t.Fatalf("only %d commit answers took the quick path", quick)
	}
	t.Logf("%d rounds, %d commit answers through both paths", rounds, quick)
}

// FuzzQuickCommitInMatch: any commit answer quickAnswer takes (from a BYO seat, so signed
// commitments go through commitment.ScanQuick) is judged the same through the strict path, and
// the twins seal the same when the phase closes.
func FuzzQuickCommitInMatch(f *testing.F) {
	snap, keys := commitSnapshot(f)
	r := rand.New(rand.NewPCG(8, 8))
	for i := 0; i < 12; i++ {
		seq := new(int)
		var subs []string
		for k := 0; k < 1+i%3; k++ {
			subs = append(subs, fpSigned(r, keys, 1+i%3, 6, 1, seq))
		}
		f.Add(uint8(i%3), []byte(`{"commitments":[`+strings.Join(subs, ",")+`]}`))
	}
	eng := NewEngine(DefaultFees())
	f.Fuzz(func(t *testing.T, seat uint8, raw []byte) {
		if len(raw) > 16384 {
			return
		}
		if _, ok := quickAnswer(raw); !ok {
			return
		}
		i := bytes.Index(raw, commitsName)
		if i < 0 {
			return
		}
		forced := append(append(append([]byte{}, raw[:i]...), `"\u0063ommitments"`...), raw[i+len(commitsName):]...)
		if _, ok := quickAnswer(forced); ok {
			return // commitsName was inside a string: not a member name
		}
		ga, _ := eng.Restore(snap, keys)
		gb, _ := eng.Restore(snap, keys)
		a, b := ga.(*Match), gb.(*Match)
		dl, _ := a.Deadline()
		in := games.Input{Seat: 1 + int(seat%6), Kind: "answer", Move: a.Phase(), Body: raw}
		inB := in
		inB.Body = forced
		if x, y := apply(a, tick{At: dl.Add(-time.Second), In: &in}), apply(b, tick{At: dl.Add(-time.Second), In: &inB}); x != y {
			t.Fatalf("answer %s\nquick path handed out\n %.800s\nstrict path\n %.800s", raw, x, y)
		}
		if x, y := apply(a, tick{At: dl}), apply(b, tick{At: dl}); x != y {
			t.Fatalf("answer %s: the seal differs:\n %.800s\n %.800s", raw, x, y)
		}
	})
}
