package dotdotdot

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"testing"

	"arena/actors"
	"arena/games/blitz"
)

// TestTablesRecordTheConfiguredFees: every Blitz table the product opens (a walk-in's Practice,
// an agent's Practice) records the configured fees in its options (§14 "arena config"), so it
// charges them and replays with them; with none configured, §14's, less the inference fee while no
// house model is configured. Its other options stay.
func TestTablesRecordTheConfiguredFees(t *testing.T) {
	h, _ := blitzHarness(t)
	ctx := context.Background()
	fees := blitz.Fees{Action: 5_000_000, Table: 7_000_000, Inference: 11_000_000}
	check := func(table string, want blitz.Fees, mole int) {
		t.Helper()
		b, err := h.arena.Store().LoadTable(table)
		if err != nil {
			t.Fatal(err)
		}
		var rec struct {
			Spec actors.TableSpec `json:"spec"`
		}
		if err := json.Unmarshal(b[:bytes.IndexByte(b, '\n')], &rec); err != nil {
			t.Fatal(err)
		}
		var o blitz.Options
		if err := json.Unmarshal(rec.Spec.Options, &o); err != nil || o.Fees == nil || *o.Fees != want || o.Mole != mole {
			t.Errorf("table %s: options %s (%v), want fees %+v and mole %d", table, rec.Spec.Options, err, want, mole)
		}
	}
	token, err := h.arena.RegisterWalkin(ctx, "Ivo", "test-model")
	if err != nil {
		t.Fatal(err)
	}
	j, err := h.arena.JoinWalkin(ctx, token, JoinRequest{Format: "short", Mole: deskIntPtr(2)})
	if err != nil {
		t.Fatal(err)
	}
	noInference := blitz.DefaultFees()
	noInference.Inference = 0      // no house model configured: nobody thinks on one
	check(j.Table, noInference, 2) // the fees beside the table's other options

	h.product.Fees = &fees
	h.product.Model = refusingModel{} // with a house model configured, its inference fee too
	h.stop()
	h.start()
	r, err := h.arena.JoinAgent(ctx, AgentJoin{Agent: joinAgentID, Name: "Ada", Endpoint: "https://ada.example/a2a", Table: "practice", Format: "short", Human: true})
	if err != nil {
		t.Fatal(err)
	}
	check(r.Table, fees, 0)
	if got := h.arena.fees(); got != fees {
		t.Errorf("the product's fees %+v, want %+v", got, fees)
	}
}

// refusingModel is a configured house model that never answers.
type refusingModel struct{}

func (refusingModel) Think(context.Context, []byte, []byte) ([]byte, error) {
	return nil, errors.New("refusingModel: no answer")
}
