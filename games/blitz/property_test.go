package blitz_test

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"reflect"
	"strconv"
	"strings"
	"testing"

	"arena/games"
	"arena/games/blitz"
	"arena/games/blitz/script"
)

// The property test plays many random rounds through the round-script runner (every seat a
// walk-in): random formats and seats, random talk (within and beyond the §6 limits), random
// commitments with random conditions (valid and not), pairs, vetoes, calls and accusations. After
// EVERY step (each Advance and each Act) it asserts §8.3 and money conservation from the
// seats' books, computed here independently of the engine's own CheckInvariant; at the end it
// asserts the payouts add up and scans every seat's prompts and every public event before round
// settlement for sealed values: private text, sealed amounts, the mole's role, task and named
// seats.

const propertyRounds = 16

func TestPropertyRandomRounds(t *testing.T) {
	seen := map[string]int{}
	for i := 0; i < propertyRounds; i++ {
		seed := uint64(0x5eed0000 + i)
		g := newGen(seed)
		src := g.script()
		s, err := script.Parse(src)
		if err != nil {
			t.Fatalf("round %d (seed %#x): generated script refused: %v\n%s", i, seed, err, src)
		}
		p := &propertyCheck{s: s, g: g, seen: map[promptKey]bool{}}
		out, err := script.RunChecked(s, p.step)
		if err != nil {
			t.Fatalf("round %d (seed %#x): %v\nscript: %s", i, seed, err, src)
		}
		if err := p.final(out); err != nil {
			t.Fatalf("round %d (seed %#x): %v\nscript: %s", i, seed, err, src)
		}
		paired := pairRefs(src)
		for _, c := range out.Commitments {
			if paired[c.Ref] {
				seen["pair sealed"]++
			}
			seen["outcome "+c.Outcome]++
			if c.Penalty > 0 {
				seen["penalty"]++
			}
		}
		for _, r := range out.Rejected {
			seen["code "+r.Code]++
			// The arena fills seq and signs for walk-ins (§4.4): neither refusal can be theirs.
			if r.Code == "bad_seq" || r.Code == "invalid_signature" {
				t.Errorf("round %d (seed %#x): seat %d's %s refused %s, though the arena filled and signed it\nscript: %s",
					i, seed, r.Seat, r.Ref, r.Code, src)
			}
		}
		seen["eliminated"] += len(out.Eliminated)
		for _, e := range out.Events {
			if e.Type == "commitment.vetoed" || e.Type == "mole.rung" {
				seen[e.Type]++
			}
		}
		seen["format "+s.Format]++
	}
	// The random rounds must reach the interesting paths, or the properties prove little.
	for _, k := range []string{"outcome honoured", "outcome void", "outcome breached", "penalty", "eliminated",
		"commitment.vetoed", "mole.rung", "format blitz", "format short", "code bad_condition",
		"code bad_commitment", "code insufficient_unlocked", "code pair_unmatched", "code lever_spent", "pair sealed"} {
		if seen[k] == 0 {
			t.Errorf("no random round reached %q (seen: %v)", k, seen)
		}
	}
	t.Logf("reached: %v", seen)
}

// pairRefs are the refs of the commitments that carry a pair nonce in a generated script.
func pairRefs(src []byte) map[string]bool {
	var doc struct {
		Moves []struct {
			Answer struct {
				Commitments []struct {
					Ref  string `json:"ref"`
					Pair string `json:"pair"`
				} `json:"commitments"`
			} `json:"answer"`
		} `json:"moves"`
	}
	out := map[string]bool{}
	if json.Unmarshal(src, &doc) != nil {
		return out
	}
	for _, m := range doc.Moves {
		for _, c := range m.Answer.Commitments {
			if c.Pair != "" {
				out[c.Ref] = true
			}
		}
	}
	return out
}

// propertyCheck holds what one round's checks need across steps.
type propertyCheck struct {
	s       *script.Script
	g       *gen
	steps   int
	prompts []games.Prompt
	seen    map[promptKey]bool
}

