package dotdotdot

import (
	"strings"
	"testing"
)

// A join by code is the code alone: the host chose the table's format, seats and clock, and a
// hosted table has no mole to choose, so a code join that also names table, format, seats, pace
// or mole is refused (bad_request) and changes nothing, never seated at a table it did not ask
// for with those members dropped. The chat seat's join_table refuses the same (it takes no such
// member, or not beside code); both doors come here.
func TestHostedJoinByCodeRefusesOtherMembers(t *testing.T) {
	e, ctx, reg := hostedEnv(t)
	ann, bo := reg("Ann"), reg("Bo")
	h, err := e.a.HostTable(ctx, ann, "short", 0)
	if err != nil {
		t.Fatal(err)
	}
	two := 2
	for _, tc := range []struct {
		name string
		req  JoinRequest
	}{
		{"another format", JoinRequest{Code: h.Code, Format: "blitz"}},
		{"the table's own format", JoinRequest{Code: h.Code, Format: "short"}},
		{"seats", JoinRequest{Code: h.Code, Seats: 6}},
		{"pace", JoinRequest{Code: h.Code, Pace: "agent"}},
		{"mole", JoinRequest{Code: h.Code, Mole: &two}},
		{"the walkin table", JoinRequest{Code: h.Code, Table: "walkin"}},
		{"practice", JoinRequest{Code: h.Code, Table: "practice"}},
	} {
		_, err := e.a.JoinWalkin(ctx, bo, tc.req)
		deskWantCode(t, err, "bad_request")
		if ls, err := e.a.ListHosted(ctx); err != nil || len(ls) != 1 || strings.Join(ls[0].Players, ",") != "Ann" {
			t.Fatalf("%s: the refused join changed the table: %+v %v", tc.name, ls, err)
		}
	}
	j, err := e.a.JoinWalkin(ctx, bo, JoinRequest{Code: h.Code})
	if err != nil || j.Kind != "hosted" || j.Format != "short" || j.Status != "gathering" {
		t.Fatalf("the code alone: %+v %v", j, err)
	}
}
