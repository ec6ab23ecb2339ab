package games

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os/exec"
	"sort"
	"strings"
	"testing"
)

// The file check in purity_test.go reads each file's own imports; a game could still reach the
// forbidden packages through a package it imports (games/blitz importing arena/internal/x, which
// imports os). The dependency check closes that door: it asks the go tool for the whole build
// graph of the non-test games packages and judges every edge that leaves games/.
//
//   - A games package may import games packages, std packages on pureStd, and the third-party
//     packages on pureThirdParty.
//   - Every package outside std and games/ anywhere in the graph must be on pureThirdParty (an
//     arena package outside games/, or a module nobody reviewed, fails wherever it appears).
//   - A third-party package may import std packages on pureStd plus what its entry names.
//
// Std packages' own imports are not judged: fmt reaches os for Printf, and a game that only
// calls Fprintf never gets there; the file check bans the calls that would.

// pureStd are the std packages a game (or a reviewed third-party package) may import.
var pureStd = setOf(
	"bytes", "bufio", "cmp", "compress/flate", "container/heap", "container/list", "container/ring",
	"crypto/ed25519", "crypto/hmac", "crypto/sha256", "crypto/sha512", "crypto/subtle",
	"embed", "encoding", "encoding/base64", "encoding/binary", "encoding/hex", "encoding/json",
	"errors", "fmt", "hash", "hash/crc32", "hash/fnv", "io", "iter", "maps",
	"math", "math/big", "math/bits", "math/rand/v2", "reflect", "regexp", "slices", "sort",
	"strconv", "strings", "time", "unicode", "unicode/utf16", "unicode/utf8",
)

// pureStdFor are std packages allowed to one games package only, with why.
var pureStdFor = map[string]map[string]string{
	"arena/games/gametest": {"testing": "the helpers take a testing.TB; only tests import gametest"},
}

// pureThirdParty are the reviewed packages outside std and games/, each with the std imports it
// needs beyond pureStd and why they keep the games deterministic.
var pureThirdParty = map[string]map[string]string{
	"github.com/gowebpki/jcs":       nil,
	"filippo.io/edwards25519":       {"sync": "a sync.Once around a constant precomputed table"},
	"filippo.io/edwards25519/field": nil,
}

func setOf(s ...string) map[string]bool {
	m := make(map[string]bool, len(s))
	for _, x := range s {
		m[x] = true
	}
	return m
}

// listedPackage is the part of `go list -json` output the check reads.
type listedPackage struct {
	ImportPath string
	Standard   bool
	Imports    []string
	Error      *struct{ Err string }
	DepsErrors []*struct{ Err string }
}

func isGames(path string) bool {
	return path == "arena/games" || strings.HasPrefix(path, "arena/games/")
}

// impureDeps judges a build graph (every package of `go list -deps`) and returns one finding a
// bad edge or package, sorted.
func impureDeps(pkgs []listedPackage) []string {
	std := map[string]bool{}
	for _, p := range pkgs {
		if p.Standard {
			std[p.ImportPath] = true
		}
	}
	var out []string
	for _, p := range pkgs {
		if p.Error != nil {
			out = append(out, fmt.Sprintf("%s: %s", p.ImportPath, p.Error.Err))
		}
		for _, e := range p.DepsErrors {
			out = append(out, fmt.Sprintf("%s: %s", p.ImportPath, e.Err))
		}
		switch {
		case p.Standard:
			continue
		case isGames(p.ImportPath):
			for _, imp := range p.Imports {
				switch {
				case isGames(imp):
				case std[imp]:
					if !pureStd[imp] && pureStdFor[p.ImportPath][imp] == "" {
						out = append(out, fmt.Sprintf("%s imports std %q: not on the pure list", p.ImportPath, imp))
					}
				default:
					if _, ok := pureThirdParty[imp]; !ok {
						out = append(out, fmt.Sprintf("%s imports %q: outside games/ and not a reviewed pure package", p.ImportPath, imp))
					}
				}
			}
		default:
			extra, ok := pureThirdParty[p.ImportPath]
			if !ok {
				out = append(out, fmt.Sprintf("%s is in the games' build graph: outside games/ and not a reviewed pure package", p.ImportPath))
				continue
			}
			for _, imp := range p.Imports {
				if std[imp] && !pureStd[imp] && extra[imp] == "" {
					out = append(out, fmt.Sprintf("%s (reached from games/) imports std %q: not on the pure list", p.ImportPath, imp))
				}
			}
		}
	}
	sort.Strings(out)
	return out
}

// decodeGoList reads the concatenated JSON objects `go list -json` prints.
func decodeGoList(r io.Reader) ([]listedPackage, error) {
	var pkgs []listedPackage
	dec := json.NewDecoder(r)
	for {
		var p listedPackage
		if err := dec.Decode(&p); errors.Is(err, io.EOF) {
			return pkgs, nil
		} else if err != nil {
			return nil, err
		}
		pkgs = append(pkgs, p)
	}
}

