package commitment

import (
	"strings"
	"testing"
)

// TestSchema: each §7.1 rule refused on its own, with its code; the signature is valid each
// time, so the refusal is the schema's.
func TestSchema(t *testing.T) {
	base := baseObj()
	sub := func(old, new string) string {
		if !strings.Contains(base, old) {
			t.Fatalf("base lacks %s", old)
		}
		return strings.Replace(base, old, new, 1)
	}
	cases := []struct {
		what, obj, code string
	}{
		{"v 2", sub(`"v":1`, `"v":2`), CodeBadCommitment},
		{"v missing", sub(`"v":1,`, ``), CodeBadCommitment},
		{"v string", sub(`"v":1`, `"v":"1"`), CodeBadCommitment},
		{"round form", sub(`"T-7"`, `"round-7"`), CodeBadCommitment},
		{"round empty n", sub(`"T-7"`, `"T-"`), CodeBadCommitment},
		{"turn 0", sub(`"turn":1`, `"turn":0`), CodeBadCommitment},
		{"seq 0", sub(`"seq":1`, `"seq":0`), CodeBadCommitment},
		{"seq negative", sub(`"seq":1`, `"seq":-3`), CodeBadCommitment},
		{"seq fractional", sub(`"seq":1`, `"seq":1.5`), CodeBadCommitment},
		{"seq null", sub(`"seq":1`, `"seq":null`), CodeBadCommitment},
		{"payer empty", sub(`"payer":"`+alice+`"`, `"payer":""`), CodeBadCommitment},
		{"payee is payer", sub(`"payee":"`+bob+`"`, `"payee":"`+alice+`"`), CodeBadCommitment},
		{"payee number", sub(`"payee":"`+bob+`"`, `"payee":2`), CodeBadCommitment},
		{"amount below 1 CCD", sub(`40000000`, `999999`), CodeBadCommitment},
		{"amount fractional", sub(`40000000`, `40000000.5`), CodeBadCommitment},
		{"amount string", sub(`40000000`, `"40000000"`), CodeBadCommitment},
		{"due before turn", sub(`"turn":1`, `"turn":3`), CodeBadCommitment},
		{"pair form", sub(`"due":2`, `"due":2,"pair":"deal:7C1E9A20"`), CodeBadCommitment},
		{"pair short", sub(`"due":2`, `"due":2,"pair":"deal:7c1e"`), CodeBadCommitment},
		{"unknown member", sub(`"due":2`, `"due":2,"memo":"hi"`), CodeBadCommitment},
		{"ref not allowed", sub(`"due":2`, `"due":2,"ref":"a"`), CodeBadCommitment},
		{"condition missing", sub(`"condition":{"always":true},`, ``), CodeBadCommitment},
		{"condition bad", sub(`{"always":true}`, `{"always":false}`), CodeBadCondition},
		{"survives after due", sub(`{"always":true}`, `{"survives":["`+carol+`",3]}`), CodeBadCondition},
		{"not an object", `[1]`, CodeBadCommitment},
	}
	for _, c := range cases {
		var raw []byte
		if strings.HasPrefix(c.obj, "{") {
			raw = signed(t, c.obj, testKey("alice"))
		} else {
			raw = []byte(c.obj)
		}
		_, _, err := Parse(raw)
		if Code(err) != c.code {
			t.Errorf("%s: err = %v, want %s", c.what, err, c.code)
		}
	}
	// Signature form problems are invalid_signature.
	for what, raw := range map[string]string{
		"missing sig":   base,
		"sig not text":  base[:len(base)-1] + `,"sig":"abc"}`,
		"sig upper hex": base[:len(base)-1] + `,"sig":"ed25519:` + strings.Repeat("AB", 64) + `"}`,
		"sig short":     base[:len(base)-1] + `,"sig":"ed25519:` + strings.Repeat("ab", 63) + `"}`,
	} {
		if _, _, err := Parse([]byte(raw)); Code(err) != CodeInvalidSignature {
			t.Errorf("%s: err = %v, want invalid_signature", what, err)
		}
	}
	// Accepted: pair present, survives n == due, whitespace and member order free.
	ok := sub(`{"always":true}`, `{"survives":["`+carol+`",2]}`)
	ok = strings.Replace(ok, `"due":2`, `"due":2, "pair":"deal:0a1b2c3d"`, 1)
	c, cb, err := Parse(signed(t, ok, testKey("alice")))
	if err != nil || c.Pair != "deal:0a1b2c3d" || c.Condition.N != 2 {
		t.Fatalf("accepted case: %v %+v", err, c)
	}
	// The same object with members reordered and spaced has the same id.
	reordered := `{ "due":2, "pair":"deal:0a1b2c3d", "condition":{"survives":["` + carol + `",2]}, "amount":40000000, "payee":"` + bob + `", "payer":"` + alice + `", "seq":1, "turn":1, "round":"T-7", "v":1 }`
	_, cb2, err := Parse(signed(t, reordered, testKey("alice")))
	if err != nil || cb2.ID != cb.ID {
		t.Fatalf("reordered: %v, id %s vs %s", err, cb2.ID, cb.ID)
	}
}
