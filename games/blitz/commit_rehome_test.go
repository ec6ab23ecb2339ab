package blitz

import (
	"bytes"
	"strings"
	"testing"

	"arena/games/blitz/commitment"
)

// A commitment read by the quick path has its forms written into the answer's scratch
// (commitment.ScanQuickToLater), which is reused by the next answer: what the pending promise
// keeps until its seal (the signed form and the condition) must live in its commitment.pending
// payload instead. Scribbling over every scratch the pool gives back changes nothing sealed.
func TestQuickCommitmentFormsLeaveTheScratch(t *testing.T) {
	h := newHarness(t, byoSetup())
	h.to(1, "commit", 0)
	cond := `{"or":[{"survives":["` + agentID(3) + `",1]},{"always":true}]}`
	members := []string{
		base(1, 1, 1, 2, 10*ccd, 2),
		strings.Replace(base(1, 2, 1, 3, 4*ccd, 3), `{"always":true}`, cond, 1),
	}
	var subs []string
	for _, mb := range members {
		subs = append(subs, h.signed(1, mb))
	}
	body := commitBody(subs...)
	if _, ok := quickAnswer([]byte(body)); !ok {
		t.Fatal("the answer does not take the quick path; the test would prove nothing")
	}
	st, err := h.act(1, "answer", body)
	if err != nil {
		t.Fatal(err)
	}
	var pays [][]byte
	for _, e := range st.Events {
		if e.Type == "commitment.pending" {
			pays = append(pays, e.Payload)
		}
	}
	if len(pays) != 2 || len(h.m.pending) != 2 {
		t.Fatalf("%d pending events, %d pending promises", len(pays), len(h.m.pending))
	}
	for i, c := range h.m.pending {
		q, _, ok := commitment.ScanQuick([]byte(subs[i]), 0)
		if !ok {
			t.Fatalf("commitment %d: not quick", i)
		}
		if !bytes.Equal(c.raw, q.Forms.Signed) || !bytes.Equal(c.condRaw, q.Forms.Condition) {
			t.Fatalf("commitment %d: keeps %s / %s, want %s / %s", i, c.raw, c.condRaw, q.Forms.Signed, q.Forms.Condition)
		}
		if &c.raw[0] != &pays[i][len(pendingHead)] || cap(c.raw) != len(c.raw) || cap(c.condRaw) != len(c.condRaw) {
			t.Fatalf("commitment %d: its signed form is not a full slice of its pending payload", i)
		}
	}
	// Every scratch the pool hands back is scribbled over (its forms' room and lists).
	for i := 0; i < 8; i++ {
		sc := scratches.Get().(*quickScratch)
		room := sc.comForms[:cap(sc.comForms)]
		for j := range room {
			room[j] = 'X'
		}
		defer scratches.Put(sc)
	}
	h.next() // the seal
	cs := h.m.Commitments()
	if len(cs) != 2 || string(cs[1].Condition) != cond {
		t.Fatalf("sealed %+v", cs)
	}
	var sealed int
	for _, e := range h.steps[len(h.steps)-1].Events {
		if e.Type == "commitment.sealed" && e.Visibility == visSealed {
			if !bytes.Contains(e.Payload, []byte(`"commitment":`+string(mustCanon(t, subs[sealed])))) {
				t.Fatalf("sealed payload %s does not carry the signed form %s", e.Payload, subs[sealed])
			}
			sealed++
		}
	}
	if sealed != 2 {
		t.Fatalf("%d sealed payloads", sealed)
	}
}

// mustCanon is the signed form (JCS, sig included) of a commitment the quick path reads.
func mustCanon(t *testing.T, raw string) []byte {
	t.Helper()
	q, _, ok := commitment.ScanQuick([]byte(raw), 0)
	if !ok {
		t.Fatalf("not quick: %s", raw)
	}
	return q.Forms.Signed
}
