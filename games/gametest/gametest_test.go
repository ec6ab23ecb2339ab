package gametest_test

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"runtime"
	"strings"
	"testing"
	"time"

	"arena/games"
	"arena/games/gametest"
	"arena/games/warden/dilemma"
)

// The suite's checks fail an engine that breaks what they check, and pass a sound one: Game II
// as it is, and Game II with one fault each (a spectator's view that shows a sealed choice, a
// transcript that differs between two plays of the same inputs, an input no game may take
// accepted).

// probe is a testing.TB that records a failure instead of failing the test.
type probe struct {
	testing.TB
	failed bool
	msg    string
}

func (p *probe) Helper()             {}
func (p *probe) Log(...any)          {}
func (p *probe) Logf(string, ...any) {}
func (p *probe) Errorf(f string, a ...any) {
	if !p.failed {
		p.failed, p.msg = true, fmt.Sprintf(f, a...)
	}
}
func (p *probe) Error(a ...any)            { p.Errorf("%s", fmt.Sprint(a...)) }
func (p *probe) Fatalf(f string, a ...any) { p.Errorf(f, a...); runtime.Goexit() }
func (p *probe) Fatal(a ...any)            { p.Error(a...); runtime.Goexit() }
func (p *probe) FailNow()                  { p.failed = true; runtime.Goexit() }
func (p *probe) Fail()                     { p.failed = true }

// fails runs check on c and reports whether it failed, and how.
func fails(t *testing.T, check func(testing.TB, gametest.Case), c gametest.Case) (bool, string) {
	p := &probe{TB: t}
	done := make(chan struct{})
	go func() {
		defer close(done)
		check(p, c)
	}()
	<-done
	return p.failed, p.msg
}

func dilemmaCase(wrap func(games.Match) games.Match) gametest.Case {
	var seed [32]byte
	seed[0] = 9
	s := games.Setup{Game: dilemma.GameID, Round: "wm_1", Seed: seed, Start: time.Date(2026, 12, 1, 0, 0, 0, 0, time.UTC),
		Seats: []games.Seat{{Seat: 1, Agent: "a", Name: "Ada", Entry: 1_000_000}, {Seat: 2, Agent: "b", Name: "Bo", Entry: 1_000_000}}}
	var e games.Engine = dilemma.Engine{}
	if wrap != nil {
		e = wrapped{Engine: e, wrap: wrap}
	}
	return gametest.Case{
		Engine: e, Setup: s, Stakes: true, Reveal: "choices_revealed",
		Answer: func(p games.Prompt, rnd *rand.Rand) json.RawMessage {
			return json.RawMessage(`{"action":"` + p.Legal[rnd.IntN(len(p.Legal))].Name + `"}`)
		},
		Secrets: func(e games.Event) []string {
			var p struct{ Seat, Choice string }
			if e.Type != "commit_recorded" || json.Unmarshal(e.Payload, &p) != nil {
				return nil
			}
			return []string{`"` + p.Seat + `":"` + p.Choice + `"`}
		},
	}
}

type wrapped struct {
	games.Engine
	wrap func(games.Match) games.Match
}

func (w wrapped) New(s games.Setup, k games.Keyring) (games.Match, error) {
	m, err := w.Engine.New(s, k)
	if err != nil {
		return nil, err
	}
	return w.wrap(m), nil
}

// leaky shows the spectator every choice a seat committed.
type leaky struct {
	games.Match
	seen map[string]string
}

func (l *leaky) Act(now time.Time, in games.Input) (games.Step, error) {
	st, err := l.Match.Act(now, in)
	if err == nil {
		l.seen[string(rune('A'+in.Seat-1))] = map[bool]string{true: "DEFECT", false: "COOPERATE"}[strings.Contains(string(in.Body), "defect")]
	}
	return st, err
}

func (l *leaky) View(v int) games.Doc {
	if v != 0 {
		return l.Match.View(v)
	}
	b, _ := json.Marshal(l.seen)
	return games.RawDoc(b)
}