// step asserts §8.3 and conservation on the books as they stand, and keeps the prompts open now
// for the secret scan.
func (p *propertyCheck) step(m *blitz.Match) error {
	p.steps++
	var entries, pot, total int64
	for _, st := range p.s.Seats {
		entries += st.Entry
		pot += st.Entry * 5 / 100
	}
	open := map[string]int64{} // lock by commitment id, open ones
	lastSeq := map[int]int64{}
	for _, c := range m.Commitments() {
		if c.Outcome == "open" {
			open[c.ID] = c.Lock
		}
		// Sealed order is settlement order (§7.4); a seat's own commitments keep its seq order.
		if c.Seq <= lastSeq[c.Payer] {
			return fmt.Errorf("seat %d's %s (seq %d) sealed after its seq %d", c.Payer, c.Ref, c.Seq, lastSeq[c.Payer])
		}
		lastSeq[c.Payer] = c.Seq
	}
	for _, a := range m.Accounts() {
		var locks int64
		for id, l := range a.Locks {
			if l < 0 {
				return fmt.Errorf("seat %d: lock %s is %d", a.Seat, id, l)
			}
			if open[id] != l {
				return fmt.Errorf("seat %d: lock %s is %d in the account, %d on the commitment", a.Seat, id, l, open[id])
			}
			locks += l
		}
		switch {
		case a.Collateral < 0 || a.Budget < 0:
			return fmt.Errorf("seat %d: collateral %d budget %d", a.Seat, a.Collateral, a.Budget)
		case locks > a.Collateral:
			return fmt.Errorf("seat %d: locks %d exceed collateral %d (§8.3)", a.Seat, locks, a.Collateral)
		case a.Unlocked != a.Collateral-locks:
			return fmt.Errorf("seat %d: unlocked %d, collateral %d − locks %d", a.Seat, a.Unlocked, a.Collateral, locks)
		case a.Alive == (a.Eliminated > 0):
			return fmt.Errorf("seat %d: alive %v but eliminated at turn %d", a.Seat, a.Alive, a.Eliminated)
		}
		total += a.Collateral + a.Budget
	}
	// paid once bounty.paid is out: a split of a non-zero pot is never all zero (and adding a
	// zero pot changes nothing either way)
	paid := !reflect.DeepEqual(m.Bounty(), blitz.BountyPaid{})
	if !paid {
		total += pot
	}
	if total+m.House() != entries {
		return fmt.Errorf("money: collateral+budget %d (pot %d, paid %v) + house %d = %d, entries %d",
			total-boolPot(paid, pot), pot, paid, m.House(), total+m.House(), entries)
	}
	for _, pr := range m.Prompts() { // each envelope once
		k := promptKey{pr.Seat, pr.Move}
		if !p.seen[k] {
			p.seen[k] = true
			p.prompts = append(p.prompts, pr)
		}
	}
	return nil
}

type promptKey struct {
	seat int
	move games.Move
}

func boolPot(paid bool, pot int64) int64 {
	if paid {
		return 0
	}
	return pot
}

// final checks the output and scans for sealed values.
func (p *propertyCheck) final(out *script.Output) error {
	var entries, sum int64
	for _, st := range p.s.Seats {
		entries += st.Entry
	}
	for _, v := range out.Payouts {
		if v < 0 {
			return fmt.Errorf("negative payout %d", v)
		}
		sum += v
	}
	if sum+out.House != entries || len(out.Payouts) != len(p.s.Seats) {
		return fmt.Errorf("payouts %d + house %d != entries %d", sum, out.House, entries)
	}
	if p.steps < 20 {
		return fmt.Errorf("only %d steps checked", p.steps)
	}
	mole, kind := out.Mole, out.Task.Kind
	// Sealed values and who may see them before the reveal: texts found by substring, amounts as
	// whole numbers among the numbers of the blob.
	type secret struct {
		tag     string // a private line's tag
		text    string
		amount  int64
		allowed func(seat int) bool
	}
	var secrets []secret
	for _, pm := range p.g.private {
		from, to := pm.from, pm.to
		secrets = append(secrets, secret{tag: pm.tag, allowed: func(s int) bool { return s == from || s == to }})
	}
	for _, c := range out.Commitments {
		payer, payee := c.Payer, c.Payee
		secrets = append(secrets, secret{amount: c.Amount, allowed: func(s int) bool { return s == payer || s == payee }})
	}
	isMole := func(s int) bool { return s == mole }
	secrets = append(secrets, secret{text: `"role":"mole"`, allowed: isMole},
		secret{text: `"kind":"` + kind + `"`, allowed: isMole}, secret{text: `"named":[` + firstNamed(out), allowed: isMole})
	leak := func(blob string, seat int) string {
		nums, tags := scanBlob(blob)
		for _, s := range secrets {
			if s.allowed(seat) {
				continue
			}
			switch {
			case s.tag != "" && tags[s.tag], s.text != "" && strings.Contains(blob, s.text), s.amount != 0 && nums[s.amount]:
				return fmt.Sprintf("%q%q%d", s.tag, s.text, s.amount)
			}
		}
		return ""
	}
	for _, pr := range p.prompts {
		blob := pr.State.String()
		for _, it := range pr.Inbox {
			blob += string(it)
		}
		if what := leak(blob, pr.Seat); what != "" {
			return fmt.Errorf("seat %d's prompt at %+v carries a sealed value %s", pr.Seat, pr.Move, what)
		}
	}
	for _, e := range out.Events {
		if e.Phase == "settled" || e.Type == "round.revealed" {
			break // round settlement publishes the accusations and the bounty; the reveal the rest
		}
		if e.Visibility != "public" {
			continue
		}
		if what := leak(string(e.Payload), -1); what != "" {
			return fmt.Errorf("public event %d %s carries a sealed value %s: %s", e.Seq, e.Type, what, e.Payload)
		}
	}
	return nil
}

