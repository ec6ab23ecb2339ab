package market

// inRange refuses a command whose movements would take any holding (a Player's, or a system
// Inventory's balance, @issuance's being negative) past ±(2^53−1), the largest integer every
// JSON reader holds exactly: the same bound request quantities have (maxQuantity). Movements
// are worked in order on the request's view of each Inventory, so the check sees every
// intermediate balance. The spec names no cap and no code for it; the refusal is
// malformed_request, the code of every out-of-range value (docs/protocol-notes.md "Holdings
// stay within 2^53−1"). It writes nothing, so the command changes nothing.
func (t *txn) inRange(moves []movement) *refusal {
	type key struct{ inv, asset string }
	bal := make(map[key]int64, 2*len(moves))
	get := func(k key) int64 {
		if v, ok := bal[k]; ok {
			return v
		}
		var v int64
		if inv := t.inv(k.inv); inv != nil {
			v = inv.Holdings[k.asset]
		}
		return v
	}
	for _, m := range moves {
		from, to := key{m.from, m.asset}, key{m.to, m.asset}
		f, g := get(from)-m.q, get(to)+m.q
		if f < -maxQuantity || g > maxQuantity {
			return malformed("the command would take a holding of " + m.asset + " past 2^53−1")
		}
		bal[from] = f
		bal[to] = g
	}
	return nil
}
