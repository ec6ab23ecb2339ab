package blitz

import (
	"bytes"
	"encoding/json"
	"testing"

	"github.com/gowebpki/jcs"
)

// Every event's canonical bytes equal jcs.Transform of its JSON, whatever the text holds, and
// the running transcript hash equals TranscriptHash over the event list.
func TestCanonicalEventsAndTranscriptHash(t *testing.T) {
	h := newHarness(t, testSetup("blitz", 6, `{"mole":6,"task":{"kind":"whisper","named":[]}}`))
	h.to(1, "talk", 1)
	h.talk(1, `{"type":"public","text":"<b>&amp; \u2028 line\u2029 \u0007 bell \b \f tab\t nl\n 😀 \"q\" \\ / é"}`,
		`{"type":"private","to":2,"text":"ctl \u001f and 1.5e3 ccd"}`)
	h.to(1, "commit", 0)
	h.mustNoDrop(1, `{"commitments":[{"due":1,"condition":{"always":true},"chips":3,"payee":2,"ref":"zz"}]}`)
	r := h.finish()
	for _, e := range mustEvents(h.m.Events()) {
		raw, _ := json.Marshal(e)
		want, err := jcs.Transform(raw)
		if err != nil {
			t.Fatal(err)
		}
		if got := canonicalEvent(e); !bytes.Equal(got, want) {
			t.Fatalf("event %d %s:\n got %s\nwant %s", e.Seq, e.Type, got, want)
		}
		if got := assembleEvent(e); !bytes.Equal(got, want) {
			t.Fatalf("assembled event %d %s:\n got %s\nwant %s", e.Seq, e.Type, got, want)
		}
		if p, _ := jcs.Transform(e.Payload); !bytes.Equal(p, e.Payload) {
			t.Fatalf("event %d %s payload not canonical: %s", e.Seq, e.Type, e.Payload)
		}
	}
	th, err := TranscriptHash(mustEvents(h.m.Events()))
	if err != nil || th != r.TranscriptHash {
		t.Fatalf("TranscriptHash %s (%v), Result %s", th, err, r.TranscriptHash)
	}
	for _, b := range [][]byte{[]byte(`{"a":true,"b":false}`), []byte(`{"a":1}`)} {
		if needsTransform(b) {
			t.Fatalf("%s flagged", b)
		}
	}
	for _, b := range [][]byte{[]byte(`{"b":1,"a":2}`), []byte(`{"a":1.5}`), []byte(`{"a":"\u2028"}`), []byte(`{"a":{"y":1,"x":2}}`)} {
		if !needsTransform(b) {
			t.Fatalf("%s not flagged", b)
		}
	}
}
