package script

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestGoldenScriptsParse checks every golden script is a valid script (the run itself is checked
// by the golden test).
func TestGoldenScriptsParse(t *testing.T) {
	files, err := filepath.Glob("../testdata/scripts/*.json")
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, f := range files {
		if strings.HasSuffix(f, ".out.json") {
			continue
		}
		n++
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := Parse(b); err != nil {
			t.Errorf("%s: %v", filepath.Base(f), err)
		}
	}
	if n < 6 {
		t.Errorf("found %d golden scripts, want at least 6", n)
	}
}
