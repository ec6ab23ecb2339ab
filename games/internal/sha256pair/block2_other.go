//go:build !amd64 || purego

package sha256pair

// paired is false where there is no block2: every Digest is crypto/sha256's.
var paired = false

func block2(a *[8]uint32, pa []byte, b *[8]uint32, pb []byte) {
	panic("sha256pair: no paired blocks here")
}
