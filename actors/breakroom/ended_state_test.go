package breakroom

import (
	"context"
	"encoding/json"
	"testing"
	"time"

	"arena/games/breakroom/wire"
)

// TestEndedStateIsTheFinalView: once the match is over, the seat's HTTP state carries the seat's
// final view ("status":"ended"), not the last turn's "playing" view (a socket's state after the
// end reads the same view: sendState).
func TestEndedStateIsTheFinalView(t *testing.T) {
	h := newHarness(t, shortDilemma(4, 4))
	ws, hp := newAgent(h, "Ada"), newAgent(h, "Bea")
	wsc, hpc := make(chan wsResult, 1), make(chan httpResult, 1)
	joined := make(chan struct{}, 2)
	go func() { wsc <- wsPlay(ws, false, joined) }()
	go func() { hpc <- httpPlay(hp, joined) }()
	<-joined
	<-joined
	h.lobby.Advance(61 * time.Second)
	w, p := <-wsc, <-hpc
	if w.err != nil || p.err != nil {
		t.Fatalf("socket agent: %v; HTTP agent: %v", w.err, p.err)
	}
	st, err := h.room.State(context.Background(), p.conn, p.seated.MatchID, 0)
	if err != nil {
		t.Fatal(err)
	}
	var view struct {
		Game   string `json:"game"`
		Status string `json:"status"`
	}
	if st.Status != wire.StatusEnded || st.MatchEnd == nil || json.Unmarshal(st.VisibleState, &view) != nil ||
		view.Game != "dilemma" || view.Status != "ended" {
		t.Fatalf("the ended state: %s %s", st.Status, st.VisibleState)
	}
}
