package ledger

import (
	"encoding/json"
	"errors"
	"fmt"
	"math/rand/v2"
	"reflect"
	"testing"
	"time"
)

// memRows is Rows over rows in memory.
type memRows [][]byte

func (m memRows) LedgerRows(from uint64, fn func(uint64, []byte) error) error {
	for i, b := range m {
		if seq := uint64(i + 1); seq >= from {
			if err := fn(seq, b); err != nil {
				return err
			}
		}
	}
	return nil
}

// post applies rows to s as the actor does (sequence, unit from the hold or pot), all or nothing.
func post(s *State, rows ...Row) error {
	var undos []func()
	for _, r := range rows {
		r.Seq, r.At = s.Last+1, time.Unix(0, 0).UTC()
		if r.Unit == "" {
			if h, ok := s.Holds[r.Hold]; ok {
				r.Unit = h.Unit
			} else if p, ok := s.Pots[r.Pot]; ok {
				r.Unit = p.Unit
			}
		}
		undo, err := s.apply(&r)
		if err != nil {
			for i := len(undos) - 1; i >= 0; i-- {
				undos[i]()
			}
			return err
		}
		undos = append(undos, undo)
	}
	return nil
}

func mustCheck(t testing.TB, s *State) {
	t.Helper()
	if err := Check(s); err != nil {
		t.Fatal(err)
	}
}

// A paid round worked by hand: three seats of 50 in microCCD, two paid by players (one
// over-paid by 7 and refunded), one by the house; the pot settles 80 + 40 to the players and
// 30 to the house.
func TestStateWorkedRound(t *testing.T) {
	s := NewState()
	const u = "microCCD"
	steps := [][]Row{
		{OpenHold("h1", u, json.RawMessage(`{"seat":1}`)), OpenHold("h2", u, nil), OpenHold("house/1", u, nil)},
		{Receive("h1", "acct:one", 57, "dep:1"), Receive("h2", "acct:two", 50, "dep:2"), Receive("house/1", "acct:arena", 50, "dep:3")},
		{OpenPot("T-1", u, json.RawMessage(`{"table":"o_1"}`)), Stake("h1", "T-1", 50), Stake("h2", "T-1", 50), Stake("house/1", "T-1", 50)},
		{Refund("h1", "acct:one", 7, "refund:dep:1")},
		{Settle("T-1", []Payout{{"acct:one", 80}, {"acct:two", 40}}, 30)},
	}
	for i, rows := range steps {
		if err := post(s, rows...); err != nil {
			t.Fatalf("step %d: %v", i+1, err)
		}
		mustCheck(t, s)
	}
	if got, want := s.Units[u], (Totals{Received: 157, PaidOut: 120, Refunded: 7, House: 30}); got != want {
		t.Fatalf("totals %+v, want %+v", got, want)
	}
	if p := s.Pots["T-1"]; p.Settled != 12 || p.Balance != 0 || string(p.Memo) != `{"table":"o_1"}` {
		t.Fatalf("pot %+v", p)
	}
	if h := s.Holds["h1"]; h.Balance != 0 || h.Received != 57 || h.Staked != 50 || h.Refunded != 7 {
		t.Fatalf("hold %+v", h)
	}
}

// PaidTo sums what settled pots of one unit paid an account: two rounds pay the pool 12 and 5;
// an unsettled pot, another unit and other accounts count nothing.
func TestStatePaidTo(t *testing.T) {
	s := NewState()
	const u = "microCCD"
	rows := []Row{OpenHold("h", u, nil), Receive("h", "acct:one", 300, "dep:1"), OpenHold("x", "sat", nil), Receive("x", "acct:one", 40, "dep:2")}
	for _, pot := range []string{"T-1", "T-2", "T-3"} {
		rows = append(rows, OpenPot(pot, u, nil), Stake("h", pot, 100))
	}
	rows = append(rows, OpenPot("L-1", "sat", nil), Stake("x", "L-1", 40),
		Settle("T-1", []Payout{{"acct:one", 60}, {"pool", 12}}, 28),
		Settle("T-2", []Payout{{"pool", 5}, {"acct:one", 95}}, 0),
		Settle("L-1", []Payout{{"pool", 40}}, 0))
	if err := post(s, rows...); err != nil {
		t.Fatal(err)
	}
	mustCheck(t, s)
	if got := s.PaidTo(u, "pool"); got != 17 {
		t.Fatalf("PaidTo(pool) %d, want 17", got)
	}
	if got := s.PaidTo(u, "acct:one"); got != 155 {
		t.Fatalf("PaidTo(acct:one) %d, want 155", got)
	}
	if got := s.PaidTo("sat", "pool"); got != 40 {
		t.Fatalf("PaidTo(sat, pool) %d, want 40", got)
	}
}

