package dilemma

import (
	"encoding/json"
	"testing"
	"time"

	"arena/games"
)

// script is a fixed sequence of calls: an Advance (In == nil) or an Act, at an instant.
type call struct {
	at time.Time
	in *games.Input
}

func runScript(t *testing.T, m games.Match, calls []call) []byte {
	t.Helper()
	var log []games.Event
	for _, c := range calls {
		if c.in == nil {
			log = append(log, m.Advance(c.at).Events...)
			continue
		}
		s, err := m.Act(c.at, *c.in)
		if err == nil {
			log = append(log, s.Events...)
		}
	}
	b, _ := json.Marshal(log)
	return b
}

func inp(seat int, action string) *games.Input {
	a := answer(seat, `{"action":"`+action+`"}`)
	return &a
}

var scriptCalls = []call{
	{t0, nil},
	{t0.Add(5 * time.Second), inp(2, "defect")},
	{t0.Add(6 * time.Second), inp(2, "cooperate")}, // refused: already acted
	{t0.Add(30 * time.Second), nil},
	{t0.Add(61 * time.Second), nil}, // seat 1 times out
	{t0.Add(64 * time.Second), nil},
}

// TestDeterminism: the same seed and inputs give the same bytes, events and result.
func TestDeterminism(t *testing.T) {
	a, b := newMatch(t, 1_000_000), newMatch(t, 1_000_000)
	la, lb := runScript(t, a, scriptCalls), runScript(t, b, scriptCalls)
	if string(la) != string(lb) {
		t.Fatal("two runs differ")
	}
	ra, _ := a.Result()
	rb, _ := b.Result()
	ja, _ := json.Marshal(ra)
	jb, _ := json.Marshal(rb)
	if string(ja) != string(jb) || ra.TranscriptHash == "" {
		t.Fatalf("results differ:\n%s\n%s", ja, jb)
	}
	// Another seed: other salts, so other commitments and another transcript hash.
	s := setup(1_000_000)
	s.Seed[0] ^= 1
	c, _ := Engine{}.New(s, nil)
	runScript(t, c, scriptCalls)
	rc, _ := c.Result()
	if rc.TranscriptHash == ra.TranscriptHash || rc.Payouts[2] != ra.Payouts[2] {
		t.Fatalf("another seed: hash %s payouts %v", rc.TranscriptHash, rc.Payouts)
	}
}

// stateOf is the whole state of a Game II match, as JSON: two matches with the same bytes here
// are the same match.
func stateOf(m games.Match) string {
	b, _ := json.Marshal(m.(*match).st)
	return string(b)
}

// logScript runs calls on m as runScript does and returns the input log a table keeps of them
// (games.Logged: every Advance, every accepted Act).
func logScript(t *testing.T, m games.Match, calls []call) []games.Logged {
	t.Helper()
	var log []games.Logged
	for _, c := range calls {
		if c.in == nil {
			m.Advance(c.at)
			log = append(log, games.Logged{Op: games.OpAdvance, At: c.at})
			continue
		}
		if _, err := m.Act(c.at, *c.in); err == nil {
			log = append(log, games.Logged{Op: games.OpAct, At: c.at, Input: *c.in})
		}
	}
	return log
}

// TestReplayAtEveryCut: cut the script at every point, replay the input log so far
// (games.Replay), go on: the replayed match is the live one's state exactly, and the transcript
// and result are identical to the uncut run.
func TestReplayAtEveryCut(t *testing.T) {
	whole := newMatch(t, 1_000_000)
	runScript(t, whole, scriptCalls)
	want, _ := whole.Result()
	wantJSON, _ := json.Marshal(want)
	for cut := 0; cut <= len(scriptCalls); cut++ {
		m := newMatch(t, 1_000_000)
		log := logScript(t, m, scriptCalls[:cut])
		r, _, err := games.Replay(Engine{}, setup(1_000_000), nil, log)
		if err != nil {
			t.Fatalf("cut %d: Replay: %v", cut, err)
		}
		if stateOf(r) != stateOf(m) {
			t.Fatalf("cut %d: the replayed match's state differs:\n%s\n%s", cut, stateOf(r), stateOf(m))
		}
		if len(r.Prompts()) != len(m.Prompts()) || r.SeedHash() != m.SeedHash() {
			t.Fatalf("cut %d: prompts or seed hash differ", cut)
		}
		d1, ok1 := m.Deadline()
		d2, ok2 := r.Deadline()
		if ok1 != ok2 || !d1.Equal(d2) {
			t.Fatalf("cut %d: deadlines differ", cut)
		}
		runScript(t, r, scriptCalls[cut:])
		got, ok := r.Result()
		gotJSON, _ := json.Marshal(got)
		if !ok || string(gotJSON) != string(wantJSON) {
			t.Fatalf("cut %d: result differs:\n%s\n%s", cut, gotJSON, wantJSON)
		}
	}
}

