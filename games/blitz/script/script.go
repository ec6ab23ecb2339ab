package script

import (
	"encoding/hex"
	"encoding/json"
	"sort"
	"strconv"
	"strings"
	"unicode"

	"arena/games/blitz/commitment"
)

// Script is a parsed and validated round script (round-script.md "Input"). Money is integer
// microCCD. Seats are numbered from 1: Seats[0] is seat 1.
type Script struct {
	Format string   // "blitz" or "short" (§5.6)
	Round  string   // "T-<n>" by commitment.ParseRound: n a decimal u64 from 1, no leading zero
	Seed   [32]byte // the round's seed: the draw and the seats' keys derive from it
	Seats  []Seat
	Mole   int   // the mole's seat; 0 when the script leaves the draw to the seed
	Task   *Task // the mole's task; nil when the script leaves the draw to the seed
	Moves  []Move
}

// Seat is one seat of the script. Entry and Collateral are microCCD; Collateral lies in the
// collateral band (40–80% of Entry, §14) and Entry is at least 50 CCD.
type Seat struct {
	Name       string
	Entry      int64
	Collateral int64
	Human      bool // pays the table fee at settlement and holds levers (§12, §14)
}

// Task fixes the mole's task (§9): Kind is one of the nine kinds, Named the seats it names.
type Task struct {
	Kind  string
	Named []int
}

// Move is one line of the script's moves, applied at (Turn, Phase, Exchange). Exactly one of
// Answer and Lever is set.
type Move struct {
	Index    int    // position in the script's moves list, for messages
	Turn     int    // 1..turns of the format
	Phase    string // "talk" or "commit"
	Exchange int    // 1..exchanges on talk; 0 on commit
	Seat     int
	Answer   *Answer
	Lever    *Lever

	body []byte // the answer as written, compact: the walk-in answer body the runner sends
}

// Answer is a walk-in answer body (§4.4) less the echo of the move, which the runner fills.
// Messages ride in talk answers, Commitments in commit answers; Accusation (a seat, 0 for
// none) in either (§12).
type Answer struct {
	Messages    []Message
	Commitments []Commitment
	Accusation  int
}

// Message is one line of talk (§6). To is the addressee of a private line.
type Message struct {
	Type string // "public" or "private"
	To   Party  // private only
	Text string
	Tone string // "" when absent (§6: neutral)
}

// Party names an agent: a seat number (Seat > 0) standing for the seat's agent id, or an agent
// id as written (Agent).
type Party struct {
	Seat  int
	Agent string
}

// Commitment is a commitment as a walk-in submits it (§4.4, §7.1 less v, round, turn, seq, payer
// and sig, which the arena fills). Ref is the script's own name for it, stripped before the
// commitment is canonicalised. Amount is microCCD.
type Commitment struct {
	Ref       string
	Payee     Party
	Amount    int64
	Condition json.RawMessage // as written; seats and refs are substituted when run
	Due       int
	Pair      string // "" when absent

	cond *value
}

// Lever is a human's lever (§12): Kind "call" with Text, "veto" with Ref (the seat's own pending
// commitment), or "accuse" with Seat.
type Lever struct {
	Kind string
	Text string
	Ref  string
	Seat int
}

// formatShape is a format's seat range and counts (§5.6).
type formatShape struct{ minSeats, maxSeats, turns, exchanges int }

var formats = map[string]formatShape{
	"blitz": {6, 8, 5, 3},
	"short": {3, 3, 3, 2},
}

// taskKinds maps each of the nine task kinds (§9) to how many seats it names.
var taskKinds = map[string]struct{ named int }{
	"whisper": {0}, "bank": {0}, "broker": {0}, "pair": {2}, "veto": {0},
	"breach": {1}, "starve": {1}, "scapegoat": {1}, "ghost": {0},
}

// minEntry is the entry minimum of §14: 50 CCD.
const minEntry = 50_000_000

