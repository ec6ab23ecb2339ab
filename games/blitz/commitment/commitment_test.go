package commitment

import (
	"crypto/ed25519"
	"strings"
	"testing"

	"arena/games/canon"
)

// The §7.1 example with real agent ids and a signature.
const exampleObj = `{ "v": 1, "round": "T-9931", "turn": 3, "seq": 7, "payer": "` + alice + `", "payee": "` + bob + `", "amount": 40000000, "condition": { "backs": ["` + carol + `", "` + alice + `", 40000000] }, "due": 5, "pair": "deal:7c1e9a20" }`

func TestParseWorkedExample(t *testing.T) {
	key := testKey("alice")
	raw := signed(t, exampleObj, key)
	c, cb, err := Parse(raw)
	if err != nil {
		t.Fatalf("Parse: %v", err)
	}
	if c.V != 1 || c.Round != "T-9931" || c.Turn != 3 || c.Seq != 7 || c.Payer != alice || c.Payee != bob ||
		c.Amount != 40_000_000 || c.Due != 5 || c.Pair != "deal:7c1e9a20" {
		t.Fatalf("fields: %+v", c)
	}
	if c.Condition.Op != OpBacks || c.Condition.X != carol || c.Condition.Y != alice || c.Condition.Min != 40_000_000 {
		t.Fatalf("condition: %+v", c.Condition)
	}
	wantBytes := `{"amount":40000000,"condition":{"backs":["` + carol + `","` + alice + `",40000000]},"due":5,"pair":"deal:7c1e9a20","payee":"` + bob + `","payer":"` + alice + `","round":"T-9931","seq":7,"turn":3,"v":1}`
	if string(cb.Bytes) != wantBytes {
		t.Fatalf("canonical bytes:\n got %s\nwant %s", cb.Bytes, wantBytes)
	}
	if cb.ID != canon.ID([]byte(wantBytes)) || !strings.HasPrefix(cb.ID, "sha256:") || len(cb.ID) != 71 {
		t.Fatalf("id %s", cb.ID)
	}
	if err := Verify(cb, c.Sig, key.Public().(ed25519.PublicKey)); err != nil {
		t.Fatalf("Verify: %v", err)
	}
	if err := Verify(cb, c.Sig, testKey("bob").Public().(ed25519.PublicKey)); Code(err) != CodeInvalidSignature {
		t.Fatalf("Verify with another key: %v", err)
	}
}
