package commitment

import "testing"

// ParseRound is §3's "T-<n>" with n the anchor layout's u64 (§5.5): 1 to 2^64−1, one spelling.
func TestParseRound(t *testing.T) {
	good := map[string]uint64{"T-1": 1, "T-9931": 9931, "T-123456789012345678": 123456789012345678,
		"T-1234567890123456789": 1234567890123456789, "T-18446744073709551615": 18446744073709551615,
		"T-9999999999999999999": 9999999999999999999} // 19 digits: the direct read's longest
	for id, want := range good {
		if n, ok := ParseRound(id); !ok || n != want {
			t.Errorf("ParseRound(%q) = %d, %v; want %d, true", id, n, ok, want)
		}
	}
	for _, id := range []string{"", "T", "T-", "T-0", "T-00", "T-01", "T-18446744073709551616", "T-1e3", "T- 1",
		"T-1\n", "t-1", "R-1", "T-+1", "T-0x1", "T-١٢", "T-12a", "T-99999999999999999999", "T-1234567890123456789a"} {
		if n, ok := ParseRound(id); ok || n != 0 {
			t.Errorf("ParseRound(%q) = %d, %v; want 0, false", id, n, ok)
		}
	}
}
