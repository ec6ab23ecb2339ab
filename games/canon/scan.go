package canon

import (
	"encoding/binary"
	"fmt"
	"math"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf16"
	"unicode/utf8"
)

// MaxDepth is the deepest nesting of arrays and objects accepted. Protocol objects are
// shallow (a commitment with a depth-2 condition nests 5 levels); the limit keeps hostile
// input from exhausting the stack.
const MaxDepth = 64

// smallObject is the member count up to which duplicate and folded names are found by
// pairwise comparison (strings.EqualFold); larger objects use maps keyed by foldKey.
const smallObject = 16

// maxSafe is 2^53−1, the largest integer every JSON implementation holds exactly (I-JSON).
const maxSafe = 1<<53 - 1

// tree is one parsed input: its bytes and its values, held in flat lists that refer to each
// other by index, so that a tree holds no pointer but its lists' own (the collector has
// nothing in it to trace, and building it writes no pointer) and grows by appending.
type tree struct {
	raw     []byte
	nodes   []node
	members []member // each object's members, in order received, one run per object
	elems   []int32  // each array's elements (node indices), one run per array
	names   []string // member names, each distinct short name once
	// Room the lists start in when the input is small (a move body: one object of a few
	// members), so that its tree is one allocation; a larger input's lists are made for its size.
	nroom [8]node
	mroom [4]member
	sroom [4]string
}

// node is one parsed JSON value: its kind and byte span in the raw input, and for a container
// its children: members[first:first+n] of an object, elems[first:first+n] of an array. Kinds:
// '{' object, '[' array, '"' string, '0' number, 't' true, 'f' false, 'n' null.
type node struct {
	kind       byte
	start, end int32
	first, n   int32
}

// member is one object member: its decoded name (an index into names), the offset of its
// opening quote, and its value (a node index).
type member struct {
	name, keyStart, val int32
}

// ref is one value of a tree: a node by index.
type ref struct {
	t *tree
	i int32
}

func (r ref) node() *node { return &r.t.nodes[r.i] }

// members is an object's members (empty for any other kind).
func (r ref) members() []member {
	n := r.node()
	if n.kind != '{' {
		return nil
	}
	return r.t.members[n.first : n.first+n.n]
}

// elem is an array's i-th element.
func (r ref) elem(i int) ref { n := r.node(); return ref{r.t, r.t.elems[int(n.first)+i]} }

// name is member m's name, val its value.
func (r ref) name(m member) string { return r.t.names[m.name] }
func (r ref) val(m member) ref     { return ref{r.t, m.val} }

// span is the value's bytes as received.
func (r ref) span() []byte { n := r.node(); return r.t.raw[n.start:n.end] }

// scanner reads one input and is dropped with it: a fresh one per input costs a few
// allocations, little next to the signature check a signed input then goes to, and shares
// nothing between tables.
type scanner struct {
	data   []byte
	text   string // data as a string when it is short (see sharedText), else ""
	i      int
	t      *tree
	path   []pathElem
	names  [16]int32 // short member names met so far (indices into t.names), for name
	nnames int
	// An object's members and an array's elements are gathered on these stacks while it is
	// read (its nested values push theirs above), then appended, one run, to the tree's lists.
	mstack []member
	estack []int32
	// Room the stacks start in, enough for a protocol object's nesting (a commitment: a dozen
	// members, a condition three deep), so that a fresh scanner does not grow them from nothing;
	// a deeper or wider input grows them by appending.
	mroom [16]member
	eroom [16]int32
	proom [8]pathElem
}

// newNode appends a node to the tree and returns its index.
func (s *scanner) newNode(kind byte, start int) int32 {
	s.t.nodes = append(s.t.nodes, node{kind: kind, start: int32(start)})
	return int32(len(s.t.nodes) - 1)
}

// pathElem is one step of the scanner's position: a member name, or an array index when
// index ≥ 0. The scanner keeps a stack of them and writes the path ("$", "$.a", "$.a[2]")
// only when an error is reported: building the path string for every member cost an
// allocation per member on the hot path.
type pathElem struct {
	name  string
	index int
}

