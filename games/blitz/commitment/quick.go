package commitment

import (
	"bytes"
	"crypto/ed25519"
	"encoding/hex"
	"unicode/utf8"
	"unsafe"

	"arena/games/canon"
	"arena/games/internal/sha256pair"
)

// Quick is a commitment read by ScanQuick: exactly what ParseForms returns for its bytes, and
// Sig, Commitment.Sig decoded (for VerifyDecoded: the schema check decodes it anyway).
type Quick struct {
	Commitment Commitment
	Canonical  Canonical
	Forms      Forms
	Sig        [ed25519.SignatureSize]byte
	CondAt     int // Forms.Condition is Forms.Signed[CondAt : CondAt+len(Forms.Condition)]

	// sigText is the sig member's text in the input, from ScanQuickToLater until FinishQuick
	// writes the id and Commitment.Sig; nil otherwise.
	sigText []byte
}

// ScanQuick reads the commitment object that starts at data[at] (after optional whitespace)
// in one pass over its bytes, without a parse tree, and returns it with the index just past
// its closing brace. It takes only the common, well-formed shape: the §7.1 members by their
// exact names (v, round, turn, seq, payer, payee, amount, condition, due, pair, sig), each
// once; strings without escapes; integers written plainly (no sign on zero, at most 15
// digits); a condition of objects, arrays, escape-free strings, plain integers and literals
// that canon.Parse and the §10 parser accept; and a commitment that passes the schema. For
// anything else, a refusal included, it returns false and the caller reads the bytes with
// Parse or ParseValue, which give the precise error. Whatever it takes, canon.Parse takes
// too (valid UTF-8, no member twice, no two names folding together, safe integers) and
// ParseForms gives the same Commitment, Canonical and Forms: the canonical forms are written
// from the members' literals in JCS order (an escape-free string and a plain integer are
// their own JCS form).
func ScanQuick(data []byte, at int) (Quick, int, bool) {
	var q Quick
	end, ok := scanQuick(&q, data, at, nil, nil, false)
	if !ok {
		return Quick{}, 0, false
	}
	return q, end, true
}

// scanQuickInto is ScanQuick with the forms (Canonical.Bytes, Forms.Signed and
// Forms.Condition, one piece of exactly their size) written at the end of *room when its
// capacity has space for them, *room then extended over them; otherwise into a new buffer, as
// ScanQuick. The caller owns room: the forms are valid as long as it leaves that piece alone
// (a reader of several commitments reuses one room for all of them, and copies out what must
// outlive it).
func scanQuickInto(data []byte, at int, room *[]byte) (Quick, int, bool) {
	var q Quick
	end, ok := scanQuick(&q, data, at, room, nil, false)
	if !ok {
		return Quick{}, 0, false
	}
	return q, end, true
}

// scanQuickTo is scanQuickInto reading into *dst, which must be the zero Quick: a reader that
// keeps its commitments in a list reads each in its place, where a Quick returned by value
// (some 500 bytes, pointers among them) was copied twice more. The round, payer and payee
// strings come from names when it holds them (nil: each commitment its own). On false *dst
// holds whatever was read before the refusal; the caller clears it.
func scanQuickTo(dst *Quick, data []byte, at int, room *[]byte, names *Names) (int, bool) {
	return scanQuick(dst, data, at, room, names, false)
}

// ScanQuickToLater is scanQuickTo leaving Canonical.Digest, Canonical.ID and Commitment.Sig
// to FinishQuick, which a reader of several commitments calls once it has read them all: their
// digests are then hashed two at a time (games/internal/sha256pair: one stream's SHA-256
// rounds in the other's idle cycles). Until then the Quick holds a view of data's sig text,
// and data must not change.
func ScanQuickToLater(dst *Quick, data []byte, at int, room *[]byte, names *Names) (int, bool) {
	return scanQuick(dst, data, at, room, names, true)
}

// FinishQuick completes the commitments qs read by ScanQuickToLater (each once): digest, id
// and sig text, as scanQuickTo would have written them.
func FinishQuick(qs []Quick) {
	i := 0
	for ; i+1 < len(qs); i += 2 {
		var x, y sha256pair.Digest
		sha256pair.WritePair(&x, qs[i].Canonical.Bytes, &y, qs[i+1].Canonical.Bytes)
		qs[i].finish(x.Sum256())
		qs[i+1].finish(y.Sum256())
	}
	if i < len(qs) {
		qs[i].finish(canon.Digest(qs[i].Canonical.Bytes))
	}
}

