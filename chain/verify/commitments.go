package verify

import (
	"crypto/ed25519"
	"encoding/json"
	"fmt"

	"arena/games/blitz/commitment"
	"arena/games/canon"
)

// checkCommitments checks every sealed commitment the revealed transcript carries in clear
// (the sealed-visibility commitment.sealed event, §7, §11.4): its id is SHA-256 of the
// canonical bytes of the object without sig (§7.2); the event's amount, the object's round,
// and its payer, payee and due agree with the public commitment.sealed record just before it
// (seats mapped to agents by seat.taken); the sig is well-formed, and verifies (§7.3) when keys
// hold the payer's key. One line per commitment, at its sealed event.
func checkCommitments(t Transcript, keys map[string]ed25519.PublicKey, add func(int, bool, string, string, ...any)) {
	agents := map[int]string{}
	fromSeat := map[string]ed25519.PublicKey{} // keys published in seat.taken (§7.3), when Keys has none
	type pub struct {
		ID           string `json:"id"`
		Payer, Payee int
		Due          int `json:"due"`
	}
	publics := map[string]pub{}
	for i, e := range t.Events {
		switch {
		case e.Type == "seat.taken":
			var p struct {
				Seat       int    `json:"seat"`
				Agent      string `json:"agent"`
				SigningKey string `json:"signing_key"`
			}
			_ = json.Unmarshal(e.Payload, &p)
			agents[p.Seat] = p.Agent
			if k, err := canon.ParseKey(p.SigningKey); err == nil && p.Agent != "" {
				if _, given := keys[p.Agent]; !given {
					fromSeat[p.Agent] = k
				}
			}
		case e.Type == "commitment.sealed" && e.Visibility == "public":
			var p pub
			_ = json.Unmarshal(e.Payload, &p)
			publics[p.ID] = p
		case e.Type == "commitment.sealed" && e.Visibility == "sealed":
			var p struct {
				Amount     int64           `json:"amount"`
				Commitment json.RawMessage `json:"commitment"`
				ID         string          `json:"id"`
			}
			_ = json.Unmarshal(e.Payload, &p)
			name := "commitment " + short(p.ID)
			c, cb, err := commitment.Parse(p.Commitment)
			if err != nil {
				add(i, false, name, "event %d: the sealed object does not parse: %v", i+1, err)
				continue
			}
			pp, seen := publics[p.ID]
			var bad string
			switch {
			case cb.ID != p.ID:
				bad = fmt.Sprintf("SHA-256 of its canonical bytes is %s, the event says %s", short(cb.ID), short(p.ID))
			case !seen:
				bad = "no public commitment.sealed with that id before it"
			case c.Amount != p.Amount:
				bad = fmt.Sprintf("the event's amount %d microCCD is not the signed %d", p.Amount, c.Amount)
			case c.Round != t.Round:
				bad = fmt.Sprintf("signed for round %q", c.Round)
			case agents[pp.Payer] != c.Payer || agents[pp.Payee] != c.Payee:
				bad = fmt.Sprintf("public record seat %d → seat %d, signed %s → %s", pp.Payer, pp.Payee, c.Payer, c.Payee)
			case pp.Due != c.Due:
				bad = fmt.Sprintf("public due %d, signed due %d", pp.Due, c.Due)
			}
			if bad != "" {
				add(i, false, name, "event %d: %s", i+1, bad)
				continue
			}
			sig := "sig well-formed, not verified (no key for the payer)"
			key, ok := keys[c.Payer]
			from := "the payer's key"
			if !ok {
				key, ok = fromSeat[c.Payer]
				from = "the payer's key from its seat.taken"
			}
			if ok {
				if err := commitment.Verify(cb, c.Sig, key); err != nil {
					add(i, false, name, "event %d: %v", i+1, err)
					continue
				}
				sig = "sig verifies under " + from
			}
			add(i, true, name, "turn %d, seat %d → seat %d, %d microCCD due %d: id = SHA-256 of its canonical bytes; %s",
				c.Turn, pp.Payer, pp.Payee, c.Amount, c.Due, sig)
		}
	}
}
