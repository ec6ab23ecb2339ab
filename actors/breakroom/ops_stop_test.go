package breakroom

import (
	"context"
	"encoding/hex"
	"encoding/json"
	"testing"

	"arena/actors"
	"arena/games/breakroom/dilemma"
	"arena/games/breakroom/wire"
)

// TestOpsStopAbandonsTheMatch: an operator stops a running Break Room table (the house's ops
// stop) after its first move. The table writes match_abandoned {reason "server_shutdown",
// ranking, seed revealed} as the log's last line, stored before any seat hears it; every seat
// hears it as an event, then match_end marked abandoned; nobody's record counts the match; the
// public log re-simulates up to the cut; the table is finished, so a restart leaves it alone.
func TestOpsStopAbandonsTheMatch(t *testing.T) {
	var seed [32]byte
	for i := range seed {
		seed[i] = byte(i + 7)
	}
	h := newSeededHarness(t, shortDilemma(3, 3), seed[:])
	as := []*agent{newAgent(h, "Ada"), newAgent(h, "Bea"), newAgent(h, "Cy")}
	msgs := make([]chan wire.Outbound, len(as))
	for i, a := range as {
		rd := &reader{h: h, conn: a.join(ViaWebSocket).Conn}
		msgs[i] = make(chan wire.Outbound, 256)
		go func() {
			defer close(msgs[i])
			for {
				m, err := rd.next()
				if err != nil {
					return
				}
				msgs[i] <- m
				if m.Type() == "match_end" {
					return
				}
			}
		}()
		a.rd = rd
	}
	// Play the match's first move, whoever's it is; keep what each seat heard.
	heard := make([][]wire.Outbound, len(as))
	matchID := ""
	moved := false
	for !moved {
		for i := range as {
			select {
			case m := <-msgs[i]:
				heard[i] = append(heard[i], m)
				if y, ok := m.(wire.YourTurn); ok && !moved {
					matchID = y.MatchID
					if err := h.room.Move(context.Background(), as[i].rd.conn, &wire.Move{MatchID: y.MatchID, Round: y.Round,
						Turn: y.Turn, Body: json.RawMessage(`{"action":"defect"}`)}); err != nil {
						t.Fatalf("the first move: %v", err)
					}
					moved = true
				}
			default:
			}
		}
	}
	table, err := h.store.RoundTable(matchID)
	if err != nil {
		t.Fatal(err)
	}
	if err := h.arena.StopTable(context.Background(), table); err != nil {
		t.Fatalf("ops stop: %v", err)
	}
	// The stop is answered once the abandon is durable: the stored log ends with it.
	lines, err := h.room.Log(context.Background(), matchID, PublicViewer)
	if err != nil || len(lines) == 0 {
		t.Fatalf("public log: %d lines, %v", len(lines), err)
	}
	var last struct {
		Type    string            `json:"type"`
		MatchID string            `json:"match_id"`
		Reason  string            `json:"reason"`
		Seed    *string           `json:"seed"`
		Ranking []json.RawMessage `json:"ranking"`
	}
	if err := json.Unmarshal(lines[len(lines)-1], &last); err != nil {
		t.Fatal(err)
	}
	if last.Type != "match_abandoned" || last.Reason != ReasonShutdown || last.Seed == nil ||
		*last.Seed != hex.EncodeToString(seed[:]) || len(last.Ranking) != 3 || last.MatchID != matchID {
		t.Fatalf("the log's last line: %s", lines[len(lines)-1])
	}
	if rep := dilemma.Verify(lines); !rep.OK || rep.End != "match_abandoned" || rep.Checked != len(lines) {
		t.Fatalf("the abandoned log does not re-simulate to its cut: %+v", rep)
	}
	for i, a := range as {
		sawLine := false
		var end *wire.MatchEnd
		for m := range msgs[i] {
			heard[i] = append(heard[i], m)
		}
		for _, m := range heard[i] {
			switch m := m.(type) {
			case wire.Event:
				if typ, _ := lineOf(m); typ == "match_abandoned" {
					if end != nil {
						t.Errorf("%s heard match_abandoned after match_end", a.name)
					}
					sawLine = true
				}
			case wire.MatchEnd:
				end = &m
			}
		}
		if !sawLine || end == nil || end.Abandoned != ReasonShutdown || len(end.Ranking) != 3 || end.MatchID != matchID {
			t.Fatalf("%s: match_abandoned heard %v, match_end %+v", a.name, sawLine, end)
		}
		if r, err := h.room.Reputation(a.key); err != nil || r.Matches != 0 || r.Wins != 0 {
			t.Errorf("%s's record counts the abandoned match: %+v %v", a.name, r, err)
		}
		if n := h.room.completed(a.key); n != 0 {
			t.Errorf("%s: %d completed matches toward graduation", a.name, n)
		}
	}
	st, err := h.arena.Stored(table)
	if err != nil || st.Status != actors.StatusFinished || st.Result == nil || st.Result.Abandoned != ReasonShutdown {
		t.Fatalf("the stopped table: %+v %v", st, err)
	}
	// A second stop has nothing to stop.
	if err := h.arena.StopTable(context.Background(), table); err == nil {
		t.Error("a second stop of the abandoned table was taken")
	}
}
