package housemodel

import (
	"context"
	"errors"
	"strings"
	"testing"
	"unicode/utf8"

	"arena/transport/dotdotdot/housemodel/modelstub"
)

// TestThinkRefusalClippedOnARuneBoundary: a long refusal in a script of multi-byte runes is
// clipped for the error (and so for the ots seat's fallback log) on a rune boundary: the
// error stays valid UTF-8 and keeps the refusal's first 200 bytes' worth of whole runes.
func TestThinkRefusalClippedOnARuneBoundary(t *testing.T) {
	refusal := "x" + strings.Repeat("拒", 150) // 1 + 450 bytes: byte 200 falls inside a rune
	stub := modelstub.Start(func(modelstub.Request) modelstub.Reply { return modelstub.Reply{Refusal: refusal} })
	defer stub.Close()
	cl, err := New(Config{URL: stub.URL, Model: "house-small"})
	if err != nil {
		t.Fatal(err)
	}
	_, err = cl.Think(context.Background(), readFixture(t, "envelope.json"), readFixture(t, "playbook.json"))
	if !errors.Is(err, ErrRefused) {
		t.Fatalf("Think error %v, want ErrRefused", err)
	}
	if !utf8.ValidString(err.Error()) {
		t.Fatalf("Think error is not valid UTF-8: %q", err.Error())
	}
	want := "x" + strings.Repeat("拒", 66) + "…" // 199 bytes of whole runes, then the ellipsis
	if !strings.Contains(err.Error(), want) || strings.Contains(err.Error(), want[:len(want)-len("…")]+"拒") {
		t.Fatalf("Think error %q, want the refusal clipped to %q", err.Error(), want)
	}
}
