package duel

import "testing"

// TestCommitmentVectors: Salt and Commitment against answers computed independently (Python
// hmac, hashlib and json.dumps with sorted keys and no spaces, which is JCS for these values):
// Game II's commit on seed 01..20 and Game I's claim and offer on seed 00..1f, match
// wm_7f3a9c21e0b4d856.
func TestCommitmentVectors(t *testing.T) {
	var seed0, seed1 [32]byte
	for i := range 32 {
		seed0[i], seed1[i] = byte(i), byte(i+1)
	}
	const match = "wm_7f3a9c21e0b4d856"
	tests := []struct {
		name           string
		seed           [32]byte
		round, seat    int
		action         string
		x              any
		salt, commitID string
	}{
		{"Game II commit A", seed1, 1, 0, "commit", map[string]string{"choice": "DEFECT"},
			"868cb14a0732f61f280c8621bcac7dfaeabf91548e294c17ae8784fb4a584eb3",
			"sha256:3cc05646625646b5ce2261dba11799e06908e33fb39665a56bb249e96fc9209f"},
		{"Game II commit B", seed1, 1, 1, "commit", map[string]string{"choice": "COOPERATE"},
			"d38859a1a5fa8a66b2ca315abe4400519f2fce3c849e60ffb01f7e56bb9fde6e",
			"sha256:d6af37a58f67626816ffab22b2fe69e62db44f884a34059845f34ed689849224"},
		{"Game I round 2 claim A", seed0, 2, 0, "claim", map[string]int64{"claim_bps": 5500},
			"a47476e2569d15717c0e015820125dfb6885ab33d97b53ae03e07a5a17ad0e31",
			"sha256:b0d9be15400de49ba9afa5724871abe8ae32b8ef3dd22398f1c3ab790684c76d"},
		{"Game I round 3 offer B", seed0, 3, 1, "offer", map[string]int64{"ask_bps": 4200, "escalate": 2},
			"70591fbcdc08f948812ebb96b17d02a9b757a5906853574ab68b6cdf04396418",
			"sha256:fad878c05ad0b94de39d1d8062b4f5e7e009fa249697dc45cb718cade427048e"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := Salt(tt.seed, match, tt.round, tt.seat, tt.action); got != tt.salt {
				t.Errorf("salt %s, want %s", got, tt.salt)
			}
			if got := Commitment(tt.seed, match, tt.round, tt.seat, tt.action, tt.x); got != tt.commitID {
				t.Errorf("commitment %s, want %s", got, tt.commitID)
			}
		})
	}
	if got := Commitment(seed0, match, 1, 0, "commit", map[string]int64{"ask_bps": 1 << 53}); got != "" {
		t.Errorf("a commitment of a value JCS refuses: %q, want \"\"", got)
	}
}
