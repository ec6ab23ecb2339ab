package canon

import (
	"bytes"
	"fmt"
	"strings"
	"sync"
	"testing"

	"github.com/gowebpki/jcs"
)

// What Canonical and CanonicalWithout return must owe nothing to the input or to another call.
// Inputs of every size (a tree's lists grow with them), each checked against
// github.com/gowebpki/jcs, then the input overwritten and the result checked again; from several
// goroutines at once.
func TestCanonicalPooledScanners(t *testing.T) {
	inputs := append([]string{}, fuzzSeeds...)
	for _, n := range []int{1, 3, 40, 300, 1000} {
		var b strings.Builder
		b.WriteString(`{"z":[`)
		for i := 0; i < n; i++ {
			if i > 0 {
				b.WriteByte(',')
			}
			fmt.Fprintf(&b, `{"name%d":"v%d","b":[%d,true,null],"a":{"y":"é%d","x":""}}`, i%7, i, i, i)
		}
		b.WriteString(`],"sig":"s","a":{"k":1}}`)
		inputs = append(inputs, b.String())
	}
	var wg sync.WaitGroup
	for g := 0; g < 4; g++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for round := 0; round < 2; round++ {
				for i := range inputs {
					raw := []byte(inputs[(i+g+round)%len(inputs)])
					want, werr := jcs.Transform(raw)
					got, err := Canonical(raw)
					without, _ := CanonicalWithout(raw, "sig")
					if err != nil {
						continue // refusals are the other tests' subject
					}
					if werr != nil || !bytes.Equal(got, want) {
						t.Errorf("%.60q: %.60q, jcs %.60q (%v)", raw, got, want, werr)
						return
					}
					keep, keepWithout := bytes.Clone(got), bytes.Clone(without)
					for j := range raw {
						raw[j] = '#'
					}
					if !bytes.Equal(got, keep) || !bytes.Equal(without, keepWithout) {
						t.Errorf("%.60q: the result changed with its input", inputs[i])
						return
					}
				}
			}
		}()
	}
	wg.Wait()
}

// A member name twice is found among the members of the object being read even while a
// nested value's members sit above them on the scanner's stack.
func TestCanonicalNestedDuplicates(t *testing.T) {
	for _, raw := range []string{
		`{"a":1,"b":{"a":1,"c":[{"a":2}]},"a":3}`,
		`{"a":{"b":{"c":1}},"A":2}`,
		`[{"x":1},{"x":1,"y":[{"x":1}],"x":2}]`,
	} {
		if _, err := Canonical([]byte(raw)); err == nil {
			t.Errorf("%s: accepted", raw)
		}
	}
	for _, raw := range []string{`{"a":1,"b":{"a":1,"c":[{"a":2}]},"c":3}`, `[{"x":1},{"x":1,"y":[{"x":1}]}]`} {
		if _, err := Canonical([]byte(raw)); err != nil {
			t.Errorf("%s: %v", raw, err)
		}
	}
}
