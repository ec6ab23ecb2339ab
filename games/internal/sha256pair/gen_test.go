package sha256pair

import (
	"bytes"
	"os"
	"os/exec"
	"testing"
)

// TestGenerated checks block2_amd64.s is what gen.go writes: the assembly is never edited by
// hand.
func TestGenerated(t *testing.T) {
	want, err := os.ReadFile("block2_amd64.s")
	if err != nil {
		t.Fatal(err)
	}
	got, err := exec.Command("go", "run", "gen.go").Output()
	if err != nil {
		t.Fatalf("go run gen.go: %v", err)
	}
	if !bytes.Equal(got, want) {
		t.Fatal("block2_amd64.s differs from what gen.go writes: go generate ./games/internal/sha256pair")
	}
}
