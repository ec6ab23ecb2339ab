package games

import (
	"bytes"
	"encoding/json"
	"math/rand/v2"
	"strings"
	"testing"
)

// A Doc's readers (Bytes, AppendTo, WriteTo, Equal, MarshalJSON) must agree with the bytes it was
// made of, however they are segmented (empty segments included), and JoinDoc must cap every
// segment so that an append through a Doc's segment never reaches bytes past it: the public
// log's chunk keeps writing there.
func TestDocReadersAgree(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 3))
	for n := 0; n < 2000; n++ {
		var parts [][]byte
		var whole []byte
		for k := r.IntN(6); k > 0; k-- {
			p := []byte(strings.Repeat(string(rune('a'+r.IntN(3))), r.IntN(4)))
			parts = append(parts, p)
			whole = append(whole, p...)
		}
		d := JoinDoc(append([][]byte(nil), parts...)...)
		if d.Len() != len(whole) || d.IsZero() != (len(whole) == 0) {
			t.Fatalf("%q: Len %d IsZero %v", parts, d.Len(), d.IsZero())
		}
		if !bytes.Equal(d.Bytes(), whole) || !bytes.Equal(d.AppendTo([]byte("x")), append([]byte("x"), whole...)) {
			t.Fatalf("%q: Bytes %q AppendTo %q", parts, d.Bytes(), d.AppendTo(nil))
		}
		var buf bytes.Buffer
		if k, err := d.WriteTo(&buf); err != nil || k != int64(len(whole)) || !bytes.Equal(buf.Bytes(), whole) {
			t.Fatalf("%q: WriteTo %q (%d, %v)", parts, buf.Bytes(), k, err)
		}
		// Equal against every other segmentation of the same bytes, and of other bytes
		cut := r.IntN(len(whole) + 1)
		o := JoinDoc(whole[:cut:cut], whole[cut:])
		if !d.Equal(o) || !o.Equal(d) || !d.Equal(RawDoc(bytes.Clone(whole))) {
			t.Fatalf("%q: not Equal to %q split at %d", parts, whole, cut)
		}
		if len(whole) > 0 {
			other := bytes.Clone(whole)
			other[r.IntN(len(other))] ^= 1
			if d.Equal(RawDoc(other)) || d.Equal(JoinDoc(other[:cut], other[cut:])) {
				t.Fatalf("%q Equal to %q", whole, other)
			}
		}
	}
}

// TestDocMarshal: a Doc member marshals as its bytes, the zero Doc as null (as the
// json.RawMessage state did), and a JSON null read back is the 4-byte document "null".
func TestDocMarshal(t *testing.T) {
	d := JoinDoc([]byte(`{"a":`), []byte(`1}`))
	if b, err := json.Marshal(struct{ S Doc }{d}); err != nil || string(b) != `{"S":{"a":1}}` {
		t.Fatalf("marshal %s %v", b, err)
	}
	if b, _ := json.Marshal(struct{ S Doc }{}); string(b) != `{"S":null}` {
		t.Fatalf("zero Doc marshals as %s", b)
	}
	var back struct{ S Doc }
	if err := json.Unmarshal([]byte(`{"S":null}`), &back); err != nil || back.S.String() != "null" {
		t.Fatalf("null reads back as %q (%v)", back.S.String(), err)
	}
}