// maxNameLen bounds a seat's display name, in characters.
const maxNameLen = 64

// Turns is the number of turns of the script's format (§5.6): 5 on blitz, 3 on short.
func (s *Script) Turns() int { return formats[s.Format].turns }

// Exchanges is the number of talk exchanges per turn of the script's format (§5.6): 3 or 2.
func (s *Script) Exchanges() int { return formats[s.Format].exchanges }

// Parse decodes and validates a script. Decoding is strict: member names match exactly in case,
// a member given twice or not in the schema is refused, integers are exact and at most
// 2^53 − 1. Every refusal is an *Error naming the field at fault. Rules of the protocol itself
// (limits, conditions, budgets) are left to the engine, whose refusals the run reports.
func Parse(data []byte) (*Script, error) {
	root, err := parseStrict(data)
	if err != nil {
		if e, ok := err.(*Error); ok {
			return nil, e
		}
		return nil, &Error{Msg: err.Error()}
	}
	p := &parser{}
	s, err := p.script(root)
	if err != nil {
		return nil, err
	}
	return s, nil
}

type parser struct {
	s    *Script
	refs map[string]refDef // ref -> where it is defined
}

type refDef struct {
	move int    // index in Moves
	path string // where the ref is written, for messages
}

// object checks v is an object whose members are all in allowed; it returns the first unknown.
func object(v *value, path string, allowed ...string) error {
	if v.kind != kObject {
		return pathErr(path, "must be an object, got "+v.kind.String())
	}
	for _, m := range v.obj {
		ok := false
		for _, a := range allowed {
			if m.name == a {
				ok = true
				break
			}
		}
		if !ok {
			return pathErr(joinPath(path, m.name), unknownMsg(m.name, allowed))
		}
	}
	return nil
}

func unknownMsg(name string, allowed []string) string {
	for _, a := range allowed {
		if strings.EqualFold(a, name) {
			return "unknown member (member names are case-sensitive: did you mean " + strconv.Quote(a) + "?)"
		}
	}
	return "unknown member (allowed: " + strings.Join(allowed, ", ") + ")"
}

func required(v *value, path, name string) (*value, error) {
	m := v.get(name)
	if m == nil {
		return nil, pathErr(joinPath(path, name), "required")
	}
	return m, nil
}

func str(v *value, path string) (string, error) {
	if v.kind != kString {
		return "", pathErr(path, "must be a string, got "+v.kind.String())
	}
	return v.str, nil
}

func boolean(v *value, path string) (bool, error) {
	if v.kind != kBool {
		return false, pathErr(path, "must be true or false, got "+v.kind.String())
	}
	return v.b, nil
}

func (p *parser) script(root *value) (*Script, error) {
	if err := object(root, "", "format", "round", "seed", "seats", "mole", "task", "moves"); err != nil {
		if e, ok := err.(*Error); ok && e.Path == "" {
			e.Msg = "the script " + e.Msg
		}
		return nil, err
	}
	s := &Script{}
	p.s = s

	fv, err := required(root, "", "format")
	if err != nil {
		return nil, err
	}
	if s.Format, err = str(fv, "format"); err != nil {
		return nil, err
	}
	shape, ok := formats[s.Format]
	if !ok {
		return nil, pathErrf("format", "must be \"blitz\" or \"short\", got %q", s.Format)
	}

	rv, err := required(root, "", "round")
	if err != nil {
		return nil, err
	}
	if s.Round, err = str(rv, "round"); err != nil {
		return nil, err
	}
	if !validRound(s.Round) {
		return nil, pathErrf("round", "must be \"T-<n>\" with n a whole number from 1 to 2^64-1 without leading zeros, got %q", s.Round)
	}

	sv, err := required(root, "", "seed")
	if err != nil {
		return nil, err
	}
	seed, err := str(sv, "seed")
	if err != nil {
		return nil, err
	}
	b, err := hex.DecodeString(seed)
	if err != nil || len(b) != 32 || strings.ToLower(seed) != seed {
		return nil, pathErr("seed", "must be 64 lowercase hex digits (32 bytes)")
	}
	copy(s.Seed[:], b)

	if err := p.seats(root, shape); err != nil {
		return nil, err
	}
	if err := p.draft(root); err != nil {
		return nil, err
	}
	if err := p.moves(root, shape); err != nil {
		return nil, err
	}
	return s, nil
}

