package dotdotdot

import (
	"context"
	"strings"
	"testing"
	"testing/synctest"
	"time"

	"arena/games/blitz"
)

func hostedEnv(t *testing.T) (*deskEnv, context.Context, func(name string) string) {
	e := startDeskEnv(t, "", nil, startDesk, blitz.NewEngine(blitz.DefaultFees()))
	ctx := deskCtx(t)
	reg := func(name string) string {
		tok, err := e.a.RegisterWalkin(ctx, name, "")
		if err != nil {
			t.Fatal(err)
		}
		return tok
	}
	return e, ctx, reg
}

// TestHostedFillsAndStarts: a Short table hosted, joined by code (lower case too) until full,
// starts at once with the walk-ins in seats 1..3 in the order they came; the code then answers
// started with the round for two hours and is gone after.
func TestHostedFillsAndStarts(t *testing.T) {
	e, ctx, reg := hostedEnv(t)
	ann, bo, cy := reg("Ann"), reg("Bo"), reg("Cy")
	h, err := e.a.HostTable(ctx, ann, "short", 0)
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := NormalizeHostedCode(h.Code); !ok || h.Link != "/t/"+h.Code || h.Status != HostedGathering ||
		h.Host != "Ann" || h.Seats != 3 || h.Format != "short" || !h.StartsBy.Equal(deskT0.Add(10*time.Minute)) {
		t.Fatalf("hosted %+v", h)
	}
	j, err := e.a.JoinWalkin(ctx, bo, JoinRequest{Code: strings.ToLower(h.Code)})
	if err != nil || j.Status != "gathering" || j.Kind != "hosted" || j.Round != "" {
		t.Fatalf("join %+v %v", j, err)
	}
	ls, err := e.a.ListHosted(ctx)
	if err != nil || len(ls) != 1 || ls[0].Code != h.Code || strings.Join(ls[0].Players, ",") != "Ann,Bo" {
		t.Fatalf("list %+v %v", ls, err)
	}
	// Waiting at one table, a walk-in can take no other (§4.5).
	if _, err := e.a.JoinWalkin(ctx, bo, JoinRequest{}); err == nil {
		t.Fatal("practice while at a hosted table")
	} else {
		deskWantCode(t, err, CodeAtAHostedTable)
	}
	_, err = e.a.HostTable(ctx, bo, "", 0)
	deskWantCode(t, err, CodeAtAHostedTable)
	n, err := e.a.NextMove(ctx, bo, 0)
	if err != nil || n.Status != NextGathering || !strings.Contains(n.Brief, "hosted table "+h.Code) {
		t.Fatalf("poll while gathering %+v %v", n, err)
	}
	j, err = e.a.JoinWalkin(ctx, cy, JoinRequest{Code: h.Code})
	if err != nil || j.Status != "seated" || j.Seat != 3 || !strings.HasPrefix(j.Round, "T-") {
		t.Fatalf("filling join %+v %v", j, err)
	}
	got, err := e.a.HostedByCode(ctx, h.Code)
	if err != nil || got.Status != HostedStarted || got.Round != j.Round || !strings.HasPrefix(got.Table, "h") {
		t.Fatalf("by code %+v %v", got, err)
	}
	ti, err := e.a.Table(ctx, got.Table)
	if err != nil || ti.Kind != "hosted" || len(ti.Seats) != 3 || ti.Seats[0].Name != "Ann" || ti.Seats[2].Name != "Cy" {
		t.Fatalf("table %+v %v", ti, err)
	}
	if ls, _ := e.a.ListHosted(ctx); len(ls) != 0 {
		t.Fatalf("a started table is still listed: %+v", ls)
	}
	// Everyone has its seat; the table takes no more joins.
	for _, tok := range []string{ann, bo, cy} {
		if n, err := e.a.NextMove(ctx, tok, 0); err != nil || n.Table != got.Table || n.Status == NextGathering {
			t.Fatalf("seat poll %+v %v", n, err)
		}
	}
	dee := reg("Dee")
	_, err = e.a.JoinHosted(ctx, dee, h.Code)
	deskWantCode(t, err, CodeTableStarted)
	_, err = e.a.JoinHosted(ctx, dee, "ZZZZ")
	deskWantCode(t, err, CodeUnknownTable)
	_, err = e.a.JoinHosted(ctx, dee, "Z0Z")
	deskWantCode(t, err, "bad_request")
	// The code is held two hours after the start, then forgotten.
	e.clock.Advance(hostedCodeHold - time.Second)
	if got, err := e.a.HostedByCode(ctx, h.Code); err != nil || got.Status != HostedStarted {
		t.Fatalf("held code %+v %v", got, err)
	}
	e.clock.Advance(time.Second)
	_, err = e.a.HostedByCode(ctx, h.Code)
	deskWantCode(t, err, CodeUnknownTable)
}

