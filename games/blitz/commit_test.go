package blitz

import (
	"crypto/ed25519"
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"arena/games"
	"arena/games/canon"

	"github.com/gowebpki/jcs"
)

// byoSetup: seat 1 and 2 are BYO agents that sign their own commitments.
func byoSetup() games.Setup {
	s := testSetup("blitz", 6, `{"mole":6,"task":{"kind":"broker","named":[]}}`)
	for i := 0; i < 2; i++ {
		seatOpts(&s.Seats[i], func(o *SeatOptions) { o.Walkin, o.Kind = false, "byo" })
	}
	return s
}

// signed builds seat's §7.1 object from raw JSON members (no sig) and signs it.
func (h *harness) signed(seat int, members string) string {
	h.t.Helper()
	raw := []byte("{" + members + "}")
	// plain JCS, not canon: hostile objects get a signature valid over what JCS makes of them
	c, err := jcs.Transform(raw)
	if err != nil { // not even JCS takes it (a duplicate member): any signature will do
		return "{" + members + `,"sig":"ed25519:` + strings.Repeat("00", 64) + `"}`
	}
	d := canon.Digest(c)
	sig := ed25519.Sign(h.keys.priv[seat], d[:])
	return "{" + members + `,"sig":"` + canon.FormatSig(sig) + `"}`
}

func base(turn, seq int, payer, payee int, amount int64, due int) string {
	return fmt.Sprintf(`"v":1,"round":"T-7","turn":%d,"seq":%d,"payer":%q,"payee":%q,"amount":%d,"condition":{"always":true},"due":%d`,
		turn, seq, agentID(payer), agentID(payee), amount, due)
}

func TestSignedCommitmentSeals(t *testing.T) {
	h := newHarness(t, byoSetup())
	h.to(1, "commit", 0)
	h.mustNoDrop(1, commitBody(h.signed(1, base(1, 1, 1, 2, 10*ccd, 2))))
	h.next()
	cs := h.m.Commitments()
	if len(cs) != 1 || cs[0].Payer != 1 || cs[0].Payee != 2 || cs[0].Lock != 5*ccd {
		t.Fatalf("sealed %+v", cs)
	}
	raw := []byte("{" + base(1, 1, 1, 2, 10*ccd, 2) + "}")
	c, _ := canon.Canonical(raw)
	if cs[0].ID != canon.ID(c) {
		t.Fatalf("id %s, want sha256 of JCS without sig %s", cs[0].ID, canon.ID(c))
	}
}

// Hostile commitments: each refused, never sealed.
func TestHostileCommitmentsRefused(t *testing.T) {
	good := base(1, 1, 1, 2, 10*ccd, 2)
	cases := []struct {
		name, body, code string
	}{
		{"case-variant member", `"Amount":99000000,` + good, CodeBadCommitment},
		{"long-s folded seq", `"\u017feq":9,` + good, CodeBadCommitment},
		{"duplicate member", `"amount":1000000,` + good, CodeBadCommitment},
		{"integer above 2^53-1", strings.Replace(good, `"amount":10000000`, `"amount":9007199254740993`, 1), CodeBadCommitment},
		{"unknown member", `"memo":"x",` + good, CodeBadCommitment},
		{"amount below 1 CCD", strings.Replace(good, `"amount":10000000`, `"amount":999999`, 1), CodeBadCommitment},
		{"due past the last turn", strings.Replace(good, `"due":2`, `"due":6`, 1), CodeBadCommitment},
		{"payer not the sender", strings.Replace(good, agentID(1), agentID(3), 1), CodeBadCommitment},
		{"payee is the payer", strings.Replace(good, `"payee":"`+agentID(2), `"payee":"`+agentID(1), 1), CodeBadCommitment},
		{"wrong round", strings.Replace(good, `"T-7"`, `"T-8"`, 1), CodeBadCommitment},
		{"bad condition op", strings.Replace(good, `{"always":true}`, `{"sometimes":true}`, 1), CodeBadCondition},
		{"and with three operands", strings.Replace(good, `{"always":true}`, `{"and":[{"always":true},{"always":true},{"always":true}]}`, 1), CodeBadCondition},
		{"nesting depth 3", strings.Replace(good, `{"always":true}`, `{"not":{"not":{"not":{"always":true}}}}`, 1), CodeBadCondition},
		{"always false", strings.Replace(good, `{"always":true}`, `{"always":false}`, 1), CodeBadCondition},
		{"survives after due", strings.Replace(good, `{"always":true}`, `{"survives":["`+agentID(3)+`",3]}`, 1), CodeBadCondition},
		{"backs unknown agent", strings.Replace(good, `{"always":true}`, `{"backs":["ccd:x","`+agentID(3)+`"]}`, 1), CodeBadCondition},
		{"two-member condition", strings.Replace(good, `{"always":true}`, `{"always":true,"not":{"always":true}}`, 1), CodeBadCondition},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			h := newHarness(t, byoSetup())
			h.to(1, "commit", 0)
			body := h.signed(1, c.body)
			d := h.answer(1, commitBody(body))
			if len(d) != 1 || d[0].Code != c.code {
				t.Fatalf("dropped %+v, want one %s", d, c.code)
			}
			h.next()
			if n := len(h.m.Commitments()); n != 0 {
				t.Fatalf("%d sealed", n)
			}
			if rj := h.events("commitment.rejected"); len(rj) != 1 || rj[0].Visibility != "private:1" {
				t.Fatalf("rejected events %+v", rj)
			}
		})
	}
}

