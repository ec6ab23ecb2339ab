package games

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// The rules are pure: every non-test Go file under games/ is a function of its inputs, the
// instant it is given (time.Time values) and the seed it is given. No goroutines, no clock, no
// I/O, no shared mutable state between tables, no randomness of its own, no assembly. Locks,
// pools, timers and files belong to the actors and doors that call the games. Test files may use
// what they need.

// impureImports are the packages a game may not import, with why. A path ending in "/" bans
// every package under it.
var impureImports = map[string]string{
	"os":          "I/O and the environment",
	"os/":         "I/O and the environment",
	"io/ioutil":   "I/O",
	"net":         "I/O",
	"net/":        "I/O",
	"syscall":     "I/O",
	"log":         "I/O (logging is the caller's)",
	"log/":        "I/O (logging is the caller's)",
	"sync":        "state shared between tables (locks and pools are the actor side's)",
	"sync/":       "state shared between tables (locks and pools are the actor side's)",
	"crypto/rand": "randomness of its own (a match draws from its seed)",
	"math/rand":   "randomness of its own (math/rand/v2 with a seeded source instead)",
	"unsafe":      "memory outside the type system (a view of signed input can change under it)",
	"runtime":     "the scheduler and memory are the host's",
	"runtime/":    "the scheduler and memory are the host's",
	"plugin":      "code loaded at run time",
	"C":           "cgo",
}

// impureCalls are functions of allowed packages a game may not use, by import path.
var impureCalls = map[string]map[string]string{
	"time": {
		"Now": "the clock (a match is given now)", "Since": "the clock", "Until": "the clock",
		"Sleep": "the clock", "After": "a timer", "AfterFunc": "a timer", "Tick": "a timer",
		"NewTimer": "a timer", "NewTicker": "a timer",
	},
	"fmt": {"Print": "standard output", "Printf": "standard output", "Println": "standard output"},
	// math/rand/v2's top-level functions draw from a source seeded at random; a game makes its
	// own source from its seed (rand.New(rand.NewPCG(...)), rand.NewChaCha8).
	"math/rand/v2": {
		"Int": "the global source", "IntN": "the global source", "Int32": "the global source",
		"Int32N": "the global source", "Int64": "the global source", "Int64N": "the global source",
		"Uint": "the global source", "UintN": "the global source", "Uint32": "the global source",
		"Uint32N": "the global source", "Uint64": "the global source", "Uint64N": "the global source",
		"Float32": "the global source", "Float64": "the global source", "ExpFloat64": "the global source",
		"NormFloat64": "the global source", "Perm": "the global source", "Shuffle": "the global source",
		"N": "the global source",
	},
}

// foreignExts are source files that are not Go: assembly, C and prebuilt objects.
var foreignExts = []string{".s", ".S", ".sx", ".c", ".cc", ".cpp", ".cxx", ".h", ".hh", ".hpp", ".m", ".f", ".F", ".for", ".f90", ".syso", ".swig", ".swigcxx"}

// impurities lists what breaks the rules in one Go source file (its name for the messages).
func impurities(fset *token.FileSet, name string, src any) ([]string, error) {
	f, err := parser.ParseFile(fset, name, src, parser.ParseComments|parser.SkipObjectResolution)
	if err != nil {
		return nil, err
	}
	var out []string
	at := func(p token.Pos, format string, a ...any) {
		out = append(out, fset.Position(p).String()+": "+fmt.Sprintf(format, a...))
	}
	local := map[string]string{} // the name a file gives an import path with banned calls
	for _, spec := range f.Imports {
		path, _ := strconv.Unquote(spec.Path.Value)
		if why, ok := impureImport(path); ok {
			at(spec.Pos(), "imports %q: %s", path, why)
			continue
		}
		if _, ok := impureCalls[path]; ok {
			n := path[strings.LastIndex(path, "/")+1:]
			if path == "math/rand/v2" {
				n = "rand"
			}
			if spec.Name != nil {
				n = spec.Name.Name
			}
			if n == "." {
				at(spec.Pos(), "dot-imports %q: its clock, timers or globals would read as the file's own", path)
				continue
			}
			local[n] = path
		}
	}
	for _, cg := range f.Comments {
		for _, c := range cg.List {
			for _, d := range []string{"//go:linkname", "//go:noescape", "//go:cgo_", "//go:nosplit", "//go:uintptrescapes"} {
				if strings.HasPrefix(c.Text, d) {
					at(c.Pos(), "%s: a directive for code outside Go's rules", d)
				}
			}
		}
	}
	ast.Inspect(f, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.GoStmt:
			at(n.Pos(), "a go statement: the caller runs the game on its own goroutine")
		case *ast.SelectorExpr:
			if id, ok := n.X.(*ast.Ident); ok {
				if path, ok := local[id.Name]; ok {
					if why, ok := impureCalls[path][n.Sel.Name]; ok {
						at(n.Pos(), "%s.%s: %s", id.Name, n.Sel.Name, why)
					}
				}
			}
		case *ast.CallExpr:
			if id, ok := n.Fun.(*ast.Ident); ok && (id.Name == "print" || id.Name == "println") {
				at(n.Pos(), "%s: standard error", id.Name)
			}
		}
		return true
	})
	return out, nil
}

