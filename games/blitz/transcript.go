package blitz

import (
	"bytes"
	"crypto/sha256"
	"encoding/json"
	"hash"
	"slices"
	"strconv"
	"unicode/utf8"

	"arena/games"
	"arena/games/canon"

	"github.com/gowebpki/jcs"
)

// canonEvent is games.Event with its members in JCS (RFC 8785) order, so that encoding/json
// writes canonical bytes directly in the common case.
type canonEvent struct {
	At         string           `json:"at"`
	Payload    json.RawMessage  `json:"payload"`
	Phase      string           `json:"phase"`
	Round      string           `json:"round"`
	Seq        int64            `json:"seq"`
	Turn       int              `json:"turn"`
	Type       string           `json:"type"`
	Visibility games.Visibility `json:"visibility"`
}

// canonicalEvent is the JCS bytes of one event. The transcript hash is SHA-256 over JCS of the
// ordered list, which is "[" + the events' JCS joined by "," + "]", so each event is made
// canonical once, when emitted, and the hashes run over the bytes.
//
// Fast path: every payload is built by this package from maps (keys sorted by encoding/json,
// ASCII, so byte order is UTF-16 order), integers and strings, or from canonical raw bytes;
// with HTML escaping off, encoding/json's output is then JCS unless a string needed an escape
// JCS writes differently (\u escapes, \b, \f). Such events go through jcs.Transform.
func canonicalEvent(ev games.Event) []byte {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(canonEvent{At: ev.At, Payload: ev.Payload, Phase: ev.Phase, Round: ev.Round,
		Seq: ev.Seq, Turn: ev.Turn, Type: ev.Type, Visibility: ev.Visibility}); err != nil {
		return nil
	}
	b := bytes.TrimSuffix(buf.Bytes(), []byte{'\n'})
	if needsTransform(b) {
		if t, err := jcs.Transform(b); err == nil {
			return t
		}
	}
	return b
}

// needsTransform reports whether encoding/json's output b may differ from its JCS form: an
// escape JCS writes differently (\u, \b, \f, \/), a number with a fraction or exponent, or
// object members not in ascending byte order (structs, raw bytes from outside). Keys are
// compared as written, which is JCS's UTF-16 order for the escape-free keys accepted here.
func needsTransform(b []byte) bool {
	type frame struct {
		obj       bool
		expectKey bool
		last      []byte
		hasLast   bool
	}
	stack := make([]frame, 0, 8)
	for i := 0; i < len(b); i++ {
		c := b[i]
		switch c {
		case '"':
			start := i + 1
			for i++; i < len(b) && b[i] != '"'; i++ {
				if b[i] == '\\' {
					i++
					if i >= len(b) {
						return true
					}
					switch b[i] {
					case '"', '\\', 'n', 'r', 't':
					default:
						return true
					}
				}
			}
			if n := len(stack); n > 0 && stack[n-1].obj && stack[n-1].expectKey {
				key := b[start:i]
				if bytes.IndexByte(key, '\\') >= 0 {
					return true
				}
				f := &stack[n-1]
				if f.hasLast && bytes.Compare(f.last, key) >= 0 {
					return true
				}
				f.last, f.hasLast, f.expectKey = key, true, false
			}
		case '{':
			stack = append(stack, frame{obj: true, expectKey: true})
		case '[':
			stack = append(stack, frame{})
		case '}', ']':
			if len(stack) > 0 {
				stack = stack[:len(stack)-1]
			}
		case ',':
			if n := len(stack); n > 0 && stack[n-1].obj {
				stack[n-1].expectKey = true
			}
		case '.', 'e', 'E': // a fraction or exponent ("true" and "false" have no digit before e)
			if i > 0 && b[i-1] >= '0' && b[i-1] <= '9' {
				return true
			}
		}
	}
	return false
}

// runningHash is SHA-256 over "[" e1 "," e2 ... "]" fed one canonical event at a time; sum
// gives the hash of the list so far without disturbing the stream. Events are gathered in a
// buffer and hashed a few kilobytes at a time: most events are a few hundred bytes, and a
// Write per event and separator cost more than the copy.
//
// A hash may follow another (follow): the open exchange's hash (§5.5) is over the transcript's
// own events from exchange.started on, so it reads them from the transcript hash's batch as
// that batch is written out, instead of gathering a copy of every event in a batch of its own.
type runningHash struct {
	h       hash.Hash // crypto/sha256's
	n       int
	pending []byte // bytes of the stream not yet written to h; nil between calls

	tee     *runningHash // the hash following this one, or nil
	teeFrom int          // pending[teeFrom:] is the follower's too (its first byte a separator)

	lead    *runningHash // for a follower: the hash whose batch holds its bytes not yet written
	started bool         // for a follower: its opening "[" is written
}

