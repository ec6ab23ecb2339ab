package breakroom

import (
	"context"
	"encoding/json"
	"testing"

	"arena/games/breakroom/dilemma"
	"arena/games/breakroom/wire"
	"arena/storage"
)

// TestDamagedRecordClosesTheMatchAtBoot: the server stops mid-match and the match's table record
// is damaged meanwhile. The next start does not fail: it appends match_abandoned
// {reason "server_restart", seed null} to the match's stored log, which the public copy serves
// as its last line and verify-log reports as one that cannot be re-simulated; an agent of the
// match that joins again is queued for a new match (the old one is over), not refused
// already_playing, and nobody's record counts the match.
func TestDamagedRecordClosesTheMatchAtBoot(t *testing.T) {
	h := newHarness(t, shortDilemma(3, 3))
	as := []*agent{newAgent(h, "Ada"), newAgent(h, "Bea"), newAgent(h, "Cy")}
	id := ""
	for _, a := range as {
		a.rd = &reader{h: h, conn: a.join(ViaWebSocket).Conn}
	}
	for _, a := range as {
		s, err := seatedOn(a.rd)
		if err != nil {
			t.Fatal(err)
		}
		id = s.MatchID
	}
	for { // the match has logged its start
		if m := as[0].rd.must(); m.Type() == "event" {
			break
		}
	}
	table, err := h.store.RoundTable(id)
	if err != nil {
		t.Fatal(err)
	}
	before, err := h.room.Log(context.Background(), id, PublicViewer)
	if err != nil || len(before) == 0 {
		t.Fatalf("log before: %d lines, %v", len(before), err)
	}
	// Stop, damage the record, start again.
	h.stop()
	st, err := storage.Open(h.path, storage.Options{NoSync: true})
	if err != nil {
		t.Fatal(err)
	}
	if err := st.PutTable(table, []byte("{damaged")); err != nil {
		t.Fatal(err)
	}
	if err := st.Close(); err != nil {
		t.Fatal(err)
	}
	h.start(shortDilemma(3, 3))

	lines, err := h.room.Log(context.Background(), id, PublicViewer)
	if err != nil || len(lines) == 0 {
		t.Fatalf("log after: %d lines, %v", len(lines), err)
	}
	var last struct {
		Type    string            `json:"type"`
		MatchID string            `json:"match_id"`
		Reason  string            `json:"reason"`
		Seed    *string           `json:"seed"`
		Ranking []json.RawMessage `json:"ranking"`
		Seq     int64             `json:"seq"`
	}
	if err := json.Unmarshal(lines[len(lines)-1], &last); err != nil {
		t.Fatal(err)
	}
	if last.Type != "match_abandoned" || last.Reason != ReasonRestart || last.Seed != nil || last.MatchID != id || last.Ranking == nil {
		t.Fatalf("last line %s", lines[len(lines)-1])
	}
	if rep := dilemma.Verify(lines); rep.OK || !rep.Unverifiable {
		t.Fatalf("verify of a log closed after a crash: %+v", rep)
	}
	j := as[0].join(ViaWebSocket)
	if q, ok := j.First.(wire.Queued); !ok || q.Game != dilemma.GameID {
		t.Fatalf("the re-join answered %#v, want queued", j.First)
	}
	for _, a := range as {
		if r, _ := h.room.Reputation(a.key); r.Matches != 0 {
			t.Errorf("%s: %+v", a.name, r)
		}
	}
	// A third start finds the log ended and adds nothing.
	h.stop()
	h.start(shortDilemma(3, 3))
	again, err := h.room.Log(context.Background(), id, PublicViewer)
	if err != nil || len(again) != len(lines) {
		t.Fatalf("after another start: %d lines (had %d), %v", len(again), len(lines), err)
	}
}
