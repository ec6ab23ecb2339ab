package breakroom

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"math/rand/v2"
	"regexp"
	"strings"
	"testing"

	"arena/games"
)

// keyOf is a 64-hex key made from s (any bytes will do: names hash the key as given).
func keyOf(s string) string {
	h := sha256.Sum256([]byte(s))
	return hex.EncodeToString(h[:])
}

// Keys found by search whose generated names are known: two that share one, two that share one
// and their first 8 hex characters, one that is "Amber Otter".
const (
	ferretA  = "db0662bc80b5355d973cf508147deb165b044eea5d049b2afc0c7899dfa694e7" // Copper Ferret
	ferretB  = "e4b06c670b9813807fb2eaa7f3a31da9a54883281274c8700ed84d3cc13cb933" // Copper Ferret
	ibexA    = "abcdef0165222d30843eced57a939d43bf8dc963ee2023249b9eb66a2e6de47c" // Marble Ibex
	ibexB    = "abcdef010b1620a8d4763e0656d58bd3b8fbc06586ad22d6e60de3523b5f8269" // Marble Ibex
	amberKey = "a61feb20a7a3db0f650231255b9bfec1cc2b5e83f02937cd24be4ba7a9039028" // Amber Otter
)

// TestWordLists: 128 capitalised ASCII words each, distinct in any case, so the modulo is
// unbiased and a generated name is two words with one space.
func TestWordLists(t *testing.T) {
	word := regexp.MustCompile(`^[A-Z][a-z]+$`)
	for name, list := range map[string][]string{"adjectives": adjectives[:], "animals": animals[:]} {
		if len(list) != 128 {
			t.Errorf("%s: %d words, want 128", name, len(list))
		}
		seen := map[string]bool{}
		for _, w := range list {
			if !word.MatchString(w) {
				t.Errorf("%s: %q is not one capitalised ASCII word", name, w)
			}
			if seen[strings.ToLower(w)] {
				t.Errorf("%s: %q twice", name, w)
			}
			seen[strings.ToLower(w)] = true
		}
	}
}

// TestGeneratedName: the name is sha256("breakroom/display_name:"+key)'s first two 8-byte
// words, big-endian, modulo 128, into the lists; these keys' names are pinned (a key keeps its
// name across releases).
func TestGeneratedName(t *testing.T) {
	for key, want := range map[string]string{
		"dff1d77f2a671c5f36183726db2341be58feae1da2deced843240f7b502ba659": "Umber Camel",
		"f9308a019258c31049344f85f89d5229b531c845836f99b08601f113bce036f9": "Ruby Armadillo",
		amberKey: "Amber Otter",
		ferretA:  "Copper Ferret",
		ferretB:  "Copper Ferret",
		ibexA:    "Marble Ibex",
		ibexB:    "Marble Ibex",
	} {
		if got := GeneratedName(key); got != want {
			t.Errorf("GeneratedName(%s) = %q, want %q", key, got, want)
		}
		h := sha256.Sum256([]byte("breakroom/display_name:" + key))
		if got := adjectives[h[7]%128] + " " + animals[h[15]%128]; got != want {
			t.Errorf("%s: the hash's rule gives %q, want %q", key, got, want)
		}
	}
}

// TestGeneratedNameSpread: over 8192 keys every word of both lists is drawn, none more than
// three times as often as an even share (64).
func TestGeneratedNameSpread(t *testing.T) {
	adj, ani := map[string]int{}, map[string]int{}
	for i := 0; i < 8192; i++ {
		a, b, _ := strings.Cut(GeneratedName(keyOf(fmt.Sprint(i))), " ")
		adj[a]++
		ani[b]++
	}
	for _, c := range []map[string]int{adj, ani} {
		if len(c) != 128 {
			t.Errorf("%d distinct words drawn, want 128", len(c))
		}
		for w, n := range c {
			if n > 192 {
				t.Errorf("%q drawn %d times of 8192", w, n)
			}
		}
	}
}

