package board

import (
	"errors"
	"strings"
	"testing"
)

func TestParseOrderNormalizes(t *testing.T) {
	cases := []struct {
		ph       Phase
		in, want string
	}{
		{Movement, "A vie - gal", "A vie - gal"},
		{Movement, "a  VIE->GAL", "A vie - gal"},
		{Movement, "F stp(sc) - bot", "F stp/sc - bot"},
		{Movement, "f mao - spa(sc)", "F mao - spa/sc"},
		{Movement, "F wes - spa", "F wes - spa/sc"},
		{Movement, "F gas - spa", "F gas - spa/nc"},
		{Movement, "F kie - den", "F kie - den"},
		{Movement, "A lon - bel", "A lon - bel"},
		{Movement, "A lon - bel via convoy", "A lon - bel via convoy"},
		{Movement, "A par h", "A par H"},
		{Movement, "A mun S A ber", "A mun S A ber"},
		{Movement, "F nth S A lon - bel", "F nth S A lon - bel"},
		{Movement, "F mao S F gas - spa/nc", "F mao S F gas - spa/nc"},
		{Movement, "F mao S A gas - spa", "F mao S A gas - spa"},
		{Movement, "F nth C A lon - nwy", "F nth C A lon - nwy"},
		{Movement, "F bul/ec - con", "F bul/ec - con"},
		{Retreats, "A war r pru", "A war R pru"},
		{Retreats, "A war - pru", "A war R pru"},
		{Retreats, "F stp/nc D", "F stp/nc D"},
		{Adjustments, "B F stp/nc", "B F stp/nc"},
		{Adjustments, "b a mos", "B A mos"},
		{Adjustments, "D F nth", "D F nth"},
		{Adjustments, "w", "W"},
	}
	for _, c := range cases {
		o, err := ParseOrder(c.ph, c.in)
		if err != nil {
			t.Errorf("%q: %v", c.in, err)
			continue
		}
		if o.String() != c.want {
			t.Errorf("%q -> %q, want %q", c.in, o.String(), c.want)
		}
	}
	if o, _ := ParseOrder(Movement, "A lon - bel"); !o.Convoyed || o.ViaTag {
		t.Errorf("A lon - bel: %+v, want implicit convoy", o)
	}
}

func TestParseOrderRejectsImpossible(t *testing.T) {
	cases := []struct {
		ph      Phase
		in, why string
	}{
		{Movement, "", "empty"},
		{Movement, "A xyz - gal", "unknown province"},
		{Movement, "A nth H", "army cannot be"},
		{Movement, "F par H", "fleet cannot be"},
		{Movement, "A swi H", "impassable"},
		{Movement, "A par - nth", "army cannot move to sea"},
		{Movement, "F lon - par", "inland"},
		{Movement, "A par - mos", "not adjacent"},
		{Movement, "A mun - kie via", `"convoy"`},
		{Movement, "F lon - bel via convoy", "only an army"},
		{Movement, "F mao - spa", "needs a coast"},
		{Movement, "F wes - spa/nc", "cannot reach"},
		{Movement, "F lyo S F wes - spa/nc", "cannot reach"},
		{Movement, "F stp/nc - bot", "not adjacent"},
		{Movement, "F bul/sc - bla", "not adjacent"},
		{Movement, "F ber - den", "not adjacent"},
		{Movement, "A par - par", "own province"},
		{Movement, "A par - bur extra", "unexpected"},
		{Movement, "A mun S A mun", "itself"},
		{Movement, "A mun S A ber - mun", "own province"},
		{Movement, "A par S A mun - ruh", "cannot support"},
		{Movement, "F nth S A par - bur", "cannot support"},
		{Movement, "F eng C F lon - bre", "only an army"},
		{Movement, "F lon C A wal - bre", "sea province"},
		{Movement, "F eng C A par - bre", "coastal"},
		{Movement, "A par R bur", "unknown order"},
		{Movement, "B A par", "unit type"},
		{Retreats, "A par S A bur", "R or D"},
		{Retreats, "A par R mos", "not adjacent"},
		{Adjustments, "B F par", "inland"},
		{Adjustments, "B F stp", "needs a coast"},
		{Adjustments, "B A bel", "not a home centre"},
		{Adjustments, "A par H", "B, D or W"},
		{Movement, "A stp/nc - fin", "army cannot be"},
	}
	for _, c := range cases {
		_, err := ParseOrder(c.ph, c.in)
		if err == nil || !errors.Is(err, ErrOrder) || !strings.Contains(err.Error(), c.why) {
			t.Errorf("%q: err %v, want one mentioning %q", c.in, err, c.why)
		}
	}
}

func FuzzParseOrder(f *testing.F) {
	for _, s := range []string{"A vie - gal", "F stp(sc) -> bot", "F nth C A lon - nwy", "B F stp/nc", "W", "A lon - bel via convoy", "F mao S F gas - spa/nc", "A war R pru", "--", "f spa/ S"} {
		f.Add(uint8(1), s)
	}
	f.Fuzz(func(t *testing.T, ph uint8, s string) {
		p := Phase(ph%3 + 1)
		o, err := ParseOrder(p, s)
		if err != nil {
			if !errors.Is(err, ErrOrder) {
				t.Fatalf("error not ErrOrder: %v", err)
			}
			return
		}
		// The normalized form parses back to itself.
		o2, err := ParseOrder(p, o.String())
		if err != nil || o2 != o {
			t.Fatalf("%q -> %q -> %+v, %v", s, o.String(), o2, err)
		}
	})
}
