package ccd

import (
	"bytes"
	"testing"
)

// BenchmarkRegisterData is the cost of making one anchor transaction: header, payload, energy,
// sign digest (SDK), ed25519 signature, block item and transaction hash.
//
//	go test -run XXX -bench RegisterData ./chain/ccd
func BenchmarkRegisterData(b *testing.B) {
	k, _ := NewKey(Address{1}, bytes.Repeat([]byte{1}, 32))
	data := make([]byte, 50)
	for i := 0; i < b.N; i++ {
		if _, err := RegisterData(k, uint64(i+1), 1767225600, data); err != nil {
			b.Fatal(err)
		}
	}
}