// finish sets the digest of q's canonical bytes, its id and its sig text.
func (q *Quick) finish(sum [32]byte) {
	q.Canonical.Digest = sum
	q.Canonical.ID = idAndSig(sum, q.sigText, &q.Commitment)
	q.sigText = nil
}

func scanQuick(dst *Quick, data []byte, at int, room *[]byte, names *Names, later bool) (int, bool) {
	// The object is read on a local offset (ws, next, strAt, intAt), kept in a register where
	// a cursor's field was stored and loaded again between every step; the condition, rarely
	// more than {"always":true}, through the cursor (skip).
	d := data
	var (
		seen     int
		lits     [nMembers][]byte // each member's literal (for the condition, its span)
		condSpan []byte
		keyAt    [nMembers]int // where each member's name starts
		last     = -1          // the last member's index: members in JCS order while each exceeds it
		ordered  = true
		ok       bool
	)
	c := &dst.Commitment
	i := ws(d, at)
	objAt := i
	if i, ok = next(d, i, '{'); !ok {
		return 0, false
	}
	for {
		i = ws(d, i)
		keyStart := i
		k, n := memberAt(d[i:])
		if k < 0 || seen&(1<<k) != 0 {
			return 0, false
		}
		if i, ok = next(d, i+n, ':'); !ok {
			return 0, false
		}
		seen |= 1 << k
		keyAt[k] = keyStart
		ordered = ordered && k > last
		last = k
		i = ws(d, i)
		start := i
		switch k {
		case mV, mTurn, mSeq, mAmount, mDue:
			var n int64
			if n, i, ok = intAt(d, i); !ok {
				return 0, false
			}
			switch k {
			case mV:
				c.V = int(n)
			case mTurn:
				c.Turn = int(n)
				ok = n >= -maxTurn && n <= maxTurn
			case mSeq:
				c.Seq = int(n)
				ok = n >= -maxSeq && n <= maxSeq
			case mAmount:
				c.Amount = n
			case mDue:
				c.Due = int(n)
				ok = n >= -maxTurn && n <= maxTurn
			}
		case mCondition:
			q := quickScan{canon.Cursor{D: d, I: i}}
			ok = q.skip(0)
			i = q.I
			condSpan = d[start:i]
		default: // the strings: set below, from their literals
			_, i, ok = strAt(d, i)
		}
		if !ok {
			return 0, false
		}
		lits[k] = d[start:i]
		if i, ok = next(d, i, ','); ok {
			continue
		}
		if i, ok = next(d, i, '}'); !ok {
			return 0, false
		}
		break
	}
	end := i
	if seen&(1<<mCondition) == 0 || seen&(1<<mSig) == 0 {
		return 0, false
	}
	setStrings(c, &lits, names)
	sigText := lits[mSig][1 : len(lits[mSig])-1]
	var cond canon.Value
	var err error
	always := string(condSpan) == alwaysJCS
	if always {
		cond = alwaysValue // the common condition, parsed once
	} else if cond, err = canon.Parse(condSpan); err != nil {
		return 0, false
	}
	// The sig's text is read here as a view of the input, which schema does not keep; c.Sig
	// is set with the id, once the commitment is taken.
	if schema(c, presence(seen), cond, unsafe.String(unsafe.SliceData(sigText), len(sigText)), &dst.Sig) != nil {
		return 0, false
	}
	// The forms: the whole object in JCS order, the condition's JCS in its place; the signed
	// bytes are the same less the sig member.
	condJCS := []byte(alwaysJCS)
	if !always {
		if condJCS, err = cond.Canonical(); err != nil {
			return 0, false
		}
	}
	lits[mCondition] = condJCS
	// One buffer holds both forms, sized exactly: the full one first, then the one without
	// sig (less the sig member and the comma before it).
	size, sigSize := 1, len(memberNames[mSig])+4+len(lits[mSig])
	for k := range lits {
		if lits[k] != nil {
			size += len(memberNames[k]) + 4 + len(lits[k]) // "name":lit and a comma or brace
		}
	}
	need := 2*size - sigSize
	var buf []byte
	if r := room; r != nil && cap(*r)-len(*r) >= need {
		n := len(*r)
		buf = (*r)[n : n : n+need]
		*r = (*r)[:n+need]
	} else {
		buf = make([]byte, 0, need)
	}
	var full []byte
	sigAt, sigEnd, condAt := 0, 0, 0
	if ordered && end-objAt == size && (always || bytes.Equal(condSpan, condJCS)) {
		// The object as received is its own full form: members in JCS order, no whitespace
		// (its length is exactly the members' "name":lit, the commas and braces), a condition
		// already canonical. One copy writes it; the offsets are the received ones.
		full = append(buf, data[objAt:end]...)
		sigAt = keyAt[mSig] - 1 - objAt // the comma before "sig" (sig is never first)
		sigEnd = sigAt + sigSize
		condAt = keyAt[mCondition] - objAt + len(memberNames[mCondition]) + 3
	} else {
		full = writeForm(buf, &lits, &sigAt, &sigEnd, &condAt)
	}
	n := len(full)
	// sig is never first in JCS order (amount, condition and due are required and sort before
	// it), so its member is always preceded by a comma, taken out with it.
	without := append(append(full[n:n], full[:sigAt]...), full[sigEnd:n]...)
	without = without[:len(without):len(without)]
	full = full[:n:n]
	dst.Forms = Forms{Signed: full, Condition: full[condAt : condAt+len(condJCS) : condAt+len(condJCS)]}
	dst.CondAt = condAt
	dst.Canonical.Bytes = without
	dst.sigText = sigText
	if !later {
		dst.finish(canon.Digest(without))
	}
	return end, true
}

