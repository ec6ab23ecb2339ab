package dotdotdot

import (
	"context"
	"testing"

	"arena/actors/ledger"
)

// A paid table seats an owner once (§5.7: a hold is "a seat for the agent's Badge owner"): a
// second Badge of the same owner is refused in_a_round, so one person cannot sit two seats of
// one round (and cannot fill a table with holds it never pays from Badges of its own); another
// owner's Badge still gets its seat.
func TestPaidHoldOneSeatPerOwner(t *testing.T) {
	r := newPaidOpenRig(t, nil)
	ctx := context.Background()
	badge := func(n, owner string) AgentJoin {
		return AgentJoin{Agent: chainID + "/cis-2:Agent" + n, Name: "Agent " + n, Endpoint: "https://" + n + ".example/a2a",
			Owner: owner, Human: true}
	}
	first, err := r.p.Hold(ctx, badge("One", owner1), []string{owner1})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := r.p.Hold(ctx, badge("OneBis", owner1), []string{owner1}); !isCode(err, CodeInARound) {
		t.Fatalf("a second Badge of %s at the table of its first (%s): %v, want %s", owner1, first.Table, err, CodeInARound)
	}
	other, err := r.p.Hold(ctx, badge("Two", owner2), []string{owner2})
	if err != nil || other.Table != first.Table {
		t.Fatalf("another owner's Badge: %+v %v", other, err)
	}
	if err := ledger.Audit(ctx, r.p.Ledger()); err != nil {
		t.Fatal(err)
	}
}