func TestSignatureChecks(t *testing.T) {
	h := newHarness(t, byoSetup())
	h.to(1, "commit", 0)
	// signed by seat 2's key, submitted by seat 1
	other := newTestKeys(2)
	raw := []byte("{" + base(1, 1, 1, 2, 10*ccd, 2) + "}")
	c, _ := canon.Canonical(raw)
	d := canon.Digest(c)
	bad := "{" + base(1, 1, 1, 2, 10*ccd, 2) + `,"sig":"` + canon.FormatSig(ed25519.Sign(other.priv[2], d[:])) + `"}`
	if dr := h.answer(1, commitBody(bad)); len(dr) != 1 || dr[0].Code != CodeInvalidSignature {
		t.Fatalf("dropped %+v", dr)
	}
	// the small-order identity key "verifies" sig 0x01‖0^63 under crypto/ed25519: refused here
	h2 := newHarness(t, byoSetup())
	ident := make([]byte, 32)
	ident[0] = 1
	h2.keys.pub[1] = ident
	h2.to(1, "commit", 0)
	sig := make([]byte, 64)
	sig[0] = 1
	forged := "{" + base(1, 1, 1, 2, 10*ccd, 2) + `,"sig":"` + canon.FormatSig(sig) + `"}`
	if !ed25519.Verify(ident, d[:], sig) {
		t.Log("note: this Go's crypto/ed25519 no longer accepts the identity-key forgery")
	}
	if dr := h2.answer(1, commitBody(forged)); len(dr) != 1 || dr[0].Code != CodeInvalidSignature {
		t.Fatalf("dropped %+v", dr)
	}
}

func TestSeqStrictlyIncreasing(t *testing.T) {
	h := newHarness(t, byoSetup())
	h.to(1, "commit", 0)
	h.mustNoDrop(1, commitBody(h.signed(1, base(1, 5, 1, 2, 2*ccd, 2)), h.signed(1, base(1, 5, 1, 3, 2*ccd, 2)),
		h.signed(1, base(1, 4, 1, 4, 2*ccd, 2)), h.signed(1, base(1, 6, 1, 4, 2*ccd, 2))))
	h.next()
	rj := h.m.Rejections()
	if len(rj) != 2 || rj[0].Code != CodeBadSeq || rj[1].Code != CodeBadSeq || rj[0].Index != 1 || rj[1].Index != 2 {
		t.Fatalf("rejections %+v, want seq 5 reused and seq 4 decreasing refused", rj)
	}
	if n := len(h.m.Commitments()); n != 2 {
		t.Fatalf("sealed %d, want 2", n)
	}
}