func TestNewRefusals(t *testing.T) {
	mk := func(f func(*games.Setup)) games.Setup {
		s := setup(1_000_000)
		s.Seats = append([]games.Seat(nil), s.Seats...)
		f(&s)
		return s
	}
	cases := map[string]games.Setup{
		"game":          mk(func(s *games.Setup) { s.Game = "blitz" }),
		"format":        mk(func(s *games.Setup) { s.Format = "blitz" }),
		"no match id":   mk(func(s *games.Setup) { s.Round = "" }),
		"one seat":      mk(func(s *games.Setup) { s.Seats = s.Seats[:1] }),
		"three seats":   mk(func(s *games.Setup) { s.Seats = append(s.Seats, games.Seat{Seat: 3, Agent: "c", Entry: 1_000_000}) }),
		"seat numbers":  mk(func(s *games.Setup) { s.Seats[1].Seat = 3 }),
		"same agent":    mk(func(s *games.Setup) { s.Seats[1].Agent = s.Seats[0].Agent }),
		"unequal stake": mk(func(s *games.Setup) { s.Seats[1].Entry = 2_000_000 }),
		"zero stake":    mk(func(s *games.Setup) { s.Seats[0].Entry, s.Seats[1].Entry = 0, 0 }),
		"huge stake":    mk(func(s *games.Setup) { s.Seats[0].Entry, s.Seats[1].Entry = 1<<53, 1<<53 }),
		"options":       mk(func(s *games.Setup) { s.Options = json.RawMessage(`{"shares":1}`) }),
		"negative pace": mk(func(s *games.Setup) { s.Pace.Steps = map[string]time.Duration{"commit": -time.Second} }),
	}
	for what, s := range cases {
		if _, err := (Engine{}).New(s, nil); code(err) != games.CodeBadRequest {
			t.Errorf("%s: err = %v", what, err)
		}
	}
	// Seats given in reverse order are put in seat order; empty options and a custom pace work.
	s := mk(func(s *games.Setup) {
		s.Seats[0], s.Seats[1] = s.Seats[1], s.Seats[0]
		s.Options = json.RawMessage(`{}`)
		s.Pace = games.Pace{Steps: map[string]time.Duration{"commit": 20 * time.Second, "reveal": time.Second}}
	})
	m, err := Engine{}.New(s, nil)
	if err != nil {
		t.Fatal(err)
	}
	st := m.Advance(t0)
	if st.Prompts[0].Seat != 1 || !st.Prompts[0].Deadline.Equal(t0.Add(20*time.Second)) {
		t.Fatalf("prompt %+v", st.Prompts[0])
	}
}

// TestBracket: dilemma registers in a games.Bracket beside another engine and is driven only
// through the games interfaces.
func TestBracket(t *testing.T) {
	b, err := games.NewBracket(Engine{}, otherEngine{})
	if err != nil {
		t.Fatal(err)
	}
	e, ok := b.Engine(GameID)
	if !ok {
		t.Fatal("warden.dilemma not registered")
	}
	ms := b.Manifests()
	if len(ms) != 2 || ms[1].ID != GameID {
		t.Fatalf("manifests %+v", ms)
	}
	f, ok := games.FormatOf(e.Manifest(), "")
	if !ok || f.Name != FormatName || f.MinSeats != 2 || f.MaxSeats != 2 || f.Turns != 1 {
		t.Fatalf("format %+v", f)
	}
	if _, err := games.NewBracket(Engine{}, Engine{}); err == nil {
		t.Fatal("duplicate id accepted")
	}
	// Drive a match through the interface alone, the way a table would.
	m, err := e.New(setup(1_000_000), nil)
	if err != nil {
		t.Fatal(err)
	}
	for {
		d, ok := m.Deadline()
		if !ok {
			break
		}
		step := m.Advance(d)
		for _, p := range step.Prompts {
			m.Act(d.Add(time.Second), games.Input{Seat: p.Seat, Kind: "answer", Move: p.Move, Body: json.RawMessage(`{"action":"` + p.Legal[0].Name + `"}`)})
		}
	}
	r, ok := m.Result()
	if !ok || r.Payouts[1] != 900_000 || r.House != 200_000 {
		t.Fatalf("result %+v", r)
	}
}

type otherEngine struct{}

func (otherEngine) Manifest() games.Manifest {
	return games.Manifest{ID: "another", Formats: []games.Format{{Name: "x", MinSeats: 1, MaxSeats: 1}}}
}
func (otherEngine) New(games.Setup, games.Keyring) (games.Match, error) { return nil, nil }

// FuzzAct: no answer body panics the match or is accepted unless it is one of the four forms.
func FuzzAct(f *testing.F) {
	for _, s := range []string{`{"action":"defect"}`, `{"choice":"COOPERATE"}`, `{"action":1}`, `{"choice":"DEFECT","x":1}`, `null`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, body []byte) {
		m, _ := Engine{}.New(setup(1_000_000), nil)
		m.Advance(t0)
		_, err := m.Act(t0.Add(time.Second), games.Input{Seat: 1, Kind: "answer", Move: theMove, Body: body})
		if err == nil {
			c := m.(*match).st.Choice[0]
			if c != Cooperate && c != Defect {
				t.Fatalf("accepted %q as %q", body, c)
			}
		} else if code(err) == "" {
			t.Fatalf("refusal without a code: %v", err)
		}
	})
}
