package verify

import (
	"encoding/hex"
	"encoding/json"
	"fmt"
	"strings"

	"arena/chain/anchor"
)

// expected is one anchor the arena had to request, rebuilt from the transcript (§5.5): its
// kind, its seq (the round's numbering from 1, in the order the requests were made) and the
// hash it must carry. pos is the index of the last event the hash covers (the line is printed
// there); what says which events.
type expected struct {
	kind anchor.Kind
	seq  uint32
	hash [32]byte
	// alt are further hashes accepted for a turn anchor: the prefix hashes at every event of
	// its settle phase (an anchor.* event may land inside the phase before the request is
	// numbered, see protocol-notes "anchor-check").
	alt     map[[32]byte]int
	known   bool // hash is known (opened: only once the reveal is read)
	pos     int
	what    string
	missing string // why hash could not be rebuilt ("" when it could)
}

// recorded is one anchor.<kind> (or transcript.anchored) event: what the table recorded at
// submission.
type recorded struct {
	pos  int
	kind string
	seq  uint32
	hash string
	tx   string
}

// plan walks the ordered events and rebuilds every anchor request in order (the blitz table's
// rules, protocol-notes "anchor-check"):
//   - opened (seq 1): after round.created and the seat.taken events, before scouting; its hash
//     is the open-round anchor, recomputed from the reveal afterwards;
//   - exchange: over the events from an exchange.started up to the event before the next
//     exchange.started or phase.started (closing an exchange and opening the next are one step);
//   - commitment: at each public commitment.sealed, its id;
//   - turn: after the settle of turn min(3, turns−1), the hash of events[0..n] for n in that
//     settle phase;
//   - transcript: the hash of events[0..round.revealed].
func plan(evs []Event, canon [][]byte) (exp []*expected, recs []recorded) {
	turns := 0
	all := newRunningHash()
	var win *runningHash
	winStart, winTurn, winX := -1, 0, 0
	settleStart, settled := -1, false
	opened := false
	push := func(e *expected) { e.seq = uint32(len(exp) + 1); exp = append(exp, e) }
	closeWindow := func(end int) {
		if win == nil {
			return
		}
		push(&expected{kind: anchor.Exchange, hash: win.sum(), known: true, pos: end,
			what: fmt.Sprintf("turn %d exchange %d, events %d–%d", winTurn, winX, winStart+1, end+1)})
		win = nil
	}
	for i, e := range evs {
		c := canon[i]
		if !opened && e.Type != "round.created" && e.Type != "seat.taken" {
			opened = true
			push(&expected{kind: anchor.Opened, pos: max(i-1, 0), what: "the open-round anchor, recomputed from the reveal"})
		}
		switch e.Type {
		case "round.created":
			var p struct {
				Format struct {
					Turns int `json:"turns"`
				} `json:"format"`
			}
			_ = json.Unmarshal(e.Payload, &p)
			turns = p.Format.Turns
		case "exchange.started", "phase.started":
			closeWindow(i - 1)
		case "turn.started":
			if settleStart >= 0 && !settled {
				closeTurn(evs, canon, settleStart, i-1, push)
				settled = true
			}
		}
		if e.Type == "phase.started" && e.Phase == "settle" && turns > 1 && e.Turn == min(3, turns-1) {
			settleStart = i
		}
		if e.Type == "exchange.started" {
			var p struct {
				Exchange int `json:"exchange"`
			}
			_ = json.Unmarshal(e.Payload, &p)
			win, winStart, winTurn, winX = newRunningHash(), i, e.Turn, p.Exchange
		}
		if c != nil {
			all.add(c)
			if win != nil {
				win.add(c)
			}
		}
		switch {
		case e.Type == "commitment.sealed" && e.Visibility == "public":
			var p struct {
				ID string `json:"id"`
			}
			_ = json.Unmarshal(e.Payload, &p)
			h, ok := parseID(p.ID)
			x := &expected{kind: anchor.Commitment, hash: h, known: ok, pos: i, what: "commitment " + short(p.ID)}
			if !ok {
				x.missing = fmt.Sprintf("commitment.sealed event %d carries no id %q", i+1, p.ID)
			}
			push(x)
		case e.Type == "round.revealed":
			closeWindow(i - 1)
			push(&expected{kind: anchor.Transcript, hash: all.sum(), known: true, pos: i,
				what: fmt.Sprintf("the transcript hash, events 1–%d", i+1)})
		case strings.HasPrefix(e.Type, "anchor.") || e.Type == "transcript.anchored":
			var p struct {
				Kind string `json:"kind"`
				Seq  uint32 `json:"seq"`
				Hash string `json:"hash"`
				Tx   string `json:"tx"`
			}
			_ = json.Unmarshal(e.Payload, &p)
			recs = append(recs, recorded{pos: i, kind: p.Kind, seq: p.Seq, hash: p.Hash, tx: p.Tx})
		}
	}
	return exp, recs
}

// closeTurn pushes the turn anchor of the settle phase events[from..to]: its accepted hashes
// are the prefix hashes ending at each event of the phase (the request is made after the
// settle's own events; anchor.* events of earlier requests may land in the phase).
func closeTurn(evs []Event, canon [][]byte, from, to int, push func(*expected)) {
	h := newRunningHash()
	alt := map[[32]byte]int{}
	for i := 0; i <= to; i++ {
		if canon[i] != nil {
			h.add(canon[i])
		}
		if i >= from {
			alt[h.sum()] = i
		}
	}
	push(&expected{kind: anchor.Turn, alt: alt, known: true, pos: to,
		what: fmt.Sprintf("events 1–n with n in the settle of turn %d (events %d–%d)", evs[from].Turn, from+1, to+1)})
}

// parseID reads "sha256:<64 hex>" (a commitment id, an open anchor) or 64 bare hex.
func parseID(s string) ([32]byte, bool) {
	var h [32]byte
	b, err := hex.DecodeString(strings.TrimPrefix(s, "sha256:"))
	if err != nil || len(b) != 32 || strings.ToLower(s) != s {
		return h, false
	}
	copy(h[:], b)
	return h, true
}

func short(s string) string {
	s = strings.TrimPrefix(s, "sha256:")
	if len(s) > 12 {
		return s[:12] + "…"
	}
	return s
}
