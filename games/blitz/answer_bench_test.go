package blitz

import (
	"crypto/ed25519"
	"crypto/sha256"
	"encoding/json"
	"strconv"
	"strings"
	"testing"

	"arena/games/blitz/commitment"
	"arena/games/canon"
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

// BenchmarkDecodeTalkAnswer is decodeAnswer on one talk answer, then readMessage on each of its
// messages (the strict parse, then the members read from its tree).
func BenchmarkDecodeTalkAnswer(b *testing.B) {
	raw := benchTalkAnswer()
	b.ReportAllocs()
	b.SetBytes(int64(len(raw)))
	for b.Loop() {
		a, err := decodeAnswer(raw)
		if err != nil || len(a.msgVals) != 16 {
			b.Fatalf("%v, %d messages", err, len(a.msgVals))
		}
		for i := range a.msgVals {
			if _, bad := readMessage(a.Messages[i], &a.msgVals[i]); bad != "" {
				b.Fatal(bad)
			}
		}
	}
}

// benchCommitAnswer is a commit answer of BenchmarkRound's shape: 4 signed commitments, each
// an encoding/json map (members in JCS order, no whitespace) of a BYO seat's §7.1 object.
func benchCommitAnswer(tb testing.TB) []byte {
	s := sha256.Sum256([]byte("bench seat 1"))
	priv := ed25519.NewKeyFromSeed(s[:])
	agent := func(n int) string { return "ccd:4221332d34e1694168c2a0c0b3fd0f27/cis-2:BenchSeat" + strconv.Itoa(n) }
	var subs []json.RawMessage
	for i := 0; i < 4; i++ {
		obj := map[string]any{"v": 1, "round": "T-424242", "turn": 3, "seq": 9 + i, "payer": agent(1),
			"payee": agent(2 + i), "amount": 2_000_000, "condition": map[string]any{"always": true}, "due": 3}
		c, err := canon.Marshal(obj)
		if err != nil {
			tb.Fatal(err)
		}
		d := canon.Digest(c)
		obj["sig"] = canon.FormatSig(ed25519.Sign(priv, d[:]))
		raw, err := json.Marshal(obj)
		if err != nil {
			tb.Fatal(err)
		}
		subs = append(subs, raw)
	}
	raw, err := json.Marshal(map[string]any{"commitments": subs})
	if err != nil {
		tb.Fatal(err)
	}
	return raw
}

// BenchmarkDecodeCommitAnswer is decodeAnswer on one commit answer, then
// commitment.ParseValue on each of its commitments (the strict parse, then each commitment
// read, checked against the schema, written in its canonical forms and digested), as submit
// does before the signature check.
func BenchmarkDecodeCommitAnswer(b *testing.B) {
	raw := benchCommitAnswer(b)
	b.ReportAllocs()
	b.SetBytes(int64(len(raw)))
	for b.Loop() {
		a, err := decodeAnswer(raw)
		if err != nil || len(a.comVals) != 4 {
			b.Fatalf("%v, %d commitments", err, len(a.comVals))
		}
		for _, v := range a.comVals {
			if _, _, _, err := commitment.ParseValue(v); err != nil {
				b.Fatal(err)
			}
		}
	}
}