func (s *scanner) pathString() string {
	out := "$"
	for _, e := range s.path {
		if e.index >= 0 {
			out += "[" + strconv.Itoa(e.index) + "]"
		} else {
			out += "." + e.name
		}
	}
	return out
}

// sharedText is the longest input whose member names share one copy of it (a move body, a log
// line: one allocation for all their names, not one each); a longer input's names are copied
// one by one, so that a name kept after the parse does not hold the whole input.
const sharedText = 4096

// maxInput is the longest input parse takes: offsets are held in 32 bits.
const maxInput = 1<<31 - 1

// parse checks raw strictly and returns its tree's root: valid UTF-8, exactly one value, no
// member name twice or twice under case folding in one object, integers within ±(2^53−1).
func parse(raw []byte) (ref, error) {
	if len(raw) > maxInput {
		return ref{}, fmt.Errorf("%w: input over %d bytes", ErrSyntax, maxInput)
	}
	// Sized for the input (the lists grow past it by appending): a value of n bytes holds at
	// most n/2+1 nodes ("[1,1]"); a protocol object about one node per 32 bytes (a talk answer's
	// messages) to one per 20 (a commitment), a member per 40 and an element per 64 or more.
	// Lists that fit start in the tree's own room; an input without arrays makes no elems.
	t := &tree{raw: raw}
	t.nodes, t.members, t.names = t.nroom[:0], t.mroom[:0], t.sroom[:0]
	if n := min(len(raw)/32+8, len(raw)/2+1); n > len(t.nroom) {
		t.nodes = make([]node, 0, n)
	}
	if len(raw)/40+1 > len(t.mroom) {
		t.members = make([]member, 0, len(raw)/40+8)
	}
	if n := len(raw) / 64; n > 0 {
		t.elems = make([]int32, 0, n+4)
	}
	s := &scanner{data: raw, t: t}
	if len(raw) <= sharedText {
		s.text = string(raw)
	}
	s.mstack, s.estack, s.path = s.mroom[:0], s.eroom[:0], s.proom[:0]
	n, err := s.parse()
	if err != nil {
		return ref{}, err
	}
	return ref{t, n}, nil
}

// parse is parse on s.data.
func (s *scanner) parse() (int32, error) {
	if !utf8.Valid(s.data) {
		return -1, fmt.Errorf("%w", ErrInvalidUTF8)
	}
	s.skipWS()
	n, err := s.value(0)
	if err != nil {
		return -1, err
	}
	s.skipWS()
	if s.i != len(s.data) {
		return -1, fmt.Errorf("%w at offset %d", ErrTrailingData, s.i)
	}
	return n, nil
}

// skipWS moves past JSON whitespace (RFC 8259: space, tab, line feed, carriage return).
func (s *scanner) skipWS() {
	for s.i < len(s.data) {
		switch s.data[s.i] {
		case ' ', '\t', '\n', '\r':
			s.i++
		default:
			return
		}
	}
}

// skipPlain returns the offset of the first byte of data at or after i that a string cannot
// hold as it is — a quote, a backslash, a control character (below 0x20) — or that begins or
// continues a multi-byte character (0x80 and above); len(data) if there is none. skipStr reads
// escape-free strings with it: the byte it stops at is the closing quote, or a byte it judges
// alone. Thirty-two bytes are judged at a time, then eight (mask8), then one.
func skipPlain(data []byte, i int) int {
	for ; i+32 <= len(data); i += 32 {
		w := data[i : i+32]
		if mask8(binary.LittleEndian.Uint64(w))|mask8(binary.LittleEndian.Uint64(w[8:]))|
			mask8(binary.LittleEndian.Uint64(w[16:]))|mask8(binary.LittleEndian.Uint64(w[24:])) != 0 {
			break
		}
	}
	for ; i+8 <= len(data); i += 8 {
		if special8(binary.LittleEndian.Uint64(data[i:])) {
			break
		}
	}
	for ; i < len(data); i++ {
		if c := data[i]; c < 0x20 || c == '"' || c == '\\' || c >= 0x80 {
			return i
		}
	}
	return i
}

