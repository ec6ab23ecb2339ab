package blitz

import (
	"encoding/json"
	"slices"
	"strconv"
	"strings"
)

// The §5.4 state object written without reflection. The bytes are exactly what encoding/json
// writes for the structs in state.go (member order, HTML escapes, null for a nil slice), which
// TestStateWriterMatchesEncodingJSON checks envelope by envelope; only the public log, spliced
// in after, is JCS. encoding/json cost more per envelope than everything but the log's copy.

// appendJSONString writes s as encoding/json does (HTML-escaped). The common case, printable
// ASCII with nothing to escape, is written as is; anything else goes through encoding/json.
func appendJSONString(b []byte, s string) []byte {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c < 0x20 || c >= 0x7f || c == '"' || c == '\\' || c == '<' || c == '>' || c == '&' {
			q, _ := json.Marshal(s)
			return append(b, q...)
		}
	}
	b = append(b, '"')
	b = append(b, s...)
	return append(b, '"')
}

// appendJSONRaw writes raw JSON as encoding/json writes a json.RawMessage (compacted,
// HTML-escaped; null when empty). Canonical bytes with no space, no byte to escape and
// nothing outside ASCII are already that.
func appendJSONRaw(b []byte, raw json.RawMessage) []byte {
	if len(raw) == 0 {
		return append(b, "null"...)
	}
	for _, c := range raw {
		if c <= ' ' || c >= 0x7f || c == '<' || c == '>' || c == '&' {
			q, err := json.Marshal(raw)
			if err != nil {
				return append(b, "null"...) // never: condRaw is canonical JSON
			}
			return append(b, q...)
		}
	}
	return append(b, raw...)
}

func appendMember(b []byte, first bool, name string) []byte {
	if !first {
		b = append(b, ',')
	}
	b = append(b, '"')
	b = append(b, name...)
	return append(b, '"', ':')
}

func appendInt(b []byte, first bool, name string, v int64) []byte {
	return strconv.AppendInt(appendMember(b, first, name), v, 10)
}

// appendTerms writes openTerms.
func appendTerms(b []byte, c *promise) []byte {
	b = appendJSONString(appendMember(append(b, '{'), true, "id"), c.id)
	if c.ref != "" {
		b = appendJSONString(appendMember(b, false, "ref"), c.ref)
	}
	b = appendInt(b, false, "payer", int64(c.payer))
	b = appendInt(b, false, "payee", int64(c.payee))
	b = appendInt(b, false, "amount", c.amount)
	b = appendJSONRaw(appendMember(b, false, "condition"), c.condRaw)
	b = appendInt(b, false, "due", int64(c.due))
	b = appendInt(b, false, "lock", c.lock)
	if c.sealedTurn != 0 {
		b = appendInt(b, false, "sealed_turn", int64(c.sealedTurn))
	}
	if c.pair != "" {
		b = appendJSONString(appendMember(b, false, "pair"), c.pair)
	}
	return append(b, '}')
}

func appendInts(b []byte, v []int) []byte {
	if v == nil {
		return append(b, "null"...)
	}
	b = append(b, '[')
	for i, x := range v {
		if i > 0 {
			b = append(b, ',')
		}
		b = strconv.AppendInt(b, int64(x), 10)
	}
	return append(b, ']')
}

