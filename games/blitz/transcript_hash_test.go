package blitz

import (
	"bytes"
	"crypto/sha256"
	"fmt"
	"math/rand/v2"
	"testing"
)

// The transcript hash (§11.5) and the exchange hash that follows it (§5.5), the follower fed from
// the lead's batch. Whatever the events' sizes (empty, tiny, around the 4 KiB batch, several
// batches), however they arrive (add, or open/close as the match writes them), wherever flush,
// follow, sum and unfollow fall, and with two matches interleaved, both sums must be
// crypto/sha256 over "[" + the events joined by "," + "]".

type hashModel struct {
	lead      *runningHash
	follower  *runningHash
	events    [][]byte
	from      int // the follower's first event
	following bool
}

func listSum(evs [][]byte) [32]byte {
	return sha256.Sum256(append(append([]byte{'['}, bytes.Join(evs, []byte{','})...), ']'))
}

func (m *hashModel) check(t *testing.T, where string) {
	t.Helper()
	if got, want := m.lead.sum(), listSum(m.events); got != want {
		t.Fatalf("%s: transcript hash %x, crypto/sha256 %x (%d events)", where, got[:6], want[:6], len(m.events))
	}
	if m.following {
		if got, want := m.follower.sum(), listSum(m.events[m.from:]); got != want {
			t.Fatalf("%s: exchange hash %x, crypto/sha256 %x (events %d..%d)", where, got[:6], want[:6], m.from, len(m.events))
		}
	}
}

func randEvent(r *rand.Rand, n int) []byte {
	b := make([]byte, n)
	for i := range b {
		b[i] = byte(' ' + r.IntN(95))
	}
	return b
}

func TestTranscriptAndExchangeHashes(t *testing.T) {
	r := rand.New(rand.NewPCG(55, 5))
	sizes := func() int {
		switch r.IntN(12) {
		case 0:
			return 0
		case 1:
			return hashBatch + 512 - 2 + r.IntN(5) // about the batch's capacity
		case 2:
			return hashBatch + r.IntN(3*hashBatch)
		case 3:
			return 63 + r.IntN(3)
		default:
			return r.IntN(400)
		}
	}
	for game := 0; game < 20; game++ {
		ms := []*hashModel{{lead: newRunningHash()}, {lead: newRunningHash()}}
		for step := 0; step < 400; step++ {
			m := ms[r.IntN(2)] // two matches interleaved
			where := fmt.Sprintf("game %d step %d", game, step)
			switch op := r.IntN(20); {
			case op < 8:
				ev := randEvent(r, sizes())
				m.lead.add(ev)
				m.events = append(m.events, ev)
			case op < 14: // as the match writes an event: straight into the batch
				ev := randEvent(r, sizes())
				b := m.lead.open()
				b = append(b, ev...)
				if got := m.lead.close(b); !bytes.Equal(got, ev) {
					t.Fatalf("%s: close returned %d bytes, not the event", where, len(got))
				}
				m.events = append(m.events, ev)
			case op < 16: // a call ends
				m.lead.flush()
				if m.following {
					m.follower.flush()
				}
			case op < 18:
				if !m.following {
					m.follower, m.from, m.following = m.lead.follow(), len(m.events), true
				}
			default: // the exchange closes: its sum, then unfollow
				m.check(t, where)
				if m.following {
					m.lead.unfollow()
					m.follower, m.following = nil, false
				}
			}
			if r.IntN(5) == 0 {
				m.check(t, where)
			}
		}
		for _, m := range ms {
			m.check(t, fmt.Sprintf("game %d end", game))
			m.lead.flush()
			m.check(t, fmt.Sprintf("game %d end, flushed", game))
		}
	}
}

// A follower started on an empty lead, on a lead with a partial batch, and right after a flush,
// summed before any event of its own: "[]" every time, and the lead's sum is untouched by it.
func TestEmptyExchangeHash(t *testing.T) {
	empty := sha256.Sum256([]byte("[]"))
	for _, prep := range []int{0, 1, 2} {
		lead := newRunningHash()
		var evs [][]byte
		if prep >= 1 {
			lead.add([]byte(`{"a":1}`))
			evs = append(evs, []byte(`{"a":1}`))
		}
		if prep == 2 {
			lead.flush()
		}
		f := lead.follow()
		if got := f.sum(); got != empty {
			t.Fatalf("prep %d: empty exchange hash %x", prep, got)
		}
		if got := lead.sum(); got != listSum(evs) {
			t.Fatalf("prep %d: transcript hash changed by an empty follower", prep)
		}
		lead.add([]byte(`{"b":2}`))
		lead.flush()
		if got, want := f.sum(), listSum([][]byte{[]byte(`{"b":2}`)}); got != want {
			t.Fatalf("prep %d: one-event exchange hash %x, want %x", prep, got, want)
		}
	}
}