func TestSealChecks(t *testing.T) {
	h := newHarness(t, testSetup("blitz", 6, `{"mole":6,"task":{"kind":"broker","named":[]}}`))
	h.to(1, "commit", 0)
	// seat 1: 100 CCD collateral. 150 locks 75; the next 60 needs 30 > 25 unlocked.
	h.answer(1, commitBody(
		`{"ref":"a","payee":2,"amount":150000000,"condition":{"always":true},"due":5}`,
		`{"ref":"b","payee":3,"amount":60000000,"condition":{"always":true},"due":5}`,
		`{"ref":"c","payee":3,"amount":2000000,"condition":{"always":true},"due":5}`,
		`{"ref":"d","payee":3,"amount":2000000,"condition":{"always":true},"due":5}`,
		`{"ref":"e","payee":3,"amount":2000000,"condition":{"always":true},"due":5}`))
	h.next()
	codes := map[string]string{}
	for _, r := range h.m.Rejections() {
		codes[r.Ref+fmt.Sprint(r.Index)] = r.Code
	}
	if codes["b1"] != CodeInsufficientUnlocked || codes["4"] != CodeTooManySubmissions {
		t.Fatalf("rejections %+v", h.m.Rejections())
	}
	h.to(2, "commit", 0)
	h.mustNoDrop(1, commitBody(
		`{"ref":"f","payee":3,"amount":2000000,"condition":{"always":true},"due":5}`,
		`{"ref":"g","payee":3,"amount":2000000,"condition":{"always":true},"due":5}`))
	h.next()
	last := h.m.Rejections()[len(h.m.Rejections())-1]
	if last.Ref != "g" || last.Code != CodeTooManyOpen {
		t.Fatalf("want g too_many_open, got %+v", last)
	}
}

func TestBudgetCheck(t *testing.T) {
	s := testSetup("blitz", 6, `{"mole":6,"task":{"kind":"broker","named":[]}}`)
	// entry 100: bounty 5, collateral 80 (80%), budget 15 → three fees
	s.Seats[0].Entry = 100 * ccd
	seatOpts(&s.Seats[0], func(o *SeatOptions) { o.Collateral = 80 * ccd })
	h := newHarness(t, s)
	for turn := 1; turn <= 2; turn++ {
		h.to(turn, "commit", 0)
		h.mustNoDrop(1, commitBody(`{"payee":2,"amount":1000000,"condition":{"always":true},"due":5}`, `{"payee":3,"amount":1000000,"condition":{"always":true},"due":5}`))
		h.next()
	}
	rj := h.m.Rejections()
	if len(rj) != 1 || rj[0].Code != CodeInsufficientBudget || rj[0].Turn != 2 {
		t.Fatalf("rejections %+v", rj)
	}
	if a := h.account(1); a.Budget != 0 {
		t.Fatalf("budget %d", a.Budget)
	}
}

func TestPairs(t *testing.T) {
	h := newHarness(t, testSetup("blitz", 6, `{"mole":6,"task":{"kind":"pair","named":[1,2]}}`))
	h.to(1, "commit", 0)
	h.mustNoDrop(1, commitBody(`{"ref":"p1","payee":2,"amount":10000000,"condition":{"always":true},"due":2,"pair":"deal:0000000a"}`,
		`{"ref":"u1","payee":3,"amount":10000000,"condition":{"always":true},"due":2,"pair":"deal:0000000b"}`))
	h.mustNoDrop(2, commitBody(`{"ref":"p2","payee":1,"amount":1000000,"condition":{"always":true},"due":2,"pair":"deal:0000000a"}`,
		`{"ref":"u2","payee":3,"amount":10000000,"condition":{"always":true},"due":2,"pair":"deal:0000000b"}`))
	// seat 4 pairs with 5 but seat 5 cannot afford its side: both refused
	h.mustNoDrop(4, commitBody(`{"ref":"q4","payee":5,"amount":10000000,"condition":{"always":true},"due":2,"pair":"deal:0000000c"}`))
	h.mustNoDrop(5, commitBody(`{"ref":"q5","payee":4,"amount":500000000,"condition":{"always":true},"due":2,"pair":"deal:0000000c"}`))
	h.next()
	sealed := map[string]bool{}
	for _, c := range h.m.Commitments() {
		sealed[c.Ref] = true
	}
	if !sealed["p1"] || !sealed["p2"] || len(sealed) != 2 {
		t.Fatalf("sealed %v (terms are not checked for reciprocity: 10 vs 1 CCD still seals)", sealed)
	}
	codes := map[string]string{}
	for _, r := range h.m.Rejections() {
		codes[r.Ref] = r.Code
	}
	want := map[string]string{"u1": CodePairUnmatched, "u2": CodePairUnmatched, "q4": CodePairUnmatched, "q5": CodeInsufficientUnlocked}
	for k, v := range want {
		if codes[k] != v {
			t.Fatalf("rejections %v, want %v", codes, want)
		}
	}
	// pair task: the named seats sealed with each other once (a pair counts once)
	if r := h.m.Rungs(); len(r) != 1 || r[0] != 1 {
		t.Fatalf("rungs %v", r)
	}
	// the pair seals in sealed order, together
	cs := h.m.Commitments()
	if cs[0].Ref != "p1" || cs[1].Ref != "p2" {
		t.Fatalf("order %v %v", cs[0].Ref, cs[1].Ref)
	}
}

