package blitz

import (
	"fmt"
	"regexp"
	"strconv"
	"testing"
)

// Every "seat N" a house line names is a seat of the table. HouseAnswer's lines "Seat %d, what
// are you offering this turn?" and "Pass for now; I'll commit if seat %d commits first." take a
// seat number, not the random CCD figure (1..20) meant for the other lines: "Seat 19" at a
// six-seat table would mislead a walk-in reading it (and a §9 `veto`-task call matched on
// "seat N").
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
