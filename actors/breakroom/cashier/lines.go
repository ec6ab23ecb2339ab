package cashier

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"sort"
	"strings"
	"time"

	"arena/actors/ledger"
)

// Line is one money line of a paid match's log, after match_end ("Match log": escrow_lock,
// rake_taken, payout, payout_failed, refund); they are not part of the re-simulation.
type Line struct {
	Type   string    `json:"type"`
	T      time.Time `json:"t"`
	Match  string    `json:"match_id"`
	Seat   *int      `json:"seat,omitempty"`
	Sats   int64     `json:"sats"`
	Hash   string    `json:"payment_hash,omitempty"`
	Lnaddr string    `json:"payout_lnaddr,omitempty"`
	Reason string    `json:"reason,omitempty"`
}

// Lines are match's money lines as its pot's memo stands: an escrow_lock per seat, then, once
// settled, rake_taken and a payout (paid), payout_failed (final) or, for an abandoned match, a
// refund per payout; a payout still pending or sending has no line yet. None for a free match.
func (c *Cashier) Lines(ctx context.Context, match string) ([]Line, error) {
	p, found, err := c.led.Pot(ctx, PotID(match))
	if err != nil {
		return nil, walletError("the ledger", err)
	}
	var pm potMemo
	if !found || json.Unmarshal(p.Memo, &pm) != nil {
		return nil, nil
	}
	var out []Line
	for _, s := range pm.Seats {
		seat := s.Seat
		out = append(out, Line{Type: "escrow_lock", T: pm.Locked, Match: match, Seat: &seat, Sats: pm.Stake, Hash: s.Hash})
	}
	sm := pm.Settlement
	if sm == nil {
		return out, nil
	}
	out = append(out, Line{Type: "rake_taken", T: sm.At, Match: match, Sats: sm.Rake})
	for _, q := range sm.Payouts {
		seat := q.Seat
		l := Line{T: q.At, Match: match, Seat: &seat, Sats: q.Sats, Hash: q.Hash, Lnaddr: q.Lnaddr}
		switch {
		case q.Status == PayoutPaid && sm.Abandoned:
			l.Type, l.Reason = "refund", "abandoned"
		case q.Status == PayoutPaid:
			l.Type = "payout"
		case q.Status == PayoutFailed:
			l.Type, l.Reason = "payout_failed", q.Error
		default:
			continue
		}
		out = append(out, l)
	}
	return out, nil
}

// Entry is one line of an agent's money ledger (GET /v0/agents/{pubkey} ledger).
type Entry struct {
	Kind   string    `json:"kind"` // stake, refund, payout, payout_failed, payout_pending
	Game   string    `json:"game,omitempty"`
	Match  string    `json:"match_id,omitempty"`
	Sats   int64     `json:"sats"`
	Hash   string    `json:"payment_hash,omitempty"`
	At     time.Time `json:"t,omitzero"` // when the payout was settled or failed; stakes and refunds carry none
	Status string    `json:"status,omitempty"`
}

// AgentLedger is key's money: each stake received, refund, and payout with its status, and the
// sats credited but not paid (pending, sending or failed payouts).
type AgentLedger struct {
	Entries  []Entry `json:"entries"`
	StakedIn int64   `json:"staked_sats"`
	Refunded int64   `json:"refunded_sats"`
	PaidOut  int64   `json:"paid_sats"`
	Credited int64   `json:"credited_unpaid_sats"`
}

