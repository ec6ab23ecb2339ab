package blitz

import (
	"encoding/hex"
	"encoding/json"
	"reflect"
	"strings"
	"testing"

	"arena/games"
)

// The anchor book holds a commitment's request as a byte (its hash is its sealed commitment's
// id) and every other's hash: each request the steps handed out reads back whole, by seq and
// from PendingAnchors, and recording some leaves exactly the others pending.
func TestAnchorBookReadsBackEveryRequest(t *testing.T) {
	h, asked := playHouseRound(t)
	kinds := map[string]int{}
	for i, r := range asked {
		kinds[r.Kind]++
		if r.Seq != uint32(i+1) {
			t.Fatalf("request %d has seq %d", i, r.Seq)
		}
		got, ok := h.m.anchors.at(r.Seq, h.m.sealed)
		if !ok || got != r {
			t.Fatalf("at(%d) = %+v %v, want %+v", r.Seq, got, ok, r)
		}
	}
	if kinds["opened"] != 1 || kinds["exchange"] != 15 || kinds["turn"] != 1 || kinds["transcript"] != 1 || kinds["commitment"] < 5 {
		t.Fatalf("the round asked for %v", kinds)
	}
	if len(h.m.anchors.hashes) != len(asked)-kinds["commitment"] {
		t.Errorf("the book keeps %d hashes for %d requests, %d of them commitments", len(h.m.anchors.hashes), len(asked), kinds["commitment"])
	}
	if got := h.m.PendingAnchors(); !reflect.DeepEqual(got, asked) {
		t.Fatalf("PendingAnchors differs from the requests made:\n%+v\n%+v", got, asked)
	}
	var left []games.AnchorRequest
	for i, r := range asked {
		if i%3 != 1 {
			left = append(left, r)
			continue
		}
		b, _ := json.Marshal(games.AnchoredBody{Kind: r.Kind, Seq: r.Seq, Hash: hex.EncodeToString(r.Hash[:]), Tx: strings.Repeat("ab", 32)})
		if _, err := h.act(0, "anchored", string(b)); err != nil {
			t.Fatalf("recording %+v: %v", r, err)
		}
		if _, err := h.act(0, "anchored", string(b)); !isCode(err, games.CodeBadRequest, false) {
			t.Fatalf("recorded %+v twice: %v", r, err)
		}
	}
	if got := h.m.PendingAnchors(); !reflect.DeepEqual(got, left) {
		t.Fatalf("pending after recording a third:\n%+v\nwant\n%+v", got, left)
	}
}
