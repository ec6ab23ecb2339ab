package dotdotdot

import (
	"context"
	"testing"

	"arena/actors/ledger"
	"arena/games"
	"arena/storage"
)

// A paid join's format and seats (ours: §5.7's join carries what any join does) name the paid
// table filling now or are refused, never ignored: a join asking for a Blitz table is not held
// at a Short one. A format or seat count the arena plays nowhere is bad_request, as a practice
// join's is; one the paid tables do not play is bad_table. Nothing is held for a refused join.
func TestPaidHoldFormatAndSeats(t *testing.T) {
	r := newPaidOpenRig(t, nil) // short, three seats
	ctx := context.Background()
	join := func(n, format string, seats int) AgentJoin {
		return AgentJoin{Agent: chainID + "/cis-2:Agent" + n, Name: "Agent " + n, Endpoint: "https://" + n + ".example/a2a",
			Human: true, Table: "open", Format: format, Seats: seats}
	}
	for _, tc := range []struct {
		name, format string
		seats        int
		code         string
	}{
		{"another format", "blitz", 0, CodeBadTable},
		{"another format at its seats", "blitz", 6, CodeBadTable},
		{"no such format", "chess", 0, games.CodeBadRequest},
		{"seats the format does not have", "short", 4, games.CodeBadRequest},
		{"seats the format does not have, format left out", "", 6, games.CodeBadRequest},
		{"negative seats", "short", -3, games.CodeBadRequest},
	} {
		if _, err := r.p.Hold(ctx, join("One", tc.format, tc.seats), []string{owner1}); !isCode(err, tc.code) {
			t.Fatalf("%s (format %q, seats %d): %v, want %s", tc.name, tc.format, tc.seats, err, tc.code)
		}
	}
	if recs, err := r.h.arena.Store().PaidTables(); err != nil || len(recs) != 0 {
		t.Fatalf("refused joins left tables %+v %v", recs, err)
	}
	// The table's own format and seats, or none, are held.
	for i, tc := range []struct {
		format string
		seats  int
	}{{"short", 3}, {"short", 0}, {"", 3}} {
		owner := []string{owner1, owner2, owner3}[i]
		h, err := r.p.Hold(ctx, AgentJoin{Agent: chainID + "/cis-2:AgentOk" + owner[len(owner)-3:], Name: "Agent Ok " + owner[len(owner)-3:],
			Endpoint: "https://ok.example/a2a", Owner: owner, Human: true, Table: "open", Format: tc.format, Seats: tc.seats}, []string{owner})
		if err != nil {
			t.Fatalf("format %q seats %d: %v", tc.format, tc.seats, err)
		}
		if c, err := r.p.Check(ctx, h.Hold, h.SeatToken); err != nil || c.Status != storage.PaidHolding {
			t.Fatalf("check %+v %v", c, err)
		}
	}
	if err := ledger.Audit(ctx, r.p.Ledger()); err != nil {
		t.Fatal(err)
	}
}