// Agent is key's AgentLedger.
func (c *Cashier) Agent(ctx context.Context, key string) (AgentLedger, error) {
	st, err := c.led.State(ctx)
	if err != nil {
		return AgentLedger{}, walletError("the ledger", err)
	}
	out := AgentLedger{Entries: []Entry{}}
	for id, h := range st.Holds {
		var m holdMemo
		if !strings.HasPrefix(id, "ln:") || json.Unmarshal(h.Memo, &m) != nil || m.Key != key || h.Received == 0 {
			continue
		}
		hx := strings.TrimPrefix(id, "ln:")
		out.Entries = append(out.Entries, Entry{Kind: "stake", Game: m.Game, Match: m.Match, Sats: h.Received, Hash: hx})
		out.StakedIn += h.Received
		if h.Refunded > 0 {
			out.Entries = append(out.Entries, Entry{Kind: "refund", Game: m.Game, Sats: h.Refunded, Hash: hx})
			out.Refunded += h.Refunded
		}
	}
	for _, p := range sortedPots(st) {
		var pm potMemo
		if json.Unmarshal(p.Memo, &pm) != nil || pm.Settlement == nil {
			continue
		}
		for _, q := range pm.Settlement.Payouts {
			if q.Key != key {
				continue
			}
			e := Entry{Kind: "payout", Game: pm.Game, Match: strings.TrimPrefix(p.ID, "match:"), Sats: q.Sats, Hash: q.Hash, At: q.At, Status: q.Status}
			if q.Status == PayoutPaid {
				out.PaidOut += q.Sats
			} else {
				out.Credited += q.Sats
			}
			out.Entries = append(out.Entries, e)
		}
	}
	sort.SliceStable(out.Entries, func(i, j int) bool {
		if out.Entries[i].Match != out.Entries[j].Match {
			return out.Entries[i].Match < out.Entries[j].Match
		}
		return out.Entries[i].Kind > out.Entries[j].Kind
	})
	return out, nil
}

// Totals are the paid tables' money by where it is, in sats, summed from the ledger.
type Totals struct {
	StakesIn, Payouts, Refunds, Rake, Credited, Held, InPots int64
}

// Check is the paid tables' invariant (every money test calls it after every step): the ledger's
// own (ledger.Audit: memory equals the stored rows, nothing created or lost), and, per match and
// in total, stakes in = payouts + refunds + rake + credited-but-unpaid (+ what is still held in
// escrow or staked in a pot not yet settled). A settled pot's memo agrees with its settle row.
func (c *Cashier) Check(ctx context.Context) (Totals, error) {
	if err := ledger.Audit(ctx, c.led); err != nil {
		return Totals{}, err
	}
	st, err := c.led.State(ctx)
	if err != nil {
		return Totals{}, err
	}
	var t Totals
	for id, h := range st.Holds {
		if !strings.HasPrefix(id, "ln:") {
			continue
		}
		t.StakesIn += h.Received
		t.Refunds += h.Refunded
		t.Held += h.Balance
	}
	for _, p := range sortedPots(st) {
		var pm potMemo
		if err := json.Unmarshal(p.Memo, &pm); err != nil {
			return t, fmt.Errorf("cashier: pot %s memo: %v", p.ID, err)
		}
		var in int64
		for _, a := range p.Stakes {
			in += a
		}
		if in != pm.Stake*int64(len(pm.Seats)) {
			return t, fmt.Errorf("cashier: pot %s: staked %d, memo %d × %d", p.ID, in, pm.Stake, len(pm.Seats))
		}
		if p.Settled == 0 {
			t.InPots += p.Balance
			continue
		}
		sm := pm.Settlement
		if sm == nil {
			return t, errors.New("cashier: pot " + p.ID + " settled with no settlement memo")
		}
		var paid, credited int64
		for _, q := range sm.Payouts {
			if q.Status == PayoutPaid {
				paid += q.Sats
			} else {
				credited += q.Sats
			}
		}
		if sm.Rake != p.House || sm.Pot != in || in != paid+credited+sm.Rake {
			return t, fmt.Errorf("cashier: match %s: pot %d (staked %d) != payouts %d + credited %d + rake %d (house row %d)",
				p.ID, sm.Pot, in, paid, credited, sm.Rake, p.House)
		}
		t.Payouts += paid
		t.Credited += credited
		t.Rake += sm.Rake
	}
	if u := st.Units[Unit]; u.House != t.Rake || u.Received != t.StakesIn {
		return t, fmt.Errorf("cashier: the ledger's house %d / received %d, the matches' rake %d / stakes %d", u.House, u.Received, t.Rake, t.StakesIn)
	}
	if t.StakesIn != t.Payouts+t.Refunds+t.Rake+t.Credited+t.Held+t.InPots {
		return t, fmt.Errorf("cashier: stakes in %d != payouts %d + refunds %d + rake %d + credited %d + held %d + in pots %d",
			t.StakesIn, t.Payouts, t.Refunds, t.Rake, t.Credited, t.Held, t.InPots)
	}
	return t, nil
}
