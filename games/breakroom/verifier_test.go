package breakroom

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"
	"time"

	"arena/games"
)

// frameOnly is a Resimulation for the frame's own checks: it records the Setup it is built from
// and builds nothing.
type frameOnly struct{ setup *games.Setup }

func (g frameOnly) Begin(s games.Setup) (games.Match, error) {
	*g.setup = s
	return nil, errors.New("stop here")
}
func (g frameOnly) StartLine(time.Time) games.Event { return games.Event{} }
func (g frameOnly) Playing() bool                   { return false }
func (g frameOnly) Step()                           {}

// refuseNo refuses a config holding "no".
func refuseNo(c json.RawMessage) error {
	if strings.Contains(string(c), `"no"`) {
		return errors.New("config refused")
	}
	return nil
}

func TestVerifierFrame(t *testing.T) {
	seed := strings.Repeat("ab", 32)
	start := `{"seq":0,"t":"2026-01-02T03:04:05.000Z","type":"match_start","match_id":"m1","game":"g","players":[{"seat":0,"pubkey":"p0","name":"A"},{"seat":1,"pubkey":"p1","name":"B","house":true}],"config":{}}`
	end := `{"seq":1,"t":"2026-01-02T03:04:06.000Z","type":"match_end","seed":"` + seed + `"}`
	cases := []struct {
		name  string
		lines []string
		want  Report
	}{
		{"empty", nil, Report{At: 0, Seq: -1, Reason: "the log is empty"}},
		{"not match_start", []string{end}, Report{Lines: 1, At: 0, Seq: 1, Type: "match_end", Got: end, Reason: "the first line is not a match_start line"}},
		{"no end", []string{start}, Report{Lines: 1, At: 1, Seq: -1, Reason: "the log has no match_end or match_abandoned line: the seed is revealed only at the end, so a running match can be verified once it has ended"}},
		{"seed null", []string{start, `{"seq":1,"t":"2026-01-02T03:04:06.000Z","type":"match_abandoned","seed":null}`},
			Report{Lines: 2, End: "match_abandoned", At: 1, Seq: 1, Type: "match_abandoned", Got: `{"seq":1,"t":"2026-01-02T03:04:06.000Z","type":"match_abandoned","seed":null}`,
				Reason: "the seed is not revealed (seed null: a match closed after a crash cannot be re-simulated)", Unverifiable: true}},
		{"other game", []string{strings.Replace(start, `"game":"g"`, `"game":"h"`, 1), end},
			Report{Lines: 2, End: "match_end", At: 0, Seq: 0, Type: "match_start", Got: strings.Replace(start, `"game":"g"`, `"game":"h"`, 1), Reason: `match_start: game "h" is not "g"`}},
		{"config refused", []string{strings.Replace(start, `"config":{}`, `"config":{"k":"no"}`, 1), end},
			Report{Lines: 2, End: "match_end", At: 0, Seq: 0, Type: "match_start", Got: strings.Replace(start, `"config":{}`, `"config":{"k":"no"}`, 1), Reason: "match_start: config refused"}},
		{"begin refused", []string{start, end}, Report{Lines: 2, End: "match_end", At: 0, Seq: 0, Type: "match_start", Got: start, Reason: "match_start: stop here"}},
	}
	for _, c := range cases {
		var lines [][]byte
		for _, l := range c.lines {
			lines = append(lines, []byte(l))
		}
		var s games.Setup
		v := NewVerifier("g", lines)
		v.SeatOptions = func(house, staff bool) any { return map[string]bool{"house": house, "staff": staff} }
		v.CheckConfig = refuseNo
		v.Run(frameOnly{&s})
		if v.Rep != c.want {
			t.Errorf("%s:\n got %+v\nwant %+v", c.name, v.Rep, c.want)
		}
		if c.name == "begin refused" {
			if s.Game != "g" || s.Round != "m1" || SeedHex(s.Seed) != seed || !s.Start.Equal(time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)) ||
				len(s.Seats) != 2 || s.Seats[1].Agent != "p1" || s.Seats[1].Name != "B" || string(s.Seats[1].Options) != `{"house":true,"staff":false}` || s.Seats[0].Options != nil {
				t.Errorf("setup %+v", s)
			}
		}
	}
}

// TestVerifierOrig: with Orig, a failure is at the given log's index, past the kept lines at
// Rep.Lines.
func TestVerifierOrig(t *testing.T) {
	v := &Verifier{Game: "g", Rep: Report{Lines: 3, At: -1, Seq: -1}, Orig: []int{}}
	v.Run(frameOnly{new(games.Setup)})
	if v.Rep.At != 3 || v.Rep.Reason != "the log is empty" {
		t.Errorf("%+v", v.Rep)
	}
}
