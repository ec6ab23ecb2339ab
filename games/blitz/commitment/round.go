package commitment

import "strconv"

// ParseRound returns n for a round id "T-<n>" (§3) and whether the id is valid. It is the one
// rule for round ids in games/blitz (Setup.Round at New, a commitment's round, a script's
// round): "T-" then the decimal digits of n, 1 ≤ n ≤ 2^64−1, no sign and no leading zero, so
// every round has exactly one id and n fits the anchor layout's u64 round field (§5.5, offset 6).
// "T-0", "T-01", "T-18446744073709551616" (2^64) and "T-" are invalid.
func ParseRound(id string) (uint64, bool) {
	if len(id) < 3 || id[:2] != "T-" || id[2] == '0' {
		return 0, false
	}
	d := id[2:]
	if len(d) <= 19 { // below 10^19 < 2^64: read directly, no overflow possible
		var n uint64
		for i := 0; i < len(d); i++ {
			if d[i] < '0' || d[i] > '9' {
				return 0, false
			}
			n = n*10 + uint64(d[i]-'0')
		}
		return n, true
	}
	for i := 0; i < len(d); i++ {
		if d[i] < '0' || d[i] > '9' {
			return 0, false
		}
	}
	n, err := strconv.ParseUint(d, 10, 64)
	if err != nil {
		return 0, false
	}
	return n, true
}