// appendMe writes seat n's meView (stateFor's "me").
func (m *Match) appendMe(b []byte, n int) []byte {
	s := m.seat(n)
	b = appendInt(append(b, '{'), true, "seat", int64(n))
	role := "player"
	if n == m.mole {
		role = "mole"
	}
	b = appendJSONString(appendMember(b, false, "role"), role)
	b = appendInt(b, false, "collateral", s.collateral)
	// locks: a map in meView, so encoding/json writes it sorted by id (ids are unique: a
	// commitment is sealed once)
	type lock struct {
		id string
		v  int64
	}
	var locks []lock
	for _, c := range m.sealed {
		if c.outcome == outcomeOpen && c.payer == n {
			locks = append(locks, lock{c.id, c.lock})
		}
	}
	slices.SortFunc(locks, func(x, y lock) int { return strings.Compare(x.id, y.id) })
	b = append(appendMember(b, false, "locks"), '{')
	for i, l := range locks {
		if i > 0 {
			b = append(b, ',')
		}
		b = append(appendJSONString(b, l.id), ':')
		b = strconv.AppendInt(b, l.v, 10)
	}
	b = append(b, '}')
	b = appendInt(b, false, "unlocked", m.unlocked(n))
	b = appendInt(b, false, "budget", s.budget)
	b = append(appendMember(b, false, "open"), '[')
	first := true
	for _, c := range m.sealed {
		if c.outcome == outcomeOpen && (c.payer == n || c.payee == n) {
			if !first {
				b = append(b, ',')
			}
			first = false
			b = appendTerms(b, c)
		}
	}
	b = append(append(b, ']'), `,"pending":[`...)
	first = true
	for _, c := range m.pending {
		if c.payer == n && !c.vetoed {
			if !first {
				b = append(b, ',')
			}
			first = false
			b = appendTerms(b, c)
		}
	}
	b = append(b, ']')
	calls, veto, accusation := 2-s.callsUsed, 1, 2-s.accuseUsed
	if s.vetoUsed {
		veto = 0
	}
	if n == m.mole {
		accusation = 0
	}
	if s.Levers == LeversNone { // a seat with no levers has none remaining (§12)
		calls, veto, accusation = 0, 0, 0
	}
	b = append(appendMember(b, false, "levers"), '{')
	b = appendInt(b, true, "calls", int64(calls))
	b = appendInt(b, false, "veto", int64(veto))
	b = append(appendInt(b, false, "accusation", int64(accusation)), '}')
	if s.accusation != 0 {
		b = appendInt(b, false, "accusation", int64(s.accusation))
	}
	b = append(appendMember(b, false, "calls"), '[')
	for i, c := range s.calls {
		if i > 0 {
			b = append(b, ',')
		}
		b = appendJSONString(b, c)
	}
	b = append(b, ']')
	b = appendInt(b, false, "next_seq", max(s.lastSeq+1, s.nextSeq))
	if n == m.mole {
		b = append(appendMember(b, false, "task"), '{')
		b = appendJSONString(appendMember(b, true, "kind"), m.task.Kind)
		b = appendJSONString(appendMember(b, false, "category"), m.task.Category)
		b = appendInts(appendMember(b, false, "named"), append([]int{}, m.task.Named...))
		b = append(appendMember(b, false, "rungs"), '[')
		for i, r := range rungText[m.task.Kind] {
			if i > 0 {
				b = append(b, ',')
			}
			b = appendJSONString(b, r)
		}
		b = append(b, ']')
		b = append(appendInts(appendMember(b, false, "reached"), m.rungsReached()), '}')
	}
	if pb := m.playbookOf(s); pb != nil {
		w, _ := json.Marshal(pb) // as encoding/json writes a RawMessage (meView.Playbook)
		b = append(appendMember(b, false, "playbook"), w...)
	}
	return append(b, '}')
}

// playbookOf is seat s's playbook for its state (meView.Playbook): an off-the-shelf seat's
// Options.playbooks entry, nil for any other seat or none.
func (m *Match) playbookOf(s *seatState) json.RawMessage {
	if s.Kind != "ots" {
		return nil
	}
	return m.opt.Playbooks[itoa(s.Seat.Seat)]
}

// sharedCut marks the end of a piece of the new bytes sharedParts writes: b[previous cut's end:
// end], followed by seat's terms buffer (seat 0: no terms follow).
type sharedCut struct{ end, seat int }

// sharedParts writes the seat-independent members (agents, bounty, format, pattern,
// task_category, talking), without the braces, into b, and marks in cuts where the agents' terms
// buffers (agentTerms) go between its pieces: each agent's sealed-commitment list is its
// append-only terms buffer, shared between phases, and only the rest is new bytes. The agents
// array ends a piece of its own (agents is cuts[:agents+1]), so that the pieces up to it, which
// change only when a seat's collateral bar, alive or dark does, can be kept from phase to phase
// (shared) apart from the rest, which changes with every exchange's pattern.
func (m *Match) sharedParts(b []byte, cuts []sharedCut) (_ []byte, _ []sharedCut, agents int) {
	m.agentTerms()
	if len(m.seats) == 0 {
		b = append(appendMember(b, true, "agents"), "null"...) // a nil slice, as encoding/json writes it
	} else {
		b = append(appendMember(b, true, "agents"), '[')
	}
	for i, s := range m.seats {
		if i > 0 {
			b = append(b, ',')
		}
		b = appendInt(append(b, '{'), true, "seat", int64(s.Seat.Seat))
		b = appendJSONString(appendMember(b, false, "agent"), s.Agent)
		b = appendJSONString(appendMember(b, false, "name"), s.Name)
		b = appendInt(b, false, "rating", int64(s.Rating))
		b = strconv.AppendBool(appendMember(b, false, "alive"), s.alive)
		b = strconv.AppendBool(appendMember(b, false, "dark"), s.dark)
		bar := 0
		if s.initial > 0 {
			bar = int(s.collateral*10/s.initial) * 10
		}
		b = appendInt(b, false, "collateral", int64(bar))
		b = append(appendMember(b, false, "commitments"), '[')
		if len(m.terms[i]) > 0 {
			cuts = append(cuts, sharedCut{len(b), i + 1})
		}
		b = append(b, ']', '}')
	}
	if len(m.seats) > 0 {
		b = append(b, ']')
	}
	cuts = append(cuts, sharedCut{len(b), 0})
	agents = len(cuts) - 1
	b = appendInt(b, false, "bounty", m.pot)
	b = append(appendMember(b, false, "format"), '{')
	b = appendJSONString(appendMember(b, true, "name"), m.format.Name)
	b = appendInt(b, false, "seats", int64(len(m.seats)))
	b = appendInt(b, false, "turns", int64(m.format.Turns))
	b = append(appendInt(b, false, "exchanges", int64(m.format.Exchanges)), '}')
	b = append(appendMember(b, false, "pattern"), '[')
	for i, p := range m.pattern.rows {
		if i > 0 {
			b = append(b, ',')
		}
		b = appendInt(append(b, '{'), true, "seat", int64(p.Seat))
		b = appendInt(b, false, "private_sent", int64(p.PrivateSent))
		b = appendInt(b, false, "private_received", int64(p.PrivateReceived))
		b = appendInt(b, false, "party_to", int64(p.PartyTo))
		b = appendInt(b, false, "offered_unsigned", int64(p.OfferedUnsigned))
		b = appendInt(b, false, "breaches", int64(p.Breaches))
		b = append(appendInt(b, false, "counterparty_breaches", int64(p.CounterpartyBreaches)), '}')
	}
	b = append(b, ']')
	b = appendJSONString(appendMember(b, false, "task_category"), m.task.Category)
	b = append(appendMember(b, false, "talking"), '[')
	for i, p := range m.talking {
		if i > 0 {
			b = append(b, ',')
		}
		b = appendInt(append(b, '{'), true, "a", int64(p[0]))
		b = append(appendInt(b, false, "b", int64(p[1])), '}')
	}
	b = append(b, ']')
	cuts = append(cuts, sharedCut{len(b), 0})
	return b, cuts, agents
}