// writeForm appends to buf the object of the members' literals in JCS order (lits, the
// condition's already in JCS), and sets the offsets of the comma before the sig member, of
// the end of that member, and of the condition's value.
func writeForm(buf []byte, lits *[nMembers][]byte, sigAt, sigEnd, condAt *int) []byte {
	full := append(buf, '{')
	first := true
	for k := range jcsOrder {
		m := jcsOrder[k]
		if lits[m] == nil {
			continue
		}
		if m == mSig {
			*sigAt = len(full)
		}
		if !first {
			full = append(full, ',')
		}
		first = false
		full = append(full, '"')
		full = append(full, memberNames[m]...)
		full = append(full, '"', ':')
		if m == mCondition {
			*condAt = len(full)
		}
		full = append(full, lits[m]...)
		if m == mSig {
			*sigEnd = len(full)
		}
	}
	return append(full, '}')
}

// Names is a small cache of the strings a reader of many commitments meets again and again:
// the round's id and the seats' agent ids. A commitment read with one (scanQuickTo) takes its
// round, payer and payee from it when they are there, so a round's 120 commitments cost a
// handful of those strings, not 360. The zero Names is empty; it keeps the last 8 distinct
// strings. Not safe for concurrent use: one per reader.
type Names struct {
	s    [8]string
	next int
}

// intern returns b as a string: the cached one equal to it, or a new copy, then cached.
func (n *Names) intern(b []byte) string {
	for _, s := range n.s {
		if s == string(b) && len(s) > 0 {
			return s
		}
	}
	s := string(b)
	n.s[n.next] = s
	n.next = (n.next + 1) % len(n.s)
	return s
}

// setStrings sets c's round, payer, payee and pair from their literals (escape-free, so their
// text is what lies between the quotes). With names, round, payer and payee come from it;
// without, they share one allocation, since they are read together and let go together. Pair,
// which a sealed commitment keeps for the round, gets its own so it holds nothing else alive.
// Sig is set with the id (idAndSig).
func setStrings(c *Commitment, lits *[nMembers][]byte, names *Names) {
	text := func(k int) []byte {
		if l := lits[k]; l != nil {
			return l[1 : len(l)-1]
		}
		return nil
	}
	if names != nil {
		for _, k := range [...]int{mRound, mPayer, mPayee} {
			if t := text(k); t != nil {
				s := names.intern(t)
				switch k {
				case mRound:
					c.Round = s
				case mPayer:
					c.Payer = s
				case mPayee:
					c.Payee = s
				}
			}
		}
	} else {
		r, pr, pe := text(mRound), text(mPayer), text(mPayee)
		all := string(append(append(append(make([]byte, 0, len(r)+len(pr)+len(pe)), r...), pr...), pe...))
		c.Round, c.Payer, c.Payee = all[:len(r)], all[len(r):len(r)+len(pr)], all[len(r)+len(pr):]
	}
	if t := text(mPair); t != nil {
		c.Pair = string(t)
	}
}