// special8 reports whether any of the eight bytes in x is below 0x20, a quote, a backslash
// or 0x80 and above.
func special8(x uint64) bool { return mask8(x) != 0 }

// mask8 is non-zero exactly when one of the eight bytes in x is below 0x20, a quote, a
// backslash or 0x80 and above (the classic "has zero byte" and "has byte less than" word
// tests; a borrow may mark a byte above a special one too, never a word without one).
func mask8(x uint64) uint64 {
	const lo, hi = 0x0101010101010101, 0x8080808080808080
	ctl := (x - lo*0x20) & ^x                       // a byte below 0x20 (its high bit)
	q := x ^ (lo * '"')                             // a zero byte where x has a quote
	bs := x ^ (lo * '\\')                           // a zero byte where x has a backslash
	return (ctl | (q-lo)&^q | (bs-lo)&^bs | x) & hi // or a byte of 0x80 and above
}

func (s *scanner) syntax(what string) error {
	return fmt.Errorf("%w: %s at offset %d", ErrSyntax, what, s.i)
}

func (s *scanner) value(depth int) (int32, error) {
	if s.i >= len(s.data) {
		return -1, s.syntax("unexpected end")
	}
	switch c := s.data[s.i]; {
	case c == '{':
		return s.object(depth + 1)
	case c == '[':
		return s.array(depth + 1)
	case c == '"':
		start := s.i
		if err := s.skipStr(); err != nil {
			return -1, err
		}
		n := s.newNode('"', start)
		s.t.nodes[n].end = int32(s.i)
		return n, nil
	case c == '-' || (c >= '0' && c <= '9'):
		return s.number()
	case c == 't':
		return s.literal("true", 't')
	case c == 'f':
		return s.literal("false", 'f')
	case c == 'n':
		return s.literal("null", 'n')
	default:
		return -1, s.syntax(fmt.Sprintf("unexpected %q", c))
	}
}

func (s *scanner) literal(word string, kind byte) (int32, error) {
	if len(s.data)-s.i < len(word) || string(s.data[s.i:s.i+len(word)]) != word {
		return -1, s.syntax("bad literal")
	}
	n := s.newNode(kind, s.i)
	s.i += len(word)
	s.t.nodes[n].end = int32(s.i)
	return n, nil
}

func (s *scanner) object(depth int) (int32, error) {
	if depth > MaxDepth {
		return -1, fmt.Errorf("%w: %s", ErrTooDeep, s.pathString())
	}
	n := s.newNode('{', s.i)
	base := len(s.mstack) // this object's members are s.mstack[base:] until it closes
	s.i++
	s.skipWS()
	if s.i < len(s.data) && s.data[s.i] == '}' {
		s.i++
		s.t.nodes[n].end = int32(s.i)
		return n, nil
	}
	var exact map[string]struct{} // built only for objects past smallObject members
	var folded map[string]string
	for {
		s.skipWS()
		if s.i >= len(s.data) || s.data[s.i] != '"' {
			return -1, s.syntax("expected member name")
		}
		keyStart := s.i
		ni, err := s.name()
		if err != nil {
			return -1, err
		}
		name := s.t.names[ni]
		members := s.mstack[base:]
		if len(members) < smallObject {
			// Few members: compare pairwise, no allocation.
			for _, m := range members {
				mn := s.t.names[m.name]
				if mn == name {
					return -1, fmt.Errorf("%w: %q in %s", ErrDuplicateMember, name, s.pathString())
				}
				if strings.EqualFold(mn, name) {
					return -1, fmt.Errorf("%w: %q and %q in %s", ErrFoldedMember, mn, name, s.pathString())
				}
			}
		} else {
			if exact == nil {
				exact = make(map[string]struct{}, 2*smallObject)
				folded = make(map[string]string, 2*smallObject)
				for _, m := range members {
					mn := s.t.names[m.name]
					exact[mn] = struct{}{}
					folded[foldKey(mn)] = mn
				}
			}
			if _, dup := exact[name]; dup {
				return -1, fmt.Errorf("%w: %q in %s", ErrDuplicateMember, name, s.pathString())
			}
			exact[name] = struct{}{}
			fk := foldKey(name)
			if other, clash := folded[fk]; clash {
				return -1, fmt.Errorf("%w: %q and %q in %s", ErrFoldedMember, other, name, s.pathString())
			}
			folded[fk] = name
		}
		s.skipWS()
		if s.i >= len(s.data) || s.data[s.i] != ':' {
			return -1, s.syntax("expected ':'")
		}
		s.i++
		s.skipWS()
		s.path = append(s.path, pathElem{name: name, index: -1})
		v, err := s.value(depth)
		if err != nil {
			return -1, err
		}
		s.path = s.path[:len(s.path)-1]
		s.mstack = append(s.mstack, member{name: ni, keyStart: int32(keyStart), val: v})
		s.skipWS()
		if s.i >= len(s.data) {
			return -1, s.syntax("unterminated object")
		}
		if s.data[s.i] == ',' {
			s.i++
			continue
		}
		if s.data[s.i] == '}' {
			s.i++
			nd := &s.t.nodes[n]
			nd.end = int32(s.i)
			nd.first, nd.n = int32(len(s.t.members)), int32(len(s.mstack)-base)
			s.t.members = append(s.t.members, s.mstack[base:]...)
			s.mstack = s.mstack[:base]
			return n, nil
		}
		return -1, s.syntax("expected ',' or '}'")
	}
}

