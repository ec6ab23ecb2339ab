package diplomacy

import (
	"strconv"
	"strings"
	"testing"

	"arena/games/breakroom/diplomacy/board"
)

// TestPressTurnLimit: a press turn is at most max_messages_per_press_turn prompts to one seat
// (§6.5): each send or broadcast re-prompts the seat with the next turn number, the last allowed
// message ends its turn, and done ends it early.
func TestPressTurnLimit(t *testing.T) {
	for _, limit := range []int{3, 1} {
		tb := newTable(t, setup(seq0(), `{"press_rounds":1,"max_messages_per_press_turn":`+strconv.Itoa(limit)+`}`))
		first, second := tb.m.open.seat, tb.m.queue[1]
		to := tb.m.recipients(first)[0]
		turn := tb.m.open.turn
		for k := 1; k <= limit; k++ {
			body := `{"action":"broadcast","message":"public ` + strconv.Itoa(k) + `"}`
			if k%2 == 1 {
				body = `{"action":"send","recipient":` + strconv.Itoa(to) + `,"message":"private ` + strconv.Itoa(k) + `"}`
			}
			tb.play(first, body)
			if k < limit {
				if tb.m.open.seat != first || tb.m.open.turn <= turn {
					t.Fatalf("limit %d, after message %d: open seat %d turn %d (was %d), want seat %d again with a later turn",
						limit, k, tb.m.open.seat, tb.m.open.turn, turn, first)
				}
				turn = tb.m.open.turn
			}
		}
		if tb.m.open.seat != second {
			t.Fatalf("limit %d: after %d messages seat %d is prompted, want the next seat %d", limit, limit, tb.m.open.seat, second)
		}
		if n := len(tb.lines("message_private")) + len(tb.lines("message")); n != limit {
			t.Fatalf("limit %d: %d press lines", limit, n)
		}
		third := tb.m.queue[1]
		tb.play(second, `{"action":"done"}`)
		if tb.m.open.seat != third {
			t.Fatalf("limit %d: done leaves seat %d prompted, want %d", limit, tb.m.open.seat, third)
		}
	}
}

// TestSoloEndsTheGame: a power owning 18 centres after a centre update wins at once, before the
// year limit (§6.10): game_over {reason:"solo", solo: its seat}, then match_end ranking it first
// with solo true, and no winter is played. Standing on an 18th centre in the spring ends nothing.
func TestSoloEndsTheGame(t *testing.T) {
	tb := newTable(t, setup(seq0(), `{"press_rounds":0}`))
	rus, ok := tb.m.seatOf(board.RUS)
	if !ok {
		t.Fatal("no seat plays RUS")
	}
	// RUS owns its 4 home centres and 13 more (every neutral one and GER's kie; GER's and
	// ITA's units are gone) and has one army, in sil, next to vacant ber.
	st := tb.m.st
	st.Owners = map[string]board.Power{}
	for p, cs := range map[board.Power][]string{
		board.RUS: {"mos", "stp", "war", "sev", "nwy", "swe", "den", "hol", "bel", "spa", "por", "tun", "gre", "ser", "bul", "rum", "kie"},
		board.ENG: {"lon", "lvp", "edi"}, board.FRA: {"bre", "par", "mar"}, board.AUS: {"vie", "bud", "tri"},
		board.TUR: {"con", "ank", "smy"}, board.ITA: {"rom", "nap", "ven"}, board.GER: {"ber", "mun"},
	} {
		for _, c := range cs {
			st.Owners[c] = p
		}
	}
	var units []board.Unit
	for _, u := range st.Units {
		if u.Power != board.RUS && u.Power != board.GER && u.Power != board.ITA {
			units = append(units, u)
		}
	}
	st.Units = append(units, board.Unit{Power: board.RUS, Type: board.Army, Loc: "sil"})
	sortUnits(st.Units)
	tb.m.st = st
	if n := st.Centres()["RUS"]; n != 17 {
		t.Fatalf("RUS owns %d centres", n)
	}
	// phase answers every orders prompt of the current phase: RUS's orders, every other seat none.
	phase := func(rusOrders ...string) {
		at := tb.m.st.Phase()
		for tb.m.open != nil && tb.m.st.Phase() == at {
			if tb.m.open.seat == rus {
				tb.play(rus, orders(rusOrders...))
			} else {
				tb.play(tb.m.open.seat, orders())
			}
		}
	}
	phase("A sil - ber") // S1901M: RUS stands on ber; centres change hands only at the fall's update
	if tb.m.st.Over || len(tb.lines("game_over")) != 0 || tb.m.st.Phase() != "F1901M" {
		t.Fatalf("after the spring: phase %s over %v", tb.m.st.Phase(), tb.m.st.Over)
	}
	phase("A ber H")
	over := tb.lines("game_over")
	if len(over) != 1 || over[0]["reason"] != "solo" || over[0]["solo"] != float64(rus) {
		t.Fatalf("game_over %v, want solo by seat %d", over, rus)
	}
	if tb.m.st.Year != 1901 || tb.m.st.Solo != board.RUS || tb.m.st.Centres()["RUS"] != 18 {
		t.Fatalf("year %d solo %q RUS centres %d", tb.m.st.Year, tb.m.st.Solo, tb.m.st.Centres()["RUS"])
	}
	end := tb.lines("match_end")
	if len(end) != 1 {
		t.Fatalf("match_end %v", end)
	}
	top := end[0]["ranking"].([]any)[0].(map[string]any)
	if top["seat"] != float64(rus) || top["solo"] != true || top["score"] != 18.0 || top["rank"] != 1.0 {
		t.Fatalf("ranking's first %v", top)
	}
	if strings.Contains(tb.m.st.Phase(), "W") {
		t.Fatalf("a winter was played after the solo: %s", tb.m.st.Phase())
	}
}
