package httpapi

import (
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// protocols are the protocol folders a floor may hold (docs/design.md, "The layout").
var protocols = []string{"dotdotdot", "breakroom", "warden", "market"}

// A generic package never imports a protocol's: no package under transport/ or actors/ outside
// <floor>/<protocol>/ imports arena/<floor>/<protocol>/... Test files are left out: they build
// into no package the binary links (sites_test.go wires the four sites as cmd/arena does).
func TestGenericFloorsImportNoProtocol(t *testing.T) {
	root, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(root, "go.mod")); err != nil {
		t.Fatalf("module root not at %s: %v", root, err)
	}
	fset := token.NewFileSet()
	for _, floor := range []string{"transport", "actors"} {
		err := filepath.WalkDir(filepath.Join(root, floor), func(path string, d fs.DirEntry, err error) error {
			if err != nil {
				return err
			}
			if d.IsDir() {
				if d.Name() == "testdata" {
					return filepath.SkipDir
				}
				return nil
			}
			if !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
				return nil
			}
			rel, _ := filepath.Rel(root, path)
			rel = filepath.ToSlash(rel)
			f, err := parser.ParseFile(fset, path, nil, parser.ImportsOnly)
			if err != nil {
				return err
			}
			for _, im := range f.Imports {
				p, _ := strconv.Unquote(im.Path.Value)
				for _, proto := range protocols {
					pkg := "arena/" + floor + "/" + proto
					if p != pkg && !strings.HasPrefix(p, pkg+"/") {
						continue
					}
					if !strings.HasPrefix(rel, floor+"/"+proto+"/") {
						t.Errorf("%s imports %s: only %s/%s/ may import its protocol's packages", rel, p, floor, proto)
					}
				}
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	}
}
