package blitz

import (
	"crypto/sha256"
	"strconv"
	"testing"

	"arena/games/blitz/commitment"
	"arena/games/canon"
)

// digestOf reads back the digest canon.IDOf wrote, for every byte value in every position.
func TestDigestOfReadsIDOf(t *testing.T) {
	for i := 0; i < 300; i++ {
		d := sha256.Sum256([]byte(strconv.Itoa(i)))
		if i < 256 {
			for k := range d {
				d[k] = byte(i + k)
			}
		}
		if got := digestOf(canon.IDOf(d)); got != d {
			t.Fatalf("digestOf(%s) = %x, want %x", canon.IDOf(d), got, d)
		}
	}
}

// condOf shares one always condition and copies any other, so a promise never aliases the
// Commitment it was read from.
func TestCondOf(t *testing.T) {
	a, err := commitment.ParseCondition([]byte(`{"always":true}`))
	if err != nil {
		t.Fatal(err)
	}
	if condOf(a) != alwaysCond || condOf(a) != condOf(a) {
		t.Error("the always condition is not the shared one")
	}
	n, err := commitment.ParseCondition([]byte(`{"not":{"always":true}}`))
	if err != nil {
		t.Fatal(err)
	}
	p, q := condOf(n), condOf(n)
	if p == alwaysCond || p == q || p.Op != commitment.OpNot || len(p.Args) != 1 {
		t.Errorf("condOf(not) = %+v (shared %v)", p, p == q)
	}
	if alwaysCond.Eval(nil, 1) != true || p.Eval(nil, 1) != false {
		t.Error("the conditions do not evaluate as parsed")
	}
}