func (s *scanner) array(depth int) (int32, error) {
	if depth > MaxDepth {
		return -1, fmt.Errorf("%w: %s", ErrTooDeep, s.pathString())
	}
	n := s.newNode('[', s.i)
	base := len(s.estack) // this array's elements are s.estack[base:] until it closes
	s.i++
	s.skipWS()
	if s.i < len(s.data) && s.data[s.i] == ']' {
		s.i++
		s.t.nodes[n].end = int32(s.i)
		return n, nil
	}
	for {
		s.skipWS()
		s.path = append(s.path, pathElem{index: len(s.estack) - base})
		v, err := s.value(depth)
		if err != nil {
			return -1, err
		}
		s.path = s.path[:len(s.path)-1]
		s.estack = append(s.estack, v)
		s.skipWS()
		if s.i >= len(s.data) {
			return -1, s.syntax("unterminated array")
		}
		if s.data[s.i] == ',' {
			s.i++
			continue
		}
		if s.data[s.i] == ']' {
			s.i++
			nd := &s.t.nodes[n]
			nd.end = int32(s.i)
			nd.first, nd.n = int32(len(s.t.elems)), int32(len(s.estack)-base)
			s.t.elems = append(s.t.elems, s.estack[base:]...)
			s.estack = s.estack[:base]
			return n, nil
		}
		return -1, s.syntax("expected ',' or ']'")
	}
}

// skipStr checks a string value starting at its opening quote exactly as str does, without
// building its content when it has no escape (string values are decoded on demand by
// Value.Str; only member names are needed while scanning).
//
// The plain bytes go by at skipPlain's pace; it also stops at a byte of a multi-byte
// character, which is passed over here (parse checked the whole input's UTF-8 first).
func (s *scanner) skipStr() error {
	start := s.i
	for i := skipPlain(s.data, s.i+1); i < len(s.data); i = skipPlain(s.data, i+1) {
		c := s.data[i]
		if c == '"' {
			s.i = i + 1
			return nil
		}
		if c == '\\' {
			break
		}
		if c < 0x20 {
			s.i = i
			return s.syntax("control character in string")
		}
	}
	s.i = start
	_, err := s.str()
	return err
}

// name reads a member name as str does and returns its index in the tree's names, reusing the
// entry of an equal name met earlier in the same input: protocol objects come in arrays of
// objects with the same members (16 messages of an answer), so most names are repeats and need
// no allocation.
func (s *scanner) name() (int32, error) {
	start := s.i + 1
	for i := start; i < len(s.data) && i-start <= 32; i++ {
		c := s.data[i]
		if c == '"' {
			raw := s.data[start:i]
			for _, k := range s.names[:s.nnames] {
				if s.t.names[k] == string(raw) {
					s.i = i + 1
					return k, nil
				}
			}
			break
		}
		if c == '\\' || c < 0x20 {
			break
		}
	}
	n, err := s.str()
	if err != nil {
		return -1, err
	}
	k := int32(len(s.t.names))
	s.t.names = append(s.t.names, n)
	if s.nnames < len(s.names) && len(n) <= 32 {
		s.names[s.nnames] = k
		s.nnames++
	}
	return k, nil
}

