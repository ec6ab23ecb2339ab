package dotdotdot

import (
	"context"
	"encoding/json"
	"testing"

	"arena/games"
	"arena/games/blitz"
)

// TestPracticeOfEightSeats: a walk-in's Practice may have as many seats as the manifest allows
// (§5.6: Blitz 6 to 8), chosen at join (JoinRequest.Seats; the fewest by default): an eight-seat
// table seats the walk-in and seven house agents of distinct names, announces eight seats, and
// plays a whole round to its reveal, every seat paid.
func TestPracticeOfEightSeats(t *testing.T) {
	inBubble(t, func(t *testing.T) {
		e := startDeskEnv(t, "", nil, startDesk, blitz.NewEngine(blitz.DefaultFees()))
		ctx := deskCtx(t)
		token, err := e.a.RegisterWalkin(ctx, "Ivo", "test-model")
		if err != nil {
			t.Fatal(err)
		}
		j, err := e.a.JoinWalkin(ctx, token, JoinRequest{Format: "blitz", Seats: 8})
		if err != nil {
			t.Fatal(err)
		}
		ti, err := e.a.Table(ctx, j.Table)
		if err != nil {
			t.Fatal(err)
		}
		names := map[string]bool{}
		for _, s := range ti.Seats {
			names[nameKey(s.Name)] = true
		}
		if len(ti.Seats) != 8 || len(names) != 8 {
			t.Fatalf("an eight-seat Practice: %d seats, %d distinct names", len(ti.Seats), len(names))
		}
		for moves := 0; ; moves++ {
			n, err := deskBlitzPoll(t, e, token)
			if err != nil {
				t.Fatal(err)
			}
			if n.Status == NextRevealed {
				break
			}
			if moves > 40 {
				t.Fatal("round did not end")
			}
			if _, err := e.a.AnswerMove(ctx, token, n.Answer); err != nil {
				t.Fatalf("answer %s: %v", n.Answer, err)
			}
		}
		evs, revealed, err := e.a.Transcript(ctx, j.Round)
		if err != nil || !revealed {
			t.Fatalf("transcript: %v (revealed %v)", err, revealed)
		}
		taken := 0
		for _, ev := range evs {
			switch ev.Type {
			case "seat.taken":
				taken++
			case "round.created":
				var p struct {
					Format struct {
						Seats int `json:"seats"`
					} `json:"format"`
				}
				if json.Unmarshal(ev.Payload, &p) != nil || p.Format.Seats != 8 {
					t.Errorf("round.created %s", ev.Payload)
				}
			}
		}
		st, err := e.a.Stored(j.Table)
		if err != nil || st.Result == nil || len(st.Result.Payouts) != 8 || taken != 8 {
			t.Fatalf("result %+v (%v), %d seats taken", st.Result, err, taken)
		}
	})
}

// TestSeatCountsOutsideTheManifestAreRefused: a seat count outside the format's range (§5.6), or
// one asked of the walkin table (whose seats are the queue's), is bad_request, and no table opens;
// an agent's Practice takes the count the join names.
func TestSeatCountsOutsideTheManifestAreRefused(t *testing.T) {
	h, _ := blitzHarness(t)
	ctx := context.Background()
	token, err := h.arena.RegisterWalkin(ctx, "Ivo", "test-model")
	if err != nil {
		t.Fatal(err)
	}
	for _, req := range []JoinRequest{
		{Format: "blitz", Seats: 9},
		{Format: "blitz", Seats: 5},
		{Format: "short", Seats: 4},
		{Format: "blitz", Seats: -1},
		{Table: "walkin", Format: "blitz", Seats: 7},
	} {
		if _, err := h.arena.JoinWalkin(ctx, token, req); !isCode(err, games.CodeBadRequest) {
			t.Errorf("%+v: %v, want bad_request", req, err)
		}
	}
	if _, err := h.arena.JoinAgent(ctx, AgentJoin{Agent: joinAgentID, Name: "Ada", Endpoint: "https://ada.example/a2a", Table: "practice", Seats: 9}); !isCode(err, games.CodeBadRequest) {
		t.Errorf("an agent's Practice of 9: %v", err)
	}
	if ts, _ := h.arena.Tables(ctx); len(ts) != 0 {
		t.Fatalf("%d tables opened by refused joins", len(ts))
	}
	r, err := h.arena.JoinAgent(ctx, AgentJoin{Agent: joinAgentID, Name: "Ada", Endpoint: "https://ada.example/a2a", Table: "practice", Seats: 7})
	if err != nil {
		t.Fatal(err)
	}
	if ti, err := h.arena.Table(ctx, r.Table); err != nil || len(ti.Seats) != 7 {
		t.Fatalf("an agent's Practice of 7: %+v %v", ti.Seats, err)
	}
}

// TestHostedTableOfSevenSeats: a host may ask for as many seats as the manifest allows (§5.6):
// the table gathers seven seats (and says so), keeps the count in its stored record, and starts
// with its walk-ins and house agents in the other five seats; a count
// outside the format's is refused and opens nothing.
func TestHostedTableOfSevenSeats(t *testing.T) { inBubble(t, hostedTableOfSevenSeats) }

func hostedTableOfSevenSeats(t *testing.T) {
	e, ctx, reg := hostedEnv(t)
	ann, bo := reg("Ann"), reg("Bo")
	if _, err := e.a.HostTable(ctx, ann, "blitz", 9); !isCode(err, games.CodeBadRequest) {
		t.Fatalf("a hosted table of 9: %v", err)
	}
	if _, err := e.a.HostTable(ctx, ann, "short", 6); !isCode(err, games.CodeBadRequest) {
		t.Fatalf("a short hosted table of 6: %v", err)
	}
	h, err := e.a.HostTable(ctx, ann, "blitz", 7)
	if err != nil || h.Seats != 7 {
		t.Fatalf("hosted %+v %v", h, err)
	}
	stored, err := e.a.Store().HostedTables()
	if err != nil || len(stored) != 1 || stored[0].Seats != 7 {
		t.Fatalf("stored %+v %v", stored, err)
	}
	if _, err := e.a.JoinWalkin(ctx, bo, JoinRequest{Code: h.Code}); err != nil {
		t.Fatal(err)
	}
	s, err := e.a.StartHosted(ctx, ann)
	if err != nil || s.Round == "" {
		t.Fatalf("start %+v %v", s, err)
	}
	if n, err := deskBlitzPoll(t, e, ann); err != nil || n.Status != NextMove { // the round is open: its first move is out
		t.Fatalf("the host's first move %+v %v", n, err)
	}
	evs, _, err := e.a.Transcript(ctx, s.Round)
	if err != nil {
		t.Fatal(err)
	}
	taken := map[int]string{}
	for _, ev := range evs {
		if ev.Type == "seat.taken" {
			var p struct {
				Seat int    `json:"seat"`
				Name string `json:"name"`
			}
			_ = json.Unmarshal(ev.Payload, &p)
			taken[p.Seat] = p.Name
		}
	}
	if len(taken) != 7 || taken[1] != "Ann" || taken[2] != "Bo" {
		t.Fatalf("seats taken %v", taken)
	}
}
