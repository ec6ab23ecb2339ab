package httpapi

import (
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// protocols are the protocol folders a floor may hold (docs/design.md, "The layout").
var protocols = []string{"dotdotdot", "breakroom", "warden", "market"}

// gamePackages are the games a protocol plays (DOTDOTDOT's Blitz, the Warden's game): a generic
// package knows games only through games/.
var gamePackages = []string{"arena/games/blitz", "arena/games/warden"}

// protocolImport reports whether import path p is a protocol's package: arena/<any
// floor>/<protocol>/... or one of gamePackages.
func protocolImport(p string) bool {
	for _, g := range gamePackages {
		if p == g || strings.HasPrefix(p, g+"/") {
			return true
		}
	}
	parts := strings.Split(p, "/")
	return len(parts) >= 3 && parts[0] == "arena" && slices.Contains(protocols, parts[2])
}

// genericFile reports whether rel (a slash path from the module root) is in a generic package:
// not under <floor>/<protocol>/ for any floor and protocol.
func genericFile(rel string) bool {
	parts := strings.Split(rel, "/")
	return len(parts) < 3 || !slices.Contains(protocols, parts[1])
}

// TestProtocolImportRule: the rule catches a generic package importing another floor's protocol
// package or a protocol's game, and lets a protocol's packages use each other.
func TestProtocolImportRule(t *testing.T) {
	for _, p := range []string{"arena/actors/dotdotdot", "arena/transport/dotdotdot/site", "arena/games/blitz",
		"arena/transport/market", "arena/chain/warden/x"} {
		if !protocolImport(p) {
			t.Errorf("%s is not taken for a protocol package", p)
		}
	}
	for _, p := range []string{"arena/actors", "arena/transport/door", "arena/games/canon", "arena/games", "arena/dotdotdot"} {
		if protocolImport(p) {
			t.Errorf("%s is taken for a protocol package", p)
		}
	}
	if !genericFile("transport/httpapi/router.go") || !genericFile("actors/arena.go") || genericFile("transport/dotdotdot/site/site.go") {
		t.Error("genericFile misreads a path")
	}
}

// A generic package never imports a protocol's: no package under transport/ or actors/ outside
// <floor>/<protocol>/ imports any protocol package (protocolImport: arena/<any floor>/<protocol>/...
// or a protocol's game). Test files are left out: they build into no package the binary links
// (sites_test.go wires the four sites as cmd/arena does).
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
				if genericFile(rel) && protocolImport(p) {
					t.Errorf("%s imports %s: a generic package imports no protocol's package", rel, p)
				}
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	}
}

// floorsBelow are, for each floor, the project's floors its packages may not import: the arrows
// run cmd -> transport -> actors -> games, storage, chain (docs/design.md, "The layout"); games
// imports nothing of the project but games/.
var floorsBelow = map[string][]string{
	"actors":  {"transport", "cmd", "config"},
	"games":   {"transport", "actors", "storage", "chain", "cmd", "config"},
	"storage": {"transport", "actors", "cmd", "config"},
	"chain":   {"transport", "actors", "cmd", "config"},
}

// TestFloorsRunDown: no package imports a floor above its own (an actor package imports nothing
// under transport/, rules import no store, chain or actor). Test files are left out, as above.
func TestFloorsRunDown(t *testing.T) {
	root, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	fset := token.NewFileSet()
	for floor, banned := range floorsBelow {
		err := filepath.WalkDir(filepath.Join(root, floor), func(path string, d fs.DirEntry, err error) error {
			if err != nil {
				return err
			}
			if d.IsDir() {
				if d.Name() == "testdata" || d.Name() == "node_modules" {
					return filepath.SkipDir
				}
				return nil
			}
			if !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
				return nil
			}
			f, err := parser.ParseFile(fset, path, nil, parser.ImportsOnly)
			if err != nil {
				return err
			}
			rel, _ := filepath.Rel(root, path)
			for _, im := range f.Imports {
				p, _ := strconv.Unquote(im.Path.Value)
				for _, b := range banned {
					if p == "arena/"+b || strings.HasPrefix(p, "arena/"+b+"/") {
						t.Errorf("%s imports %s: the %s floor imports nothing of %s/", filepath.ToSlash(rel), p, floor, b)
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
