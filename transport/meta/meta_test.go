package meta

import (
	"crypto/ed25519"
	"encoding/json"
	"strings"
	"testing"
)

func TestCardOf(t *testing.T) {
	key := ed25519.NewKeyFromSeed(make([]byte, 32)).Public().(ed25519.PublicKey)
	c := CardOf(Identity{Agent: "ccd:4221332d34e1694168c2a0c0b3fd0f27/cis-2:abc", Name: "arena-1", Key: key})
	b, _ := json.Marshal(c)
	var m map[string]any
	json.Unmarshal(b, &m)
	if m["kind"] != "arena" || m["v"] != float64(1) || !strings.HasPrefix(m["signing_key"].(string), "ed25519:") || len(m["signing_key"].(string)) != 8+64 {
		t.Fatalf("card %s", b)
	}
	if _, ok := m["endpoint"]; ok {
		t.Errorf("empty endpoint written: %s", b)
	}
	ext := m["capabilities"].(map[string]any)["extensions"].([]any)[0].(map[string]any)
	if ext["uri"] != BadgeExtension || ext["params"].(map[string]any)["tokenAddress"] != c.Agent {
		t.Fatalf("badge extension %v", ext)
	}
	if _, ok := m["concordium"]; ok {
		t.Error("the Badge must not be a top-level member (§4.2)")
	}
}
