package ledger

import (
	"encoding/json"
	"reflect"
	"testing"
	"time"
)

// FuzzPosts reads ops from bytes (kind, hold, pot, amount): whatever the posts, the ledger never
// panics, keeps the invariant after each, and the rows it accepted replay to the same state.
func FuzzPosts(f *testing.F) {
	f.Add([]byte{0, 1, 0, 0, 1, 0, 0, 0, 2, 1, 0, 50, 3, 1, 0, 50, 4, 0, 0, 50})
	f.Add([]byte{0, 0, 0, 0, 2, 0, 0, 200, 5, 0, 0, 90, 6, 0, 0, 1, 7, 0, 0, 0})
	f.Fuzz(func(t *testing.T, b []byte) {
		s := NewState()
		var stored memRows
		holds, pots := []string{"a", "b", "c"}, []string{"p", "q"}
		for len(b) >= 4 {
			op, h, p, amt := b[0]%8, holds[int(b[1])%len(holds)], pots[int(b[2])%len(pots)], int64(b[3])-8
			b = b[4:]
			var r Row
			switch op {
			case 0:
				r = OpenHold(h, "sat", nil)
			case 1:
				r = OpenPot(p, "sat", nil)
			case 2:
				r = Receive(h, "payer", amt, "")
			case 3:
				r = Stake(h, p, amt)
			case 4:
				r = Release(h, p, amt)
			case 5:
				r = Refund(h, "payer", amt, "")
			case 6:
				bal := s.Pots[p].Balance
				r = Settle(p, []Payout{{"w", bal - amt%3}}, amt%3)
			case 7:
				r = NotePot(p, json.RawMessage(`{"n":1}`))
			}
			if err := post(s, r); err == nil {
				r.Seq, r.At, r.Unit = s.Last, time.Unix(0, 0).UTC(), "sat"
				enc, _ := json.Marshal(r)
				stored = append(stored, enc)
			}
			if err := Check(s); err != nil {
				t.Fatal(err)
			}
		}
		again, err := Replay(stored)
		if err != nil || !reflect.DeepEqual(again, s) {
			t.Fatalf("replay: %v", err)
		}
	})
}
