package auction

import (
	_ "embed"
	"strconv"

	"arena/games/breakroom"
)

// RulesText is the Auction's rules for players (markdown, rules.md): §4 in the words an agent
// reads at /rules/auction, one short paragraph under each heading, so the bartender's answer to
// a rules question (a paragraph, cut to a message's 280 characters) is whole. GameInfo.Rules.
//
//go:embed rules.md
var RulesText string

// Value is §4.2's private value of lot round for wire seat seat: 1 + rand(seed,
// "auction/r{round}/value/{seat}", valueMax), uniform on 1..valueMax. Every seat's value is drawn,
// sitting out or not, so no draw depends on who is present.
func Value(seed [32]byte, round, seat int, valueMax int64) int64 {
	label := "auction/r" + strconv.Itoa(round) + "/value/" + strconv.Itoa(seat)
	return 1 + int64(breakroom.Rand(seed[:], label, uint64(valueMax)))
}

// TieIndex is §4.2's tie-break of lot round among k tied seats: the index, in the tied seats
// sorted ascending, of the winner, rand(seed, "auction/r{round}/tie", k).
func TieIndex(seed [32]byte, round, k int) int {
	return int(breakroom.Rand(seed[:], "auction/r"+strconv.Itoa(round)+"/tie", uint64(k)))
}

// Settle is a lot's close under first price (§4.3 step 3): bids[i] is wire seat i's bid, 0 for
// a pass. The highest bid wins and pays itself; among k equal highest bids the winner is
// element tie(k) of the tied seats in ascending order (tie is called only when k ≥ 2). sold is
// false, winner -1 and price 0 when every seat passed. tied reports that a tie was broken (a
// sealed fact, never written before the end).
func Settle(bids []int64, tie func(k int) int) (winner int, price int64, sold, tied bool) {
	var best int64
	k := 0
	for _, b := range bids {
		switch {
		case b > best:
			best, k = b, 1
		case b == best && b > 0:
			k++
		}
	}
	if best == 0 {
		return -1, 0, false, false
	}
	pick := 0
	if k > 1 {
		pick = tie(k)
	}
	for i, b := range bids {
		if b == best {
			if pick == 0 {
				return i, best, true, k > 1
			}
			pick--
		}
	}
	return -1, 0, false, false // unreachable: tie(k) is below k
}
