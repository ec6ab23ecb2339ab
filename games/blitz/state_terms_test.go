package blitz

import (
	"bytes"
	"encoding/json"
	"math/rand/v2"
	"strings"
	"testing"
	"time"
	"unsafe"

	"arena/games"
)

// The agents' terms buffers (agentTerms): written once per commitment, carved from one block a
// call, sized with room for the turns left or, in a match that compacts, exactly. Whatever the
// sizing guessed, every buffer must read as the terms written from m.sealed afresh, no buffer's
// capacity may reach into another's (an append to one would write into bytes a state holds),
// and a compacting match's buffers have no spare room for its states to keep alive.

// termsRef is seat n's agents[].commitments items written from sealed, one by one.
func termsRef(sealed []*promise, n int) []byte {
	var b []byte
	for _, c := range sealed {
		if c.payer == n || c.payee == n {
			if len(b) > 0 {
				b = append(b, ',')
			}
			b = appendPublicTerms(b, c)
		}
	}
	return b
}

// checkTerms holds m.terms to termsRef (of the commitments agentTerms has written: it runs when
// a phase's prompts are built) and the buffers' windows apart.
func checkTerms(t *testing.T, m *Match, compacting bool, where string) {
	t.Helper()
	if m.terms == nil {
		return
	}
	for i, b := range m.terms {
		if want := termsRef(m.sealed[:m.termsUpTo], i+1); !bytes.Equal(b, want) {
			t.Fatalf("%s: seat %d terms\n %s\nwant\n %s", where, i+1, b, want)
		}
		if compacting && cap(b) != len(b) {
			t.Fatalf("%s: seat %d terms hold %d bytes in a buffer of %d (a compacting match sizes exactly)", where, i+1, len(b), cap(b))
		}
		if cap(b) == 0 {
			continue
		}
		lo := uintptr(unsafe.Pointer(unsafe.SliceData(b)))
		for j, o := range m.terms {
			if j == i || cap(o) == 0 {
				continue
			}
			olo := uintptr(unsafe.Pointer(unsafe.SliceData(o)))
			if lo < olo+uintptr(cap(o)) && olo < lo+uintptr(cap(b)) {
				t.Fatalf("%s: seats %d and %d terms buffers overlap", where, i+1, j+1)
			}
		}
	}
}

// TestAgentTermsBuffers plays rounds whose seats commit unevenly (none some turns, four others,
// so the room agentTerms leaves is sometimes too little and sometimes too much), with and
// without Compact after every step, and checks the terms buffers after every step and every
// state issued against its bytes at issue once the round is over.
func TestAgentTermsBuffers(t *testing.T) {
	for seed := uint64(1); seed <= 6; seed++ {
		compacting := seed%2 == 0
		r := rand.New(rand.NewPCG(seed, 11))
		s := testSetup("blitz", 6, `{"mole":3,"task":{"kind":"broker","named":[]}}`)
		for i := 0; i < 3; i++ {
			seatOpts(&s.Seats[i], func(o *SeatOptions) { o.Walkin, o.Kind = false, "byo" })
		}
		keys := newTestKeys(6)
		gm, err := NewEngine(DefaultFees()).New(s, keys)
		if err != nil {
			t.Fatal(err)
		}
		m := gm.(*Match)
		type held struct {
			d  games.Doc
			at []byte
		}
		var states []held
		grew := 0 // terms bytes seen sealed across the round
		take := func(st games.Step, where string) {
			for _, p := range st.Prompts {
				states = append(states, held{p.State, bytes.Clone(p.State.Bytes())})
			}
			checkTerms(t, m, compacting && m.pubLog.packing, where)
			if compacting {
				m.Compact(testPacker)
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
			take(m.Advance(dl), "advance")
			mv := m.Phase()
			for _, p := range m.Prompts() {
				if mv.Phase != "commit" {
					continue
				}
				var subs []string
				k := 0
				if r.IntN(3) > 0 {
					k = 1 + r.IntN(4)
				}
				for i := 0; i < k; i++ {
					if p.Seat <= 3 {
						subs = append(subs, fpSigned(r, keys, p.Seat, 6, mv.Turn, seqs[p.Seat]))
					} else {
						subs = append(subs, fpIntent(r, p.Seat, 6, mv.Turn))
					}
				}
				st, err := m.Act(dl.Add(time.Millisecond), games.Input{Seat: p.Seat, Kind: "answer", Move: mv,
					Body: json.RawMessage(`{"commitments":[` + strings.Join(subs, ",") + `]}`)})
				if err == nil {
					take(st, "commit answer")
				}
			}
		}
		if _, ok := m.Result(); !ok {
			t.Fatalf("seed %d: round not revealed", seed)
		}
		for n := 1; n <= 6; n++ {
			grew += len(termsRef(m.sealed, n))
		}
		if len(m.sealed) < 10 || grew == 0 {
			t.Fatalf("seed %d: %d commitments sealed: the round does not exercise the terms", seed, len(m.sealed))
		}
		for i, h := range states {
			if !bytes.Equal(h.d.Bytes(), h.at) {
				t.Fatalf("seed %d: state %d changed after it was issued", seed, i)
			}
		}
	}
}
