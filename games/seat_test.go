package games

import (
	"encoding/json"
	"testing"
)

// A seat records written before Seat.Options carry has the game's own members at its top: they
// become Options as written; a seat of the new form, and one with neither, read as they are.
func TestSeatReadsOldRecords(t *testing.T) {
	old := `{"seat":2,"agent":"ccd:x/cis-2:a","name":"Bo","kind":"house","human":false,"walkin":true,"entry":200000000,"collateral":120000000,"rating":0}`
	var s Seat
	if err := json.Unmarshal([]byte(old), &s); err != nil {
		t.Fatal(err)
	}
	want := `{"kind":"house","human":false,"walkin":true,"collateral":120000000,"rating":0}`
	if s.Seat != 2 || s.Agent != "ccd:x/cis-2:a" || s.Name != "Bo" || s.Entry != 200000000 || string(s.Options) != want {
		t.Fatalf("old form read as %+v (options %s)", s, s.Options)
	}
	b, err := json.Marshal(s)
	if err != nil {
		t.Fatal(err)
	}
	if got := `{"seat":2,"agent":"ccd:x/cis-2:a","name":"Bo","entry":200000000,"options":` + want + `}`; string(b) != got {
		t.Fatalf("written as %s, want %s", b, got)
	}
	var again Seat
	if err := json.Unmarshal(b, &again); err != nil || string(again.Options) != want || again.Entry != s.Entry {
		t.Fatalf("new form read as %+v, %v", again, err)
	}
	var plain Seat
	if err := json.Unmarshal([]byte(`{"seat":1,"agent":"a","name":"A","entry":5}`), &plain); err != nil || plain.Options != nil || plain.Entry != 5 {
		t.Fatalf("a seat without options read as %+v, %v", plain, err)
	}
}
