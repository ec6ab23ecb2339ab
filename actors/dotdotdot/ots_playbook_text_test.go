package dotdotdot

import (
	"context"
	"testing"

	"arena/games"
)

// TestOTSSeatRefusesPlaybookWithControlCharacters: an off-the-shelf seat whose playbook text
// carries a bidi override is refused bad_request by JoinOTS and by a paid hold, and neither
// refusal opens a table, queues the Badge or writes a hold.
func TestOTSSeatRefusesPlaybookWithControlCharacters(t *testing.T) {
	r := newPaidOpenRig(t, nil)
	ctx := context.Background()
	j := kindAgent(1, KindPractice, quickPace)
	before := seatingState(t, r.h.arena)
	o := otsJoinOf(j, quickPace)
	o.Agents[0].Playbook.Text = "\u202eevil"
	if rep, err := r.h.arena.JoinOTS(ctx, o); !isCode(err, games.CodeBadRequest) {
		t.Errorf("JoinOTS with a bidi override in its playbook: %+v %v, want %s", rep, err, games.CodeBadRequest)
	}
	pb := o.Agents[0].Playbook
	pj := j
	pj.Table, pj.Format, pj.Kind, pj.Endpoint, pj.Playbook, pj.OTSGrant = "open", "short", "ots", "", &pb, otsGrant(1)
	if ph, err := r.p.Hold(ctx, pj, []string{j.Owner}); !isCode(err, games.CodeBadRequest) {
		t.Errorf("paid ots hold with a bidi override in its playbook: %+v %v, want %s", ph, err, games.CodeBadRequest)
	}
	if after := seatingState(t, r.h.arena); after != before {
		t.Fatalf("the refused seats changed the seating:\n%s\nwas\n%s", after, before)
	}
	// The same seats with a clean playbook are taken: the refusal was the text's.
	pb.Text = "Play it safe.\nKeep promises."
	if _, err := r.p.Hold(ctx, pj, []string{j.Owner}); err != nil {
		t.Fatalf("paid ots hold with a clean playbook: %v", err)
	}
}
