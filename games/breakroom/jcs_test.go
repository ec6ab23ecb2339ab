package breakroom

import (
	"bytes"
	"encoding/json"
	"math"
	"math/rand/v2"
	"testing"

	"arena/games/canon"
)

// randomValue is a random value of MarshalJCS's kinds, with strings and numbers at their edges,
// and now and then one it leaves to canon (a non-ASCII key, invalid UTF-8, a huge integer, a
// float out of the plain range, another type).
func randomValue(rnd *rand.Rand, depth int) any {
	strs := []string{"", "a", "Agent 1", `q"b\s`, "tab\tnl\ncr\rff\fbs\b", "\x00\x01\x1f\x7f", "é日本🙂", "\u2028\u2029", "<&>", "\xff\xfe"}
	switch k := rnd.IntN(14); {
	case k == 0:
		return nil
	case k == 1:
		return rnd.IntN(2) == 0
	case k == 2:
		return strs[rnd.IntN(len(strs))]
	case k == 3:
		return rnd.IntN(2000) - 1000
	case k == 4:
		return []int64{0, 1, -1, 1<<53 - 1, -(1<<53 - 1), 1 << 53, math.MaxInt64}[rnd.IntN(7)]
	case k == 5:
		return []float64{0, math.Copysign(0, -1), 2.75, 0.001, 1.5, 1e-6, 1e-7, 1e20, 1e21, 123456.789, 1.0 / 3, math.Inf(1)}[rnd.IntN(12)]
	case k == 6:
		return json.RawMessage([]byte{'{', '"', 'b', '"', ':', '1', ',', ' ', '"', 'a', '"', ':', '[', '2', ']', '}'})
	case k == 7 && depth < 3:
		var l []int
		if rnd.IntN(4) > 0 {
			l = []int{}
			for range rnd.IntN(4) {
				l = append(l, rnd.IntN(100))
			}
		}
		return l
	case k == 8 && depth < 3:
		return [][]int64{{1, 2}, {}, nil}[:rnd.IntN(4)]
	case k == 9 && depth < 3:
		var l []map[string]any
		for range rnd.IntN(3) {
			l = append(l, randomMap(rnd, depth+1))
		}
		return l
	case k == 10 && depth < 3:
		l := []any{}
		for range rnd.IntN(3) {
			l = append(l, randomValue(rnd, depth+1))
		}
		return l
	case k == 11:
		return uint8(7) // not a kind MarshalJCS writes
	case k == 12 && depth < 3:
		return randomMap(rnd, depth+1)
	}
	return "x"
}

func randomMap(rnd *rand.Rand, depth int) map[string]any {
	keys := []string{"rank", "seat", "pubkey", "name", "score", "a", "B", "b", "", "zz", "é", "a\tb"}
	m := map[string]any{}
	for range rnd.IntN(6) {
		m[keys[rnd.IntN(len(keys))]] = randomValue(rnd, depth)
	}
	return m
}

// TestMarshalJCSIsCanon: MarshalJCS writes canon.Marshal's bytes (or its error) for many random
// values of every kind it writes, and of kinds it leaves to canon.
func TestMarshalJCSIsCanon(t *testing.T) {
	rnd := rand.New(rand.NewPCG(21, 22))
	plain := 0
	for range 150_000 {
		v := any(randomMap(rnd, 0))
		if rnd.IntN(5) == 0 {
			v = randomValue(rnd, 0)
		}
		want, werr := canon.Marshal(v)
		got, gerr := MarshalJCS(v)
		if (werr == nil) != (gerr == nil) || !bytes.Equal(got, want) {
			t.Fatalf("%#v:\nMarshalJCS %s (%v)\ncanon      %s (%v)", v, got, gerr, want, werr)
		}
		if _, err := appendJCS(nil, v); err == nil {
			plain++
		}
	}
	if plain < 30_000 {
		t.Fatalf("only %d values written in one pass", plain)
	}
}
