package identity

import (
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"
)

// nostrTools is node and the Break Room test agent's folder (nostr-tools among its packages), or
// a loud skip when either is missing (scripts/install-test-deps.sh installs them).
func nostrTools(t *testing.T) (node, dir string) {
	t.Helper()
	node, err := exec.LookPath("node")
	if err != nil {
		t.Skip("SKIPPED LOUDLY: `node` is not installed, so nostr-tools cannot check the handle; install Node.js 20+ and run scripts/install-test-deps.sh")
	}
	dir, _ = filepath.Abs("../testagent")
	if _, err := os.Stat(filepath.Join(dir, "node_modules", "nostr-tools")); err != nil {
		t.Skip("SKIPPED LOUDLY: transport/breakroom/testagent has no node_modules; run scripts/install-test-deps.sh")
	}
	return node, dir
}

// nostr-tools' NIP-05 client (its nip05 module, fetching through useFetchImplementation from
// the test server) verifies a claimed handle, finds Break Room's own key at _@ and at the bare
// domain, and asks without following redirects.
func TestHandleVerifiedByNostrToolsNIP05(t *testing.T) {
	node, dir := nostrTools(t)
	r := newRig(t)
	ada := newKey(1)
	r.recs.set(ada.pub, eligible)
	if st, m := r.claim(ada, "ada-walker"); st != 200 {
		t.Fatalf("claim: %d %v", st, m)
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, node, filepath.Join(dir, "nip05.mjs"), r.srv.URL, "breakroom.test", "ada-walker", ada.pub)
	cmd.Dir = dir
	out, err := cmd.Output()
	if err != nil {
		stderr := ""
		if ee, ok := err.(*exec.ExitError); ok {
			stderr = string(ee.Stderr)
		}
		t.Fatalf("nip05.mjs: %v\n%s\n%s", err, out, stderr)
	}
	var got struct {
		IsNIP05 bool `json:"is_nip05"`
		Profile *struct {
			Pubkey string `json:"pubkey"`
		} `json:"profile"`
		Valid bool `json:"valid"`
		Self  *struct {
			Pubkey string `json:"pubkey"`
		} `json:"self"`
		Bare *struct {
			Pubkey string `json:"pubkey"`
		} `json:"bare_domain"`
		Seen []struct {
			Path     string `json:"path"`
			Redirect string `json:"redirect"`
		} `json:"seen"`
	}
	if err := json.Unmarshal(out, &got); err != nil {
		t.Fatalf("nip05.mjs printed %s: %v", out, err)
	}
	if !got.IsNIP05 || got.Profile == nil || got.Profile.Pubkey != ada.pub || !got.Valid {
		t.Fatalf("ada-walker@breakroom.test: %s", out)
	}
	if got.Self == nil || got.Self.Pubkey != selfKey.pub || got.Bare == nil || got.Bare.Pubkey != selfKey.pub {
		t.Fatalf("_@breakroom.test: %s", out)
	}
	if len(got.Seen) < 3 || got.Seen[0].Path != "/.well-known/nostr.json?name=ada-walker" || got.Seen[0].Redirect != "manual" {
		t.Fatalf("requests: %s", out)
	}
}
