package blitz

import (
	"fmt"
	"regexp"
	"strconv"
	"testing"
)

// Found by tester T1 on a live Practice table (6 seats): house seat 6 said in public "Seat 19,
// what are you offering this turn?". HouseAnswer fills the lines "Seat %d, what are you offering
// this turn?" and "Pass for now; I'll commit if seat %d commits first." with the random CCD
// figure (1..20) meant for the other lines, so house seats address seats that do not exist.
// A walk-in reading the table (or a §9 `veto`-task call matched on "seat N") is misled. Right
// behaviour: every "seat N" a house line names is a seat of the table.
func TestHostileHouseNamesSeatsThatDoNotExist(t *testing.T) {
	e := NewEngine(DefaultFees())
	seatRef := regexp.MustCompile(`(?i)\bseat (\d+)`)
	for seed := uint64(1); seed <= 20; seed++ {
		h := newHarness(t, testSetup("blitz", 6, ""))
		for turn := 1; turn <= 2; turn++ {
			for ex := 1; ex <= 3; ex++ {
				h.to(turn, "talk", ex)
				for _, p := range h.m.Prompts() {
					body := string(e.HouseAnswer(p, seed))
					for _, m := range seatRef.FindAllStringSubmatch(body, -1) {
						n, _ := strconv.Atoi(m[1])
						if n < 1 || n > 6 {
							t.Fatalf("seed %d, seat %d, %s: house line names seat %d at a 6-seat table: %s",
								seed, p.Seat, fmt.Sprint(p.Move), n, body)
						}
					}
				}
			}
		}
	}
}