// TestCleanName: white space trimmed and collapsed; at most 40 code points; characters that
// hide or fake text refused with bad_request, never cut.
func TestCleanName(t *testing.T) {
	ok := []struct{ in, want string }{
		{"", ""},
		{"   \t\n", ""},
		{"Claude", "Claude"},
		{"  Claude  ", "Claude"},
		{"Ada\t\t Lovelace\n", "Ada Lovelace"},
		{"Ada\u00a0\u3000Lovelace", "Ada Lovelace"},
		{"Zoë (the 2nd) ♟ 🤖", "Zoë (the 2nd) ♟ 🤖"},
		{"Amber Otter", "Amber Otter"},
		{strings.Repeat("a", 40), strings.Repeat("a", 40)},
		{strings.Repeat("é", 40), strings.Repeat("é", 40)}, // 80 bytes, 40 code points
		{"  " + strings.Repeat("b", 40) + "  ", strings.Repeat("b", 40)},
	}
	for _, c := range ok {
		got, err := CleanName(c.in)
		if err != nil || got != c.want {
			t.Errorf("CleanName(%q) = %q, %v; want %q", c.in, got, err, c.want)
		}
	}
	refused := []string{
		strings.Repeat("a", 41),
		strings.Repeat("é", 41),
		"Cla\x00ude",
		"Cla\x7fude",
		"\u202eedualC",       // right-to-left override
		"Cla\u200dude",       // zero-width joiner
		"Cla\u200bude",       // zero-width space (a format character, not white space)
		"Claude\ue000",       // private use
		"Claude\u0378",       // unassigned
		"Claude\xff",         // not UTF-8
		"Claude\xed\xa0\x80", // a surrogate's bytes
	}
	for _, in := range refused {
		got, err := CleanName(in)
		var ge *games.Error
		if !errors.As(err, &ge) || ge.Code != games.CodeBadRequest || got != "" {
			t.Errorf("CleanName(%q) = %q, %v; want a bad_request refusal", in, got, err)
		}
	}
}

// TestDisplayNames: the protocol's cases and the collisions it leaves open.
func TestDisplayNames(t *testing.T) {
	k := func(i int) string { return keyOf(fmt.Sprint("seat", i)) }
	gen := func(i int) string { return GeneratedName(k(i)) }
	cases := []struct {
		name string
		in   []Identity
		want []string
	}{
		{"unique names", []Identity{{k(0), "Claude"}, {k(1), "GPT"}, {k(2), "  Gemini "}},
			[]string{"Claude", "GPT", "Gemini"}},
		{"no name", []Identity{{k(0), ""}, {k(1), "GPT"}, {k(2), "\t"}},
			[]string{gen(0), "GPT", gen(2)}},
		{"a shared name", []Identity{{k(0), "Claude"}, {k(1), "Claude"}, {k(2), "GPT"}},
			[]string{"Claude (" + gen(0) + ")", "Claude (" + gen(1) + ")", "GPT"}},
		{"a shared name in another case", []Identity{{k(0), "claude"}, {k(1), "CLAUDE"}},
			[]string{"claude (" + gen(0) + ")", "CLAUDE (" + gen(1) + ")"}},
		{"the same name once cleaned", []Identity{{k(0), "Ada  Lovelace"}, {k(1), " Ada Lovelace"}},
			[]string{"Ada Lovelace (" + gen(0) + ")", "Ada Lovelace (" + gen(1) + ")"}},
		{"a name refused by CleanName", []Identity{{k(0), "Cla\u200dude"}, {k(1), strings.Repeat("x", 41)}},
			[]string{gen(0), gen(1)}},
		{"a name that is another's generated name", []Identity{{amberKey, ""}, {k(1), "Amber Otter"}},
			[]string{"Amber Otter", "Amber Otter (" + gen(1) + ")"}},
		{"a name that is another's generated name, that player named", []Identity{{amberKey, "Claude"}, {k(1), "amber otter"}},
			[]string{"Claude", "amber otter (" + gen(1) + ")"}},
		{"one's own generated name", []Identity{{amberKey, "Amber Otter"}, {k(1), ""}},
			[]string{"Amber Otter", gen(1)}},
		{"a name faking a disambiguated one", []Identity{{amberKey, "Claude"}, {k(1), "Claude"}, {k(2), "Claude (Amber Otter)"}},
			[]string{"Claude (Amber Otter)", "Claude (" + gen(1) + ")", "Claude (Amber Otter) (" + gen(2) + ")"}},
		{"two generated names alike", []Identity{{ferretA, ""}, {ferretB, ""}, {k(2), "Copper Ferret"}},
			[]string{"Copper Ferret db06", "Copper Ferret e4b0", "Copper Ferret (" + gen(2) + ")"}},
		{"two generated names alike in a shared name", []Identity{{ferretA, "Claude"}, {ferretB, "Claude"}},
			[]string{"Claude (Copper Ferret db06)", "Claude (Copper Ferret e4b0)"}},
		{"two generated names and 8 key characters alike", []Identity{{ibexA, ""}, {ibexB, ""}},
			[]string{"Marble Ibex abcdef016", "Marble Ibex abcdef010"}},
		{"a name that is another's tagged generated name", []Identity{{ferretA, ""}, {ferretB, ""}, {k(2), "copper ferret DB06"}},
			[]string{"Copper Ferret db06", "Copper Ferret e4b0", "copper ferret DB06 (" + gen(2) + ")"}},
		{"one key twice", []Identity{{k(0), ""}, {k(0), ""}, {k(0), "Claude"}},
			[]string{gen(0) + " " + k(0), gen(0) + " " + k(0) + " #1", "Claude"}},
	}
	if gen(0) == gen(1) || gen(1) == gen(2) || gen(0) == gen(2) || gen(1) == "Amber Otter" || gen(2) == "Amber Otter" {
		t.Fatal("the test's keys share a generated name")
	}
	for _, c := range cases {
		got := DisplayNames(c.in)
		if strings.Join(got, "|") != strings.Join(c.want, "|") {
			t.Errorf("%s:\n got %q\nwant %q", c.name, got, c.want)
		}
		checkDistinct(t, c.in, got)
	}
}

