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

// The reveal card reads the last public round.revealed, names the mole from names, rounds CCD to
// two decimals; no card without a reveal or with one that does not decode.
func TestRevealPanel(t *testing.T) {
	e := NewEngine(DefaultFees())
	ev := func(typ, payload string) games.Event {
		return games.Event{Type: typ, Visibility: games.Public, Payload: []byte(payload)}
	}
	evs := []games.Event{ev("seat.taken", `{"seat":2,"name":"Bo"}`), ev("round.settled", `{}`)}
	if _, ok := e.RevealPanel(evs, map[int]string{2: "Bo"}); ok {
		t.Fatal("a card before the reveal")
	}
	if _, ok := e.RevealPanel(append(evs, ev("round.revealed", `{"mole":"two"}`)), nil); ok {
		t.Fatal("a card from a reveal that does not decode")
	}
	evs = append(evs, ev("round.revealed", `{"mole":2,"task":{"kind":"whisper","category":"trust","named":[1,3]},"rungs":[1],"standings":[{"rank":1,"seat":2,"name":"Bo","payout":168456789,"net":-1500000}],"moments":[{"turn":2,"what":"a bell"}]}`))
	p, ok := e.RevealPanel(evs, map[int]string{2: "Bo"})
	if !ok {
		t.Fatal("no card")
	}
	var lead strings.Builder
	for _, r := range p.Lead {
		if r.Strong {
			lead.WriteString("*" + r.Text + "*")
		} else {
			lead.WriteString(r.Text)
		}
	}
	if got := lead.String(); got != "The mole was *seat 2 (Bo)*. Its task: *whisper* (trust), naming seats 1, 3. Rungs reached: 1 of 3." {
		t.Fatalf("lead %q", got)
	}
	if strings.Join(p.Head, "|") != "#|Seat|Name|Payout (CCD)|Net" || len(p.Rows) != 1 || strings.Join(p.Rows[0], "|") != "1|2|Bo|168.46|-1.5" {
		t.Fatalf("table %v %v", p.Head, p.Rows)
	}
	if p.ListTitle != "Three moments" || len(p.List) != 1 || p.List[0] != "Turn 2: a bell" {
		t.Fatalf("moments %q %v", p.ListTitle, p.List)
	}
}
