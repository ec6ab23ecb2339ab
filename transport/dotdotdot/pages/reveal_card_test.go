package pages_test

import (
	"flag"
	"os"
	"path/filepath"
	"testing"

	"arena/transport/dotdotdot/pages"
)

var updateGolden = flag.Bool("update", false, "rewrite the pages' golden HTML in testdata/")

// TestRevealCardHTML: the round page of a revealed Blitz round is the HTML in
// testdata/round-revealed*.html, to the byte (go test -run TestRevealCardHTML -update rewrites
// them): one with names, a task naming seats, standings with payouts and nets, three moments and
// text that must be escaped; one with a bare reveal (no names, no standings, no moments).
func TestRevealCardHTML(t *testing.T) {
	full := &fakeSource{revealed: true}
	f := full
	f.add("seat.taken", "public", `{"seat":1,"name":"Ann","kind":"walkin"}`)
	f.add("seat.taken", "public", `{"seat":2,"name":"<Bo & co>","kind":"house"}`)
	f.add("seat.taken", "public", `{"seat":3,"name":"Cy","kind":"house"}`)
	f.add("message.public", "public", `{"from":1,"text":"hello","tone":"neutral"}`)
	f.add("role.assigned", "private:2", `{"role":"mole","task":{"kind":"SECRET-TASK"}}`)
	f.add("round.revealed", "public", `{"mole":2,"task":{"kind":"whisper","category":"trust","named":[1,3]},"rungs":[1,2],`+
		`"standings":[{"rank":1,"seat":2,"name":"<Bo & co>","payout":231500000,"net":31500000},{"rank":2,"seat":1,"name":"Ann","payout":200000000,"net":0},{"rank":3,"seat":3,"name":"Cy","payout":168456789,"net":-31543211}],`+
		`"moments":[{"turn":1,"what":"seat 2 whispered to seat 1"},{"turn":3,"what":"seat 3 called <seat 2>"}],"salts":{"seed":"x"}}`)
	bare := &fakeSource{revealed: true}
	bare.add("message.public", "public", `{"from":1,"text":"hello","tone":"neutral"}`)
	bare.add("round.revealed", "public", `{"mole":1,"task":{"kind":"broker","category":"influence","named":[]},"rungs":[]}`)
	for name, f := range map[string]*fakeSource{"round-revealed.html": full, "round-revealed-bare.html": bare} {
		srv := fakeServer(t, f, pages.Options{Site: "https://arena.example"})
		_, page := get(t, srv.URL+"/r/T-7", nil)
		path := filepath.Join("testdata", name)
		if *updateGolden {
			if err := os.WriteFile(path, []byte(page), 0o644); err != nil {
				t.Fatal(err)
			}
			continue
		}
		want, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		if page != string(want) {
			t.Errorf("%s: the revealed round page changed\n got:\n%s\nwant:\n%s", name, page, want)
		}
	}
}