// TestGamesDependOnlyOnPurePackages runs `go list -deps -json ./...` in games/ (go test runs
// here) and fails on any edge of the build graph the rules above forbid.
func TestGamesDependOnlyOnPurePackages(t *testing.T) {
	goTool, err := exec.LookPath("go")
	if err != nil {
		t.Fatalf("the dependency check needs the go tool: %v", err)
	}
	var stdout, stderr bytes.Buffer
	cmd := exec.Command(goTool, "list", "-deps", "-json=ImportPath,Standard,Imports,Error,DepsErrors", "./...")
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("go list: %v\n%s", err, stderr.String())
	}
	pkgs, err := decodeGoList(&stdout)
	if err != nil {
		t.Fatalf("reading go list output: %v", err)
	}
	games := 0
	for _, p := range pkgs {
		if isGames(p.ImportPath) {
			games++
		}
	}
	if games < 5 {
		t.Fatalf("go list named %d games packages: the test judges too little", games)
	}
	for _, f := range impureDeps(pkgs) {
		t.Error(f)
	}
}

// The dependency checker finds a forbidden package reached only indirectly, an arena package
// outside games/, an unreviewed module and a banned std import, and passes a clean graph.
func TestDependencyCheckFindsIndirectImpurities(t *testing.T) {
	std := func(path string, imports ...string) listedPackage {
		return listedPackage{ImportPath: path, Standard: true, Imports: imports}
	}
	clean := []listedPackage{
		std("os"), std("fmt", "os"), std("strings"), std("sync"), std("testing", "os", "sync"),
		{ImportPath: "github.com/gowebpki/jcs", Imports: []string{"strings"}},
		{ImportPath: "filippo.io/edwards25519", Imports: []string{"sync"}},
		{ImportPath: "arena/games", Imports: []string{"fmt", "strings", "github.com/gowebpki/jcs", "filippo.io/edwards25519"}},
		{ImportPath: "arena/games/gametest", Imports: []string{"arena/games", "testing"}},
	}
	if got := impureDeps(clean); len(got) != 0 {
		t.Fatalf("clean graph: findings %q, want none", got)
	}
	for _, c := range []struct {
		name string
		add  []listedPackage
		want []string // substrings of the findings, one each, in sorted order
	}{
		{"arena package outside games reaching os", []listedPackage{
			{ImportPath: "arena/internal/x", Imports: []string{"os"}},
			{ImportPath: "arena/games/blitz", Imports: []string{"arena/games", "arena/internal/x"}},
		}, []string{`arena/games/blitz imports "arena/internal/x"`, "arena/internal/x is in the games' build graph"}},
		{"unreviewed module two steps away", []listedPackage{
			{ImportPath: "github.com/gowebpki/jcs", Imports: []string{"strings", "example.com/evil"}},
			{ImportPath: "example.com/evil", Imports: []string{"os"}},
		}, []string{"example.com/evil is in the games' build graph"}},
		{"reviewed package growing a banned std import", []listedPackage{
			{ImportPath: "github.com/gowebpki/jcs", Imports: []string{"os"}},
		}, []string{`github.com/gowebpki/jcs (reached from games/) imports std "os"`}},
		{"games package importing a std package off the list", []listedPackage{
			{ImportPath: "arena/games/warden", Imports: []string{"sync"}},
		}, []string{`arena/games/warden imports std "sync"`}},
		{"testing outside gametest", []listedPackage{
			{ImportPath: "arena/games/canon", Imports: []string{"testing"}},
		}, []string{`arena/games/canon imports std "testing"`}},
		{"a package go list could not load", []listedPackage{
			{ImportPath: "arena/games/broken", Error: &struct{ Err string }{"no Go files"}},
		}, []string{"arena/games/broken: no Go files"}},
	} {
		got := impureDeps(append(append([]listedPackage{}, clean...), c.add...))
		if len(got) != len(c.want) {
			t.Errorf("%s: findings %q, want %d", c.name, got, len(c.want))
			continue
		}
		for i, w := range c.want {
			if !strings.Contains(got[i], w) {
				t.Errorf("%s: finding %q, want one naming %s", c.name, got[i], w)
			}
		}
	}
}

// decodeGoList reads more than one object, as go list prints them.
func TestDecodeGoList(t *testing.T) {
	pkgs, err := decodeGoList(strings.NewReader(`{"ImportPath":"a","Standard":true}
{"ImportPath":"b","Imports":["a"]}`))
	if err != nil || len(pkgs) != 2 || pkgs[1].ImportPath != "b" || pkgs[1].Imports[0] != "a" || !pkgs[0].Standard {
		t.Fatalf("got %+v, %v", pkgs, err)
	}
}
