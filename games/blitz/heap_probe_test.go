package blitz_test

import (
	"crypto/ed25519"
	"crypto/sha256"
	"encoding/binary"
	"fmt"
	"os"
	"runtime"
	"runtime/pprof"
	"strconv"
	"testing"
	"time"

	"arena/games"
	"arena/games/blitz"
)

// The heap a live Practice table's match holds between steps (the budget: under 64 KiB of heap
// per live table, the table's actors included). BenchmarkMatchHeap plays
// heapTables Practice rounds of six house seats side by side, as the arena's tables do: each
// step's inputs let go to the table's input log (DropInputs, games.InputKeeper) and the match compacted
// (games.Compactor) after it, every house answer the house policy's. After each settle it
// forces a collection and reports the heap per live match; ARENA_MATCH_HEAPPROFILE=F writes a
// heap profile (every allocation sampled) at the last turn's talk.

const heapTables = 100

// lentKeys is a Keyring of six house seats whose keys the arena holds (it signs for them).
type lentKeys struct{ priv []ed25519.PrivateKey }

func (k *lentKeys) PublicKey(seat int) (ed25519.PublicKey, bool) {
	if seat < 1 || seat > len(k.priv) {
		return nil, false
	}
	return k.priv[seat-1].Public().(ed25519.PublicKey), true
}

func (k *lentKeys) Sign(seat int, msg []byte) ([]byte, error) {
	if seat < 1 || seat > len(k.priv) {
		return nil, fmt.Errorf("no key for seat %d", seat)
	}
	return ed25519.Sign(k.priv[seat-1], msg), nil
}

// heapTable is one Practice table: its match and the prompts its house seats have to answer.
type heapTable struct {
	m       *blitz.Match
	seed    [32]byte
	prompts []games.Prompt
}

func newHeapTable(tb testing.TB, eng *blitz.Engine, i int) *heapTable {
	t := &heapTable{}
	t.seed = sha256.Sum256([]byte("heap table " + strconv.Itoa(i)))
	keys := &lentKeys{}
	s := games.Setup{Game: blitz.ID, Format: "blitz", Round: "T-" + strconv.Itoa(1000+i), Seed: t.seed,
		Start: benchStart, Arena: "ccd:00000000000000000000000000000000/cis-2:bench",
		Pace: games.Pace{Name: "agent", Steps: map[string]time.Duration{"scouting": 2 * time.Second, "talk": 2 * time.Second, "commit": 2 * time.Second, "settle": 2 * time.Second}}}
	for n := 1; n <= 6; n++ {
		d := sha256.Sum256([]byte("heap table " + strconv.Itoa(i) + " seat " + strconv.Itoa(n)))
		keys.priv = append(keys.priv, ed25519.NewKeyFromSeed(d[:]))
		// An agent id as long as a lent house Badge's (actors.HouseAgent).
		s.Seats = append(s.Seats, games.Seat{Seat: n, Agent: fmt.Sprintf("ccd:00000000000000000000000000000000/cis-2:%020d", i*10+n),
			Name: "house " + strconv.Itoa(n), Entry: 200_000_000, Options: blitz.SeatOptions{Kind: "house", Walkin: true, Collateral: 120_000_000}.JSON()})
	}
	gm, err := eng.New(s, keys)
	if err != nil {
		tb.Fatal(err)
	}
	t.m = gm.(*blitz.Match)
	return t
}

// probePacker packs the probe's tables (one goroutine: no lock).
var probePacker games.Deflater

// take does what a table does with a step: has the match let its inputs go (the table's log
// holds them, DropInputs), compacts the match and keeps the prompts its house seats answer next.
func (t *heapTable) take(tb testing.TB, st games.Step) {
	t.m.DropInputs()
	t.m.Compact(&probePacker)
	t.prompts = append(t.prompts, st.Prompts...)
}

// next runs the table's next call: a house answer if one is due, else the next deadline. It
// reports false once the round is revealed.
func (t *heapTable) next(tb testing.TB, eng *blitz.Engine) bool {
	if len(t.prompts) > 0 {
		p := t.prompts[0]
		t.prompts[0] = games.Prompt{} // a table keeps no prompt it has answered
		t.prompts = t.prompts[1:]
		if len(t.prompts) == 0 {
			t.prompts = nil
		}
		var sb [8]byte
		binary.BigEndian.PutUint64(sb[:], uint64(p.Seat)<<32|uint64(p.Move.Turn)<<8|uint64(p.Move.Exchange))
		h := sha256.Sum256(append(append(t.seed[:0:0], t.seed[:]...), append(sb[:], p.Move.Phase...)...))
		body := eng.HouseAnswer(p, binary.BigEndian.Uint64(h[:8]))
		dl, _ := t.m.Deadline()
		st, err := t.m.Act(dl.Add(-time.Millisecond), games.Input{Seat: p.Seat, Kind: "answer", Move: p.Move, Body: body})
		if err != nil {
			tb.Fatalf("seat %d %+v: %v", p.Seat, p.Move, err)
		}
		t.take(tb, st)
		return true
	}
	dl, ok := t.m.Deadline()
	if !ok {
		return false
	}
	t.take(tb, t.m.Advance(dl))
	return true
}

// untilPhase runs the table until its open move is turn/phase (or the round is revealed).
func (t *heapTable) untilPhase(tb testing.TB, eng *blitz.Engine, turn int, phase string) {
	for {
		if mv := t.m.Phase(); mv.Turn == turn && mv.Phase == phase && len(t.prompts) == 0 {
			return
		}
		if !t.next(tb, eng) {
			return
		}
	}
}

func heapNow() uint64 {
	runtime.GC()
	runtime.GC()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	return ms.HeapAlloc
}

func BenchmarkMatchHeap(b *testing.B) {
	prof := os.Getenv("ARENA_MATCH_HEAPPROFILE")
	if prof != "" {
		runtime.MemProfileRate = 1
	}
	eng := blitz.NewEngine(blitz.DefaultFees())
	for b.Loop() {
		base := heapNow()
		tables := make([]*heapTable, heapTables)
		for i := range tables {
			tables[i] = newHeapTable(b, eng, i)
		}
		per := func() float64 { return float64(heapNow()-base) / heapTables }
		b.ReportMetric(per(), "B/table-open")
		var sum, peak float64
		points := 0
		for turn := 1; turn <= 5; turn++ {
			for _, ph := range []string{"talk", "commit", "settle"} {
				for _, t := range tables {
					t.untilPhase(b, eng, turn, ph)
				}
				v := per()
				sum += v
				points++
				peak = max(peak, v)
				if turn == 5 && ph == "commit" && prof != "" {
					f, err := os.Create(prof)
					if err != nil {
						b.Fatal(err)
					}
					_ = pprof.WriteHeapProfile(f)
					_ = f.Close()
				}
				if testing.Verbose() {
					fmt.Printf("turn %d %s: %.0f B/table\n", turn, ph, v)
				}
			}
		}
		b.ReportMetric(sum/float64(points), "B/table-mean")
		b.ReportMetric(peak, "B/table-peak")
		runtime.KeepAlive(tables)
	}
}
