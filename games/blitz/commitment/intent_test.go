package commitment

import (
	"crypto/ed25519"
	"encoding/json"
	"strings"
	"testing"

	"arena/games/canon"
)

func fillCtx() FillContext {
	seats := map[int]string{1: alice, 2: bob, 3: carol}
	return FillContext{
		Round: "T-1", Turn: 2, Seq: 4, Payer: alice,
		Agent: func(s int) (string, bool) { id, ok := seats[s]; return id, ok },
		Ref: func(r string) (string, bool) {
			if r == "a" {
				return id1, true
			}
			return "", false
		},
	}
}

func signWith(key ed25519.PrivateKey) func([]byte) ([]byte, error) {
	return func(d []byte) ([]byte, error) { return ed25519.Sign(key, d), nil }
}

func TestIntentFillWorked(t *testing.T) {
	raw := `{"ref":"b","payee":2,"chips":40,"condition":{"and":[{"backs":[3,1,5000000]},{"honoured":"ref:a"}]},"due":3,"pair":"deal:00ff00ff"}`
	in, err := ParseIntent(json.RawMessage(raw))
	if err != nil {
		t.Fatalf("ParseIntent: %v", err)
	}
	if in.Ref != "b" || in.PayeeSeat != 2 || in.Amount != 40_000_000 || !in.Chips || in.Due != 3 {
		t.Fatalf("intent: %+v", in)
	}
	key := testKey("walkin-1")
	c, cb, signedRaw, err := Fill(in, fillCtx(), signWith(key))
	if err != nil {
		t.Fatalf("Fill: %v", err)
	}
	want := Commitment{V: 1, Round: "T-1", Turn: 2, Seq: 4, Payer: alice, Payee: bob, Amount: 40_000_000, Due: 3, Pair: "deal:00ff00ff"}
	if c.V != want.V || c.Round != want.Round || c.Turn != want.Turn || c.Seq != want.Seq || c.Payer != want.Payer ||
		c.Payee != want.Payee || c.Amount != want.Amount || c.Due != want.Due || c.Pair != want.Pair {
		t.Fatalf("filled %+v", c)
	}
	a := c.Condition.Args
	if c.Condition.Op != OpAnd || a[0].X != carol || a[0].Y != alice || a[0].Min != 5_000_000 || a[1].ID != id1 {
		t.Fatalf("condition %+v", c.Condition)
	}
	wantBytes := `{"amount":40000000,"condition":{"and":[{"backs":["` + carol + `","` + alice + `",5000000]},{"honoured":"` + id1 + `"}]},"due":3,"pair":"deal:00ff00ff","payee":"` + bob + `","payer":"` + alice + `","round":"T-1","seq":4,"turn":2,"v":1}`
	if string(cb.Bytes) != wantBytes {
		t.Fatalf("canonical:\n got %s\nwant %s", cb.Bytes, wantBytes)
	}
	if strings.Contains(string(signedRaw), "ref") {
		t.Fatalf("ref leaked into the signed object: %s", signedRaw)
	}
	// The signed bytes parse and verify like any A2A commitment, to the same id.
	c2, cb2, err := Parse(signedRaw)
	if err != nil || cb2.ID != cb.ID || c2.Sig != c.Sig {
		t.Fatalf("re-parse: %v", err)
	}
	if err := Verify(cb2, c2.Sig, key.Public().(ed25519.PublicKey)); err != nil {
		t.Fatalf("verify: %v", err)
	}
	// Deterministic: the same intent and context give the same bytes.
	_, _, again, _ := Fill(in, fillCtx(), signWith(key))
	if string(again) != string(signedRaw) {
		t.Fatal("Fill not deterministic")
	}
}

func TestIntentAgentIDsAndAmount(t *testing.T) {
	raw := `{"payee":"` + carol + `","amount":1000000,"condition":{"survives":["` + bob + `",2]},"due":2}`
	in, err := ParseIntent(json.RawMessage(raw))
	if err != nil || in.Payee != carol || in.Amount != 1_000_000 || in.Chips {
		t.Fatalf("%+v %v", in, err)
	}
	c, _, _, err := Fill(in, fillCtx(), signWith(testKey("w")))
	if err != nil || c.Payee != carol || c.Condition.X != bob {
		t.Fatalf("Fill: %+v %v", c, err)
	}
}

