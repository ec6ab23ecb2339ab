package werewolf

import (
	"encoding/json"
	"testing"

	"arena/games"
	"arena/games/breakroom"
)

// TestHouseStrategy: the house bot plays its fixed strategy from the prompt's View and, for a
// prompt decoded from JSON, from its state, the same either way: the seer inspects in seat
// order and then names and votes for the wolf it found; the wolf kills and votes for the lowest
// non-wolf; the doctor protects the lowest seat it may; villagers sleep, pass and abstain.
func TestHouseStrategy(t *testing.T) {
	tb := newTable(t, setupN(5, seq0(), "")) // s0 villager, s1 seer, s2 doctor, s3 villager, s4 wolf
	var got []string
	for tb.m.phase == phasePlaying && len(got) < 60 {
		p := tb.open()
		a := Engine{}.HouseAnswer(p, 0)
		decoded := p
		decoded.View = nil
		raw, _ := json.Marshal(p)
		if err := json.Unmarshal(raw, &decoded); err != nil {
			t.Fatal(err)
		}
		if b := (Engine{}).HouseAnswer(decoded, 7); string(b) != string(a) {
			t.Fatalf("prompt %d: from the View %s, from the state %s", len(got), a, b)
		}
		got = append(got, string(a))
		tb.play(breakroom.WireSeat(p.Seat), 5e8, string(a))
	}
	want := []string{
		// Night 1.
		`{"action":"sleep"}`, `{"action":"inspect","target":0}`, `{"action":"protect","target":0}`, `{"action":"sleep"}`, `{"action":"kill","target":0}`,
		// Day 1 (seat 0 protected, alive): two silent passes, the wolf votes seat 0.
		`{"action":"pass"}`, `{"action":"pass"}`, `{"action":"pass"}`, `{"action":"pass"}`, `{"action":"pass"}`,
		`{"action":"pass"}`, `{"action":"pass"}`, `{"action":"pass"}`, `{"action":"pass"}`, `{"action":"pass"}`,
		`{"action":"abstain"}`, `{"action":"abstain"}`, `{"action":"abstain"}`, `{"action":"abstain"}`, `{"action":"vote","target":0}`,
	}
	for i, w := range want {
		if got[i] != w {
			t.Fatalf("house answer %d: %s, want %s (all: %v)", i, got[i], w, got)
		}
	}
	if got := (Engine{}).HouseAnswer(games.Prompt{}, 0); got != nil {
		t.Fatalf("a prompt without actions gets %s", got)
	}
}

// TestHouseTablesVerify: tables of house bots at every size play to their end, and their logs
// verify.
func TestHouseTablesVerify(t *testing.T) {
	for n := 5; n <= 8; n++ {
		for k := range 10 {
			tb := newTable(t, setupN(n, [32]byte{byte(n), byte(k)}, ""))
			for tb.m.phase == phasePlaying {
				p := tb.open()
				tb.play(breakroom.WireSeat(p.Seat), 3e8, string(Engine{}.HouseAnswer(p, 0)))
			}
			if rep := Verify(tb.lines()); !rep.OK {
				t.Fatalf("%d house seats: %+v", n, rep)
			}
			checkEnd(t, tb)
		}
	}
}
