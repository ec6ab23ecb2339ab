package blitz

import (
	"testing"

	"arena/games/blitz/commitment"
)

// A sealed commitment keeps its condition's bytes only; promise.condition parses them at the
// settle as submission parsed them, the always condition being the shared one.
func TestPromiseConditionFromBytes(t *testing.T) {
	m := &Match{seats: []*seatState{{alive: true}, {alive: true}}}
	m.seats[0].Seat.Seat, m.seats[0].Agent = 1, "ccd:00000000000000000000000000000000/cis-2:a"
	m.seats[1].Seat.Seat, m.seats[1].Agent = 2, "ccd:00000000000000000000000000000000/cis-2:b"
	cases := []struct {
		raw  string
		want bool
	}{
		{`{"always":true}`, true},
		{`{"not":{"always":true}}`, false},
		{`{"survives":["ccd:00000000000000000000000000000000/cis-2:b",2]}`, true},
		{`{"survives":["ccd:00000000000000000000000000000000/cis-2:z",2]}`, false}, // not seated
		{`{"or":[{"backs":["ccd:00000000000000000000000000000000/cis-2:b","ccd:00000000000000000000000000000000/cis-2:a",1000000]},{"always":true}]}`, true},
		{`{"backs":["ccd:00000000000000000000000000000000/cis-2:b","ccd:00000000000000000000000000000000/cis-2:a",1000000]}`, false},
	}
	for _, c := range cases {
		p := &promise{condRaw: []byte(c.raw)}
		if c.raw == alwaysCondJCS {
			if p.condition() != alwaysCond {
				t.Errorf("%s: not the shared always condition", c.raw)
			}
		}
		got := p.condition()
		want, err := commitment.ParseCondition([]byte(c.raw))
		if err != nil {
			t.Fatal(err)
		}
		if got.Op != want.Op || got.X != want.X || got.Y != want.Y || got.Min != want.Min || got.N != want.N || len(got.Args) != len(want.Args) {
			t.Errorf("%s: parsed %+v, want %+v", c.raw, got, want)
		}
		if e := got.Eval(m, 2); e != c.want {
			t.Errorf("%s: Eval = %v, want %v", c.raw, e, c.want)
		}
	}
	// Bytes that do not parse (never: submission parsed them) make a condition never true.
	if (&promise{condRaw: []byte(`{"nope":1}`)}).condition().Eval(m, 2) {
		t.Error("an unreadable condition evaluated true")
	}
}
