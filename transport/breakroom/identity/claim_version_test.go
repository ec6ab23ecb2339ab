package identity

import (
	"encoding/json"
	"testing"
)

// TestHandleClaimWrongVersionIsBadVersion: POST /v0/handle refuses any v but the integer 0 with
// bad_version, as the playing doors refuse it (games/breakroom/wire: 0.0, "0", -0, 1e0 and null
// are each bad_version there), and the refusal spends nothing.
func TestHandleClaimWrongVersionIsBadVersion(t *testing.T) {
	r := newRig(t)
	k := newKey(61)
	r.recs.set(k.pub, eligible)
	for _, v := range []string{`0.0`, `"0"`, `-0`, `1e0`, `null`, `1`} {
		nonce := r.nonce()
		b, _ := json.Marshal(r.claimBody(k, "vtest", nonce))
		raw := `{"v":` + v + `,` + string(b[1:])
		st, m := r.json("POST", "/v0/handle", nil, raw)
		if st != 400 || m["code"] != "bad_version" {
			t.Fatalf("v %s: %d %v", v, st, m)
		}
	}
	if st, m := r.claim(k, "vtest"); st != 200 {
		t.Fatalf("a claim with v absent after the refusals: %d %v", st, m)
	}
}
