package blitz

import (
	"strings"
	"testing"

	"arena/games"
)

// The table line reads "me" and "agents" and stops: a public log after them is never read (here it
// is not even JSON), and the line is what a whole decode of the same state gave.
func TestTableLineStopsBeforeThePublicLog(t *testing.T) {
	head := `{"me":{"seat":2,"open":[{"id":"sha256:aa","payer":2,"payee":1,"amount":5000000,"due":3}],"accusation":3},` +
		`"agents":[{"seat":1,"name":"Ada","alive":true,"dark":false,"collateral":90},{"seat":2,"name":"Bo","alive":true,"dark":false,"collateral":100},{"seat":3,"name":"Cy","alive":false,"dark":false,"collateral":0}],` +
		`"bounty":1`
	whole := games.RawDoc([]byte(head + `,"public_log":[]}`))
	want := tableLine(whole, 2)
	if !strings.Contains(want, "Ada") || !strings.Contains(want, "seat 3") {
		t.Fatalf("table line of a whole state: %q", want)
	}
	cut := games.JoinDoc([]byte(head), []byte(`,"public_log":[{not json at all`))
	if got := tableLine(cut, 2); got != want {
		t.Fatalf("with a log it cannot read: %q, want %q", got, want)
	}
	if got := tableLine(games.RawDoc([]byte(`[1,2]`)), 2); got != "" {
		t.Fatalf("a state that is not an object: %q", got)
	}
	if got := tableLine(games.RawDoc([]byte(`{"agents":[{"seat":1,"name":"Ada","alive":true}]}`)), 1); !strings.Contains(got, "Ada") {
		t.Fatalf("a state without me: %q", got)
	}
}