// Every refusal names its sentinel and leaves the state exactly as it was (a Post is all or
// nothing: the valid rows before the bad one are undone too).
func TestStateRefusalsChangeNothing(t *testing.T) {
	base := NewState()
	const u = "sat"
	if err := post(base, OpenHold("a", u, nil), Receive("a", "payer", 100, "inv:1"), OpenPot("p", u, nil), Stake("a", "p", 60),
		OpenPot("done", u, nil), Stake("a", "done", 10), Settle("done", []Payout{{"payer", 10}}, 0), OpenHold("usd", "usdc-micro", nil)); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name string
		rows []Row
		want error
	}{
		{"hold opened twice", []Row{OpenHold("a", u, nil)}, ErrExists},
		{"pot opened twice", []Row{OpenPot("p", u, nil)}, ErrExists},
		{"receive into no hold", []Row{Receive("nope", "payer", 1, "")}, ErrUnknown},
		{"the same deposit twice", []Row{Receive("a", "payer", 1, "inv:1")}, ErrDuplicate},
		{"the same deposit twice in one post", []Row{Receive("a", "x", 1, "inv:2"), Receive("a", "x", 1, "inv:2")}, ErrDuplicate},
		{"stake beyond the hold", []Row{Stake("a", "p", 31)}, ErrInsufficient},
		{"refund beyond the hold", []Row{Refund("a", "payer", 31, "")}, ErrInsufficient},
		{"release beyond the stake", []Row{Release("a", "p", 61)}, ErrInsufficient},
		{"stake into a settled pot", []Row{Stake("a", "done", 1)}, ErrSettled},
		{"settle twice", []Row{Settle("done", nil, 0)}, ErrSettled},
		{"settle short of the pot", []Row{Settle("p", []Payout{{"payer", 59}}, 0)}, ErrUnbalanced},
		{"settle beyond the pot", []Row{Settle("p", []Payout{{"payer", 50}}, 11)}, ErrUnbalanced},
		{"payouts that wrap int64 back to the pot", []Row{Settle("p", wrapping(60), 0)}, ErrUnbalanced},
		{"a negative payout", []Row{Settle("p", []Payout{{"payer", 70}, {"x", -10}}, 0)}, ErrBadRow},
		{"a zero amount", []Row{Receive("a", "payer", 0, "")}, ErrBadRow},
		{"a negative amount", []Row{Stake("a", "p", -5)}, ErrBadRow},
		{"an amount beyond MaxAmount", []Row{Receive("a", "payer", MaxAmount+1, "")}, ErrBadRow},
		{"a balance beyond MaxAmount", []Row{Receive("a", "payer", MaxAmount, "")}, ErrBadRow},
		{"a unit across", []Row{{Kind: KindStake, Hold: "usd", Pot: "p", Amount: 1, Unit: "usdc-micro"}}, ErrBadRow},
		{"a receive with no payer", []Row{Receive("a", "", 5, "")}, ErrBadRow},
		{"an unknown kind", []Row{{Kind: "mint", Hold: "a", Unit: u, Amount: 5}}, ErrBadRow},
		{"a memo that is not JSON", []Row{NoteHold("a", json.RawMessage(`{`))}, ErrBadRow},
		{"valid rows then a bad one", []Row{OpenHold("b", u, nil), Receive("b", "x", 5, "inv:9"), Stake("b", "p", 6)}, ErrInsufficient},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := base.Clone()
			if err := post(s, tt.rows...); !errors.Is(err, tt.want) {
				t.Fatalf("got %v, want %v", err, tt.want)
			}
			if !reflect.DeepEqual(s, base) {
				t.Fatalf("a refused post changed the state:\n%+v\nwas\n%+v", s, base)
			}
			mustCheck(t, s)
		})
	}
}