func validRound(r string) bool {
	_, ok := commitment.ParseRound(r)
	return ok
}

func (p *parser) seats(root *value, shape formatShape) error {
	v, err := required(root, "", "seats")
	if err != nil {
		return err
	}
	if v.kind != kArray {
		return pathErr("seats", "must be an array, got "+v.kind.String())
	}
	if n := len(v.arr); n < shape.minSeats || n > shape.maxSeats {
		if shape.minSeats == shape.maxSeats {
			return pathErrf("seats", "format %s seats exactly %d, got %d (§5.6)", p.s.Format, shape.minSeats, n)
		}
		return pathErrf("seats", "format %s seats %d to %d, got %d (§5.6)", p.s.Format, shape.minSeats, shape.maxSeats, n)
	}
	for i, e := range v.arr {
		path := "seats[" + strconv.Itoa(i) + "]"
		if err := object(e, path, "name", "entry", "collateral", "human"); err != nil {
			return err
		}
		var st Seat
		nv, err := required(e, path, "name")
		if err != nil {
			return err
		}
		if st.Name, err = str(nv, path+".name"); err != nil {
			return err
		}
		if err := checkName(st.Name); err != nil {
			return pathErr(path+".name", err.Error())
		}
		for j, o := range p.s.Seats {
			if strings.EqualFold(o.Name, st.Name) {
				return pathErrf(path+".name", "%q is already seat %d's name (names are matched case-insensitively, §9)", st.Name, j+1)
			}
		}
		ev, err := required(e, path, "entry")
		if err != nil {
			return err
		}
		if st.Entry, err = intOf(ev, path+".entry"); err != nil {
			return err
		}
		if st.Entry < minEntry {
			return pathErrf(path+".entry", "%d microCCD is below the entry minimum of 50 CCD (%d microCCD, §14)", st.Entry, minEntry)
		}
		cv, err := required(e, path, "collateral")
		if err != nil {
			return err
		}
		if st.Collateral, err = intOf(cv, path+".collateral"); err != nil {
			return err
		}
		if st.Collateral*100 < st.Entry*40 || st.Collateral*100 > st.Entry*80 {
			return pathErrf(path+".collateral", "%d microCCD is outside the collateral band of %d to %d microCCD (40–80%% of entry, §14)",
				st.Collateral, ceilDiv(st.Entry*40, 100), st.Entry*80/100)
		}
		if hv := e.get("human"); hv != nil {
			if st.Human, err = boolean(hv, path+".human"); err != nil {
				return err
			}
		}
		p.s.Seats = append(p.s.Seats, st)
	}
	return nil
}

func ceilDiv(a, b int64) int64 { return (a + b - 1) / b }

func checkName(name string) error {
	if strings.TrimSpace(name) == "" {
		return errString("must not be empty")
	}
	n := 0
	for _, r := range name {
		n++
		if unicode.IsControl(r) {
			return errString("must not hold control characters")
		}
	}
	if n > maxNameLen {
		return errString("longer than 64 characters")
	}
	return nil
}

type errString string

func (e errString) Error() string { return string(e) }

// seatRef reads a seat number and checks it is seated.
func (p *parser) seatRef(v *value, path string) (int, error) {
	n, err := intOf(v, path)
	if err != nil {
		return 0, err
	}
	if n < 1 || n > int64(len(p.s.Seats)) {
		return 0, pathErrf(path, "seat %d is not seated (seats are 1 to %d)", n, len(p.s.Seats))
	}
	return int(n), nil
}