// scanBlob finds every whole number in blob and every private-line tag ("sealed" followed by
// eight letters), in one pass.
func scanBlob(blob string) (map[int64]bool, map[string]bool) {
	nums, tags := map[int64]bool{}, map[string]bool{}
	for i := 0; i < len(blob); {
		switch c := blob[i]; {
		case c >= '0' && c <= '9':
			j := i
			for j < len(blob) && blob[j] >= '0' && blob[j] <= '9' {
				j++
			}
			if v, err := strconv.ParseInt(blob[i:j], 10, 64); err == nil {
				nums[v] = true
			}
			i = j
		case c == 's' && strings.HasPrefix(blob[i:], privateMark) && len(blob) >= i+len(privateMark)+8:
			tags[blob[i+len(privateMark):i+len(privateMark)+8]] = true
			i += len(privateMark) + 8
		default:
			i++
		}
	}
	return nums, tags
}

// privateMark starts every private line the generator writes, followed by its unique tag.
const privateMark = "sealed"

// firstNamed is the first named seat as JSON text, or "" when the task names none (then the
// pattern `"named":[` alone would match an empty list, which reveals nothing: use a seat digit).
func firstNamed(out *script.Output) string {
	if len(out.Task.Named) == 0 {
		return "NONE"
	}
	return strconv.Itoa(out.Task.Named[0])
}

// gen writes random round scripts. Texts are drawn from a vocabulary with no digits and no task
// kind, so that a sealed value found in a prompt was put there by the engine.
type gen struct {
	r       *rand.Rand
	format  string
	seats   int
	turns   int
	exch    int
	human   []bool
	refs    []genRef // refs defined in earlier phases
	nref    int
	private []privateLine
	amounts map[int64]bool
}

type genRef struct {
	name  string
	payer int
}

type privateLine struct {
	from, to int
	tag      string
}

func newGen(seed uint64) *gen {
	return &gen{r: rand.New(rand.NewPCG(seed, seed^0x9e3779b97f4a7c15)), amounts: map[int64]bool{}}
}

var words = strings.Fields("deal trust promise later maybe never you me them coin stake fair sure doubt " +
	"listen quiet offer accept decline ask neutral round table turn share hold give take")

func (g *gen) text(n int) string {
	var b strings.Builder
	for i := 0; i < n; i++ {
		if i > 0 {
			b.WriteByte(' ')
		}
		b.WriteString(words[g.r.IntN(len(words))])
	}
	return b.String()
}

func (g *gen) otherSeat(n int) int {
	for {
		o := 1 + g.r.IntN(g.seats)
		if o != n {
			return o
		}
	}
}

// amount is a random amount no other commitment of the round has, with an uneven microCCD tail
// so that it cannot be mistaken for another figure; sometimes below 1 CCD (refused).
func (g *gen) amount() int64 {
	for {
		a := int64(1+g.r.IntN(60))*1_000_000 + 100_000 + int64(g.r.IntN(899_999))
		if g.r.IntN(20) == 0 {
			a = int64(1 + g.r.IntN(999_999))
		}
		if !g.amounts[a] {
			g.amounts[a] = true
			return a
		}
	}
}