// idAndSig sets the commitment id ("sha256:" + hex of d, as canon.IDOf) and c.Sig (sigText) from
// one allocation: the id lives as long as the promise it names, and the signature's text with
// it (136 bytes, where a second allocation cost more in time than they in room).
func idAndSig(d [32]byte, sigText []byte, c *Commitment) string {
	b := make([]byte, 7+64+len(sigText))
	copy(b, "sha256:")
	hex.Encode(b[7:7+64], d[:])
	copy(b[7+64:], sigText)
	s := unsafe.String(&b[0], len(b)) // b is never written again
	c.Sig = s[7+64:]
	return s[:7+64]
}

// alwaysJCS is the condition {"always":true} (§10), already canonical; alwaysValue is it
// parsed. A canon.Value is never changed once parsed, so one serves every commitment.
const alwaysJCS = `{"always":true}`

var alwaysValue = func() canon.Value {
	v, err := canon.Parse([]byte(alwaysJCS))
	if err != nil {
		panic("commitment: the always condition does not parse") // a constant: fails at start-up or never
	}
	return v
}()

// Member indices for ScanQuick, in JCS order (ascending names).
const (
	mAmount = iota
	mCondition
	mDue
	mPair
	mPayee
	mPayer
	mRound
	mSeq
	mSig
	mTurn
	mV
	nMembers
)

var memberNames = [nMembers]string{"amount", "condition", "due", "pair", "payee", "payer", "round", "seq", "sig", "turn", "v"}

// jcsOrder lists the member indices in JCS order (they are numbered in it).
var jcsOrder = [nMembers]int{mAmount, mCondition, mDue, mPair, mPayee, mPayer, mRound, mSeq, mSig, mTurn, mV}

// memberAt matches the head of r against the eleven member names' literals, quotes included:
// the member's index and the literal's length, or -1. A literal matched whole is an escape-free
// string whose closing quote is its last byte, so this is the name a string read would give,
// with constant comparisons in place of a scan; any other name (unknown, or spelled with an
// escape) is outside what ScanQuick takes.
func memberAt(r []byte) (int, int) {
	if len(r) < 3 || r[0] != '"' {
		return -1, 0
	}
	switch r[1] {
	case 'a':
		if len(r) >= 8 && string(r[:8]) == `"amount"` {
			return mAmount, 8
		}
	case 'c':
		if len(r) >= 11 && string(r[:11]) == `"condition"` {
			return mCondition, 11
		}
	case 'd':
		if len(r) >= 5 && string(r[:5]) == `"due"` {
			return mDue, 5
		}
	case 'p':
		switch {
		case len(r) >= 6 && string(r[:6]) == `"pair"`:
			return mPair, 6
		case len(r) >= 7 && string(r[:7]) == `"payee"`:
			return mPayee, 7
		case len(r) >= 7 && string(r[:7]) == `"payer"`:
			return mPayer, 7
		}
	case 'r':
		if len(r) >= 7 && string(r[:7]) == `"round"` {
			return mRound, 7
		}
	case 's':
		switch {
		case len(r) >= 5 && string(r[:5]) == `"seq"`:
			return mSeq, 5
		case len(r) >= 5 && string(r[:5]) == `"sig"`:
			return mSig, 5
		}
	case 't':
		if len(r) >= 6 && string(r[:6]) == `"turn"` {
			return mTurn, 6
		}
	case 'v':
		if string(r[:3]) == `"v"` {
			return mV, 3
		}
	}
	return -1, 0
}

// presence turns ScanQuick's member mask into read's (hasV, hasRound, ...).
func presence(seen int) int {
	bits := [nMembers]int{mAmount: hasAmount, mCondition: hasCondition, mDue: hasDue, mPair: hasPair, mPayee: hasPayee,
		mPayer: hasPayer, mRound: hasRound, mSeq: hasSeq, mSig: hasSig, mTurn: hasTurn, mV: hasV}
	out := 0
	for k := range bits {
		if seen&(1<<k) != 0 {
			out |= bits[k]
		}
	}
	return out
}

