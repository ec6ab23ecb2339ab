package blitz

import (
	"strconv"
	"strings"
	"testing"
)

// benchTalkAnswer is a talk answer of BenchmarkRound's shape: 8 public and 8 private
// messages of 120 characters.
func benchTalkAnswer() []byte {
	line := strings.Repeat("x", 120)
	var b strings.Builder
	b.WriteString(`{"messages":[`)
	for i := 0; i < 16; i++ {
		if i > 0 {
			b.WriteByte(',')
		}
		if i < 8 {
			b.WriteString(`{"text":"` + line + `","tone":"offer","type":"public"}`)
		} else {
			b.WriteString(`{"text":"` + line + `","to":` + strconv.Itoa(i%5+2) + `,"tone":"ask","type":"private"}`)
		}
	}
	b.WriteString(`]}`)
	return []byte(b.String())
}

// BenchmarkDecodeTalkAnswer is decodeAnswer alone on one talk answer (the quick path).
func BenchmarkDecodeTalkAnswer(b *testing.B) {
	raw := benchTalkAnswer()
	b.ReportAllocs()
	b.SetBytes(int64(len(raw)))
	for b.Loop() {
		a, err := decodeAnswer(raw)
		if err != nil || len(a.quick) != 16 {
			b.Fatalf("%v, %d messages", err, len(a.quick))
		}
		a.release()
	}
}
