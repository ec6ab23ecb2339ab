package dotdotdot

import (
	"bytes"
	"errors"
	"testing"

	"arena/games"
)

// TestNameKey: the spellings a reader cannot tell apart have one key; different names do not.
func TestNameKey(t *testing.T) {
	same := [][2]string{
		{"Jos\u00e9", "Jose\u0301"},             // NFC, NFD
		{"JOS\u00c9", "jose\u0301"},             // case and form
		{"Ada", "\uff21\uff44\uff41"},           // full-width
		{"Stra\u00dfe", "STRASSE"},              // ß folds to ss
		{"Ada  Lovelace", " Ada\u00a0Lovelace"}, // white space runs, no-break space
		{"\ufb01nn", "FINN"},                    // the fi ligature
	}
	for _, p := range same {
		if nameKey(p[0]) != nameKey(p[1]) {
			t.Errorf("nameKey(%q) = %q, nameKey(%q) = %q: want equal", p[0], nameKey(p[0]), p[1], nameKey(p[1]))
		}
	}
	for _, p := range [][2]string{{"Jose", "Jos\u00e9"}, {"Ada", "Adа"} /* Cyrillic а */, {"Basil", "Basil2"}} {
		if nameKey(p[0]) == nameKey(p[1]) {
			t.Errorf("nameKey(%q) == nameKey(%q): want different", p[0], p[1])
		}
	}
	if got := canonicalName("  Jose\u0301   the\tGreat "); got != "Jos\u00e9 the Great" {
		t.Errorf("canonicalName = %q", got)
	}
}

// TestWalkinNameCanonicalForms: a name is stored in NFC, found by any spelling of it, and its
// full-width or upper-case twin is name_taken.
func TestWalkinNameCanonicalForms(t *testing.T) {
	e := newDeskEnv(t, "", nil)
	ctx := deskCtx(t)
	if _, err := e.a.RegisterWalkin(ctx, "  Zoe\u0308  Q ", ""); err != nil {
		t.Fatal(err)
	}
	for _, twin := range []string{"ZO\u00cb Q", "zo\u00eb  q", "\uff3aoe\u0308 Q"} {
		_, err := e.a.RegisterWalkin(ctx, twin, "")
		var ge *games.Error
		if !errors.As(err, &ge) || ge.Code != CodeNameTaken {
			t.Errorf("register %q beside \"Zoë Q\": %v, want name_taken", twin, err)
		}
	}
	for _, ask := range []string{"Zo\u00eb Q", "zoe\u0308 q", " ZOË  Q"} {
		b, err := e.a.WalkinPage(ctx, ask)
		if err != nil {
			t.Fatalf("page of %q: %v", ask, err)
		}
		if want := "\"name\":\"Zo\u00eb Q\""; !bytes.Contains(b, []byte(want)) {
			t.Errorf("page of %q: %s, want %s", ask, b, want)
		}
	}
}
