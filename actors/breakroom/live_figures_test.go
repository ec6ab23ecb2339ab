package breakroom

import (
	"encoding/json"
	"reflect"
	"testing"
	"time"

	"arena/actors"
	"arena/games"
	"arena/games/breakroom/dilemma"
)

// closed says whether the change signal ch has fired.
func closed(ch <-chan struct{}) bool {
	select {
	case <-ch:
		return true
	default:
		return false
	}
}

// TestLiveFiguresFollowTheRoomActor drives one match through the room actor's handlers in the
// order a loaded server can deliver them: the table's match_start line (stored, so the store
// already has the match running) reaches the room before the room hears the table opened, and
// the match ends in the store before the room hears RoundEnded. At each step the live figures
// (what GET /v0/live shows) count exactly the tables they list, and the change signal fires
// when the room's own state changes (the table opened, the match over), so a snapshot read at
// an earlier signal is always followed by a fresh one.
func TestLiveFiguresFollowTheRoomActor(t *testing.T) {
	h := newHarness(t, shortDilemma(3, 3))
	st := newState(h.room) // the room actor's state, driven here message by message
	at := time.Date(2026, 10, 2, 8, 0, 0, 0, time.UTC)
	const table, round = "br-dilemma-0123456789abcdef", "m_0123456789abcdef"
	m := &match{seating: seating{Table: table, Game: dilemma.GameID, Tier: "rookie", At: at,
		Seats: []seatRec{{Seat: 1, Key: "a1", Name: "Ada"}, {Seat: 2, Key: "b2", Name: "Bea"}, {Seat: 3, Key: "house:x", House: true}}},
		sess: map[int]*session{}}
	st.tables[table] = m // formed: the seating is being stored, the table not open yet

	none := map[string]Live{}
	if f := st.liveFigures(); !reflect.DeepEqual(f, none) {
		t.Fatalf("formed, not open: %+v", f)
	}

	// match_start is stored and handed to the room before the room hears the table opened.
	start := games.Event{Seq: 1, Type: "match_start", Visibility: games.Public, Payload: json.RawMessage(`{"game":"dilemma"}`)}
	st.events(&tableEvents{table: table, round: round, events: []games.Event{start}})
	if f := st.liveFigures(); !reflect.DeepEqual(f, none) {
		t.Fatalf("match_start before the table opened: %+v", f)
	}

	// The room hears the table opened: the figures count and list it, and the signal fires.
	opened := h.room.LiveChanged()
	st.opened(&tableOpened{table: table, round: round})
	if !closed(opened) {
		t.Fatal("the table opened in the room and the live figures' signal did not fire")
	}
	want := map[string]Live{dilemma.GameID: {Playing: 2, House: 1, Tables: 1,
		Running: []LiveTable{{MatchID: round, Tier: "rookie", Agents: 2, House: 1, Started: at}}}}
	if f := st.liveFigures(); !reflect.DeepEqual(f, want) {
		t.Fatalf("the table open: %+v, want %+v", f, want)
	}

	// The match is over in the store (its end line stored) before the room hears RoundEnded:
	// the room still counts and lists the table, both.
	end := games.Event{Seq: 2, Type: "match_end", Visibility: games.Public, Payload: json.RawMessage(`{"ranking":[]}`)}
	st.events(&tableEvents{table: table, round: round, events: []games.Event{end}})
	if f := st.liveFigures(); !reflect.DeepEqual(f, want) {
		t.Fatalf("match_end before RoundEnded: %+v, want %+v", f, want)
	}

	// RoundEnded: the table leaves the counts and the list at once, and the signal fires.
	ended := h.room.LiveChanged()
	st.roundEnded(&actors.RoundEnded{Table: table, Round: round, Seat: 1, Result: games.Result{}})
	if !closed(ended) {
		t.Fatal("the match ended in the room and the live figures' signal did not fire")
	}
	if f := st.liveFigures(); !reflect.DeepEqual(f, none) {
		t.Fatalf("the match over: %+v", f)
	}
}