// wrapping is sixteen payouts of MaxAmount (2^64 in all, 0 in int64) plus one of rest: a settle
// whose sum, added without bounds, wraps to rest.
func wrapping(rest int64) []Payout {
	var ps []Payout
	for range 16 {
		ps = append(ps, Payout{"thief", MaxAmount})
	}
	return append(ps, Payout{"payer", rest})
}

// Check finds a settled pot whose payouts wrap int64 to its stakes: money created, though the
// wrapped sum matches.
func TestCheckRefusesWrappingPayouts(t *testing.T) {
	s := NewState()
	if err := post(s, OpenHold("a", "sat", nil), Receive("a", "payer", 100, "inv:1"), OpenPot("p", "sat", nil), Stake("a", "p", 60),
		Settle("p", []Payout{{"payer", 60}}, 0)); err != nil {
		t.Fatal(err)
	}
	mustCheck(t, s)
	p := s.Pots["p"]
	p.Payouts = wrapping(60)
	s.Pots["p"] = p
	if err := Check(s); err == nil {
		t.Fatal("Check passed a settled pot paying 2^64 + 60 out of 60")
	}
}

// Random posts, valid or not: the invariant holds after each, and replaying the rows written
// gives the same state.
func TestStateRandomPostsKeepTheInvariant(t *testing.T) {
	seed := uint64(time.Now().UnixNano())
	t.Logf("seed %d", seed)
	rng := rand.New(rand.NewPCG(seed, 1))
	s := NewState()
	var stored memRows
	holds, pots := []string{"h0", "h1", "h2", "h3"}, []string{"p0", "p1", "p2"}
	units := []string{"microCCD", "sat"}
	pick := func(xs []string) string { return xs[rng.IntN(len(xs))] }
	for i := 0; i < 3000; i++ {
		var r Row
		amt := rng.Int64N(120) - 10
		switch rng.IntN(8) {
		case 0:
			r = OpenHold(pick(holds)+pick(units), pick(units), nil)
		case 1:
			r = OpenPot(pick(pots)+pick(units), pick(units), nil)
		case 2:
			r = Receive(pick(holds)+pick(units), "payer", amt, fmt.Sprintf("ref:%d", rng.IntN(2000)))
		case 3, 4:
			u := pick(units)
			r = Stake(pick(holds)+u, pick(pots)+u, amt)
		case 5:
			u := pick(units)
			r = Release(pick(holds)+u, pick(pots)+u, amt)
		case 6:
			r = Refund(pick(holds)+pick(units), "payer", amt, "")
		case 7:
			id := pick(pots) + pick(units)
			bal := s.Pots[id].Balance
			house := rng.Int64N(bal + 1)
			r = Settle(id, []Payout{{"winner", bal - house + rng.Int64N(3) - 1}}, house)
		}
		before := s.Last
		if err := post(s, r); err == nil {
			r.Seq, r.At = s.Last, time.Unix(0, 0).UTC()
			if r.Unit == "" {
				if h, ok := s.Holds[r.Hold]; ok {
					r.Unit = h.Unit
				} else {
					r.Unit = s.Pots[r.Pot].Unit
				}
			}
			b, _ := json.Marshal(r)
			stored = append(stored, b)
		} else if s.Last != before {
			t.Fatalf("post %d refused (%v) but moved the sequence", i, err)
		}
		mustCheck(t, s)
	}
	again, err := Replay(stored)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(again, s) {
		t.Fatal("replaying the rows gives another state")
	}
	t.Logf("%d rows, totals %+v", len(stored), s.Units)
}

func TestReplayRefusesCorruptRows(t *testing.T) {
	good, _ := json.Marshal(Row{Seq: 1, Kind: KindHold, Hold: "a", Unit: "sat"})
	tests := []struct {
		name string
		rows memRows
	}{
		{"not JSON", memRows{[]byte("{")}},
		{"a row under another sequence", memRows{[]byte(`{"seq":2,"kind":"hold","hold":"a","unit":"sat"}`)}},
		{"a row that does not apply", memRows{good, []byte(`{"seq":2,"kind":"stake","hold":"a","pot":"p","unit":"sat","amount":1}`)}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if _, err := Replay(tt.rows); !errors.Is(err, ErrCorrupt) {
				t.Fatalf("got %v, want ErrCorrupt", err)
			}
		})
	}
}
