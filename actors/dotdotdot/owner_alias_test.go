package dotdotdot

import (
	"context"
	"fmt"
	"testing"

	"arena/actors"
	ccdaddr "arena/chain/ccd"
	"arena/games"
	"arena/games/blitz"
)

// aliasOwners are two CAIP-10 owners naming one Concordium account by two of its aliases (the
// same first 29 bytes), as ownerKey reads them.
func aliasOwners(t *testing.T, seed byte) (string, string) {
	t.Helper()
	var acc ccdaddr.Address
	for i := range acc {
		acc[i] = byte(i) + seed
	}
	alias := acc
	alias[31] ^= 0x5a
	alias[30] ^= 0x11
	a, b := chainID+":"+acc.String(), chainID+":"+alias.String()
	if a == b || ownerKey(a) != ownerKey(b) {
		t.Fatalf("test setup: %s and %s are not two aliases of one account", a, b)
	}
	return a, b
}

// TestRatedTableOneSeatPerOwnerAlias: one seat per owner at a rated gathering table counts an
// owner's Concordium aliases as the owner, as the paid tables do (ownerKey): a second Badge
// registered under an alias of the first's owner is refused bad_table and the table is as it
// was, while a Badge of another account joins.
func TestRatedTableOneSeatPerOwnerAlias(t *testing.T) {
	h := kindsHarness(t)
	ctx := context.Background()
	own, alias := aliasOwners(t, 1)
	a, b, c := kindAgent(1, KindRated, quickPace), kindAgent(2, KindRated, quickPace), kindAgent(3, KindRated, quickPace)
	a.Owner, b.Owner = own, alias
	r, err := h.arena.JoinAgent(ctx, a)
	if err != nil {
		t.Fatal(err)
	}
	before := seatingState(t, h.arena)
	r2, err := h.arena.JoinAgent(ctx, b)
	if !isCode(err, CodeBadTable) {
		t.Fatalf("a second Badge of %s's account (alias %s) at rated table %s: %+v %v, want %s", a.Owner, b.Owner, r.Table, r2, err, CodeBadTable)
	}
	if after := seatingState(t, h.arena); after != before {
		t.Fatalf("the refused join changed the seating:\n%s\nwas\n%s", after, before)
	}
	if r3, err := h.arena.JoinAgent(ctx, c); err != nil || r3.Table != r.Table || r3.Seat != 2 {
		t.Fatalf("a Badge of another owner at rated table %s: %+v %v, want seat 2 there", r.Table, r3, err)
	}
}

// TestAdmitOneSeatPerOwnerAlias: admit (OpenTable's seat rule) refuses two Badges whose owners
// are aliases of one account at a rated or badge-gated table, and seats two accounts' Badges.
func TestAdmitOneSeatPerOwnerAlias(t *testing.T) {
	own, alias := aliasOwners(t, 7)
	seat := func(n int, owner string) actors.SeatSpec {
		return actors.SeatSpec{Seat: games.Seat{Seat: n, Agent: fmt.Sprintf("%s/cis-2:Al%d", chainID, n), Name: fmt.Sprintf("Al %d", n),
			Options: blitz.SeatOptions{Kind: "byo", Owner: owner}.JSON()}, Channel: ChannelA2A, Endpoint: "https://x.example/a2a"}
	}
	rated := func(string) int { return GateRounds }
	for _, kind := range []string{KindRated, KindGated} {
		spec := actors.TableSpec{Game: walkinGame, Kind: kind, Seats: []actors.SeatSpec{seat(1, own), seat(2, alias)}}
		if err := admit(spec, rated); !isCode(err, CodeBadTable) {
			t.Errorf("admit two Badges of one account (aliases) at a %s table: %v, want %s", kind, err, CodeBadTable)
		}
		spec.Seats[1] = seat(2, chainID+":3kBxKindOwner2")
		if err := admit(spec, rated); err != nil {
			t.Errorf("admit two accounts' Badges at a %s table: %v", kind, err)
		}
	}
}
