package verify

import (
	"encoding/json"
	"strings"
	"testing"
	"time"

	"arena/games"
	"arena/games/warden/dilemma"
)

// A round's input log replays to its transcript (ok), and a transcript that differs from the
// replay by one byte of one event, or by an event, fails at that event.
func TestReplayLine(t *testing.T) {
	t0 := time.Date(2026, 12, 1, 12, 0, 0, 0, time.UTC)
	s := games.Setup{Game: dilemma.GameID, Round: "T-9", Start: t0, Seats: []games.Seat{
		{Seat: 1, Agent: "a", Entry: 1_000_000}, {Seat: 2, Agent: "b", Entry: 1_000_000}}}
	log := []games.Logged{{Op: games.OpAdvance, At: t0},
		{Op: games.OpAct, At: t0.Add(time.Second), Input: games.Input{Seat: 1, Kind: "answer",
			Move: games.Move{Turn: 1, Phase: "commit"}, Body: json.RawMessage(`{"action":"defect"}`)}},
		{Op: games.OpAdvance, At: t0.Add(time.Hour)}}
	_, evs, err := games.Replay(dilemma.Engine{}, s, nil, log)
	if err != nil || len(evs) < 5 {
		t.Fatalf("%d events, %v", len(evs), err)
	}
	transcript := func(evs []games.Event) Transcript {
		tr := Transcript{Round: "T-9"}
		for _, e := range evs {
			tr.Events = append(tr.Events, Event{Seq: e.Seq, Round: e.Round, Turn: e.Turn, Phase: e.Phase, At: e.At,
				Type: e.Type, Visibility: string(e.Visibility), Payload: e.Payload})
		}
		return tr
	}
	line := func(tr Transcript) Line {
		var got Line
		checkReplay(tr, canonical(tr.Events), Log{Engine: dilemma.Engine{}, Setup: s, Inputs: log},
			func(pos int, ok bool, check, format string, a ...any) {
				got = Line{Pos: pos, OK: ok, Check: check}
				got.What = strings.TrimSpace(format)
			})
		return got
	}
	if l := line(transcript(evs)); !l.OK {
		t.Fatalf("the replay of the log fails: %+v", l)
	}
	bad := append([]games.Event(nil), evs...)
	bad[2].Payload = json.RawMessage(strings.Replace(string(bad[2].Payload), `"round":1`, `"round":2`, 1))
	if l := line(transcript(bad)); l.OK || l.Pos != 2 {
		t.Fatalf("a changed event: %+v", l)
	}
	if l := line(transcript(evs[:len(evs)-1])); l.OK {
		t.Fatalf("a missing event: %+v", l)
	}
}
