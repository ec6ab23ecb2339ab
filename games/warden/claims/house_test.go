package claims

import (
	"testing"

	"arena/games"
)

// TestHouseAnswer: two house players play a whole match through the contract; every answer is
// accepted, the house claims truthfully, never messages, never overshoots against itself (asks
// ≤ 50 % each), and the match ends with the balances worked by hand below.
func TestHouseAnswer(t *testing.T) {
	m, _ := Engine{}.New(setup(1_000_000), nil)
	for n := 0; n < 100; n++ {
		d, ok := m.Deadline()
		if !ok {
			break
		}
		m.Advance(d)
		for len(m.Prompts()) > 0 {
			p := m.Prompts()[0]
			body := Engine{}.HouseAnswer(p, 1)
			if body == nil {
				t.Fatalf("no answer to %+v", p.Move)
			}
			if _, err := m.Act(d, games.Input{Seat: p.Seat, Kind: "answer", Move: p.Move, Body: body}); err != nil {
				t.Fatalf("house answer %s refused: %v", body, err)
			}
		}
	}
	res, ok := m.Result()
	if !ok || res.Payouts[1]+res.Payouts[2]+res.House != 2_000_000 {
		t.Fatalf("result %v %+v", ok, res)
	}
	// Seed 00..1f, asks min(v, 5000), pot 200 000 (pay = ask × 20), each funds 100 000 a round:
	// R1 (5000, 3100) → A 1 000 000, B 962 000; R2, R3 (5000, 5000) → unchanged;
	// R4 (4300, 4200) → A 986 000, B 946 000; R5 (4600, 5000) → A 978 000, B 946 000.
	mm := m.(*match)
	for n, r := range mm.st.Rounds {
		if r.Claim != r.Val || r.Sent[0] || r.Sent[1] || r.Res.Overshoot {
			t.Fatalf("round %d: %+v", n+1, r)
		}
	}
	if mm.st.Balance != [2]int64{978_000, 946_000} {
		t.Fatalf("balances %v", mm.st.Balance)
	}
	if (Engine{}).HouseAnswer(games.Prompt{}, 1) != nil {
		t.Fatal("answered a prompt without state")
	}
}
