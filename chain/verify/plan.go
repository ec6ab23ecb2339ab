package verify

import (
	"encoding/hex"
	"encoding/json"
	"fmt"
	"strings"

	"arena/chain/anchor"
	"arena/games"
)

// expected is one anchor the arena had to request, rebuilt from the transcript and the game's
// plan (§5.5): its kind, its seq (the round's numbering from 1, in the order the requests were
// made) and the hash it must carry. pos is the index of the last event the hash covers (the line is printed
// there); what says which events.
type expected struct {
	kind anchor.Kind
	seq  uint32
	hash [32]byte
	// alt are the hashes accepted for a turn anchor (a Prefix plan entry): the prefix hashes at
	// every event of its span (an anchor.* event may land inside it before the request is
	// numbered, see protocol-notes "anchor-check"), each with the index it ends at.
	alt     map[[32]byte]int
	known   bool // hash is known (opened: only once the reveal is read)
	pos     int
	what    string
	within  string // for a turn anchor: where its prefix ends, in words (games.PlannedAnchor.Within)
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

// plan rebuilds every anchor request of the round in order from the game's plan (games.AnchorPlanner:
// which events each anchor's hash covers, in the game's own rules) and the canonical events cs,
// and collects the anchors the table recorded. The hashes run over JCS of the listed events
// (§11.5), an event with no canonical form left out (checkNumbering fails it). A plan entry
// that names events outside the transcript, or an unknown kind, is expected with the reason in
// missing.
func plan(evs []Event, cs [][]byte, g games.AnchorPlanner) (exp []*expected, recs []recorded) {
	if g != nil {
		for i, p := range g.AnchorPlan(gameEvents(evs)) {
			exp = append(exp, rebuild(uint32(i+1), p, evs, cs))
		}
	}
	for i, e := range evs {
		if strings.HasPrefix(e.Type, "anchor.") || e.Type == "transcript.anchored" {
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

// rebuild is the expected anchor seq of plan entry p: its hash a stated id, the hash of a span of
// events, or (Prefix) every prefix hash ending inside a span; an opened anchor's hash is left
// for the reveal (Check).
func rebuild(seq uint32, p games.PlannedAnchor, evs []Event, cs [][]byte) *expected {
	x := &expected{seq: seq, pos: p.Pos, what: p.What, within: p.Within}
	k, err := anchor.ParseKind(p.Kind)
	if err != nil {
		x.kind, x.missing = anchor.Kind(0), fmt.Sprintf("the game planned an anchor of %v", err)
		return x
	}
	x.kind = k
	switch {
	case p.Opened:
	case p.ID != "" || k == anchor.Commitment:
		h, ok := parseID(p.ID)
		x.hash, x.known = h, ok
		if !ok {
			typ := "the"
			if p.Pos >= 0 && p.Pos < len(evs) {
				typ = evs[p.Pos].Type
			}
			x.missing = fmt.Sprintf("%s event %d carries no id %q", typ, p.Pos+1, p.ID)
		}
	case p.From < 0 || p.To >= len(evs) || p.From > p.To+1:
		x.missing = fmt.Sprintf("the game planned events %d–%d of %d", p.From+1, p.To+1, len(evs))
	case p.Prefix:
		h := newRunningHash()
		x.alt = map[[32]byte]int{}
		for i := 0; i <= p.To; i++ {
			if cs[i] != nil {
				h.add(cs[i])
			}
			if i >= p.From {
				x.alt[h.sum()] = i
			}
		}
		x.known = true
	default:
		h := newRunningHash()
		for i := p.From; i <= p.To; i++ {
			if cs[i] != nil {
				h.add(cs[i])
			}
		}
		x.hash, x.known = h.sum(), true
	}
	return x
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
