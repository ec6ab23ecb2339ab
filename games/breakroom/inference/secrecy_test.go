package inference

import (
	"bytes"
	"encoding/json"
	"slices"
	"testing"

	"arena/games"
)

// dealtValues are a table's deal_private values in order.
func dealtValues(tb *table) []int {
	var out []int
	for _, d := range tb.ofType("deal_private") {
		out = append(out, int(d["value"].(float64)))
	}
	return out
}

// TestSeedDoesNotDeal (§2.2, J8): the deal is drawn from deal_key alone. The same deal key with
// another seed deals the same cards; the same seed with another deal key deals others. So the
// seed match_end reveals computes nothing about any card, and a mucked value stays secret.
func TestSeedDoesNotDeal(t *testing.T) {
	play := func(seed, key [32]byte) *table {
		tb := newTable(t, setupN(4, seed, key, `{"rounds":3}`))
		for tb.m.phase == phasePlaying {
			p := tb.open()
			tb.move(p.Seat-1, `{"action":"`+p.Legal[0].Name+`"}`)
		}
		return tb
	}
	a := play([32]byte{1}, [32]byte{9})
	b := play([32]byte{2}, [32]byte{9})
	c := play([32]byte{1}, [32]byte{10})
	if !slices.Equal(dealtValues(a), dealtValues(b)) {
		t.Fatalf("another seed dealt other cards: %v, %v", dealtValues(a), dealtValues(b))
	}
	if slices.Equal(dealtValues(a), dealtValues(c)) {
		t.Fatalf("another deal key dealt the same cards: %v", dealtValues(a))
	}
	// The cards are not the seed's deck either: shuffling with the revealed seed as the key
	// gives another order.
	seed := [32]byte{1}
	if deck := Deck(seed[:], 1, 100); slices.Equal(deck[:4], dealtValues(a)[:4]) {
		t.Fatalf("the seed's deck is the deal: %v", deck[:4])
	}
}

// TestMuckedValueNeverPublished (§2.9, §2.10): seat 2's mucked 48 in hand 2 and seat 0's folded
// 37 in hand 1 are in no public line, no spectator view and no other seat's view, during the
// match or after it; seat 2's own view held its 48 only while the hand ran; the replay (every
// line shown once the match has ended) has no deal_private line.
func TestMuckedValueNeverPublished(t *testing.T) {
	s := setupN(3, seq0(), seq0(), `{"rounds":2}`)
	s.Round = "m_ex_inference"
	tb := newTable(t, s)
	check := func(when string) {
		t.Helper()
		for v := 0; v <= 3; v++ {
			b := tb.m.View(v).Bytes()
			for _, secret := range []struct {
				round, seat, value int
			}{{1, 0, 37}, {2, 2, 48}} {
				mine := v == secret.seat+1 && tb.m.round == secret.round && tb.m.phase == phasePlaying
				if !mine && bytes.Contains(b, []byte(`"value":`+itoa(secret.value))) {
					t.Fatalf("%s: view %d holds %d: %s", when, v, secret.value, b)
				}
			}
		}
	}
	steps := []func(){
		func() { tb.move(1, `{"action":"raise","amount":4}`) },
		func() { tb.move(2, `{"action":"raise","amount":6}`) },
		func() { tb.move(0, `{"action":"fold"}`) },
		func() { tb.move(1, `{"action":"call"}`) },
		func() { tb.move(2, `{"action":"check"}`) },
		func() { tb.move(0, `{"action":"raise","amount":3}`) },
		func() { tb.expire(1) },
		func() { tb.move(2, `{"action":"call"}`) },
	}
	check("the first prompt")
	for i, st := range steps {
		st()
		check("step " + itoa(i))
	}
	var own struct {
		Value *int `json:"value"`
	}
	json.Unmarshal(tb.m.View(3).Bytes(), &own)
	if own.Value != nil {
		t.Fatalf("seat 2's view after the end still holds a value: %d", *own.Value)
	}
	for _, e := range games.Redact(tb.evs, 0, true) {
		if e.Type == "deal_private" || bytes.Contains(e.Payload, []byte(`"value":48`)) || bytes.Contains(e.Payload, []byte(`"value":37`)) {
			t.Fatalf("the replay holds %s %s", e.Type, e.Payload)
		}
	}
	// Another seat's replay after the end: its own deal_private lines only.
	for _, e := range games.Redact(tb.evs, 1, true) {
		if e.Type == "deal_private" && !bytes.Contains(e.Payload, []byte(`"seat":0,`)) {
			t.Fatalf("seat 0's log holds %s", e.Payload)
		}
	}
}

func itoa(n int) string { return string(appendInt(nil, n)) }
