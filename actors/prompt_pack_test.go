package actors

import (
	"bytes"
	"context"
	"crypto/sha256"
	"fmt"
	"sync"
	"testing"
	"time"

	"arena/games"
	"arena/games/blitz"
)

// TestPromptSameWithPackedLog: a Blitz table compacted after every step as the table actor does
// (games.Compactor: its public log packed, its answered prompts dropped) hands out prompts that a
// channel encodes (wire: the whole state flattened) byte for byte equal to those of the same
// round never compacted. Prompts of earlier steps are encoded again on other goroutines while the
// round goes on and packs (go test -race), as a channel actor does: a packed state read anywhere
// reads the same. (DOTDOTDOT's envelope is a function of the same members; its channels sign it
// from a packed state in actors/dotdotdot's TestDeskPracticePackedEnvelopes.)
// The walk-in desk's notional seat money (actors/dotdotdot: 200 CCD entry, 60% collateral), in
// microCCD: the seats of the twin rounds are the desk's Practice seats.
const walkinEntry, walkinCollateral int64 = 200_000_000, 120_000_000

func TestPromptSameWithPackedLog(t *testing.T) {
	eng := blitz.NewEngine(blitz.DefaultFees())
	var seed [32]byte
	copy(seed[:], "envelope packing twin round")
	setup := games.Setup{Game: blitz.ID, Format: "blitz", Round: "T-77", Seed: seed, Arena: "ccd:bench/cis-2:bench",
		Start: time.Date(2026, 9, 9, 14, 0, 0, 0, time.UTC),
		Pace:  games.Pace{Name: "agent", Steps: map[string]time.Duration{"scouting": time.Second, "talk": time.Second, "commit": time.Second, "settle": time.Second}}}
	var specs []SeatSpec
	for n := 1; n <= 6; n++ {
		s := games.Seat{Seat: n, Name: fmt.Sprintf("Seat %d", n), Entry: walkinEntry, Options: blitz.SeatOptions{Kind: "house", Walkin: true, Collateral: walkinCollateral}.JSON()}
		specs = append(specs, SeatSpec{Seat: s, Kind: "house", Lent: true, Channel: ChannelHouse})
	}
	twin := func() games.Match {
		seats := append([]SeatSpec(nil), specs...)
		keys, _, err := testKeys{"ccd:bench/cis-2:"}.Open(context.Background(), "envelope-twin", seats)
		if err != nil {
			t.Fatal(err)
		}
		s := setup
		for _, sp := range seats {
			s.Seats = append(s.Seats, sp.Seat)
		}
		m, err := eng.New(s, keys)
		if err != nil {
			t.Fatal(err)
		}
		return m
	}
	packed, plain := twin(), twin()
	compactor, ok := packed.(games.Compactor)
	if !ok {
		t.Fatal("a Blitz match is no games.Compactor")
	}
	var wg sync.WaitGroup
	errs := make(chan error, 4096)
	signed, packedSeen := 0, 0
	check := func(a, b games.Step) {
		if len(a.Prompts) != len(b.Prompts) {
			t.Fatalf("%d prompts, %d plain", len(a.Prompts), len(b.Prompts))
		}
		for i := range a.Prompts {
			ea, err1 := wire("T-77", a.Prompts[i])
			eb, err2 := wire("T-77", b.Prompts[i])
			if err1 != nil || err2 != nil || !bytes.Equal(ea, eb) {
				t.Fatalf("seat %d %+v: prompts differ (%v, %v)", a.Prompts[i].Seat, a.Prompts[i].Move, err1, err2)
			}
			signed++
			if a.Prompts[i].State.Packed() {
				packedSeen++
			}
			p, want := a.Prompts[i], sha256.Sum256(eb)
			wg.Add(1)
			go func() { // a channel actor encoding it later, elsewhere
				defer wg.Done()
				e, err := wire("T-77", p)
				if err != nil || sha256.Sum256(e) != want {
					errs <- fmt.Errorf("seat %d %+v: prompt encoded on another goroutine differs (%v)", p.Seat, p.Move, err)
				}
			}()
		}
	}
	now := setup.Start
	for i := 0; i < 200; i++ {
		dl, ok := packed.Deadline()
		if !ok {
			break
		}
		if dl.After(now) {
			now = dl
		}
		a, b := packed.Advance(now), plain.Advance(now)
		compactor.Compact(tablePacker)
		check(a, b)
		for _, p := range a.Prompts {
			body := eng.HouseAnswer(p, houseSeed(seed[:], &p))
			in := games.Input{Seat: p.Seat, Kind: "answer", Move: p.Move, Body: body}
			xa, erra := packed.Act(now, in)
			xb, errb := plain.Act(now, in)
			if (erra == nil) != (errb == nil) {
				t.Fatalf("answer of seat %d: %v, plain %v", p.Seat, erra, errb)
			}
			compactor.Compact(tablePacker)
			check(xa, xb)
		}
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Fatal(err)
	}
	if _, ok := packed.Result(); !ok || signed < 100 || packedSeen == 0 {
		t.Fatalf("round finished %v; %d prompts compared, %d with a packed log", ok, signed, packedSeen)
	}
}