// quickScan is ScanQuick's cursor.
type quickScan struct{ canon.Cursor }

// str reads an escape-free string and returns its literal, quotes included; false for an
// escape, a control character, invalid UTF-8 or no string.
func (q *quickScan) str() ([]byte, bool) {
	lit, end, ok := strAt(q.D, q.I)
	if ok {
		q.I = end
	}
	return lit, ok
}

// integer reads a plain integer at the cursor (intAt).
func (q *quickScan) integer() (int64, bool) {
	n, end, ok := intAt(q.D, q.I)
	if ok {
		q.I = end
	}
	return n, ok
}

// ws is the offset of the first byte of d at or after i that is not JSON whitespace
// (canon.Cursor.WS on a local offset).
func ws(d []byte, i int) int {
	if i < len(d) && d[i] > ' ' {
		return i
	}
	return canon.SkipWS(d, i)
}

// next skips whitespace from i and reports whether the next byte is b: the offset past it if
// so, else the offset after the whitespace.
func next(d []byte, i int, b byte) (int, bool) {
	i = ws(d, i)
	if i < len(d) && d[i] == b {
		return i + 1, true
	}
	return i, false
}

// strAt reads an escape-free string at d[i] (after whitespace): its literal, quotes included,
// and the offset past it; false for an escape, a control character, invalid UTF-8 or no
// string.
func strAt(d []byte, i int) (lit []byte, end int, ok bool) {
	i = ws(d, i)
	if i >= len(d) || d[i] != '"' {
		return nil, i, false
	}
	ascii := true
	for j := canon.SkipPlain(d, i+1); j < len(d); j++ {
		switch c := d[j]; {
		case c == '"':
			lit = d[i : j+1]
			if !ascii && !utf8.Valid(lit) {
				return nil, i, false
			}
			return lit, j + 1, true
		case c == '\\' || c < 0x20:
			return nil, i, false
		case c >= utf8.RuneSelf:
			ascii = false
			j = canon.SkipPlain(d, j+1) - 1 // on to the next special byte
		}
	}
	return nil, i, false
}

// intAt reads a plain integer at d[i]: -?(0|[1-9][0-9]*), at most 15 digits, not -0, no
// fraction or exponent after it; its value and the offset past it.
func intAt(d []byte, i int) (int64, int, bool) {
	start := i
	neg := i < len(d) && d[i] == '-'
	if neg {
		i++
	}
	ds := i
	var n int64
	for i < len(d) && d[i] >= '0' && d[i] <= '9' {
		n = n*10 + int64(d[i]-'0')
		i++
	}
	nd := i - ds
	switch {
	case nd == 0 || nd > 15, nd > 1 && d[ds] == '0', neg && n == 0:
		return 0, start, false
	case i < len(d) && (d[i] == '.' || d[i] == 'e' || d[i] == 'E'):
		return 0, start, false
	}
	if neg {
		n = -n
	}
	return n, i, true
}

// skip passes over one value of the condition's grammar (objects, arrays, escape-free strings,
// plain integers, true, false, null), at most 8 levels deep; canon.Parse then checks its span
// strictly.
func (q *quickScan) skip(depth int) bool {
	if depth > 8 {
		return false
	}
	q.WS()
	if q.I >= len(q.D) {
		return false
	}
	switch c := q.D[q.I]; {
	case c == '{':
		q.I++
		if q.Next('}') {
			return true
		}
		for {
			if _, ok := q.str(); !ok || !q.Next(':') || !q.skip(depth+1) {
				return false
			}
			if q.Next(',') {
				continue
			}
			return q.Next('}')
		}
	case c == '[':
		q.I++
		if q.Next(']') {
			return true
		}
		for {
			if !q.skip(depth + 1) {
				return false
			}
			if q.Next(',') {
				continue
			}
			return q.Next(']')
		}
	case c == '"':
		_, ok := q.str()
		return ok
	case c == '-' || c >= '0' && c <= '9':
		_, ok := q.integer()
		return ok
	}
	for _, lit := range [...]string{"true", "false", "null"} {
		if len(q.D)-q.I >= len(lit) && string(q.D[q.I:q.I+len(lit)]) == lit {
			q.I += len(lit)
			return true
		}
	}
	return false
}
