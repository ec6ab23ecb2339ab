package dilemma

import (
	"encoding/json"
	"strings"
	"testing"

	"arena/games"
	"arena/games/breakroom"
)

// TestNamesAreDisplayNames: the words name each player by the display name its table's seated
// message gives (breakroom.DisplayNames of match_start's pubkeys and names, in seat order): a
// player with no name is its generated name, two players sharing a name get it with their table
// names; a player with neither pubkey nor name is "seat N".
func TestNamesAreDisplayNames(t *testing.T) {
	a, b := strings.Repeat("a", 64), strings.Repeat("b", 64)
	line := `{"match_id":"m_x","game":"dilemma","players":[` +
		`{"seat":2,"pubkey":"` + b + `","name":"Claude"},` +
		`{"seat":0,"pubkey":"house:dilemma-1-1","name":"","house":true},` +
		`{"seat":1,"pubkey":"` + a + `","name":"Claude"},` +
		`{"seat":3,"pubkey":"","name":""}]}`
	ev := games.Event{Type: "match_start", Payload: json.RawMessage(line)}
	names := Engine{}.Names([]games.Event{ev})
	want := breakroom.DisplayNames([]breakroom.Identity{{Key: "house:dilemma-1-1"}, {Key: a, Name: "Claude"}, {Key: b, Name: "Claude"}})
	if want[0] == "" || !strings.HasPrefix(want[1], "Claude (") || !strings.HasPrefix(want[2], "Claude (") {
		t.Fatalf("display names %q", want)
	}
	for wire, w := range want {
		if got := names[breakroom.HouseSeat(wire)]; got != w {
			t.Errorf("seat %d: %q, want %q", wire, got, w)
		}
	}
	if n, ok := names[breakroom.HouseSeat(3)]; ok {
		t.Errorf("seat 3 (no pubkey, no name) is named %q", n)
	}
	got := Engine{}.Narrate(ev, names)
	if wantLine := "The Dilemma begins with 4 players: " + want[2] + ", " + want[0] + " (house), " + want[1] + ", seat 3."; !strings.HasPrefix(got, wantLine) {
		t.Errorf("match_start in words %q, want %q", got, wantLine)
	}
}