// peeking shows seat 2 the choice seat 1 sealed (its commit_recorded is seat 1's private line).
type peeking struct {
	games.Match
	first string // seat 1's choice, once committed
}

func (p *peeking) Act(now time.Time, in games.Input) (games.Step, error) {
	st, err := p.Match.Act(now, in)
	if err == nil && in.Seat == 1 {
		p.first = map[bool]string{true: "DEFECT", false: "COOPERATE"}[strings.Contains(string(in.Body), "defect")]
	}
	return st, err
}

func (p *peeking) View(v int) games.Doc {
	if v != 2 || p.first == "" {
		return p.Match.View(v)
	}
	b, _ := json.Marshal(map[string]string{"A": p.first})
	return games.RawDoc(b)
}

// renumbered changes the events' numbering: fn rewrites each event of every step.
type renumbered struct {
	games.Match
	fn func(*games.Event)
}

func (r renumbered) Advance(now time.Time) games.Step { return r.fix(r.Match.Advance(now)) }
func (r renumbered) Abandon(now time.Time, why string) games.Step {
	return r.fix(r.Match.Abandon(now, why))
}
func (r renumbered) Act(now time.Time, in games.Input) (games.Step, error) {
	st, err := r.Match.Act(now, in)
	return r.fix(st), err
}
func (r renumbered) fix(st games.Step) games.Step {
	for i := range st.Events {
		r.fn(&st.Events[i])
	}
	return st
}

// abandonGap numbers its abandon's events one past where they belong.
type abandonGap struct{ games.Match }

func (a abandonGap) Abandon(now time.Time, why string) games.Step {
	st := a.Match.Abandon(now, why)
	for i := range st.Events {
		st.Events[i].Seq++
	}
	return st
}

// drifting numbers every match it makes into its first event: two plays differ.
type drifting struct{ games.Match }

var made int

func (d drifting) Advance(now time.Time) games.Step {
	st := d.Match.Advance(now)
	if len(st.Events) > 0 && st.Events[0].Seq == 1 {
		st.Events[0].Payload = json.RawMessage(fmt.Sprintf(`{"n":%d}`, made))
	}
	return st
}

// lax takes an answer from a seat the match does not have.
type lax struct{ games.Match }

func (l lax) Act(now time.Time, in games.Input) (games.Step, error) {
	if in.Seat == 0 {
		return games.Step{}, nil
	}
	return l.Match.Act(now, in)
}

func TestSuiteFailsBrokenEngines(t *testing.T) {
	sound := dilemmaCase(nil)
	for name, check := range map[string]func(testing.TB, gametest.Case){
		"Determinism": gametest.Determinism, "Replay": gametest.Replay, "RefusedChangesNothing": gametest.RefusedChangesNothing,
		"Secrecy": gametest.Secrecy, "Abandon": gametest.Abandon, "Hostile": gametest.Hostile, "Words": gametest.Words,
		"Numbering": gametest.Numbering,
	} {
		if failed, msg := fails(t, check, sound); failed {
			t.Errorf("%s fails sound Game II: %s", name, msg)
		}
	}
	broken := []struct {
		name  string
		check func(testing.TB, gametest.Case)
		wrap  func(games.Match) games.Match
		want  string
	}{
		{"a leaky view", gametest.Secrecy, func(m games.Match) games.Match { return &leaky{Match: m, seen: map[string]string{}} }, "spectator's view"},
		{"a seat's view that shows another seat's sealed choice", gametest.Secrecy, func(m games.Match) games.Match { return &peeking{Match: m} }, "seat 2's view"},
		{"a gap in the numbering", gametest.Numbering, func(m games.Match) games.Match {
			return renumbered{m, func(e *games.Event) {
				if e.Seq > 1 {
					e.Seq++
				}
			}}
		}, "seq 3 after 1"},
		{"a repeated number", gametest.Numbering, func(m games.Match) games.Match {
			return renumbered{m, func(e *games.Event) {
				if e.Seq == 2 {
					e.Seq = 1
				}
			}}
		}, "seq 1 after 1"},
		{"numbering from 0", gametest.Numbering, func(m games.Match) games.Match {
			return renumbered{m, func(e *games.Event) { e.Seq-- }}
		}, "seq 0 after 0"},
		{"another round's events", gametest.Numbering, func(m games.Match) games.Match {
			return renumbered{m, func(e *games.Event) {
				if e.Seq == 3 {
					e.Round = "wm_2"
				}
			}}
		}, `round "wm_2"`},
		{"a gap after an abandon", gametest.Numbering, func(m games.Match) games.Match {
			return abandonGap{m}
		}, "abandoned after input"},
		{"a drifting transcript", gametest.Determinism, func(m games.Match) games.Match { made++; return drifting{m} }, "differ"},
		{"a lax seat check", gametest.RefusedChangesNothing, func(m games.Match) games.Match { return lax{m} }, "accepted"},
	}
	for _, b := range broken {
		failed, msg := fails(t, b.check, dilemmaCase(b.wrap))
		if !failed || !strings.Contains(msg, b.want) {
			t.Errorf("%s: failed %v (%q), want a failure saying %q", b.name, failed, msg, b.want)
		}
	}
}

