package breakroom

import (
	"slices"
	"testing"
)

func vectorKey() []byte {
	k := make([]byte, 32)
	for i := range k {
		k[i] = byte(i)
	}
	return k
}

// TestDrawVectors: §1.6's test vectors (K = 00 01 … 1f).
func TestDrawVectors(t *testing.T) {
	k := vectorKey()
	var seed [32]byte
	copy(seed[:], k)
	if got := SeedHash(seed); got != "sha256:630dcd2966c4336691125448bbb25b4ff412a49c732db2c8abc1b8581bd710dd" {
		t.Errorf("seed_hash %s", got)
	}
	for _, v := range []struct {
		label string
		n     uint64
		want  uint64
	}{
		{"test/a", 100, 20},
		{"test/b", 6, 0},
		{"test/c", 4294967297, 2610741030},
		{"test/reject/1", 1<<63 + 1, 999333807592187678},
	} {
		if got := Rand(k, v.label, v.n); got != v.want {
			t.Errorf("rand(K, %q, %d) = %d, want %d", v.label, v.n, got, v.want)
		}
	}
	list := []int{0, 1, 2, 3, 4, 5, 6, 7, 8, 9}
	Shuffle(k, "test/shuffle", list)
	if want := []int{0, 6, 8, 2, 3, 9, 4, 1, 7, 5}; !slices.Equal(list, want) {
		t.Errorf("shuffle %v, want %v", list, want)
	}
}

func TestSeedHexRoundTrip(t *testing.T) {
	var seed [32]byte
	copy(seed[:], vectorKey())
	got, err := ParseSeed(SeedHex(seed))
	if err != nil || got != seed {
		t.Fatalf("ParseSeed(SeedHex) = %x, %v", got, err)
	}
	for _, bad := range []string{"", "00", SeedHex(seed)[:63] + "G", "000102030405060708090A0B0C0D0E0F101112131415161718191A1B1C1D1E1F"} {
		if _, err := ParseSeed(bad); err == nil {
			t.Errorf("ParseSeed(%q) accepted", bad)
		}
	}
}
