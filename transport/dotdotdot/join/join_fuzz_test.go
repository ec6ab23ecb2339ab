package join

import (
	"strings"
	"testing"
)

// FuzzJoinDoor: any body on any of the door's routes is answered (a seat, a session or a
// refusal with a code), never a panic or a 500.
func FuzzJoinDoor(f *testing.F) {
	for _, s := range []string{
		`{"agent":"` + agentID + `","table":"practice","issued_at":"2026-09-09T13:59:55Z","nonce":"nonce-0000000000001","sig":"ed25519:` + strings.Repeat("0", 128) + `"}`,
		`{"agent":"x","table":"open","issued_at":"2026-09-09T14:00:00Z","nonce":"n","sig":"ed25519:zz"}`,
		`{"agent":"` + agentID + `"}`, `{"seat":1}`, `{"text":"hi"}`, `[]`, `null`, `{"a":1,"A":2}`, ``,
	} {
		f.Add(s, uint8(0))
		f.Add(s, uint8(3))
	}
	v := newEnv(f)
	routes := []string{"/v1/join", "/v1/session/challenge", "/v1/session", "/v1/rounds/T-5/accuse", "/v1/rounds/T-5/veto"}
	f.Fuzz(func(t *testing.T, body string, r uint8) {
		path := routes[int(r)%len(routes)]
		code, resp := v.do("POST", path, []byte(body), map[string]string{"Authorization": "Bearer s_fuzz"})
		if code >= 500 {
			t.Fatalf("%s %q: %d %v", path, body, code, resp)
		}
		if code != 200 && (resp["code"] == nil || resp["code"] == "") {
			t.Fatalf("%s %q: %d without a code: %v", path, body, code, resp)
		}
	})
}