func TestVeto(t *testing.T) {
	s := testSetup("blitz", 6, `{"mole":3,"task":{"kind":"veto","named":[]}}`)
	seatOpts(&s.Seats[0], func(o *SeatOptions) { o.Human = true })
	seatOpts(&s.Seats[3], func(o *SeatOptions) { o.Walkin, o.Kind = false, "byo" })
	h := newHarness(t, s)
	h.to(1, "talk", 1)
	if _, err := h.act(1, "veto", `{"ref":"v"}`); !isCode(err, CodeNotNow, true) {
		t.Fatalf("veto on talk: %v", err)
	}
	h.to(1, "commit", 0)
	h.mustNoDrop(1, commitBody(`{"ref":"v","payee":3,"amount":10000000,"condition":{"always":true},"due":2}`, `{"ref":"w","payee":2,"amount":10000000,"condition":{"always":true},"due":2}`))
	if _, err := h.act(1, "veto", `{"ref":"nope"}`); !isCode(err, CodeBadTarget, false) {
		t.Fatalf("veto unknown: %v", err)
	}
	if _, err := h.act(2, "veto", `{"ref":"v"}`); !isCode(err, CodeBadTarget, false) {
		t.Fatalf("veto on another seat's pending: %v", err)
	}
	if _, err := h.act(4, "veto", `{"ref":"v"}`); !isCode(err, CodeRefused, false) {
		t.Fatalf("veto by a seat with no human: %v", err)
	}
	if _, err := h.act(1, "veto", `{"ref":"v"}`); err != nil {
		t.Fatal(err)
	}
	if _, err := h.act(1, "veto", `{"ref":"w"}`); !isCode(err, CodeLeverSpent, false) {
		t.Fatalf("second veto: %v", err)
	}
	h.next()
	cs := h.m.Commitments()
	if len(cs) != 1 || cs[0].Ref != "w" {
		t.Fatalf("sealed %+v", cs)
	}
	if a := h.account(1); a.Budget != 85*ccd {
		t.Fatalf("budget %d: a veto costs no fee", a.Budget)
	}
	if len(h.events("commitment.vetoed")) != 1 || h.events("commitment.vetoed")[0].Visibility != "private:1" {
		t.Fatal("vetoed event")
	}
	// veto task rung 1: the veto fell on a pending commitment naming the mole (seat 3) payee
	if r := h.m.Rungs(); len(r) != 1 || r[0] != 1 {
		t.Fatalf("rungs %v", r)
	}
}

func isCode(err error, code string, retry bool) bool {
	ge, ok := err.(*games.Error)
	return ok && ge.Code == code && ge.Retry == retry
}

func TestWalkinFillHonouredRef(t *testing.T) {
	h := newHarness(t, testSetup("blitz", 6, `{"mole":6,"task":{"kind":"broker","named":[]}}`))
	h.to(1, "commit", 0)
	h.mustNoDrop(1, commitBody(`{"ref":"a","payee":2,"chips":4,"condition":{"always":true},"due":1}`))
	h.mustNoDrop(2, commitBody(`{"ref":"b","payee":1,"amount":3000000,"condition":{"honoured":"ref:a"},"due":1}`))
	h.next()
	a, b := h.record("a"), h.record("b")
	if a.Amount != 4*ccd || a.Seq != 1 || a.Outcome != "honoured" {
		t.Fatalf("a %+v", a)
	}
	var cnd map[string]string
	_ = json.Unmarshal(b.Condition, &cnd)
	if cnd["honoured"] != a.ID || b.Outcome != "honoured" {
		t.Fatalf("b %+v", b)
	}
	// unknown ref and bad payee are dropped with a reason, the rest goes through
	h.to(2, "commit", 0)
	d := h.answer(1, commitBody(`{"ref":"c","payee":9,"chips":1,"condition":{"always":true},"due":2}`, `{"ref":"d","payee":2,"chips":1,"condition":{"honoured":"ref:zz"},"due":2}`, `{"ref":"e","payee":"`+agentID(3)+`","chips":1,"condition":{"always":true},"due":2}`))
	if len(d) != 2 || d[0].Ref != "c" || d[1].Code != CodeBadCondition {
		t.Fatalf("dropped %+v", d)
	}
	h.next()
	if e := h.record("e"); e.Payee != 3 || e.Seq != 2 || e.Due != 2 {
		t.Fatalf("e %+v", e)
	}
}
