package blitz

import (
	"crypto/ed25519"
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"arena/games"
	"arena/games/blitz/commitment"
	"arena/games/canon"
)

var (
	_ games.AnchorPlanner = (*Engine)(nil)
	_ games.Verifier      = (*Engine)(nil)
)

// MidRoundTurn is the turn whose settle the mid-round anchor follows (§5.5): exactly one per
// round, at min(3, turns − 1) (3 on Blitz, 2 on Short); 0, a turn no round has, when the round
// has fewer than two turns (no mid-round anchor).
func MidRoundTurn(turns int) int { return max(0, min(3, turns-1)) }

// AnchorPlan rebuilds, from the public events, every anchor request the table made, in request
// order (games.AnchorPlanner; §5.5, protocol-notes "anchor-check"):
//   - opened (seq 1): after round.created and the seat.taken events, before scouting; its hash
//     is the open-round anchor, recomputed from the reveal (Open);
//   - exchange: over the events from an exchange.started up to the event before the next
//     exchange.started or phase.started (closing an exchange and opening the next are one step);
//   - commitment: at each public commitment.sealed, its id;
//   - turn: after the settle of turn MidRoundTurn(turns), the hash of events[0..n] for n in that
//     settle phase (an anchor.* event of an earlier request may land inside the phase before the
//     request is numbered);
//   - transcript: the hash of events[0..round.revealed].
//
// A round whose round.created says "anchors": "opened" (Options.Anchors: Free play) asked for
// the open-round anchor alone.
func (e *Engine) AnchorPlan(evs []games.Event) []games.PlannedAnchor {
	var plan []games.PlannedAnchor
	turns, openedOnly := 0, false
	winStart, winTurn, winX := -1, 0, 0
	settleStart, settled, opened := -1, false, false
	// closeWindow closes the open exchange window at event end; its hash runs to event to (end,
	// but the reveal itself when a window is still open at round.revealed).
	closeWindow := func(end, to int) {
		if winStart < 0 {
			return
		}
		plan = append(plan, games.PlannedAnchor{Kind: "exchange", From: winStart, To: to, Pos: end,
			What: fmt.Sprintf("turn %d exchange %d, events %d–%d", winTurn, winX, winStart+1, end+1)})
		winStart = -1
	}
	// A round with an off-the-shelf seat asks for its open-round anchor at scouting's close, where
	// round.opened announces it; any other round right after its seats are taken.
	late := slices.ContainsFunc(evs, func(ev games.Event) bool { return ev.Type == "round.opened" })
	for i, ev := range evs {
		if late && !opened && ev.Type == "round.opened" {
			opened = true
			plan = append(plan, games.PlannedAnchor{Kind: "opened", Opened: true, Pos: i,
				What: "the open-round anchor, taken at scouting's close, recomputed from the reveal"})
		}
		if !late && !opened && ev.Type != "round.created" && ev.Type != "seat.taken" {
			opened = true
			plan = append(plan, games.PlannedAnchor{Kind: "opened", Opened: true, Pos: max(i-1, 0),
				What: "the open-round anchor, recomputed from the reveal"})
		}
		switch ev.Type {
		case "round.created":
			var p struct {
				Format struct {
					Turns int `json:"turns"`
				} `json:"format"`
				Anchors string `json:"anchors"`
			}
			_ = json.Unmarshal(ev.Payload, &p)
			turns, openedOnly = p.Format.Turns, p.Anchors == AnchorsOpened
		case "exchange.started", "phase.started":
			closeWindow(i-1, i-1)
		case "turn.started":
			if settleStart >= 0 && !settled {
				plan = append(plan, games.PlannedAnchor{Kind: "turn", Prefix: true, From: settleStart, To: i - 1, Pos: i - 1,
					What:   fmt.Sprintf("events 1–n with n in the settle of turn %d (events %d–%d)", evs[settleStart].Turn, settleStart+1, i),
					Within: "in the settle of turn min(3, turns−1)"})
				settled = true
			}
		}
		if ev.Type == "phase.started" && ev.Phase == "settle" && turns > 1 && ev.Turn == MidRoundTurn(turns) {
			settleStart = i
		}
		switch {
		case ev.Type == "exchange.started":
			var p struct {
				Exchange int `json:"exchange"`
			}
			_ = json.Unmarshal(ev.Payload, &p)
			winStart, winTurn, winX = i, ev.Turn, p.Exchange
		case ev.Type == "commitment.sealed" && ev.Visibility == games.Public:
			var p struct {
				ID string `json:"id"`
			}
			_ = json.Unmarshal(ev.Payload, &p)
			plan = append(plan, games.PlannedAnchor{Kind: "commitment", ID: p.ID, Pos: i, What: "commitment " + shortID(p.ID)})
		case ev.Type == "round.revealed":
			closeWindow(i-1, i)
			plan = append(plan, games.PlannedAnchor{Kind: "transcript", From: 0, To: i, Pos: i,
				What: fmt.Sprintf("the transcript hash, events 1–%d", i+1)})
		}
	}
	if openedOnly {
		return slices.DeleteFunc(plan, func(a games.PlannedAnchor) bool { return a.Kind != "opened" })
	}
	return plan
}