// str reads a string starting at the opening quote and returns its decoded value. Escapes
// are checked: a \u escape of a surrogate must form a valid pair (I-JSON).
func (s *scanner) str() (string, error) {
	s.i++ // opening quote
	start := s.i
	// Fast path: no escapes.
	for s.i < len(s.data) {
		c := s.data[s.i]
		if c == '"' {
			var v string
			if s.text != "" {
				v = s.text[start:s.i]
			} else {
				v = string(s.data[start:s.i])
			}
			s.i++
			return v, nil
		}
		if c == '\\' {
			break
		}
		if c < 0x20 {
			return "", s.syntax("control character in string")
		}
		s.i++
	}
	buf := make([]byte, 0, s.i-start+16)
	buf = append(buf, s.data[start:s.i]...)
	for s.i < len(s.data) {
		c := s.data[s.i]
		switch {
		case c == '"':
			s.i++
			return string(buf), nil
		case c < 0x20:
			return "", s.syntax("control character in string")
		case c != '\\':
			buf = append(buf, c)
			s.i++
			continue
		}
		s.i++ // backslash
		if s.i >= len(s.data) {
			break
		}
		e := s.data[s.i]
		s.i++
		switch e {
		case '"', '\\', '/':
			buf = append(buf, e)
		case 'b':
			buf = append(buf, '\b')
		case 'f':
			buf = append(buf, '\f')
		case 'n':
			buf = append(buf, '\n')
		case 'r':
			buf = append(buf, '\r')
		case 't':
			buf = append(buf, '\t')
		case 'u':
			r, ok := s.hex4()
			if !ok {
				return "", s.syntax("bad \\u escape")
			}
			if utf16.IsSurrogate(r) {
				if r >= 0xDC00 || s.i+1 >= len(s.data) || s.data[s.i] != '\\' || s.data[s.i+1] != 'u' {
					return "", s.syntax("lone surrogate escape")
				}
				s.i += 2
				r2, ok := s.hex4()
				if !ok || r2 < 0xDC00 || r2 > 0xDFFF {
					return "", s.syntax("lone surrogate escape")
				}
				r = utf16.DecodeRune(r, r2)
			}
			buf = utf8.AppendRune(buf, r)
		default:
			return "", s.syntax("bad escape")
		}
	}
	return "", s.syntax("unterminated string")
}

func (s *scanner) hex4() (rune, bool) {
	if len(s.data)-s.i < 4 {
		return 0, false
	}
	var r rune
	for _, c := range s.data[s.i : s.i+4] {
		r <<= 4
		switch {
		case c >= '0' && c <= '9':
			r |= rune(c - '0')
		case c >= 'a' && c <= 'f':
			r |= rune(c - 'a' + 10)
		case c >= 'A' && c <= 'F':
			r |= rune(c - 'A' + 10)
		default:
			return 0, false
		}
	}
	s.i += 4
	return r, true
}