// checkDistinct fails unless names are pairwise distinct case-insensitively.
func checkDistinct(t *testing.T, in []Identity, names []string) {
	t.Helper()
	for i := range names {
		for j := i + 1; j < len(names); j++ {
			if strings.EqualFold(names[i], names[j]) {
				t.Fatalf("%+v: seats %d and %d are both named %q / %q", in, i, j, names[i], names[j])
			}
		}
	}
}

// TestDisplayNamesRandomTables: tables of 1–10 drawn from a pool of keys (two pairs sharing a
// generated name) and hostile names (each other's generated and disambiguated names, case
// variants): the names are always distinct, the same input gives the same names, and a clean
// name no other seat uses as a name, generated name, table name or display name is shown as it
// is.
func TestDisplayNamesRandomTables(t *testing.T) {
	keys := []string{ferretA, ferretB, ibexA, ibexB, amberKey, keyOf("x"), keyOf("y"), keyOf("z")}
	pool := []string{"", "", "Claude", "claude", "Amber Otter", "Copper Ferret", "Copper Ferret db06",
		"Claude (Amber Otter)", "Claude (Copper Ferret e4b0)", "Marble Ibex abcdef016", "GPT", "  GPT ",
		GeneratedName(keyOf("x")), "Claude (" + GeneratedName(keyOf("y")) + ")", "x (y", ")", "(", "Zoë"}
	rng := rand.New(rand.NewPCG(1, 2))
	for n := 0; n < 3000; n++ {
		perm := rng.Perm(len(keys))
		in := make([]Identity, 1+rng.IntN(len(keys)))
		for i := range in {
			in[i] = Identity{Key: keys[perm[i]], Name: pool[rng.IntN(len(pool))]}
		}
		got := DisplayNames(in)
		checkDistinct(t, in, got)
		if again := DisplayNames(in); strings.Join(again, "|") != strings.Join(got, "|") {
			t.Fatalf("%+v: %q then %q", in, got, again)
		}
		tables := TableNames(in)
		for i, p := range in {
			own, _ := CleanName(p.Name)
			if own == "" {
				if got[i] != tables[i] {
					t.Fatalf("%+v: seat %d has no name but is shown %q, not %q", in, i, got[i], tables[i])
				}
				continue
			}
			used := false
			for j, q := range in {
				o, _ := CleanName(q.Name)
				used = used || j != i && (strings.EqualFold(own, o) || strings.EqualFold(own, tables[j]) || strings.EqualFold(own, GeneratedName(q.Key)) || strings.EqualFold(own, got[j]))
			}
			if want := own + " (" + tables[i] + ")"; used && got[i] != want || !used && got[i] != own {
				t.Fatalf("%+v: seat %d (%q, used elsewhere %v) is shown %q", in, i, own, used, got[i])
			}
		}
	}
}

// FuzzDisplayNames: any three names on keys that share a generated name never give two seats
// one name, and never panic.
func FuzzDisplayNames(f *testing.F) {
	f.Add("Claude", "Claude", "Claude (Copper Ferret db06)")
	f.Add("", "Copper Ferret e4b0", "copper ferret")
	f.Add("\u202e", "x (Copper Ferret db06)", "\xff")
	f.Fuzz(func(t *testing.T, a, b, c string) {
		in := []Identity{{ferretA, a}, {ferretB, b}, {amberKey, c}}
		checkDistinct(t, in, DisplayNames(in))
	})
}
