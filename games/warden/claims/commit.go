package claims

import "arena/games/warden/internal/duel"

// salt is seat i's salt of action in round (warden-games §15.4, [JC-39]).
func (m *match) salt(round, i int, action string) string {
	return duel.Salt(m.st.Setup.Seed, m.st.Setup.Round, round, i, action)
}

// commitment is the published hash of a sealed submission x (warden-games §15.4).
func (m *match) commitment(round, i int, action string, x map[string]int64) string {
	return duel.Commitment(m.st.Setup.Seed, m.st.Setup.Round, round, i, action, x)
}

// salts are round's claim and offer salts per seat, published in round_revealed so anyone can
// check the commitments against what was revealed.
func (m *match) salts(round int) map[string]any {
	out := map[string]any{}
	for i := range 2 {
		out[duel.SeatName(i)] = map[string]string{"claim": m.salt(round, i, ActionClaim), "offer": m.salt(round, i, ActionOffer)}
	}
	return out
}
