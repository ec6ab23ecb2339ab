package canon

import (
	"bytes"
	"errors"
	"slices"
	"unicode/utf16"
	"unicode/utf8"
)

// The JCS writer. RFC 8785 is three rules: members sorted by the UTF-16 code units of their
// names, strings escaped minimally (only ", \ and controls; \b \t \n \f \r by name, other
// controls as \u00xx in lowercase), numbers as ECMAScript prints them. Protocol objects hold
// only integers, and for an integer written as -?digits within ±(2^53−1) the ECMAScript form
// is the digits themselves ("-0" is "0"). So objects of strings, integers, booleans and null
// are written here, from the tree the strict checks already built, without a second parse;
// anything holding another number (a fraction or an exponent) goes to github.com/gowebpki/jcs,
// which does the ECMAScript number formatting. Tests hold the two to byte equality on every
// vector and under fuzzing.

var errNeedsJCS = errors.New("canon: number needs ECMAScript formatting")

// canonicalTree writes n (from raw) canonically, leaving out the top-level member skip if n is
// an object and drop is set.
func canonicalTree(r ref, skip string, drop bool) ([]byte, error) {
	var b bytes.Buffer
	b.Grow(len(r.span()))
	if err := writeNode(&b, r, skip, drop); err != nil {
		if !errors.Is(err, errNeedsJCS) {
			return nil, err
		}
		if drop && r.node().kind == '{' {
			return transform(without(r, skip))
		}
		return transform(r.span())
	}
	return b.Bytes(), nil
}

func writeNode(b *bytes.Buffer, r ref, skip string, drop bool) error {
	n := r.node()
	switch n.kind {
	case '{':
		ms := r.members()
		if !membersSorted(r, ms, skip, drop) {
			ms = sortedMembers(r, ms, skip, drop)
			drop = false // the sorted copy has left skip out already
		}
		// In JCS order (most often as received: what a JCS writer or encoding/json's maps
		// send, written as they stand without a sorted copy).
		b.WriteByte('{')
		first := true
		for _, m := range ms {
			name := r.name(m)
			if drop && name == skip {
				continue
			}
			if !first {
				b.WriteByte(',')
			}
			first = false
			writeString(b, name)
			b.WriteByte(':')
			if err := writeNode(b, r.val(m), "", false); err != nil {
				return err
			}
		}
		b.WriteByte('}')
	case '[':
		b.WriteByte('[')
		for i := 0; i < int(n.n); i++ {
			if i > 0 {
				b.WriteByte(',')
			}
			if err := writeNode(b, r.elem(i), "", false); err != nil {
				return err
			}
		}
		b.WriteByte(']')
	case '"':
		if lit := r.span(); bytes.IndexByte(lit, '\\') < 0 {
			// No escape: the strict scan refused control characters and invalid UTF-8, so the
			// literal as received is already its JCS form (JCS escapes only ", \ and controls).
			b.Write(lit)
			return nil
		}
		s := &scanner{data: r.t.raw, i: int(n.start)}
		v, err := s.str()
		if err != nil {
			return err
		}
		writeString(b, v)
	case '0':
		lit := r.span()
		for i, c := range lit {
			if !(c >= '0' && c <= '9' || c == '-' && i == 0) {
				return errNeedsJCS
			}
		}
		if string(lit) == "-0" {
			lit = lit[1:]
		}
		b.Write(lit)
	default: // true, false, null: their literal bytes
		b.Write(r.span())
	}
	return nil
}

// sortedMembers is a copy of ms (less skip when drop is set) in JCS order.
func sortedMembers(r ref, ms []member, skip string, drop bool) []member {
	out := make([]member, 0, len(ms))
	for _, m := range ms {
		if !drop || r.name(m) != skip {
			out = append(out, m)
		}
	}
	slices.SortFunc(out, func(a, b member) int { return compareUTF16(r.name(a), r.name(b)) })
	return out
}

// membersSorted reports whether the members (less skip when drop is set) are in JCS order:
// ascending by the UTF-16 code units of their names. Names are never equal (the strict scan
// refuses a duplicate).
func membersSorted(r ref, ms []member, skip string, drop bool) bool {
	prev := ""
	started := false
	for _, m := range ms {
		name := r.name(m)
		if drop && name == skip {
			continue
		}
		if started && compareUTF16(prev, name) > 0 {
			return false
		}
		prev, started = name, true
	}
	return true
}

const hexDigits = "0123456789abcdef"

// writeString writes s as a JCS string (RFC 8785 §3.2.2.2).
func writeString(b *bytes.Buffer, s string) {
	b.WriteByte('"')
	start := 0
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c >= 0x20 && c != '"' && c != '\\' {
			continue
		}
		b.WriteString(s[start:i])
		switch c {
		case '"', '\\':
			b.WriteByte('\\')
			b.WriteByte(c)
		case '\b':
			b.WriteString(`\b`)
		case '\t':
			b.WriteString(`\t`)
		case '\n':
			b.WriteString(`\n`)
		case '\f':
			b.WriteString(`\f`)
		case '\r':
			b.WriteString(`\r`)
		default:
			b.WriteString(`\u00`)
			b.WriteByte(hexDigits[c>>4])
			b.WriteByte(hexDigits[c&0xf])
		}
		start = i + 1
	}
	b.WriteString(s[start:])
	b.WriteByte('"')
}

// compareUTF16 orders two names by their UTF-16 code units (RFC 8785 §3.2.3). For runes below
// U+10000 that is code point order, which UTF-8 byte order preserves; only a supplementary
// character (a surrogate pair, 0xD800–0xDFFF) sorts below U+E000–U+FFFF, so the slow path runs
// only when a name holds one.
func compareUTF16(a, b string) int {
	i := 0
	for i < len(a) && i < len(b) && a[i] == b[i] {
		i++
	}
	if i == len(a) || i == len(b) {
		return len(a) - len(b)
	}
	// Back up to the start of the rune that differs.
	for i > 0 && !utf8.RuneStart(a[i]) {
		i--
	}
	ra, _ := utf8.DecodeRuneInString(a[i:])
	rb, _ := utf8.DecodeRuneInString(b[i:])
	if ra >= 0x10000 && rb >= 0x10000 {
		return int(ra) - int(rb) // both surrogate pairs: code point order is code unit order
	}
	return int(utf16Key(ra)) - int(utf16Key(rb)) // never equal: valid UTF-8 holds no surrogate

}

// utf16Key is the first UTF-16 code unit of r: what orders two differing runes.
func utf16Key(r rune) uint16 {
	if r >= 0x10000 {
		hi, _ := utf16.EncodeRune(r)
		return uint16(hi)
	}
	return uint16(r)
}
