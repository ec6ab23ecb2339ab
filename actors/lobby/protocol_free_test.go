package lobby_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestNamesNoProtocol: the lobby is generic, so no file of it names a protocol (a product
// configures it with its protocol's figures, in its own package).
func TestNamesNoProtocol(t *testing.T) {
	files, err := filepath.Glob("*.go")
	if err != nil || len(files) == 0 {
		t.Fatalf("files: %v %v", files, err)
	}
	for _, name := range files {
		if name == "protocol_free_test.go" {
			continue
		}
		b, err := os.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		text := strings.ToLower(string(b))
		for _, word := range []string{"breakroom", "break room", "dotdotdot", "blitz", "warden", "market"} {
			if strings.Contains(text, word) {
				t.Errorf("%s names %q", name, word)
			}
		}
	}
}
