package storage

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

// bboltAllowed are the packages outside storage/ that may import bbolt, and why.
var bboltAllowed = map[string]string{
	// The devchain is a stand-in for the Concordium node, not part of the arena's store: it keeps
	// the simulated chain in a file of its own (devchain.db) and never opens the arena's.
	"chain/devchain": "the simulated node's own file",
}

// Only storage opens the arena's bbolt file: no package outside storage/ imports bbolt, in its
// code or its tests (tests go through storage/storagetest), so every transaction is storage's.
func TestOnlyStorageImportsBbolt(t *testing.T) {
	root, err := filepath.Abs("..")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(root, "go.mod")); err != nil {
		t.Fatalf("module root not at %s: %v", root, err)
	}
	fset := token.NewFileSet()
	err = filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, path)
		rel = filepath.ToSlash(rel)
		if d.IsDir() {
			name := d.Name()
			if rel == "storage" || name == "testdata" || name == "vendor" || (strings.HasPrefix(name, ".") && rel != ".") {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(rel, ".go") {
			return nil
		}
		f, err := parser.ParseFile(fset, path, nil, parser.ImportsOnly)
		if err != nil {
			return err
		}
		for _, im := range f.Imports {
			p, _ := strconv.Unquote(im.Path.Value)
			if p != "go.etcd.io/bbolt" && !strings.HasPrefix(p, "go.etcd.io/bbolt/") {
				continue
			}
			if _, ok := bboltAllowed[filepath.ToSlash(filepath.Dir(rel))]; !ok {
				t.Errorf("%s imports %s: only storage opens the bbolt file (use its typed API)", rel, p)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}