// mute is Game II whose narration has no line for a sealed commit.
type mute struct{ dilemma.Engine }

func (m mute) Narrate(e games.Event, names map[int]string) string {
	if e.Type == "commit_sealed" {
		return ""
	}
	return m.Engine.Narrate(e, names)
}

// early is Game II whose reveal card shows before the match has ended.
type early struct{ dilemma.Engine }

func (early) RevealPanel([]games.Event, map[int]string) (games.Panel, bool) {
	return games.Panel{Lead: []games.Run{{Text: "soon"}}}, true
}

// endless is Game II whose abandon is not a Final event (a feed would never end).
type endless struct{ dilemma.Engine }

func (e endless) Final(ev games.Event) string {
	if ev.Type == "match_abandoned" {
		return ""
	}
	return e.Engine.Final(ev)
}

// wordless is Game II whose abandon event has only its type for words.
type wordless struct{ dilemma.Engine }

func (w wordless) Narrate(e games.Event, names map[int]string) string {
	if e.Type == "match_abandoned" {
		return e.Type
	}
	return w.Engine.Narrate(e, names)
}

func TestAbandonFailsUnnarratedEnd(t *testing.T) {
	for _, b := range []struct {
		name   string
		engine games.Engine
		want   string
	}{
		{"an abandon that is not Final", endless{}, `is Final ""`},
		{"an abandon without words", wordless{}, "has no words"},
	} {
		c := dilemmaCase(nil)
		c.Engine = b.engine
		failed, msg := fails(t, gametest.Abandon, c)
		if !failed || !strings.Contains(msg, b.want) {
			t.Errorf("%s: failed %v (%q), want a failure saying %q", b.name, failed, msg, b.want)
		}
	}
}

// speechless is Game II that lists no answer for its commit prompt.
type speechless struct{ dilemma.Engine }

func (speechless) DescribeAnswers(games.Prompt) []games.AnswerForm { return nil }

func TestWordsFailBrokenNarration(t *testing.T) {
	for _, b := range []struct {
		name   string
		engine games.Engine
		want   string
	}{
		{"a mute narrator", mute{}, "has no line"},
		{"an early reveal card", early{}, "before the Final event"},
		{"no answers listed", speechless{}, "lists no answer"},
	} {
		c := dilemmaCase(nil)
		c.Engine = b.engine
		failed, msg := fails(t, gametest.Words, c)
		if !failed || !strings.Contains(msg, b.want) {
			t.Errorf("%s: failed %v (%q), want a failure saying %q", b.name, failed, msg, b.want)
		}
	}
}
