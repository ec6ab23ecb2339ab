package games

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"
)

func TestDocJoinSharesAndCaps(t *testing.T) {
	log := make([]byte, 0, 64)
	log = append(log, `1,2`...)
	d := JoinDoc([]byte(`{"a":[`), nil, log, []byte(`]}`))
	if got := d.String(); got != `{"a":[1,2]}` || d.Len() != len(got) || len(segments(d)) != 3 {
		t.Fatalf("doc %q len %d parts %d", got, d.Len(), len(segments(d)))
	}
	// The log keeps growing in place after the doc took it: the doc still reads as it was.
	log = append(log, `,3`...)
	if got := d.String(); got != `{"a":[1,2]}` {
		t.Fatalf("doc changed with the log: %q", got)
	}
	// A segment handed out is capped: appending to it reallocates, never writes into the log.
	p := segments(d)[1]
	_ = append(p, 'X')
	if string(log) != `1,2,3` {
		t.Fatalf("append through a part wrote into the shared log: %q", log)
	}
}

func TestDocEqualAcrossSegmentations(t *testing.T) {
	a := JoinDoc([]byte(`{"x"`), []byte(`:1}`))
	b := JoinDoc([]byte(`{`), []byte(`"x":`), []byte(`1`), []byte(`}`))
	c := RawDoc([]byte(`{"x":2}`))
	if !a.Equal(b) || !b.Equal(a) || a.Equal(c) || !a.Equal(RawDoc(a.Bytes())) {
		t.Fatalf("Equal: a=%s b=%s c=%s", a, b, c)
	}
	if (Doc{}).Equal(a) || !(Doc{}).Equal(JoinDoc(nil, []byte{})) {
		t.Fatal("Equal on empty docs")
	}
}

func TestDocBytesAppendWrite(t *testing.T) {
	d := JoinDoc([]byte(`[1,`), []byte(`2]`))
	if got := string(d.AppendTo([]byte("x="))); got != "x=[1,2]" {
		t.Fatalf("AppendTo %q", got)
	}
	var w bytes.Buffer
	if n, err := d.WriteTo(&w); err != nil || n != 5 || w.String() != "[1,2]" {
		t.Fatalf("WriteTo %d %v %q", n, err, w.String())
	}
	one := []byte(`{}`)
	if got := RawDoc(one).Bytes(); &got[0] != &one[0] {
		t.Fatal("a one-segment doc copied its bytes")
	}
	if (Doc{}).Bytes() != nil || !(Doc{}).IsZero() || RawDoc(nil).Len() != 0 {
		t.Fatal("empty doc")
	}
}

// A Doc is written into JSON as the value it holds, and read back as one segment: a Prompt
// round-trips through encoding/json as it did when State was a json.RawMessage.
func TestDocJSON(t *testing.T) {
	p := Prompt{Seat: 2, State: JoinDoc([]byte(`{"me":{"seat":2},`), []byte(`"public_log":[]}`))}
	raw, err := json.Marshal(p)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(raw), `"state":{"me":{"seat":2},"public_log":[]}`) {
		t.Fatalf("marshalled %s", raw)
	}
	var back Prompt
	if err := json.Unmarshal(raw, &back); err != nil {
		t.Fatal(err)
	}
	if !back.State.Equal(p.State) || len(segments(back.State)) != 1 {
		t.Fatalf("round trip %s (%d parts)", back.State, len(segments(back.State)))
	}
	empty, _ := json.Marshal(Prompt{})
	if !strings.Contains(string(empty), `"state":null`) {
		t.Fatalf("zero state marshalled as %s", empty)
	}
	// Invalid bytes in a doc are refused by encoding/json, as a bad json.RawMessage would be.
	if _, err := json.Marshal(Prompt{State: RawDoc([]byte(`{"a":`))}); err == nil {
		t.Fatal("a doc that is not JSON marshalled")
	}
}

// segments is the document's walk (Segments) collected.
func segments(d Doc) [][]byte {
	var out [][]byte
	for p := range d.Segments() {
		out = append(out, p)
	}
	return out
}
