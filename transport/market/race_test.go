package market

import (
	"bytes"
	"encoding/json"
	"fmt"
	"sync"
	"testing"

	gm "arena/games/market"
)

// Racing transfers from one account through both doors at once cannot double-spend: Ada holds
// 100 credits and 48 callers each send a transfer of 5 under its own commandId, every one twice
// at the same moment (a retry racing its first send), half through each door, with two keys of
// Ada's. Exactly 20 commandIds are accepted, each pair of an accepted id answers the same
// bytes, every other send is insufficient_available; Ada ends with 0 credits and Bo with 200,
// and the stored Ledger moved exactly those (every Asset sums to zero over the Players and
// @issuance).
func TestRacingTransfersNeverDoubleSpend(t *testing.T) {
	r := newRig(t, Gateway{})
	ada1, ada2, bo := r.key("owner-ada", "a1"), r.key("owner-ada", "a2"), r.key("owner-bo", "")
	_, b := r.post(ada1, nil, `{"protocolVersion":2,"commandId":"e","action":"enroll"}`)
	pa := decode(t, b).field(t, "playerId")
	_, b = r.post(bo, nil, `{"protocolVersion":2,"commandId":"e","action":"enroll"}`)
	pb := decode(t, b).field(t, "playerId")
	const ids = 48
	type answer struct {
		id     int
		status int
		body   []byte
	}
	answers := make(chan answer, 2*ids)
	var wg sync.WaitGroup
	start := make(chan struct{})
	for i := range ids {
		body := fmt.Sprintf(`{"protocolVersion":2,"commandId":"race-%d","action":"transfer","toPlayerId":%q,"assetId":"credits","quantity":5}`, i, pb)
		for j := range 2 {
			d, key := doors[(i+j)%2], []string{ada1, ada2}[j]
			wg.Go(func() {
				<-start
				st, got := d.send(r, key, nil, body)
				answers <- answer{i, st, got}
			})
		}
	}
	close(start)
	wg.Wait()
	close(answers)
	byID := map[int][][]byte{}
	for a := range answers {
		if a.status != 200 {
			t.Fatalf("race-%d: %d %s", a.id, a.status, a.body)
		}
		byID[a.id] = append(byID[a.id], a.body)
	}
	accepted := 0
	for i, pair := range byID {
		e0, e1 := decode(t, pair[0]), decode(t, pair[1])
		switch {
		case e0.OK && e1.OK:
			accepted++
			if !bytes.Equal(pair[0], pair[1]) {
				t.Errorf("race-%d answered twice differently:\n%s\n%s", i, pair[0], pair[1])
			}
		case !e0.OK && !e1.OK:
			if e0.code() != "insufficient_available" || e1.code() != "insufficient_available" {
				t.Errorf("race-%d: %s / %s", i, pair[0], pair[1])
			}
		default:
			t.Errorf("race-%d accepted once and refused once: %s / %s", i, pair[0], pair[1])
		}
	}
	if accepted != 20 {
		t.Fatalf("%d transfers of 5 accepted from 100 credits, want 20", accepted)
	}
	_, ia := r.post(ada2, nil, `{"protocolVersion":2,"action":"readInventory"}`)
	_, ib := r.post(bo, nil, `{"protocolVersion":2,"action":"readInventory"}`)
	if a, b := decode(t, ia).holdings(t)["credits"], decode(t, ib).holdings(t)["credits"]; a != 0 || b != 200 {
		t.Fatalf("credits after the race: Ada %d, Bo %d; want 0 and 200", a, b)
	}
	// The stored Ledger: what it moved is what the Players hold, and nothing is made or lost.
	sum := map[string]map[string]int64{}
	if err := r.store.MarketDeltas(func(_ uint64, raw []byte) error {
		var d gm.Delta
		if err := json.Unmarshal(raw, &d); err != nil {
			return err
		}
		for _, row := range d.Ledger {
			for inv, q := range map[string]int64{row.From: -row.Quantity, row.To: row.Quantity} {
				if sum[inv] == nil {
					sum[inv] = map[string]int64{}
				}
				sum[inv][row.AssetID] += q
			}
		}
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	if sum[pa]["credits"] != 0 || sum[pb]["credits"] != 200 || sum[gm.Issuance]["credits"] != -200 {
		t.Fatalf("the stored Ledger moved Ada %d, Bo %d, @issuance %d credits", sum[pa]["credits"], sum[pb]["credits"], sum[gm.Issuance]["credits"])
	}
	for _, asset := range []string{"credits", "wood"} {
		var total int64
		for _, m := range sum {
			total += m[asset]
		}
		if total != 0 {
			t.Errorf("%s sums to %d over the Ledger", asset, total)
		}
	}
}
