package claims

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"strconv"

	"arena/games/canon"
)

// salt is hex(HMAC-SHA256(key = seed, "warden/salt/v1|<match>|<round>|<seat>|<action>")), fixed
// by the seed before play (warden-games §15.4, [JC-39]).
func (m *match) salt(round, i int, action string) string {
	mac := hmac.New(sha256.New, m.st.Setup.Seed[:])
	mac.Write([]byte("warden/salt/v1|" + m.st.Setup.Round + "|" + strconv.Itoa(round) + "|" + seatName(i) + "|" + action))
	return hex.EncodeToString(mac.Sum(nil))
}

// commitment is the published hash of a sealed submission x (warden-games §15.4):
// sha256(JCS({"m": match, "r": round, "s": seat, "a": action, "x": x, "salt": salt})).
func (m *match) commitment(round, i int, action string, x map[string]int64) string {
	b, err := canon.Marshal(map[string]any{
		"m": m.st.Setup.Round, "r": round, "s": seatName(i), "a": action, "x": x, "salt": m.salt(round, i, action),
	})
	if err != nil { // unreachable: short strings and small integers
		return ""
	}
	return canon.ID(b)
}

// salts are round's claim and offer salts per seat, published in round_revealed so anyone can
// check the commitments against what was revealed.
func (m *match) salts(round int) map[string]any {
	out := map[string]any{}
	for i := range 2 {
		out[seatName(i)] = map[string]string{"claim": m.salt(round, i, ActionClaim), "offer": m.salt(round, i, ActionOffer)}
	}
	return out
}
