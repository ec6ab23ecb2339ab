package dotdotdot

import (
	"context"
	"testing"

	"arena/actors/ledger"
	ccdaddr "arena/chain/ccd"
)

// One seat per owner (§5.7) counts an owner's aliases as the owner: on Concordium the addresses
// sharing an account's first 29 bytes are that account, so a second Badge owned by an alias of
// the first Badge's owner is refused in_a_round, and one person cannot sit two seats of a round
// by registering its Badges under two of its addresses. An account of its own still sits.
func TestPaidHoldOneSeatPerOwnerAlias(t *testing.T) {
	r := newPaidOpenRig(t, nil)
	ctx := context.Background()
	var acc ccdaddr.Address
	for i := range acc {
		acc[i] = byte(i + 1)
	}
	alias, other := acc, acc
	alias[31] ^= 0x5a
	other[28] ^= 0x01 // another account: its first 29 bytes differ
	owner, aliasOwner, otherOwner := chainID+":"+acc.String(), chainID+":"+alias.String(), chainID+":"+other.String()
	badge := func(n, owner string) AgentJoin {
		return AgentJoin{Agent: chainID + "/cis-2:Agent" + n, Name: "Agent " + n, Endpoint: "https://" + n + ".example/a2a",
			Owner: owner, Human: true}
	}
	first, err := r.p.Hold(ctx, badge("One", owner), []string{owner})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := r.p.Hold(ctx, badge("OneAlias", aliasOwner), []string{aliasOwner}); !isCode(err, CodeInARound) {
		t.Fatalf("a Badge owned by an alias of %s at the table of its first (%s): %v, want %s", owner, first.Table, err, CodeInARound)
	}
	h, err := r.p.Hold(ctx, badge("Two", otherOwner), []string{otherOwner})
	if err != nil || h.Table != first.Table {
		t.Fatalf("another account's Badge: %+v %v", h, err)
	}
	if err := ledger.Audit(ctx, r.p.Ledger()); err != nil {
		t.Fatal(err)
	}
}
