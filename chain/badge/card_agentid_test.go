package badge

import (
	"strings"
	"testing"
)

// TestCardAgentIDForms: a token id up to 2^53−1 is written as a JSON number, one above as a
// decimal string, and both read back to the same u64; the other spellings are refused.
func TestCardAgentIDForms(t *testing.T) {
	for _, tc := range []struct {
		tok  uint64
		want string
	}{
		{484, `"agentId":484,`},
		{1<<53 - 1, `"agentId":9007199254740991,`},
		{1 << 53, `"agentId":"9007199254740992",`},
		{18446744073709551615, `"agentId":"18446744073709551615",`},
	} {
		spec := specFor(t)
		spec.Agent = NewAgentID(Testnet, TestnetRegistry, tc.tok)
		b, err := WriteCard(spec)
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(string(b), tc.want) {
			t.Errorf("token %d: card lacks %s:\n%s", tc.tok, tc.want, b)
		}
		c, err := ParseCard(b)
		if err != nil {
			t.Fatalf("token %d: %v", tc.tok, err)
		}
		if len(c.Registrations) != 1 || c.Registrations[0].AgentID != tc.tok || c.Registrations[0].NoAgentID {
			t.Errorf("token %d: read back %+v", tc.tok, c.Registrations)
		}
	}
	spec := specFor(t)
	good, err := WriteCard(spec)
	if err != nil {
		t.Fatal(err)
	}
	at := strings.Index(string(good), `"agentId":`)
	end := at + strings.IndexByte(string(good[at:]), ',')
	for _, bad := range []string{`"484"`, `"09007199254740992"`, `"18446744073709551616"`, `"+9007199254740992"`, `-1`, `1.5`, `""`, `null`} {
		raw := string(good[:at]) + `"agentId":` + bad + string(good[end:])
		if _, err := ParseCard([]byte(raw)); err == nil {
			t.Errorf("agentId %s was read", bad)
		} else if !strings.Contains(err.Error(), "agentId") {
			t.Errorf("agentId %s: refused for another reason: %v", bad, err)
		}
	}
}
