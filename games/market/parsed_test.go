package market

import (
	"bytes"
	"reflect"
	"testing"
)

// One Parsed applied on two States that have the same history — the actor's case when a
// write failed and it runs the request again on the State rebuilt from disk — answers the
// bytes a fresh Apply of the body answers, and leaves the Parsed as it was: the actor may
// parse once, on the caller's goroutine, and apply as often as it must.
func TestParsedAppliesAsApplyAndIsNotChanged(t *testing.T) {
	setup := func() (*State, string) {
		st := newMarket(t, testConfig())
		enrol(t, st, "owner-a")
		return st, enrol(t, st, "owner-b")
	}
	_, b := setup()
	bodies := []struct{ owner, body, code string }{
		{"owner-a", transferBody("pay-01", b, "credits", 5), ""},
		{"owner-a", proposeBody("px-01", b, goods("wood", 2, "wood", 1), goods("stone", 1), "2026-03-01T13:00:00.000Z"), ""},
		{"owner-a", `{"protocolVersion":2,"action":"readInventory"}`, ""},
		{"owner-a", `{"protocolVersion":3,"action":"readInventory"}`, CodeUnsupportedProtocolVersion},
		{"owner-a", `{"protocolVersion":2,"action":"transfer","commandId":"x","extra":1}`, CodeMalformedRequest},
		{"", transferBody("pay-02", b, "credits", 5), CodeAuthenticationRequired},
		{"owner-c", transferBody("pay-03", b, "credits", 5), CodeNotEnrolled},
	}
	for _, c := range bodies {
		p := Parse([]byte(c.body))
		keep := *p
		keep.r.offered = append([]Holding(nil), p.r.offered...)
		for range 2 {
			viaApply, _ := setup()
			viaParsed, _ := setup()
			want := Apply(viaApply, c.owner, []byte(c.body), t0)
			got := ApplyParsed(viaParsed, c.owner, p, t0)
			if !bytes.Equal(got.Response, want.Response) {
				t.Fatalf("%s: ApplyParsed answered %s, Apply %s", c.body, got.Response, want.Response)
			}
			var r reply
			if err := jsonUnmarshal(got.Response, &r); err != nil || r.code() != c.code {
				t.Fatalf("%s: answered %s (%v), want code %q", c.body, got.Response, err, c.code)
			}
			if !reflect.DeepEqual(got.Delta, want.Delta) {
				t.Fatalf("%s: ApplyParsed wrote %+v, Apply %+v", c.body, got.Delta, want.Delta)
			}
			viaParsed.Commit(got.Delta)
		}
		if !reflect.DeepEqual(*p, keep) {
			t.Fatalf("%s: applying changed the Parsed: %+v, was %+v", c.body, *p, keep)
		}
	}
}