// party reads a seat number or an agent id.
func (p *parser) party(v *value, path string) (Party, error) {
	switch v.kind {
	case kNumber:
		n, err := p.seatRef(v, path)
		return Party{Seat: n}, err
	case kString:
		if v.str == "" {
			return Party{}, pathErr(path, "must be a seat number or an agent id, got an empty string")
		}
		return Party{Agent: v.str}, nil
	}
	return Party{}, pathErr(path, "must be a seat number or an agent id, got "+v.kind.String())
}

func (p *parser) draft(root *value) error {
	s := p.s
	if mv := root.get("mole"); mv != nil {
		m, err := p.seatRef(mv, "mole")
		if err != nil {
			return err
		}
		s.Mole = m
	}
	tv := root.get("task")
	if tv == nil {
		return nil
	}
	if err := object(tv, "task", "kind", "named"); err != nil {
		return err
	}
	kv, err := required(tv, "task", "kind")
	if err != nil {
		return err
	}
	t := &Task{}
	if t.Kind, err = str(kv, "task.kind"); err != nil {
		return err
	}
	k, ok := taskKinds[t.Kind]
	if !ok {
		return pathErrf("task.kind", "%q is not one of the nine task kinds (whisper, bank, broker, pair, veto, breach, starve, scapegoat, ghost; §9)", t.Kind)
	}
	if t.Kind == "veto" && !s.hasHuman() {
		return pathErr("task.kind", "veto is never drawn at a table with no human seat (§9)")
	}
	if nv := tv.get("named"); nv != nil {
		if nv.kind != kArray {
			return pathErr("task.named", "must be an array of seat numbers, got "+nv.kind.String())
		}
		for i, e := range nv.arr {
			path := "task.named[" + strconv.Itoa(i) + "]"
			n, err := p.seatRef(e, path)
			if err != nil {
				return err
			}
			if n == s.Mole {
				return pathErrf(path, "seat %d is the mole; named seats are drawn from the other seats (§9)", n)
			}
			for _, o := range t.Named {
				if o == n {
					return pathErrf(path, "seat %d is named twice", n)
				}
			}
			t.Named = append(t.Named, n)
		}
	}
	if len(t.Named) > 0 && s.Mole == 0 {
		return pathErr("task.named", "a task that names seats needs \"mole\" too: a mole drawn from the seed could be a named seat")
	}
	if len(t.Named) != k.named {
		return pathErrf("task.named", "task %s names %d seat(s), got %d (§9)", t.Kind, k.named, len(t.Named))
	}
	s.Task = t
	return nil
}

func (s *Script) hasHuman() bool {
	for _, st := range s.Seats {
		if st.Human {
			return true
		}
	}
	return false
}

// phaseRank orders phases within a turn: talk before commit (§5.3).
func phaseRank(phase string) int {
	if phase == "commit" {
		return 1
	}
	return 0
}

// Order returns the indexes of s.Moves in the order the runner applies them: by turn, phase
// (talk, then commit), exchange, then as listed.
func (s *Script) Order() []int {
	idx := make([]int, len(s.Moves))
	for i := range idx {
		idx[i] = i
	}
	sort.SliceStable(idx, func(a, b int) bool {
		x, y := &s.Moves[idx[a]], &s.Moves[idx[b]]
		if x.Turn != y.Turn {
			return x.Turn < y.Turn
		}
		if phaseRank(x.Phase) != phaseRank(y.Phase) {
			return phaseRank(x.Phase) < phaseRank(y.Phase)
		}
		return x.Exchange < y.Exchange
	})
	return idx
}