// hashBatch is how many bytes runningHash gathers before writing them to the hash.
const hashBatch = 4 << 10

func newRunningHash() *runningHash { return &runningHash{h: sha256.New()} }

// The separators and brackets of a hashed list, written to a hash as they are (a hash never
// writes into what it is given).
var (
	openList  = []byte{'['}
	nextItem  = []byte{','}
	closeList = []byte{']'}
)

// sepBytes is separator sep ('[' or ',') as bytes.
func sepBytes(sep byte) []byte {
	if sep == '[' {
		return openList
	}
	return nextItem
}

// follow starts a hash over this stream from its next event on, as a list of its own: the
// follower's first event is preceded by "[" where this stream has its separator. The follower
// is fed as this hash writes its batch out; unfollow ends that.
func (r *runningHash) follow() *runningHash {
	f := &runningHash{h: sha256.New(), lead: r}
	r.tee, r.teeFrom = f, len(r.pending)
	return f
}

// unfollow detaches the follower: it gets nothing more (its sum is taken before).
func (r *runningHash) unfollow() {
	if r.tee != nil {
		r.tee.lead = nil
	}
	r.tee, r.teeFrom = nil, 0
}

// writeOut writes the gathered bytes to the hash, and the follower's part of them to the
// follower's, and empties pending.
func (r *runningHash) writeOut() {
	r.h.Write(r.pending)
	if r.tee != nil {
		r.tee.feed(r.pending[r.teeFrom:])
		r.teeFrom = 0
	}
	r.pending = r.pending[:0]
}

// feed writes bytes of the lead's stream to a follower: the first byte it is given is the
// separator before its first event, written as "[".
func (r *runningHash) feed(b []byte) {
	r.h.Write(r.own(b))
}

// own returns a follower's part of bytes b of the lead's stream, after writing its opening "["
// in place of the separator before its first event.
func (r *runningHash) own(b []byte) []byte {
	if len(b) == 0 || r.started {
		return b
	}
	r.h.Write(openList)
	r.started = true
	return b[1:]
}

// open returns the gathered bytes with the next event's separator appended, for the caller to
// append that event's canonical bytes to and hand back to close: the event is written once,
// straight into the batch, instead of into a buffer of its own and then copied here. A full
// batch is written to the hash first, so pending stays about one batch long (an event larger
// than the batch grows it).
func (r *runningHash) open() []byte {
	if r.pending == nil {
		r.pending = newBatch()
	}
	if len(r.pending) >= hashBatch {
		r.writeOut()
	}
	sep := byte(',')
	if r.n == 0 {
		sep = '['
	}
	return append(r.pending, sep)
}

// close takes back open's bytes b with one event appended and returns that event's bytes (a
// view of the batch: valid until the next open, add or flush).
func (r *runningHash) close(b []byte) []byte {
	start := len(r.pending) + 1
	r.pending = b
	r.n++
	return b[start:len(b):len(b)]
}

func (r *runningHash) add(canonical []byte) {
	if r.pending == nil {
		r.pending = newBatch() // a step's worth of events; flush lets it go
	}
	sep := byte(',')
	if r.n == 0 {
		sep = '['
	}
	r.n++
	if len(r.pending)+1+len(canonical) > cap(r.pending) { // pending never outgrows its batch
		r.writeOut()
		if 1+len(canonical) > cap(r.pending) {
			r.h.Write(sepBytes(sep))
			r.h.Write(canonical)
			if r.tee != nil {
				r.tee.feed(sepBytes(sep))
				r.tee.feed(canonical)
			}
			return
		}
	}
	r.pending = append(append(r.pending, sep), canonical...)
}

// flush writes the gathered bytes to the hash and lets the buffer go: a match calls it as each
// call ends, so a live table holds no batch between its steps (thousands of tables are live at
// once), while the events of one step, a talk answer's dozen lines, still go to the hash together.
func (r *runningHash) flush() {
	if r == nil || r.pending == nil {
		return
	}
	r.writeOut()
	r.pending = nil
}

// newBatch is the buffer a call's events are gathered in before they go to the hash: made for
// each call that emits (a buffer shared between tables would need a lock) and let go as it
// ends, so a live table holds none between its steps.
func newBatch() []byte { return make([]byte, 0, hashBatch+512) }