// condition is a random condition: mostly the §10 vocabulary (depth ≤ 2), sometimes not.
func (g *gen) condition(turn, due, depth int) any {
	k := g.r.IntN(10)
	if depth >= 2 && k >= 6 {
		k = 0
	}
	switch k {
	case 0, 1:
		return map[string]any{"always": true}
	case 2:
		c := []any{1 + g.r.IntN(g.seats), 1 + g.r.IntN(g.seats)}
		if g.r.IntN(2) == 0 {
			c = append(c, 1_000_000*(1+g.r.IntN(30)))
		}
		return map[string]any{"backs": c}
	case 3:
		return map[string]any{"survives": []any{1 + g.r.IntN(g.seats), 1 + g.r.IntN(due)}}
	case 4:
		if len(g.refs) > 0 {
			return map[string]any{"honoured": "ref:" + g.refs[g.r.IntN(len(g.refs))].name}
		}
		return map[string]any{"always": true}
	case 5:
		return map[string]any{"maybe": true} // not in the vocabulary: bad_condition
	case 6:
		return map[string]any{"not": g.condition(turn, due, depth+1)}
	case 7, 8:
		op := "and"
		if k == 8 {
			op = "or"
		}
		ops := []any{g.condition(turn, due, depth+1), g.condition(turn, due, depth+1)}
		if g.r.IntN(8) == 0 {
			ops = append(ops, map[string]any{"always": true}) // three operands: bad_condition
		}
		return map[string]any{op: ops}
	default:
		return map[string]any{"not": map[string]any{"not": map[string]any{"not": map[string]any{"always": true}}}}
	}
}

func (g *gen) commitment(seat, turn int, payee int) map[string]any {
	due := turn + g.r.IntN(g.turns-turn+1)
	if g.r.IntN(25) == 0 {
		due = g.turns + 1 // out of range: refused
	}
	g.nref++
	c := map[string]any{"ref": "r" + strconv.Itoa(g.nref), "payee": payee, "amount": g.amount(),
		"condition": g.condition(turn, max(due, 1), 0), "due": due}
	return c
}

