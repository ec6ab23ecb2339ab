package duel

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"strconv"

	"arena/games/canon"
)

// Salt is hex(HMAC-SHA256(key = seed, "warden/salt/v1|<match>|<round>|<seat>|<action>")), seat
// "A" for i = 0 and "B" for 1: fixed by the seed before play, published at the reveal
// (warden-games §15.4, [JC-39]).
func Salt(seed [32]byte, match string, round, i int, action string) string {
	mac := hmac.New(sha256.New, seed[:])
	mac.Write([]byte("warden/salt/v1|" + match + "|" + strconv.Itoa(round) + "|" + SeatName(i) + "|" + action))
	return hex.EncodeToString(mac.Sum(nil))
}

// Commitment is the published hash of seat i's sealed submission x of action in round
// (warden-games §15.4): sha256(JCS({"m": match, "r": round, "s": seat, "a": action, "x": x,
// "salt": Salt(…)})), as "sha256:<hex>". x holds strings, bools and integers within ±(2^53−1)
// (the games' submissions do); for an x canon refuses (a larger integer) Commitment is "".
func Commitment(seed [32]byte, match string, round, i int, action string, x any) string {
	b, err := canon.Marshal(map[string]any{
		"m": match, "r": round, "s": SeatName(i), "a": action, "x": x, "salt": Salt(seed, match, round, i, action),
	})
	if err != nil {
		return ""
	}
	return canon.ID(b)
}