func (p *parser) moves(root *value, shape formatShape) error {
	v := root.get("moves")
	if v == nil {
		return nil // a round where nobody says anything is a valid round
	}
	if v.kind != kArray {
		return pathErr("moves", "must be an array, got "+v.kind.String())
	}
	// First pass: the shape of each move, and where each ref is defined.
	p.refs = map[string]refDef{}
	for i, e := range v.arr {
		path := "moves[" + strconv.Itoa(i) + "]"
		m, err := p.moveHead(e, path, shape)
		if err != nil {
			return err
		}
		m.Index = i
		p.s.Moves = append(p.s.Moves, m)
	}
	// Second pass: bodies, now that every ref's place in the order is known.
	rank := make([]int, len(p.s.Moves)) // position of each move in application order
	for pos, i := range p.s.Order() {
		rank[i] = pos
	}
	for i, e := range v.arr {
		path := "moves[" + strconv.Itoa(i) + "]"
		if err := p.moveBody(e, path, &p.s.Moves[i], rank); err != nil {
			return err
		}
	}
	return nil
}

func (p *parser) moveHead(e *value, path string, shape formatShape) (Move, error) {
	var m Move
	if err := object(e, path, "turn", "phase", "exchange", "seat", "answer", "lever"); err != nil {
		return m, err
	}
	tv, err := required(e, path, "turn")
	if err != nil {
		return m, err
	}
	t, err := intOf(tv, path+".turn")
	if err != nil {
		return m, err
	}
	if t < 1 || t > int64(shape.turns) {
		return m, pathErrf(path+".turn", "turn %d is outside 1 to %d (format %s, §5.6)", t, shape.turns, p.s.Format)
	}
	m.Turn = int(t)
	pv, err := required(e, path, "phase")
	if err != nil {
		return m, err
	}
	if m.Phase, err = str(pv, path+".phase"); err != nil {
		return m, err
	}
	switch m.Phase {
	case "talk":
		xv, err := required(e, path, "exchange")
		if err != nil {
			return m, err
		}
		x, err := intOf(xv, path+".exchange")
		if err != nil {
			return m, err
		}
		if x < 1 || x > int64(shape.exchanges) {
			return m, pathErrf(path+".exchange", "exchange %d is outside 1 to %d (format %s, §5.3)", x, shape.exchanges, p.s.Format)
		}
		m.Exchange = int(x)
	case "commit":
		if e.get("exchange") != nil {
			return m, pathErr(path+".exchange", "only talk moves have an exchange")
		}
	default:
		return m, pathErrf(path+".phase", "must be \"talk\" or \"commit\", got %q (nothing is answered at scouting or settle)", m.Phase)
	}
	sv, err := required(e, path, "seat")
	if err != nil {
		return m, err
	}
	if m.Seat, err = p.seatRef(sv, path+".seat"); err != nil {
		return m, err
	}
	av, lv := e.get("answer"), e.get("lever")
	switch {
	case av == nil && lv == nil:
		return m, pathErr(path, "needs an answer or a lever")
	case av != nil && lv != nil:
		return m, pathErr(path, "has both an answer and a lever; give each its own move")
	}
	// Refs are collected here so that any move may name any ref defined before it applies.
	if av != nil && av.kind == kObject {
		if cv := av.get("commitments"); cv != nil && cv.kind == kArray {
			for j, c := range cv.arr {
				if c.kind != kObject {
					continue
				}
				rv := c.get("ref")
				if rv == nil || rv.kind != kString {
					continue
				}
				rpath := path + ".answer.commitments[" + strconv.Itoa(j) + "].ref"
				if rv.str == "" {
					return m, pathErr(rpath, "must not be empty")
				}
				if d, dup := p.refs[rv.str]; dup {
					return m, pathErrf(rpath, "ref %q is already defined at %s", rv.str, d.path)
				}
				p.refs[rv.str] = refDef{move: len(p.s.Moves), path: rpath}
			}
		}
	}
	return m, nil
}

