package main

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"arena/games"
	"arena/games/breakroom"
	"arena/games/breakroom/dilemma"
)

// abandonedLog is the public log of a four-seat Dilemma stopped by an operator after its first
// move (match_abandoned "server_shutdown", seed revealed), one line each.
func abandonedLog(t *testing.T) []string {
	t.Helper()
	t0 := time.Date(2026, 10, 2, 8, 0, 0, 0, time.UTC)
	s := games.Setup{Game: dilemma.GameID, Round: "m_abandoned", Start: t0}
	for i := range s.Seed {
		s.Seed[i] = byte(i)
	}
	for i := 1; i <= 4; i++ {
		s.Seats = append(s.Seats, games.Seat{Seat: i, Agent: fmt.Sprintf("%064x", i), Name: fmt.Sprintf("Agent %d", i)})
	}
	m, err := dilemma.Engine{}.New(s, nil)
	if err != nil {
		t.Fatal(err)
	}
	st := m.Advance(t0)
	evs := st.Events
	p := st.Prompts[0]
	at := t0.Add(time.Second)
	st, err = m.Act(at, games.Input{Seat: p.Seat, Kind: "answer", Move: p.Move, Body: []byte(`{"action":"defect","message":"hi"}`)})
	if err != nil {
		t.Fatal(err)
	}
	evs = append(evs, st.Events...)
	evs = append(evs, m.Abandon(at.Add(time.Second), "server_shutdown").Events...)
	var out []string
	for _, ev := range games.Redact(evs, 0, true) {
		l, err := breakroom.Line(ev)
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, string(l))
	}
	return out
}

// TestVerifyLogAbandoned: an operator-stopped match's log (match_abandoned, seed revealed)
// re-simulates up to its cut (exit 0); the same log closed after a crash (seed null) cannot be
// re-simulated, which verify-log says in words and with its own exit code (3), not as a
// difference.
func TestVerifyLogAbandoned(t *testing.T) {
	lines := abandonedLog(t)
	if !strings.Contains(lines[len(lines)-1], `"type":"match_abandoned"`) {
		t.Fatalf("the log ends with %s", lines[len(lines)-1])
	}
	dir := t.TempDir()
	p := filepath.Join(dir, "abandoned.jsonl")
	if err := os.WriteFile(p, []byte(strings.Join(lines, "\n")+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	want := fmt.Sprintf("ok: dilemma match, %d of %d lines re-simulated through match_abandoned", len(lines), len(lines))
	if code, out, errOut := runVerifyLog(t, p); code != 0 || !strings.HasPrefix(out, want) || errOut != "" {
		t.Fatalf("abandoned log: exit %d, %q, %q", code, out, errOut)
	}
	crashed := append([]string(nil), lines...)
	last := crashed[len(crashed)-1]
	i := strings.Index(last, `"seed":"`)
	if i < 0 {
		t.Fatalf("no seed in %s", last)
	}
	crashed[len(crashed)-1] = last[:i] + `"seed":null` + last[i+len(`"seed":"`)+64+1:]
	crashed[len(crashed)-1] = strings.Replace(crashed[len(crashed)-1], "server_shutdown", "server_restart", 1)
	p2 := filepath.Join(dir, "crashed.jsonl")
	if err := os.WriteFile(p2, []byte(strings.Join(crashed, "\n")+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	code, out, _ := runVerifyLog(t, p2)
	if code != 3 || !strings.HasPrefix(out, "CANNOT RE-SIMULATE") || !bytes.Contains([]byte(out), []byte("seed null")) {
		t.Fatalf("crashed log: exit %d, %q", code, out)
	}
}
