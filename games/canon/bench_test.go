package canon

import (
	"bytes"
	"encoding/json"
	"testing"

	"github.com/gowebpki/jcs"
)

var benchObj = []byte(`{ "v": 1, "round": "T-9931", "turn": 3, "seq": 7, "payer": "ccd:4221332d34e1694168c2a0c0b3fd0f27/cis-2:4dKzQp7", "payee": "ccd:4221332d34e1694168c2a0c0b3fd0f27/cis-2:9aBcLm2", "amount": 40000000, "condition": { "backs": ["ccd:4221332d34e1694168c2a0c0b3fd0f27/cis-2:7xYzRt5", "ccd:4221332d34e1694168c2a0c0b3fd0f27/cis-2:4dKzQp7", 40000000] }, "due": 5, "pair": "deal:7c1e9a20", "sig": "ed25519:e5564300c360ac729086e2cc806e828a84877f1eb8e5d974d873e065224901555fb8821590a33bacc61e39701cf9b46bd25bf5f0595bbe24655141438e7a100b" }`)

func BenchmarkStrictParse(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		if _, err := parse(benchObj); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkJCSTransform(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		if _, err := jcs.Transform(benchObj); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkCanonicalWithout(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		if _, err := CanonicalWithout(benchObj, "sig"); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkDecodeMap(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		var m map[string]json.RawMessage
		if err := Decode(benchObj, &m); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkDecodeSig is a signature's text decoded and checked (every commitment's, §7.3).
func BenchmarkDecodeSig(b *testing.B) {
	s := FormatSig(bytes.Repeat([]byte{0x5a, 0xc3, 0x01, 0xfe}, 16))
	var dst [64]byte
	for b.Loop() {
		if !DecodeSig(s, &dst) {
			b.Fatal("refused")
		}
	}
}

// benchMove is a Break Room move body: what every prompt's answer is parsed from.
var benchMove = []byte(`{"action":"bid","amount":12}`)

func BenchmarkParseMove(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Parse(benchMove); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkMarshalLine is canon.Marshal of a log line's members as the games gather them.
func BenchmarkMarshalLine(b *testing.B) {
	b.ReportAllocs()
	line := map[string]any{"round": 3, "seat": 2, "turn": 17, "action": "bid", "amount": 12, "targets": []int{0, 1, 4}}
	for b.Loop() {
		if _, err := Marshal(line); err != nil {
			b.Fatal(err)
		}
	}
}