func TestIntentRefusals(t *testing.T) {
	cases := map[string]string{
		`{"payee":2,"amount":1000000,"chips":1,"condition":{"always":true},"due":2}`:        CodeBadCommitment, // both
		`{"payee":2,"condition":{"always":true},"due":2}`:                                   CodeBadCommitment, // neither
		`{"payee":2,"chips":0,"condition":{"always":true},"due":2}`:                         CodeBadCommitment,
		`{"payee":2,"chips":9007199255,"condition":{"always":true},"due":2}`:                CodeBadCommitment, // overflows 2^53
		`{"payee":2,"chips":1.5,"condition":{"always":true},"due":2}`:                       CodeBadCommitment,
		`{"payee":2,"amount":999999,"condition":{"always":true},"due":2}`:                   CodeBadCommitment,
		`{"payee":0,"chips":1,"condition":{"always":true},"due":2}`:                         CodeBadCommitment,
		`{"payee":true,"chips":1,"condition":{"always":true},"due":2}`:                      CodeBadCommitment,
		`{"chips":1,"condition":{"always":true},"due":2}`:                                   CodeBadCommitment,
		`{"payee":2,"chips":1,"due":2}`:                                                     CodeBadCommitment,
		`{"payee":2,"chips":1,"condition":{"always":true}}`:                                 CodeBadCommitment,
		`{"payee":2,"chips":1,"condition":{"always":true},"due":2,"seq":5}`:                 CodeBadCommitment, // arena fills seq
		`{"payee":2,"chips":1,"condition":{"always":true},"due":2,"sig":"x"}`:               CodeBadCommitment,
		`{"payee":2,"chips":1,"condition":{"always":true},"due":2,"ref":""}`:                CodeBadCommitment,
		`{"payee":2,"chips":1,"condition":{"always":true},"due":2,"Due":3}`:                 CodeBadCommitment,
		`{"payee":2,"chips":1,"condition":{"always":true},"due":2,"pair":"x"}`:              CodeBadCommitment,
		`{"payee":2,"chips":1,"condition":{"backs":[1,1]},"due":2}`:                         CodeBadCondition,
		`{"payee":2,"chips":1,"condition":{"backs":[0,1]},"due":2}`:                         CodeBadCondition,
		`{"payee":2,"chips":1,"condition":{"honoured":"ref:"},"due":2}`:                     CodeBadCondition,
		`{"payee":2,"chips":1,"condition":{"not":{"not":{"not":{"always":true}}}},"due":2}`: CodeBadCondition,
	}
	for raw, code := range cases {
		if _, err := ParseIntent(json.RawMessage(raw)); Code(err) != code {
			t.Errorf("%s: err = %v, want %s", raw, err, code)
		}
	}
	// Resolution failures at Fill.
	fills := map[string]string{
		`{"payee":9,"chips":1,"condition":{"always":true},"due":2}`:               CodeBadCommitment,
		`{"payee":2,"chips":1,"condition":{"backs":[9,1]},"due":2}`:               CodeBadCondition,
		`{"payee":2,"chips":1,"condition":{"honoured":"ref:zz"},"due":2}`:         CodeBadCondition,
		`{"payee":2,"chips":1,"condition":{"backs":[1,"` + alice + `"]},"due":2}`: CodeBadCondition,  // same agent
		`{"payee":1,"chips":1,"condition":{"always":true},"due":2}`:               CodeBadCommitment, // payee is payer
		`{"payee":2,"chips":1,"condition":{"always":true},"due":1}`:               CodeBadCommitment, // due before turn 2
		`{"payee":2,"chips":1,"condition":{"survives":[3,3]},"due":2}`:            CodeBadCondition,  // n after due
	}
	for raw, code := range fills {
		in, err := ParseIntent(json.RawMessage(raw))
		if err != nil {
			t.Fatalf("%s: ParseIntent %v", raw, err)
		}
		if _, _, _, err := Fill(in, fillCtx(), signWith(testKey("w"))); Code(err) != code {
			t.Errorf("Fill %s: err = %v, want %s", raw, err, code)
		}
	}
	in, _ := ParseIntent(json.RawMessage(`{"payee":2,"chips":1,"condition":{"always":true},"due":2}`))
	failing := func([]byte) ([]byte, error) { return nil, canon.ErrSigFormat }
	if _, _, _, err := Fill(in, fillCtx(), failing); Code(err) != CodeInvalidSignature {
		t.Errorf("failing signer: %v", err)
	}
}