// impureImport reports whether path is banned, and why.
func impureImport(path string) (string, bool) {
	if why, ok := impureImports[path]; ok {
		return why, true
	}
	for p, why := range impureImports {
		if strings.HasSuffix(p, "/") && strings.HasPrefix(path, p) {
			return why, true
		}
	}
	return "", false
}

// TestGamesArePure walks every file under games/ (this directory: go test runs in it), build
// tags or not, testdata and _test.go files aside, and fails on anything the rules forbid.
func TestGamesArePure(t *testing.T) {
	fset := token.NewFileSet()
	goFiles := 0
	err := filepath.WalkDir(".", func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		name := d.Name()
		if d.IsDir() {
			if path != "." && (name == "testdata" || strings.HasPrefix(name, ".") || strings.HasPrefix(name, "_")) {
				return filepath.SkipDir // the go tool ignores these too
			}
			return nil
		}
		for _, ext := range foreignExts {
			if strings.HasSuffix(name, ext) {
				t.Errorf("games/%s: not Go (assembly, C or an object): the rules are Go code only", filepath.ToSlash(path))
			}
		}
		if !strings.HasSuffix(name, ".go") || strings.HasSuffix(name, "_test.go") {
			return nil
		}
		goFiles++
		src, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		bad, err := impurities(fset, "games/"+filepath.ToSlash(path), src)
		if err != nil {
			return err
		}
		for _, b := range bad {
			t.Error(b)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if goFiles < 50 {
		t.Fatalf("only %d Go files found under games/: the test judges too little", goFiles)
	}
}

// The checker finds each kind of impurity (so a clean run means something), and passes what
// the rules allow: time values and arithmetic, seeded generators, fmt into a writer.
func TestPurityCheckFindsImpurities(t *testing.T) {
	for _, c := range []struct {
		src  string
		want []string // substrings of the findings, one each, in order
	}{
		{`package p; import "os"`, []string{`imports "os"`}},
		{`package p; import "os/exec"`, []string{`imports "os/exec"`}},
		{`package p; import _ "net/http"`, []string{`imports "net/http"`}},
		{`package p; import ("sync"; "sync/atomic"; "log/slog"; "crypto/rand"; "unsafe")`,
			[]string{`"sync"`, `"sync/atomic"`, `"log/slog"`, `"crypto/rand"`, `"unsafe"`}},
		{`package p; import "time"; var t = time.Now()`, []string{"time.Now"}},
		{`package p; import clock "time"; func f() { clock.Sleep(1); _ = clock.After(1); _ = clock.NewTimer(1) }`,
			[]string{"clock.Sleep", "clock.After", "clock.NewTimer"}},
		{`package p; import . "time"`, []string{"dot-imports"}},
		{`package p; import "math/rand/v2"; var n = rand.IntN(3)`, []string{"rand.IntN"}},
		{`package p; import "fmt"; func f() { fmt.Println(1); println(2) }`, []string{"fmt.Println", "println"}},
		{`package p; func f() { go f() }`, []string{"go statement"}},
		{"package p\n\n//go:linkname x runtime.x\nvar x int", []string{"go:linkname"}},
		{"package p\n\n//go:noescape\nfunc plainRun(p []byte) int", []string{"go:noescape"}},
		{`package p; import ("time"; "fmt"; "io"; "math/rand/v2")
			func f(now time.Time, w io.Writer) time.Time {
				r := rand.New(rand.NewPCG(1, 2)); fmt.Fprintf(w, "%d", r.IntN(3))
				return now.Add(time.Second) }`, nil},
	} {
		got, err := impurities(token.NewFileSet(), "x.go", c.src)
		if err != nil {
			t.Fatalf("%s: %v", c.src, err)
		}
		if len(got) != len(c.want) {
			t.Errorf("%s: found %q, want %d findings", c.src, got, len(c.want))
			continue
		}
		for i, w := range c.want {
			if !strings.Contains(got[i], w) {
				t.Errorf("%s: finding %q, want one naming %s", c.src, got[i], w)
			}
		}
	}
}
