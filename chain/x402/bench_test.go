package x402

import "testing"

// BenchmarkVerifyHeader is what every metered read costs here before any I/O: the header read
// and the stake vector verified (the secp256k1 recovery dominates).
func BenchmarkVerifyHeader(b *testing.B) {
	h := b64(okV2)
	ch := Challenge{Offers: []Offer{arcExact(b, 1000000, 300)}}
	b.ReportAllocs()
	b.SetBytes(int64(len(h)))
	for b.Loop() {
		p, err := FromHeaders("", h)
		if err != nil {
			b.Fatal(err)
		}
		if _, err := ch.Verify(p, okNow); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkParseHeader is the header read alone.
func BenchmarkParseHeader(b *testing.B) {
	h := b64(okV2)
	b.ReportAllocs()
	b.SetBytes(int64(len(h)))
	for b.Loop() {
		if _, err := ParseHeader(h); err != nil {
			b.Fatal(err)
		}
	}
}