// sum is the hash of the list so far, closed; the stream goes on undisturbed.
func (r *runningHash) sum() [32]byte {
	c, err := r.h.(hash.Cloner).Clone()
	if err != nil { // never: crypto/sha256's digest clones
		panic(err)
	}
	h2 := c.(hash.Hash)
	switch {
	case r.lead != nil: // a follower: its bytes not yet written are in the lead's batch
		rest := r.lead.pending[r.lead.teeFrom:]
		if !r.started {
			h2.Write(openList)
			if len(rest) > 0 {
				rest = rest[1:]
			}
		}
		h2.Write(rest)
	default:
		h2.Write(r.pending)
		if r.n == 0 {
			h2.Write(openList)
		}
	}
	h2.Write(closeList)
	var out [32]byte
	h2.Sum(out[:0])
	return out
}

// payloadJCS marshals a payload built by this package and returns its JCS bytes: encoding/json
// with HTML escaping off, then jcs.Transform only when needsTransform finds something JCS writes
// differently (struct member order, escapes, fractions).
func payloadJCS(v any) []byte {
	if raw, ok := v.(json.RawMessage); ok {
		v = raw
	}
	if mp, ok := v.(map[string]any); ok {
		// The common payload, a small map of integers, strings and booleans: written directly.
		if b, ok := appendMapJCS(make([]byte, 0, 128), mp, 0); ok {
			return b
		}
	}
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return []byte(`{}`) // payloads are our own values; never reached
	}
	b := bytes.TrimSuffix(buf.Bytes(), []byte{'\n'})
	if needsTransform(b) {
		// canon writes JCS from its own tree; what it refuses (a member twice, an integer
		// beyond 2^53) goes to jcs.Transform as before. The two agree wherever canon accepts
		// (games/canon's vector and fuzz tests).
		if t, err := canon.Canonical(b); err == nil {
			return t
		}
		if t, err := jcs.Transform(b); err == nil {
			return t
		}
	}
	return b
}

// appendMapJCS appends the JCS form of mp when every key is ASCII and every value is a string
// of valid UTF-8, an integer within ±(2^53−1), a boolean, nil or such a map (nested at most 4
// deep); false otherwise, and the caller marshals mp the general way. The bytes are what the
// general way gives: encoding/json's value, canonicalised.
func appendMapJCS(b []byte, mp map[string]any, depth int) ([]byte, bool) {
	if depth > 4 || len(mp) > 16 {
		return b, false
	}
	var keys [16]string
	n := 0
	for k := range mp {
		for i := 0; i < len(k); i++ {
			if k[i] >= utf8.RuneSelf {
				return b, false
			}
		}
		keys[n] = k
		n++
	}
	ks := keys[:n]
	slices.Sort(ks) // ASCII: byte order is JCS's UTF-16 order
	b = append(b, '{')
	for i, k := range ks {
		if i > 0 {
			b = append(b, ',')
		}
		b = appendJCSString(b, k)
		b = append(b, ':')
		var ok bool
		if b, ok = appendValueJCS(b, mp[k], depth); !ok {
			return b, false
		}
	}
	return append(b, '}'), true
}

func appendValueJCS(b []byte, v any, depth int) ([]byte, bool) {
	const maxSafe = 1<<53 - 1
	switch x := v.(type) {
	case nil:
		return append(b, "null"...), true
	case string:
		if !utf8.ValidString(x) {
			return b, false // encoding/json would write U+FFFD for the invalid bytes
		}
		return appendJCSString(b, x), true
	case int:
		if x > maxSafe || x < -maxSafe {
			return b, false
		}
		return strconv.AppendInt(b, int64(x), 10), true
	case int64:
		if x > maxSafe || x < -maxSafe {
			return b, false
		}
		return strconv.AppendInt(b, x, 10), true
	case bool:
		return strconv.AppendBool(b, x), true
	case map[string]any:
		return appendMapJCS(b, x, depth+1)
	}
	return b, false
}

// assembleEvent writes an event's JCS bytes from its canonical payload: members in JCS order,
// the string members written by appendJCSString.
func assembleEvent(ev games.Event) []byte {
	return appendEvent(make([]byte, 0, len(ev.Payload)+160), ev)
}

// appendEvent appends an event's JCS bytes (as assembleEvent) to b. The match writes its events
// with eventHead (openEvent, closeEvent), which writes these same bytes with the members an
// event shares with the call's others written once; this is the reference it is tested against.
func appendEvent(b []byte, ev games.Event) []byte {
	b = append(b, `{"at":`...)
	b = appendJCSString(b, ev.At)
	b = append(b, `,"payload":`...)
	b = append(b, ev.Payload...)
	b = append(b, `,"phase":`...)
	b = appendJCSString(b, ev.Phase)
	b = append(b, `,"round":`...)
	b = appendJCSString(b, ev.Round)
	b = append(b, `,"seq":`...)
	b = strconv.AppendInt(b, ev.Seq, 10)
	b = append(b, `,"turn":`...)
	b = strconv.AppendInt(b, int64(ev.Turn), 10)
	b = append(b, `,"type":`...)
	b = appendJCSString(b, ev.Type)
	b = append(b, `,"visibility":`...)
	b = appendJCSString(b, string(ev.Visibility))
	return append(b, '}')
}

