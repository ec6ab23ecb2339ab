package blitz

import (
	"encoding/hex"
	"encoding/json"
	"strings"
	"testing"

	"arena/games"
)

// An "anchored" input must name a request made and not yet recorded, by seq from 1, kind and hash:
// seq 0, a seq past the last request, another kind or hash, and a second recording are refused
// with bad_request and change nothing; PendingAnchors lists, in seq order, what is not recorded.
func TestAnchoredInputBounds(t *testing.T) {
	h := newHarness(t, testSetup("blitz", 6, `{"mole":6,"task":{"kind":"broker","named":[]}}`))
	h.to(1, "talk", 1)
	pending := h.m.PendingAnchors()
	if len(pending) == 0 || pending[0].Seq != 1 || pending[0].Kind != "opened" {
		t.Fatalf("pending anchors %+v", pending)
	}
	for i, p := range pending {
		if p.Seq != uint32(i+1) {
			t.Fatalf("pending %d has seq %d", i, p.Seq)
		}
	}
	first := pending[0]
	body := func(kind string, seq uint32, hash [32]byte) string {
		b, _ := json.Marshal(games.AnchoredBody{Kind: kind, Seq: seq, Hash: hex.EncodeToString(hash[:]), Tx: strings.Repeat("cd", 32)})
		return string(b)
	}
	var other [32]byte
	other[0] = 1
	for _, bad := range []string{
		body("opened", 0, first.Hash),
		body("opened", uint32(len(pending)+1), first.Hash),
		body("opened", 1<<31, first.Hash),
		body("exchange", 1, first.Hash),
		body("opened", 1, other),
	} {
		before := len(mustEvents(h.m.Events()))
		if _, err := h.act(0, "anchored", bad); !isCode(err, games.CodeBadRequest, false) {
			t.Fatalf("%s: %v, want bad_request", bad, err)
		}
		if len(mustEvents(h.m.Events())) != before {
			t.Fatalf("%s: refused but the transcript changed", bad)
		}
	}
	if _, err := h.act(0, "anchored", body("opened", 1, first.Hash)); err != nil {
		t.Fatal(err)
	}
	if _, err := h.act(0, "anchored", body("opened", 1, first.Hash)); !isCode(err, games.CodeBadRequest, false) {
		t.Fatalf("recorded twice: %v", err)
	}
	if now := h.m.PendingAnchors(); len(now) != len(pending)-1 || (len(now) > 0 && now[0].Seq != 2) {
		t.Fatalf("pending after recording #1: %+v", now)
	}
}
