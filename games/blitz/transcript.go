package blitz

import (
	"bytes"
	"crypto/sha256"
	"encoding"
	"encoding/json"
	"hash"

	"arena/games"

	"github.com/gowebpki/jcs"
)

// canonEvent is games.Event with its members in JCS (RFC 8785) order, so that encoding/json
// writes canonical bytes directly in the common case.
type canonEvent struct {
	At         string          `json:"at"`
	Payload    json.RawMessage `json:"payload"`
	Phase      string          `json:"phase"`
	Round      string          `json:"round"`
	Seq        int64           `json:"seq"`
	Turn       int             `json:"turn"`
	Type       string          `json:"type"`
	Visibility string          `json:"visibility"`
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
// gives the hash of the list so far without disturbing the stream.
type runningHash struct {
	h hash.Hash
	n int
}

func newRunningHash() *runningHash { return &runningHash{h: sha256.New()} }

func (r *runningHash) add(canonical []byte) {
	if r.n == 0 {
		r.h.Write([]byte{'['})
	} else {
		r.h.Write([]byte{','})
	}
	r.h.Write(canonical)
	r.n++
}

func (r *runningHash) sum() [32]byte {
	state, err := r.h.(encoding.BinaryMarshaler).MarshalBinary()
	h2 := sha256.New()
	if err == nil {
		err = h2.(encoding.BinaryUnmarshaler).UnmarshalBinary(state)
	}
	if err != nil { // never: crypto/sha256 digests marshal
		return [32]byte{}
	}
	if r.n == 0 {
		h2.Write([]byte{'['})
	}
	h2.Write([]byte{']'})
	var out [32]byte
	copy(out[:], h2.Sum(nil))
	return out
}
