package anchor

import (
	"bytes"
	"encoding/hex"
	"encoding/json"
	"errors"
	"os"
	"testing"
	"time"
)

// The anchor_50 vector of register_data.json registers an exchange anchor of round T-9931,
// seq 1, hash ab×32: the bytes the official SDK signed must be what Encode makes.
func TestEncodeMatchesRegisterDataVector(t *testing.T) {
	raw, err := os.ReadFile("../../testdata/concordium/register_data.json")
	if err != nil {
		t.Fatal(err)
	}
	var f struct {
		Vectors []struct {
			Name   string
			Inputs struct{ Data string } `json:"inputs"`
		}
	}
	if err := json.Unmarshal(raw, &f); err != nil {
		t.Fatal(err)
	}
	var data []byte
	for _, v := range f.Vectors {
		if v.Name == "anchor_50" {
			data, _ = hex.DecodeString(v.Inputs.Data)
		}
	}
	if len(data) != Size {
		t.Fatalf("vector anchor_50 data is %d bytes", len(data))
	}
	a := Anchor{Kind: Exchange, Round: 9931, Seq: 1, Hash: [32]byte(bytes.Repeat([]byte{0xab}, 32))}
	got, err := a.Encode()
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, data) {
		t.Fatalf("encode\n got %x\nwant %x", got, data)
	}
	back, err := Decode(data)
	if err != nil || back != a {
		t.Fatalf("decode = %+v, %v; want %+v", back, err, a)
	}
}

func TestEncodeLayout(t *testing.T) {
	var h [32]byte
	for i := range h {
		h[i] = byte(i)
	}
	a := Anchor{Kind: Transcript, Round: 0x0102030405060708, Seq: 0x0a0b0c0d, Hash: h}
	b, err := a.Encode()
	if err != nil {
		t.Fatal(err)
	}
	want := "44444441" + "01" + "06" + "0102030405060708" + "0a0b0c0d" + hex.EncodeToString(h[:])
	if hex.EncodeToString(b) != want {
		t.Fatalf("got %x\nwant %s", b, want)
	}
	for k := Exchange; k <= Transcript; k++ {
		a.Kind = k
		b, _ := a.Encode()
		if b[5] != byte(k) {
			t.Errorf("kind %s encoded as %d", k, b[5])
		}
		got, err := Decode(b)
		if err != nil || got != a {
			t.Errorf("round trip %s: %+v %v", k, got, err)
		}
	}
}

func TestDecodeRefusals(t *testing.T) {
	good, _ := Anchor{Kind: Opened, Round: 7, Seq: 1}.Encode()
	mut := func(f func(b []byte) []byte) []byte { return f(bytes.Clone(good)) }
	cases := []struct {
		name string
		b    []byte
		want error
	}{
		{"empty", nil, ErrSize},
		{"short", good[:49], ErrSize},
		{"long", append(bytes.Clone(good), 0), ErrSize},
		{"magic", mut(func(b []byte) []byte { b[3] = 'B'; return b }), ErrMagic},
		{"version 0", mut(func(b []byte) []byte { b[4] = 0; return b }), ErrVersion},
		{"version 2", mut(func(b []byte) []byte { b[4] = 2; return b }), ErrVersion},
		{"kind 0", mut(func(b []byte) []byte { b[5] = 0; return b }), ErrKind},
		{"kind 7", mut(func(b []byte) []byte { b[5] = 7; return b }), ErrKind},
		{"seq 0", mut(func(b []byte) []byte { b[17] = 0; return b }), ErrSeq},
	}
	for _, c := range cases {
		if _, err := Decode(c.b); !errors.Is(err, c.want) {
			t.Errorf("%s: err %v, want %v", c.name, err, c.want)
		}
	}
	if _, err := (Anchor{Kind: 9, Seq: 1}).Encode(); !errors.Is(err, ErrKind) {
		t.Errorf("encode kind 9: %v", err)
	}
	if _, err := (Anchor{Kind: Exchange}).Encode(); !errors.Is(err, ErrSeq) {
		t.Errorf("encode seq 0: %v", err)
	}
}

func TestKindNames(t *testing.T) {
	names := []string{"exchange", "commitment", "turn", "opened", "replay", "transcript"}
	for i, n := range names {
		k, err := ParseKind(n)
		if err != nil || k != Kind(i+1) || k.String() != n {
			t.Errorf("%s: %d %v %s", n, k, err, k.String())
		}
	}
	for _, bad := range []string{"", "Exchange", "kind(1)", "anchor.exchange"} {
		if _, err := ParseKind(bad); !errors.Is(err, ErrKind) {
			t.Errorf("ParseKind(%q) err %v", bad, err)
		}
	}
	if Kind(0).String() != "kind(0)" || Kind(200).String() != "kind(200)" {
		t.Error("unknown kinds print")
	}
}