// number reads a JSON number and refuses it when it is integer-valued and outside ±(2^53−1)
// (JCS would print a neighbouring integer: 9007199254740993 becomes ...992). Non-integer
// values are left to JCS.
func (s *scanner) number() (int32, error) {
	start := s.i
	if s.data[s.i] == '-' {
		s.i++
	}
	intStart := s.i
	if s.i >= len(s.data) {
		return -1, s.syntax("bad number")
	}
	if s.data[s.i] == '0' {
		s.i++
	} else if s.data[s.i] >= '1' && s.data[s.i] <= '9' {
		for s.i < len(s.data) && isDigit(s.data[s.i]) {
			s.i++
		}
	} else {
		return -1, s.syntax("bad number")
	}
	intDigits := s.data[intStart:s.i]
	var fracDigits []byte
	if s.i < len(s.data) && s.data[s.i] == '.' {
		s.i++
		fs := s.i
		for s.i < len(s.data) && isDigit(s.data[s.i]) {
			s.i++
		}
		if s.i == fs {
			return -1, s.syntax("bad number fraction")
		}
		fracDigits = s.data[fs:s.i]
	}
	exp := 0
	if s.i < len(s.data) && (s.data[s.i] == 'e' || s.data[s.i] == 'E') {
		s.i++
		neg := false
		if s.i < len(s.data) && (s.data[s.i] == '+' || s.data[s.i] == '-') {
			neg = s.data[s.i] == '-'
			s.i++
		}
		es := s.i
		for s.i < len(s.data) && isDigit(s.data[s.i]) {
			if exp < 1_000_000_000 { // saturate: beyond this only the sign matters
				exp = exp*10 + int(s.data[s.i]-'0')
			}
			s.i++
		}
		if s.i == es {
			return -1, s.syntax("bad number exponent")
		}
		if neg {
			exp = -exp
		}
	}
	if !safeNumber(s.data[start:s.i], intDigits, fracDigits, exp) {
		return -1, fmt.Errorf("%w: %s at %s", ErrUnsafeInteger, s.data[start:s.i], s.pathString())
	}
	n := s.newNode('0', start)
	s.t.nodes[n].end = int32(s.i)
	return n, nil
}

func isDigit(c byte) bool { return c >= '0' && c <= '9' }

// safeNumber reports whether the number literal lit, the decimal intDigits.fracDigits × 10^exp,
// keeps its value through JCS: an integer of magnitude ≤ 2^53−1 (worked out on the digits
// exactly, no float), or a fraction whose float64, which is what JCS writes, is neither out of
// float64's range nor an integer beyond ±(2^53−1) (10000000000000000.1 is written
// 10000000000000000, a form Canonical itself refuses, and …0.1 and …0.2 would share it).
func safeNumber(lit, intDigits, fracDigits []byte, exp int) bool {
	digits := make([]byte, 0, len(intDigits)+len(fracDigits))
	digits = append(digits, intDigits...)
	digits = append(digits, fracDigits...)
	point := len(intDigits) + exp // digits before the decimal point
	for len(digits) > 0 && digits[0] == '0' {
		digits = digits[1:]
		point--
	}
	for len(digits) > 0 && digits[len(digits)-1] == '0' {
		digits = digits[:len(digits)-1]
	}
	if len(digits) == 0 {
		return true // zero
	}
	if point < len(digits) { // a fractional part remains: not an integer
		if point <= 15 {
			return true // below 10^15 < 2^53: its float64 is no unsafe integer, and in range
		}
		f, err := strconv.ParseFloat(string(lit), 64)
		return err == nil && (f != math.Trunc(f) || math.Abs(f) <= maxSafe)
	}
	if point > 16 {
		return false // at least 10^16 > 2^53−1
	}
	var v int64
	for i := 0; i < point; i++ {
		v *= 10
		if i < len(digits) {
			v += int64(digits[i] - '0')
		}
	}
	return v <= maxSafe
}

// foldKey maps a name to a key equal for two names exactly when strings.EqualFold holds: each
// rune is replaced by the least rune of its simple-folding orbit.
func foldKey(name string) string {
	ascii := true
	for i := 0; i < len(name); i++ {
		if name[i] >= utf8.RuneSelf {
			ascii = false
			break
		}
	}
	if ascii {
		// The least rune of an ASCII letter's orbit is its upper case ('s', 'S', U+017F → 'S').
		b := []byte(name)
		for i, c := range b {
			if c >= 'a' && c <= 'z' {
				b[i] = c - 'a' + 'A'
			}
		}
		return string(b)
	}
	out := make([]rune, 0, len(name))
	for _, r := range name {
		least := r
		for f := unicode.SimpleFold(r); f != r; f = unicode.SimpleFold(f) {
			if f < least {
				least = f
			}
		}
		out = append(out, least)
	}
	return string(out)
}
