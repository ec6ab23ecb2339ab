package market

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/binary"
	"math/rand/v2"
)

// firing is one matched Game Rule's movements in one Settlement.
type firing struct {
	rule *Rule
	line *string // the drawn story line; nil when the rule has none
}

// matches reports whether rule is active at the settlement instant and its condition holds on
// the live Round's Terms.
func (t *txn) matches(rule *Rule, rd *Round) bool {
	if !rule.ActiveFrom.IsZero() && t.now.Before(rule.ActiveFrom) {
		return false
	}
	if !rule.ActiveUntil.IsZero() && !t.now.Before(rule.ActiveUntil) {
		return false
	}
	carries := func(have, want []Holding) bool {
		for _, w := range want {
			ok := false
			for _, h := range have {
				if h.AssetID == w.AssetID && h.Quantity >= w.Quantity {
					ok = true
				}
			}
			if !ok {
				return false
			}
		}
		return true
	}
	return carries(rd.Offered, rule.When.Offered) && carries(rd.Requested, rule.When.Requested)
}

// drawLine draws one line of rule's pool for its firing on Exchange id: deterministic from the
// seed, the rule and the Exchange (an Exchange settles once, so that is the firing).
func (st *State) drawLine(rule *Rule, exchange string) *string {
	if len(rule.Lines) == 0 {
		return nil
	}
	m := hmac.New(sha256.New, st.seed[:])
	m.Write([]byte("line/" + rule.ID + "/" + exchange))
	s := m.Sum(nil)
	r := rand.New(rand.NewPCG(binary.BigEndian.Uint64(s[:8]), binary.BigEndian.Uint64(s[8:16])))
	line := rule.Lines[r.IntN(len(rule.Lines))]
	return &line
}

// movement is one Ledger movement a command would make: q of asset from one Inventory to
// another.
type movement struct {
	from, to, asset string
	q               int64
}

// settlement is what settling approved Exchange x, answered by answerer, would do ("Exchange",
// "Game Rules and the story line", "unfunded has two causes"), decided without writing: funded
// false when it concludes unfunded, else the matched rules and every movement in order (both
// directions, then each rule movement). The answering party must cover its own side from its
// Available; then the matched rules' movements are worked in order on what each party would
// have Available after the Settlement (Assets Reserved by other open Exchanges stay
// unavailable), and a withdrawal beyond it fails the whole Settlement.
func (t *txn) settlement(x *Exchange, answerer string) (fired []firing, moves []movement, funded bool) {
	live := x.live()
	author := live.Author
	give := x.side(live, author)
	take := x.side(live, answerer)
	if !t.covers(answerer, take) {
		return nil, nil, false
	}
	// What each party would have Available after the Settlement, for the Assets rules touch.
	avail := map[string]map[string]int64{author: {}, answerer: {}}
	after := func(party, asset string) int64 {
		if v, ok := avail[party][asset]; ok {
			return v
		}
		v := t.inv(party).available(asset)
		for _, h := range give { // the author's reservation is released and given: net zero
			if h.AssetID == asset && party == answerer {
				v += h.Quantity
			}
		}
		for _, h := range take {
			if h.AssetID == asset {
				if party == answerer {
					v -= h.Quantity
				} else {
					v += h.Quantity
				}
			}
		}
		avail[party][asset] = v
		return v
	}
	for i := range t.st.cfg.Rules {
		rule := &t.st.cfg.Rules[i]
		if !t.matches(rule, live) {
			continue
		}
		for _, m := range rule.Moves {
			party := x.Proposer
			if m.Party == partyCounterparty {
				party = x.Counterparty
			}
			v := after(party, m.AssetID)
			if m.Kind == moveWithdrawal {
				v -= m.Quantity
			} else {
				v += m.Quantity
			}
			if v < 0 {
				return nil, nil, false
			}
			avail[party][m.AssetID] = v
		}
		fired = append(fired, firing{rule: rule, line: t.st.drawLine(rule, x.ID)})
	}
	for _, h := range give {
		moves = append(moves, movement{author, answerer, h.AssetID, h.Quantity})
	}
	for _, h := range take {
		moves = append(moves, movement{answerer, author, h.AssetID, h.Quantity})
	}
	for _, f := range fired {
		for _, m := range f.rule.Moves {
			party := x.Proposer
			if m.Party == partyCounterparty {
				party = x.Counterparty
			}
			if m.Kind == moveGrant {
				moves = append(moves, movement{Issuance, party, m.AssetID, m.Quantity})
			} else {
				moves = append(moves, movement{party, Treasury, m.AssetID, m.Quantity})
			}
		}
	}
	return fired, moves, true
}

// settle settles approved Exchange x, answered by answerer, as settlement decided (fired and
// funded are its results): unfunded concludes the Exchange moving nothing and releasing the
// author's reservation, identically whatever the cause; funded releases the reservation, moves
// both directions, then every rule movement, in one step, and stores each party's
// ruleApplied/ruleNote.
func (t *txn) settle(x *Exchange, answerer, commandID string, fired []firing, funded bool) {
	if !funded {
		t.conclude(x, StatusUnfunded)
		return
	}
	live := x.live()
	author := live.Author
	give := x.side(live, author)
	take := x.side(live, answerer)
	// Fundable: release, move both directions, then the rules in order.
	t.reserve(author, give, -1)
	row := LedgerRow{ExchangeID: x.ID, Issuer: answerer, CommandID: commandID}
	for _, h := range give {
		t.move(ReasonSettlement, author, answerer, h.AssetID, h.Quantity, row)
	}
	for _, h := range take {
		t.move(ReasonSettlement, answerer, author, h.AssetID, h.Quantity, row)
	}
	for _, f := range fired {
		r := row
		r.RuleID, r.RuleNote = f.rule.ID, f.line
		for _, m := range f.rule.Moves {
			party, sig := x.Proposer, &x.ProposerRule
			if m.Party == partyCounterparty {
				party, sig = x.Counterparty, &x.CounterRule
			}
			if m.Kind == moveGrant {
				t.move(ReasonRuleGrant, Issuance, party, m.AssetID, m.Quantity, r)
			} else {
				t.move(ReasonRuleWithdrawal, party, Treasury, m.AssetID, m.Quantity, r)
			}
			if !sig.Applied {
				*sig = Signal{Applied: true, Note: f.line}
			}
		}
		x.RulesFired = append(x.RulesFired, f.rule.ID)
	}
	x.Status, x.Version, x.UpdatedAt = StatusSettled, x.Version+1, t.now
}