func (p *parser) moveBody(e *value, path string, m *Move, rank []int) error {
	if lv := e.get("lever"); lv != nil {
		l, err := p.lever(lv, path+".lever", m, rank)
		if err != nil {
			return err
		}
		m.Lever = l
		return nil
	}
	av := e.get("answer")
	apath := path + ".answer"
	if err := object(av, apath, "messages", "commitments", "accusation"); err != nil {
		return err
	}
	a := &Answer{}
	if mv := av.get("messages"); mv != nil {
		if m.Phase != "talk" {
			return pathErr(apath+".messages", "messages are sent in talk; a commit answer carries commitments (§5.3)")
		}
		if mv.kind != kArray {
			return pathErr(apath+".messages", "must be an array, got "+mv.kind.String())
		}
		for i, x := range mv.arr {
			msg, err := p.message(x, apath+".messages["+strconv.Itoa(i)+"]")
			if err != nil {
				return err
			}
			a.Messages = append(a.Messages, msg)
		}
	}
	if cv := av.get("commitments"); cv != nil {
		if m.Phase != "commit" {
			return pathErr(apath+".commitments", "commitments are submitted in commit (§5.3)")
		}
		if cv.kind != kArray {
			return pathErr(apath+".commitments", "must be an array, got "+cv.kind.String())
		}
		for i, x := range cv.arr {
			c, err := p.commitment(x, apath+".commitments["+strconv.Itoa(i)+"]", m, rank)
			if err != nil {
				return err
			}
			a.Commitments = append(a.Commitments, c)
		}
	}
	if xv := av.get("accusation"); xv != nil {
		n, err := p.seatRef(xv, apath+".accusation")
		if err != nil {
			return err
		}
		a.Accusation = n
	}
	m.Answer = a
	m.body = av.bytes()
	return nil
}

func (p *parser) message(v *value, path string) (Message, error) {
	var msg Message
	if err := object(v, path, "type", "to", "text", "tone"); err != nil {
		return msg, err
	}
	tv, err := required(v, path, "type")
	if err != nil {
		return msg, err
	}
	if msg.Type, err = str(tv, path+".type"); err != nil {
		return msg, err
	}
	switch msg.Type {
	case "public":
		if v.get("to") != nil {
			return msg, pathErr(path+".to", "a public message has no addressee")
		}
	case "private":
		to, err := required(v, path, "to")
		if err != nil {
			return msg, err
		}
		if msg.To, err = p.party(to, path+".to"); err != nil {
			return msg, err
		}
	default:
		return msg, pathErrf(path+".type", "must be \"public\" or \"private\", got %q (§6)", msg.Type)
	}
	xv, err := required(v, path, "text")
	if err != nil {
		return msg, err
	}
	if msg.Text, err = str(xv, path+".text"); err != nil {
		return msg, err
	}
	if tv := v.get("tone"); tv != nil {
		if msg.Tone, err = str(tv, path+".tone"); err != nil {
			return msg, err
		}
	}
	return msg, nil
}

// arenaFilled are the members of a commitment the arena fills for a walk-in (§4.4).
var arenaFilled = []string{"v", "round", "turn", "seq", "payer", "sig"}