// Verify checks every sealed commitment the revealed transcript carries in clear (the
// sealed-visibility commitment.sealed event, §7, §11.4; games.Verifier): its id is SHA-256 of
// the canonical bytes of the object without sig (§7.2); the event's amount, the object's round,
// and its payer, payee and due agree with the public commitment.sealed record just before it
// (seats mapped to agents by seat.taken); the sig is well-formed, and verifies (§7.3) under the
// payer's key from keys or, when keys has none, from its seat.taken. One finding per commitment,
// at its sealed event.
func (e *Engine) Verify(round string, evs []games.Event, keys map[string]ed25519.PublicKey) []games.Finding {
	var out []games.Finding
	add := func(pos int, ok bool, check, format string, a ...any) {
		out = append(out, games.Finding{Pos: pos, OK: ok, Check: check, What: fmt.Sprintf(format, a...)})
	}
	agents := map[int]string{}
	fromSeat := map[string]ed25519.PublicKey{} // keys published in seat.taken (§7.3), when keys has none
	type pub struct {
		ID           string `json:"id"`
		Payer, Payee int
		Due          int `json:"due"`
	}
	publics := map[string]pub{}
	for i, ev := range evs {
		switch {
		case ev.Type == "seat.taken":
			var p struct {
				Seat       int    `json:"seat"`
				Agent      string `json:"agent"`
				SigningKey string `json:"signing_key"`
			}
			_ = json.Unmarshal(ev.Payload, &p)
			agents[p.Seat] = p.Agent
			if k, err := canon.ParseKey(p.SigningKey); err == nil && p.Agent != "" {
				if _, given := keys[p.Agent]; !given {
					fromSeat[p.Agent] = k
				}
			}
		case ev.Type == "commitment.sealed" && ev.Visibility == games.Public:
			var p pub
			_ = json.Unmarshal(ev.Payload, &p)
			publics[p.ID] = p
		case ev.Type == "commitment.sealed" && ev.Visibility == games.Sealed:
			var p struct {
				Amount     int64           `json:"amount"`
				Commitment json.RawMessage `json:"commitment"`
				ID         string          `json:"id"`
			}
			_ = json.Unmarshal(ev.Payload, &p)
			name := "commitment " + shortID(p.ID)
			c, cb, err := commitment.Parse(p.Commitment)
			if err != nil {
				add(i, false, name, "event %d: the sealed object does not parse: %v", i+1, err)
				continue
			}
			pp, seen := publics[p.ID]
			var bad string
			switch {
			case cb.ID != p.ID:
				bad = fmt.Sprintf("SHA-256 of its canonical bytes is %s, the event says %s", shortID(cb.ID), shortID(p.ID))
			case !seen:
				bad = "no public commitment.sealed with that id before it"
			case c.Amount != p.Amount:
				bad = fmt.Sprintf("the event's amount %d microCCD is not the signed %d", p.Amount, c.Amount)
			case c.Round != round:
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
	return out
}

// shortID is an id for a report line: its first 12 hex digits after "sha256:", then "…".
func shortID(s string) string {
	s = strings.TrimPrefix(s, "sha256:")
	if len(s) > 12 {
		return s[:12] + "…"
	}
	return s
}