// appendJCSString writes s as a JSON string the way RFC 8785 does (ECMAScript
// JSON.stringify): \" and \\ escaped, \b \t \n \f \r for those controls, \u00xx (lowercase)
// for the other controls, everything else as is. s must be valid UTF-8 (every text reaching
// here passed canon's checks or is the package's own).
func appendJCSString(b []byte, s string) []byte {
	const hexd = "0123456789abcdef"
	i := jcsPlainPrefix(s)
	b = append(b, '"')
	if i == len(s) { // the common case: nothing to escape
		b = append(b, s...)
		return append(b, '"')
	}
	start := 0
	for ; i < len(s); i++ {
		c := s[i]
		if c >= 0x20 && c != '"' && c != '\\' {
			continue
		}
		b = append(b, s[start:i]...)
		switch c {
		case '"':
			b = append(b, '\\', '"')
		case '\\':
			b = append(b, '\\', '\\')
		case '\b':
			b = append(b, '\\', 'b')
		case '\t':
			b = append(b, '\\', 't')
		case '\n':
			b = append(b, '\\', 'n')
		case '\f':
			b = append(b, '\\', 'f')
		case '\r':
			b = append(b, '\\', 'r')
		default:
			b = append(b, '\\', 'u', '0', '0', hexd[c>>4], hexd[c&0xf])
		}
		start = i + 1
	}
	b = append(b, s[start:]...)
	return append(b, '"')
}

// jcsPlainPrefix is how many leading bytes of s JCS writes as they are: none below 0x20, no
// quote, no backslash. Eight bytes are judged at a time (the word tests of special8, less its
// test for bytes of 0x80 and above, which JCS writes as they are).
func jcsPlainPrefix(s string) int {
	const lo, hi = 0x0101010101010101, 0x8080808080808080
	i := 0
	for ; i+8 <= len(s); i += 8 {
		x := uint64(s[i]) | uint64(s[i+1])<<8 | uint64(s[i+2])<<16 | uint64(s[i+3])<<24 |
			uint64(s[i+4])<<32 | uint64(s[i+5])<<40 | uint64(s[i+6])<<48 | uint64(s[i+7])<<56
		q, bs := x^(lo*'"'), x^(lo*'\\')
		if ((x-lo*0x20)&^x|(q-lo)&^q|(bs-lo)&^bs)&hi != 0 {
			break
		}
	}
	for i < len(s) && s[i] >= 0x20 && s[i] != '"' && s[i] != '\\' {
		i++
	}
	return i
}

// kv is one member for jcsObject.
type kv struct {
	k string
	v any // int, int32, int64, uint32, string, bool, json.RawMessage (canonical) or nil
}

// jcsObject writes an object whose members are given in ascending key order and whose values
// are integers, strings, booleans, null or canonical raw JSON: its JCS form, without
// reflection. Members with a nil value are left out (as omitempty would). Used for the
// per-commitment events, which are many.
func jcsObject(members ...kv) json.RawMessage {
	size := 2
	for _, m := range members {
		size += len(m.k) + 4
		switch v := m.v.(type) {
		case string:
			size += len(v) + 8 // room for a few escapes
		case json.RawMessage:
			size += len(v)
		default:
			size += 20
		}
	}
	b := make([]byte, 0, size)
	b = append(b, '{')
	first := true
	for _, m := range members {
		if m.v == nil {
			continue
		}
		if !first {
			b = append(b, ',')
		}
		first = false
		b = appendJCSString(b, m.k)
		b = append(b, ':')
		switch v := m.v.(type) {
		case int:
			b = strconv.AppendInt(b, int64(v), 10)
		case int64:
			b = strconv.AppendInt(b, v, 10)
		case string:
			b = appendJCSString(b, v)
		case bool:
			b = strconv.AppendBool(b, v)
		case json.RawMessage:
			b = append(b, v...)
		case int32:
			b = strconv.AppendInt(b, int64(v), 10)
		case uint32:
			b = strconv.AppendUint(b, uint64(v), 10)
		default:
			// Outside kv's contract; written as null rather than marshalled, so that no member
			// value escapes (the per-commitment events box their values on the stack).
			b = append(b, "null"...)
		}
	}
	return append(b, '}')
}