func (p *parser) commitment(v *value, path string, m *Move, rank []int) (Commitment, error) {
	var c Commitment
	if v.kind == kObject {
		for _, mb := range v.obj {
			for _, f := range arenaFilled {
				if mb.name == f {
					return c, pathErr(joinPath(path, f), "filled and signed by the arena for a walk-in (§4.4); a script does not give it")
				}
			}
		}
	}
	if err := object(v, path, "ref", "payee", "amount", "condition", "due", "pair"); err != nil {
		return c, err
	}
	var err error
	if rv := v.get("ref"); rv != nil {
		if c.Ref, err = str(rv, path+".ref"); err != nil {
			return c, err
		}
	}
	pv, err := required(v, path, "payee")
	if err != nil {
		return c, err
	}
	if c.Payee, err = p.party(pv, path+".payee"); err != nil {
		return c, err
	}
	av, err := required(v, path, "amount")
	if err != nil {
		return c, err
	}
	if c.Amount, err = intOf(av, path+".amount"); err != nil {
		return c, err
	}
	cv, err := required(v, path, "condition")
	if err != nil {
		return c, err
	}
	if err := p.condition(cv, path+".condition", m, rank); err != nil {
		return c, err
	}
	c.cond = cv
	c.Condition = cv.bytes()
	dv, err := required(v, path, "due")
	if err != nil {
		return c, err
	}
	due, err := intOf(dv, path+".due")
	if err != nil {
		return c, err
	}
	c.Due = int(due)
	if xv := v.get("pair"); xv != nil {
		if c.Pair, err = str(xv, path+".pair"); err != nil {
			return c, err
		}
	}
	return c, nil
}

// condition checks the seat numbers and refs inside a condition. The vocabulary itself (§10) is
// the engine's to judge: a shape it does not know is refused there with bad_condition, and the
// run reports it. Only what the script adds (seat numbers, ref:NAME) is checked here.
func (p *parser) condition(v *value, path string, m *Move, rank []int) error {
	if v.kind != kObject || len(v.obj) != 1 {
		return nil
	}
	name, arg := v.obj[0].name, v.obj[0].val
	apath := joinPath(path, name)
	switch name {
	case "backs", "survives":
		if arg.kind != kArray {
			return nil
		}
		parties := 2
		if name == "survives" {
			parties = 1
		}
		for i := 0; i < parties && i < len(arg.arr); i++ {
			if arg.arr[i].kind == kNumber {
				if _, err := p.seatRef(arg.arr[i], apath+"["+strconv.Itoa(i)+"]"); err != nil {
					return err
				}
			}
		}
	case "honoured":
		if arg.kind == kString {
			if ref, ok := strings.CutPrefix(arg.str, "ref:"); ok {
				return p.useRef(ref, apath, m, rank)
			}
		}
	case "not":
		return p.condition(arg, apath, m, rank)
	case "and", "or":
		if arg.kind == kArray {
			for i, e := range arg.arr {
				if err := p.condition(e, apath+"["+strconv.Itoa(i)+"]", m, rank); err != nil {
					return err
				}
			}
		}
	}
	return nil
}

// useRef checks that ref names a commitment of a move applied strictly before m (not m itself:
// its id is not known until it is submitted). A veto must also name one of the seat's own pending
// commitments (§7.4); the engine refuses any other with bad_target, so that is not checked here.
func (p *parser) useRef(ref, path string, m *Move, rank []int) error {
	d, ok := p.refs[ref]
	if !ok {
		return pathErrf(path, "no commitment in the script has ref %q", ref)
	}
	if rank[d.move] >= rank[m.Index] {
		return pathErrf(path, "ref %q is defined at %s, which applies after this move; a ref names a commitment submitted earlier", ref, d.path)
	}
	return nil
}

func (p *parser) lever(v *value, path string, m *Move, rank []int) (*Lever, error) {
	if err := object(v, path, "call", "veto", "accuse"); err != nil {
		return nil, err
	}
	if len(v.obj) != 1 {
		return nil, pathErr(path, "must hold exactly one of call, veto, accuse")
	}
	name, arg := v.obj[0].name, v.obj[0].val
	apath := path + "." + name
	l := &Lever{Kind: name}
	var err error
	switch name {
	case "call":
		if l.Text, err = str(arg, apath); err != nil {
			return nil, err
		}
	case "veto":
		if l.Ref, err = str(arg, apath); err != nil {
			return nil, err
		}
		if err := p.useRef(l.Ref, apath, m, rank); err != nil {
			return nil, err
		}
	case "accuse":
		if l.Seat, err = p.seatRef(arg, apath); err != nil {
			return nil, err
		}
	}
	return l, nil
}
