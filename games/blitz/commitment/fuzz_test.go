package commitment

import (
	"encoding/json"
	"testing"

	"arena/games/canon"
)

// FuzzParse: never panics; an accepted commitment's canonical bytes are canonical, its id is
// theirs, and re-marshalling the parsed commitment gives the same id.
func FuzzParse(f *testing.F) {
	f.Add(signed(f, baseObj(), testKey("alice")))
	f.Add(signed(f, exampleObj, testKey("alice")))
	f.Add([]byte(`{"v":1,"Amount":1,"amount":2}`))
	f.Add([]byte(`{"v":1,"round":"T-1","turn":1,"seq":1,"payer":"a","payee":"b","amount":9007199254740993,"condition":{"always":true},"due":1,"sig":"x"}`))
	f.Fuzz(func(t *testing.T, raw []byte) {
		c, cb, err := Parse(raw)
		if err != nil {
			if Code(err) == "" {
				t.Fatalf("error without a code: %v", err)
			}
			return
		}
		if again, err := canon.Canonical(cb.Bytes); err != nil || string(again) != string(cb.Bytes) {
			t.Fatalf("canonical bytes not canonical: %s", cb.Bytes)
		}
		if cb.ID != canon.ID(cb.Bytes) {
			t.Fatal("id mismatch")
		}
		sig := c.Sig
		c.Sig = ""
		re, err := canon.Marshal(c)
		if err != nil || canon.ID(re) != cb.ID {
			t.Fatalf("re-marshalled commitment differs:\n%s\n%s (%v)", re, cb.Bytes, err)
		}
		c.Sig = sig
		full, _ := json.Marshal(c)
		if _, cb2, err := Parse(full); err != nil || cb2.ID != cb.ID {
			t.Fatalf("re-parse: %v", err)
		}
	})
}

// FuzzParseCondition: never panics; every refusal is bad_condition; an accepted condition has
// depth ≤ MaxDepth and re-parses from its own marshalled form to the same form.
func FuzzParseCondition(f *testing.F) {
	for _, s := range []string{`{"always":true}`, `{"backs":["a","b",5]}`, `{"survives":["a",2]}`,
		`{"honoured":"sha256:` + "0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef" + `"}`,
		`{"not":{"and":[{"always":true},{"or":[{"always":true},{"always":true}]}]}}`,
		`{"and":[{"always":true},{"always":true}]}`, `{"or":[1,2]}`, `{"Always":true,"always":true}`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, raw []byte) {
		c, err := ParseCondition(raw)
		if err != nil {
			if Code(err) != CodeBadCondition {
				t.Fatalf("refusal %v is not bad_condition", err)
			}
			return
		}
		if c.Depth() > MaxDepth {
			t.Fatalf("depth %d accepted", c.Depth())
		}
		out, err := json.Marshal(c)
		if err != nil {
			t.Fatalf("marshal: %v", err)
		}
		c2, err := ParseCondition(out)
		if err != nil {
			t.Fatalf("own form refused: %s: %v", out, err)
		}
		out2, _ := json.Marshal(c2)
		if string(out) != string(out2) {
			t.Fatalf("unstable: %s vs %s", out, out2)
		}
	})
}

// FuzzIntent: ParseIntent and Fill never panic; every refusal carries a code; a filled intent
// re-parses to the id Fill gave.
func FuzzIntent(f *testing.F) {
	for _, s := range []string{
		`{"ref":"b","payee":2,"chips":40,"condition":{"and":[{"backs":[3,1,5000000]},{"honoured":"ref:a"}]},"due":3,"pair":"deal:00ff00ff"}`,
		`{"payee":"` + carol + `","amount":1000000,"condition":{"survives":["` + bob + `",2]},"due":2}`,
		`{"payee":9,"chips":1,"condition":{"always":true},"due":2}`,
		`{"payee":2,"chips":1,"condition":{"not":{"backs":[1,2]}},"due":5}`,
	} {
		f.Add([]byte(s))
	}
	key := testKey("walkin")
	f.Fuzz(func(t *testing.T, raw []byte) {
		in, err := ParseIntent(raw)
		if err != nil {
			if Code(err) == "" {
				t.Fatalf("refusal without a code: %v", err)
			}
			return
		}
		c, cb, signed, err := Fill(in, fillCtx(), signWith(key))
		if err != nil {
			if Code(err) == "" {
				t.Fatalf("Fill refusal without a code: %v", err)
			}
			return
		}
		_, cb2, err := Parse(signed)
		if err != nil || cb2.ID != cb.ID || c.Amount != in.Amount {
			t.Fatalf("filled commitment re-parses differently: %v", err)
		}
	})
}
