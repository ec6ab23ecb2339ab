package actors

import (
	"go/parser"
	"go/token"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// TestRuntimeTestsImportNoProtocol: the generic runtime's own tests (this folder's *_test.go)
// import no protocol's product or doors (arena/actors/<protocol>, arena/transport/<protocol>):
// they play the runtime's test game or a game engine, and reach seats through their own channel
// (harness_test.go's probe), so a protocol's envelope or desk is tested in its own package.
func TestRuntimeTestsImportNoProtocol(t *testing.T) {
	files, err := filepath.Glob("*_test.go")
	if err != nil || len(files) == 0 {
		t.Fatalf("test files: %v %v", files, err)
	}
	fset := token.NewFileSet()
	for _, name := range files {
		f, err := parser.ParseFile(fset, name, nil, parser.ImportsOnly)
		if err != nil {
			t.Fatal(err)
		}
		for _, im := range f.Imports {
			p, _ := strconv.Unquote(im.Path.Value)
			for _, proto := range []string{"dotdotdot", "breakroom", "warden", "market"} {
				for _, floor := range []string{"actors", "transport"} {
					if pkg := "arena/" + floor + "/" + proto; p == pkg || strings.HasPrefix(p, pkg+"/") {
						t.Errorf("%s imports %s", name, p)
					}
				}
			}
		}
	}
}