// agentTerms brings each seat's terms buffer up to date: the public terms {id, payer, payee,
// due} of every sealed commitment the seat is party to, comma-joined in sealed order (agents[]
// commitments). Sealed commitments are never unsealed and their public terms never change, so
// the buffers only grow; a state holds them as they were when it was built (capped segments).
//
// A commitment's terms are the same bytes in its payer's list and its payee's, so each is
// written once and copied to both. The buffers that must grow grow once a call, all carved from
// one block: each to exactly what it now holds, and, in a match that keeps its buffers between
// phases, with room for as many more per turn left (the round's commitments come a commit
// phase at a time, at about the same rate), so that they are not reallocated and copied turn
// after turn as append's doubling would. A match that compacts between steps (Compact) drops
// the buffers after each step and rewrites them at the next phase: the states of the phase hold
// the block, so it is sized exactly, with no room a state would keep alive.
func (m *Match) agentTerms() {
	if m.terms == nil {
		m.terms = make([][]byte, len(m.seats))
	}
	fresh := m.sealed[m.termsUpTo:]
	m.termsUpTo = len(m.sealed)
	if len(fresh) == 0 {
		return
	}
	var buf [termsScratch]byte // one commitment's terms, written here and copied to both parties
	var needBuf [8]int         // a format seats at most 8
	need := needBuf[:0]
	if len(m.seats) > len(needBuf) {
		need = make([]int, 0, len(m.seats))
	}
	need = need[:len(m.seats)]
	for _, c := range fresh {
		k := len(appendPublicTerms(buf[:0], c)) + 1 // and the comma before it
		need[c.payer-1] += k
		need[c.payee-1] += k
	}
	turnsLeft := 0
	if !m.pubLog.packing {
		turnsLeft = max(m.format.Turns-m.turn, 0)
	}
	total := 0
	for i, t := range m.terms {
		now := need[i] // this call's bytes, commas included
		if len(t) == 0 && now > 0 {
			now-- // no comma before a list's first item
		}
		if cap(t)-len(t) < now {
			need[i] = len(t) + now + need[i]*turnsLeft // the buffer's new capacity
			total += need[i]
		} else {
			need[i] = 0 // it has room
		}
	}
	block := make([]byte, total)
	for i, t := range m.terms {
		if n := need[i]; n > 0 {
			m.terms[i] = append(block[:0:n], t...)
			block = block[n:]
		}
	}
	for _, c := range fresh {
		term := appendPublicTerms(buf[:0], c)
		for _, n := range [2]int{c.payer, c.payee} {
			t := m.terms[n-1]
			if len(t) > 0 {
				t = append(t, ',')
			}
			m.terms[n-1] = append(t, term...)
		}
	}
}

// termsScratch holds a commitment's public terms as the engine writes them (an id of 71
// characters and three small numbers: about 115 bytes); a longer one spills to the heap.
const termsScratch = 192

// appendPublicTerms writes publicTerms (agents[].commitments' item) for c.
func appendPublicTerms(b []byte, c *promise) []byte {
	b = appendJSONString(appendMember(append(b, '{'), true, "id"), c.id)
	b = appendInt(b, false, "payer", int64(c.payer))
	b = appendInt(b, false, "payee", int64(c.payee))
	return append(appendInt(b, false, "due", int64(c.due)), '}')
}
