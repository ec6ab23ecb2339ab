package ccd

import (
	"os/exec"
	"strings"
	"testing"

	"github.com/btcsuite/btcutil/base58"
)

func base58CheckEncode(b []byte, version byte) string { return base58.CheckEncode(b, version) }

// sdkDir is the module cache directory of the Concordium Go SDK.
func sdkDir(t *testing.T) string {
	t.Helper()
	out, err := exec.Command("go", "list", "-m", "-f", "{{.Dir}}", "github.com/Concordium/concordium-go-sdk").Output()
	if err != nil {
		t.Skipf("go list: %v", err)
	}
	return strings.TrimSpace(string(out))
}