// TestHostedStartNotHostLeave: only the host starts (not_host); a non-member gets
// not_at_a_table; leaving frees the walk-in; the host's start opens a Blitz table with house
// seats filling the four empty seats.
func TestHostedStartNotHostLeave(t *testing.T) {
	e, ctx, reg := hostedEnv(t)
	ann, bo, cy := reg("Ann"), reg("Bo"), reg("Cy")
	h, err := e.a.HostTable(ctx, ann, "", 0)
	if err != nil || h.Format != "blitz" || h.Seats != 6 {
		t.Fatalf("host %+v %v", h, err)
	}
	_, err = e.a.HostTable(ctx, ann, "", 0)
	deskWantCode(t, err, CodeAtAHostedTable)
	_, err = e.a.StartHosted(ctx, bo)
	deskWantCode(t, err, CodeNotAtATable)
	if _, err := e.a.JoinHosted(ctx, bo, h.Code); err != nil {
		t.Fatal(err)
	}
	if _, err := e.a.JoinHosted(ctx, cy, h.Code); err != nil {
		t.Fatal(err)
	}
	_, err = e.a.StartHosted(ctx, bo)
	deskWantCode(t, err, CodeNotHost)
	if err := e.a.LeaveTable(ctx, cy); err != nil {
		t.Fatal(err)
	}
	deskWantCode(t, e.a.LeaveTable(ctx, cy), CodeNotAtATable)
	// Free again: Cy may play Practice.
	if _, err := e.a.JoinWalkin(ctx, cy, JoinRequest{}); err != nil {
		t.Fatalf("practice after leaving: %v", err)
	}
	_, err = e.a.JoinHosted(ctx, cy, h.Code)
	deskWantCode(t, err, CodeAtAHostedTable) // it holds a Practice seat now
	s, err := e.a.StartHosted(ctx, ann)
	if err != nil || s.Status != HostedStarted || s.Round == "" || strings.Join(s.Players, ",") != "Ann,Bo" {
		t.Fatalf("start %+v %v", s, err)
	}
	ti, err := e.a.Table(ctx, s.Table)
	if err != nil || len(ti.Seats) != 6 || ti.Seats[1].Kind != "walkin" || ti.Seats[2].Kind != "house" || ti.Seats[5].Kind != "house" {
		t.Fatalf("table %+v %v", ti, err)
	}
}

// TestHostedTenMinutes: nobody starts it; ten minutes after it was hosted (the fake clock) it
// opens with whoever came, house seats filling the rest; a minute earlier it still gathers.
// The host leaving hands the table on; the last one out closes it. It runs in a synctest bubble.
func TestHostedTenMinutes(t *testing.T) { inBubble(t, hostedTenMinutes) }

func hostedTenMinutes(t *testing.T) {
	e, ctx, reg := hostedEnv(t)
	ann, bo, cy := reg("Ann"), reg("Bo"), reg("Cy")
	h, err := e.a.HostTable(ctx, ann, "blitz", 0)
	if err != nil {
		t.Fatal(err)
	}
	for _, tok := range []string{bo, cy} {
		if _, err := e.a.JoinHosted(ctx, tok, h.Code); err != nil {
			t.Fatal(err)
		}
	}
	if err := e.a.LeaveTable(ctx, ann); err != nil {
		t.Fatal(err)
	}
	got, err := e.a.HostedByCode(ctx, h.Code)
	if err != nil || got.Host != "Bo" || strings.Join(got.Players, ",") != "Bo,Cy" {
		t.Fatalf("after the host left %+v %v", got, err)
	}
	e.clock.Advance(9 * time.Minute)
	if got, _ := e.a.HostedByCode(ctx, h.Code); got.Status != HostedGathering {
		t.Fatalf("at nine minutes %+v", got)
	}
	e.clock.Advance(time.Minute)
	synctest.Wait() // the hosted desk has taken its timer's message and opened the table
	if got, err = e.a.HostedByCode(ctx, h.Code); err != nil || got.Status != HostedStarted {
		t.Fatalf("not started ten minutes on: %+v %v", got, err)
	}
	ti, err := e.a.Table(ctx, got.Table)
	if err != nil || len(ti.Seats) != 6 || ti.Seats[0].Name != "Bo" || ti.Seats[1].Name != "Cy" || ti.Seats[2].Kind != "house" {
		t.Fatalf("table %+v %v", ti, err)
	}
	n, err := e.a.NextMove(ctx, cy, 0)
	if err != nil || n.Table != got.Table || n.Seat != 2 {
		t.Fatalf("Cy's seat %+v %v", n, err)
	}

	// The last one out closes a table: its code is unknown at once.
	h2, err := e.a.HostTable(ctx, ann, "short", 0)
	if err != nil {
		t.Fatal(err)
	}
	if err := e.a.LeaveTable(ctx, ann); err != nil {
		t.Fatal(err)
	}
	_, err = e.a.HostedByCode(ctx, h2.Code)
	deskWantCode(t, err, CodeUnknownTable)
}

// TestHostedCodeShape: codes are four characters of the unambiguous alphabet, and a thousand
// drawn are not all alike.
func TestHostedCodeShape(t *testing.T) {
	seen := map[string]bool{}
	for range 1000 {
		c, err := newHostedCode()
		if err != nil {
			t.Fatal(err)
		}
		if n, ok := NormalizeHostedCode(c); !ok || n != c || strings.ContainsAny(c, "0O1IL") {
			t.Fatalf("code %q", c)
		}
		seen[c] = true
	}
	if len(seen) < 990 {
		t.Fatalf("only %d distinct codes of 1000", len(seen))
	}
	for _, bad := range []string{"", "ABC", "ABCDE", "AB0D", "ABIL", "AB D", "ÄBCD"} {
		if _, ok := NormalizeHostedCode(bad); ok {
			t.Fatalf("%q accepted", bad)
		}
	}
	if c, ok := NormalizeHostedCode(" abcd "); !ok || c != "ABCD" {
		t.Fatalf("fold: %q %v", c, ok)
	}
}