// script writes one random round script.
func (g *gen) script() []byte {
	if g.r.IntN(4) == 0 {
		g.format, g.seats, g.turns, g.exch = "short", 3, 3, 2
	} else {
		g.format, g.seats, g.turns, g.exch = "blitz", 6+g.r.IntN(3), 5, 3
	}
	var seed [32]byte
	for i := range seed {
		seed[i] = byte(g.r.IntN(256))
	}
	doc := map[string]any{"format": g.format, "round": "T-" + strconv.Itoa(1+g.r.IntN(1_000_000)),
		"seed": fmt.Sprintf("%x", seed)}
	var seats []any
	anyHuman := false
	for n := 1; n <= g.seats; n++ {
		entry := int64(50+g.r.IntN(351)) * 1_000_000
		coll := entry*40/100 + g.r.Int64N(entry*40/100+1)
		h := g.r.IntN(3) == 0
		anyHuman = anyHuman || h
		g.human = append(g.human, h)
		seats = append(seats, map[string]any{"name": "Seat" + string(rune('A'+n-1)), "entry": entry,
			"collateral": coll, "human": h})
	}
	doc["seats"] = seats
	if g.r.IntN(3) > 0 {
		mole := 1 + g.r.IntN(g.seats)
		doc["mole"] = mole
		if g.r.IntN(2) == 0 {
			kinds := []string{"whisper", "bank", "broker", "pair", "breach", "starve", "scapegoat", "ghost"}
			if anyHuman {
				kinds = append(kinds, "veto")
			}
			kind := kinds[g.r.IntN(len(kinds))]
			need := map[string]int{"pair": 2, "breach": 1, "starve": 1, "scapegoat": 1}[kind]
			var others []int
			for n := 1; n <= g.seats; n++ {
				if n != mole {
					others = append(others, n)
				}
			}
			g.r.Shuffle(len(others), func(i, j int) { others[i], others[j] = others[j], others[i] })
			doc["task"] = map[string]any{"kind": kind, "named": others[:need]}
		}
	}
	var moves []any
	for turn := 1; turn <= g.turns; turn++ {
		for x := 1; x <= g.exch; x++ {
			for n := 1; n <= g.seats; n++ {
				if g.r.IntN(3) == 0 {
					continue
				}
				ans := map[string]any{}
				var msgs []any
				for k := g.r.IntN(4); k > 0; k-- {
					msgs = append(msgs, map[string]any{"type": "public", "text": g.text(1 + g.r.IntN(8)), "tone": "offer"})
				}
				if g.r.IntN(30) == 0 { // beyond the limits: 9 public lines, one over 600 characters
					for k := 0; k < 9; k++ {
						msgs = append(msgs, map[string]any{"type": "public", "text": g.text(2)})
					}
					msgs = append(msgs, map[string]any{"type": "public", "text": strings.Repeat("z", 601)})
				}
				for k := g.r.IntN(3); k > 0; k-- {
					to := g.otherSeat(n)
					tag := g.tag()
					txt := privateMark + tag + " " + g.text(1+g.r.IntN(6))
					g.private = append(g.private, privateLine{n, to, tag})
					msgs = append(msgs, map[string]any{"type": "private", "to": to, "text": txt, "tone": "ask"})
				}
				if len(msgs) > 0 {
					ans["messages"] = msgs
				}
				if g.r.IntN(10) == 0 {
					ans["accusation"] = 1 + g.r.IntN(g.seats)
				}
				moves = append(moves, map[string]any{"turn": turn, "phase": "talk", "exchange": x, "seat": n, "answer": ans})
				if g.r.IntN(25) == 0 {
					moves = append(moves, map[string]any{"turn": turn, "phase": "talk", "exchange": x, "seat": n,
						"lever": map[string]any{"call": "seat " + strconv.Itoa(1+g.r.IntN(g.seats)) + " " + g.text(3)}})
				}
				if g.r.IntN(25) == 0 {
					moves = append(moves, map[string]any{"turn": turn, "phase": "talk", "exchange": x, "seat": n,
						"lever": map[string]any{"accuse": 1 + g.r.IntN(g.seats)}})
				}
			}
		}
		var defined []genRef
		// A pair between two seats, sometimes unmatched: each side rides in its seat's one commit
		// answer, at a random place among its other commitments (a seat answers a move once).
		pairWith := map[int]map[string]any{}
		if g.r.IntN(2) == 0 {
			a := 1 + g.r.IntN(g.seats)
			b := g.otherSeat(a)
			nonce := fmt.Sprintf("deal:%08x", g.r.Uint32())
			pairWith[a] = g.commitment(a, turn, b)
			pairWith[a]["pair"] = nonce
			if g.r.IntN(4) > 0 {
				pairWith[b] = g.commitment(b, turn, a)
				pairWith[b]["pair"] = nonce
			}
		}
		order := g.r.Perm(g.seats)
		for _, i := range order {
			n := i + 1
			if g.r.IntN(3) == 0 && pairWith[n] == nil {
				continue
			}
			var subs []any
			for k := g.r.IntN(4); k > 0; k-- {
				c := g.commitment(n, turn, g.otherSeat(n))
				if g.r.IntN(40) == 0 {
					c["payee"] = n // to oneself: refused
				}
				subs = append(subs, c)
			}
			if pc := pairWith[n]; pc != nil {
				at := g.r.IntN(len(subs) + 1)
				subs = append(subs[:at], append([]any{pc}, subs[at:]...)...)
			}
			for _, c := range subs {
				defined = append(defined, genRef{c.(map[string]any)["ref"].(string), n})
			}
			if len(subs) > 0 {
				moves = append(moves, map[string]any{"turn": turn, "phase": "commit", "seat": n,
					"answer": map[string]any{"commitments": subs}})
			}
			if len(subs) > 0 && g.r.IntN(6) == 0 { // a veto, usually of one's own
				ref := subs[g.r.IntN(len(subs))].(map[string]any)["ref"]
				if g.r.IntN(4) == 0 && len(defined) > 0 {
					ref = defined[g.r.IntN(len(defined))].name
				}
				moves = append(moves, map[string]any{"turn": turn, "phase": "commit", "seat": n,
					"lever": map[string]any{"veto": ref}})
			}
		}
		g.refs = append(g.refs, defined...)
	}
	doc["moves"] = moves
	b, err := json.Marshal(doc)
	if err != nil {
		panic(err) // a map of plain values always marshals
	}
	return b
}

func (g *gen) word() string { return words[g.r.IntN(len(words))] }

// tag makes a private line unique without digits: eight random letters.
func (g *gen) tag() string {
	b := make([]byte, 8)
	for i := range b {
		b[i] = byte('a' + g.r.IntN(26))
	}
	return string(b)
}