func TestParseRound(t *testing.T) {
	good := map[string]uint64{"T-9931": 9931, "T-0": 0, "T-1": 1, "T-18446744073709551615": 1<<64 - 1}
	for id, n := range good {
		got, err := ParseRound(id)
		if err != nil || got != n {
			t.Errorf("%s: %d %v", id, got, err)
		}
		if RoundID(n) != id {
			t.Errorf("RoundID(%d) = %s", n, RoundID(n))
		}
	}
	for _, id := range []string{"", "T-", "T-01", "t-1", "T--1", "T-+1", "T-1a", "T- 1", "9931", "T-18446744073709551616", "T-١"} {
		if _, err := ParseRound(id); !errors.Is(err, ErrRound) {
			t.Errorf("ParseRound(%q) err %v", id, err)
		}
	}
}

func TestReplaySeq(t *testing.T) {
	s, err := ReplaySeq(time.Date(2026, 11, 30, 5, 0, 0, 0, time.UTC))
	if err != nil || s != 1796014800 {
		t.Fatalf("%d %v", s, err)
	}
	if _, err := ReplaySeq(time.Unix(0, 0)); !errors.Is(err, ErrSeq) {
		t.Errorf("epoch: %v", err)
	}
	if _, err := ReplaySeq(time.Unix(1<<32, 0)); !errors.Is(err, ErrSeq) {
		t.Errorf("2106: %v", err)
	}
}

func TestCheckNumbering(t *testing.T) {
	a := func(k Kind, seq uint32) Anchor { return Anchor{Kind: k, Round: 5, Seq: seq} }
	ok := [][]Anchor{
		nil,
		{a(Opened, 1), a(Exchange, 2), a(Commitment, 3), a(Turn, 4), a(Exchange, 5), a(Transcript, 6)},
		{a(Exchange, 1), a(Exchange, 2), a(Replay, 1796014800), a(Commitment, 3)},
		{a(Opened, 1), a(Transcript, 2), a(Replay, 1796014800), a(Replay, 1796014900)},
	}
	for i, as := range ok {
		if err := CheckNumbering(as); err != nil {
			t.Errorf("ok %d: %v", i, err)
		}
	}
	bad := []struct {
		as   []Anchor
		want error
	}{
		{[]Anchor{a(Exchange, 2)}, ErrSeq},                                       // starts at 2
		{[]Anchor{a(Exchange, 1), a(Exchange, 1)}, ErrSeq},                       // repeat
		{[]Anchor{a(Exchange, 1), a(Exchange, 3)}, ErrSeq},                       // gap
		{[]Anchor{a(Exchange, 1), a(Opened, 2)}, ErrSeq},                         // opened not first
		{[]Anchor{a(Turn, 1), a(Turn, 2)}, ErrSeq},                               // two mid-round anchors
		{[]Anchor{a(Transcript, 1), a(Exchange, 2)}, ErrSeq},                     // play after the end
		{[]Anchor{a(Exchange, 1), {Kind: Exchange, Round: 6, Seq: 2}}, ErrRound}, // two rounds
		{[]Anchor{a(0, 1)}, ErrKind},
		{[]Anchor{a(Replay, 0)}, ErrSeq},
	}
	for i, c := range bad {
		if err := CheckNumbering(c.as); !errors.Is(err, c.want) {
			t.Errorf("bad %d: %v, want %v", i, err, c.want)
		}
	}
}

// FuzzDecode: Decode never panics, accepts only 50-byte inputs, and whatever it accepts
// re-encodes to the same bytes.
func FuzzDecode(f *testing.F) {
	good, _ := Anchor{Kind: Exchange, Round: 9931, Seq: 1}.Encode()
	f.Add(good)
	f.Add([]byte{})
	f.Add([]byte("DDDA\x01\x07"))
	f.Fuzz(func(t *testing.T, b []byte) {
		a, err := Decode(b)
		if err != nil {
			return
		}
		back, err := a.Encode()
		if err != nil || !bytes.Equal(back, b) {
			t.Fatalf("accepted %x but re-encodes to %x (%v)", b, back, err)
		}
	})
}
