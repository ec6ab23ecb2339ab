package games

import (
	"encoding/json"
	"slices"
	"strings"
	"testing"
)

// Every form a visibility takes: its scope, recipients, reveal policy and who reads it before
// and after the end. The wire form is the string itself.
func TestVisibilityForms(t *testing.T) {
	cases := []struct {
		v            Visibility
		scope        string
		to           []int
		reveal       string
		before       []int // viewers 0..4 who read it before the end
		after        []int // ... and after
		wantJSONText string
	}{
		{Public, ScopePublic, nil, RevealEnd, []int{0, 1, 2, 3, 4}, []int{0, 1, 2, 3, 4}, `"public"`},
		{Private(3), ScopeSeats, []int{3}, RevealEnd, []int{3}, []int{0, 1, 2, 3, 4}, `"private:3"`},
		{Private(1, 4), ScopeSeats, []int{1, 4}, RevealEnd, []int{1, 4}, []int{0, 1, 2, 3, 4}, `"private:1,4"`},
		{Sealed, ScopeSealed, nil, RevealEnd, nil, []int{0, 1, 2, 3, 4}, `"sealed"`},
		{Private(3).Never(), ScopeSeats, []int{3}, RevealNever, []int{3}, []int{3}, `"private:3:never"`},
		{Sealed.Never(), ScopeSealed, nil, RevealNever, nil, nil, `"sealed:never"`},
		{"private:x", ScopeSealed, nil, RevealEnd, nil, []int{0, 1, 2, 3, 4}, `"private:x"`},
	}
	for _, c := range cases {
		if c.v.Scope() != c.scope || !slices.Equal(c.v.To(), c.to) || c.v.Reveal() != c.reveal {
			t.Errorf("%q: scope %s to %v reveal %s", c.v, c.v.Scope(), c.v.To(), c.v.Reveal())
		}
		for _, ended := range []bool{false, true} {
			want := c.before
			if ended {
				want = c.after
			}
			var got []int
			for viewer := 0; viewer <= 4; viewer++ {
				if c.v.Shows(viewer, ended) {
					got = append(got, viewer)
				}
			}
			if !slices.Equal(got, want) {
				t.Errorf("%q ended=%v: shown to %v, want %v", c.v, ended, got, want)
			}
		}
		b, _ := json.Marshal(Event{Visibility: c.v})
		var back Event
		if err := json.Unmarshal(b, &back); err != nil || back.Visibility != c.v ||
			!json.Valid(b) || !strings.Contains(string(b), `"visibility":`+c.wantJSONText) {
			t.Errorf("%q: JSON %s (%v)", c.v, b, err)
		}
	}
	if Private() != Sealed || Public.Never() != Public || Private(2).Never().Never() != Private(2).Never() {
		t.Fatal("constructors")
	}
}

// Redact keeps what a viewer reads, in order, and leaves the input alone.
func TestRedact(t *testing.T) {
	evs := []Event{{Seq: 1, Visibility: Public}, {Seq: 2, Visibility: Private(1)}, {Seq: 3, Visibility: Sealed},
		{Seq: 4, Visibility: Private(2).Never()}, {Seq: 5, Visibility: Private(1, 2)}}
	seqs := func(es []Event) (out []int64) {
		for _, e := range es {
			out = append(out, e.Seq)
		}
		return out
	}
	for _, c := range []struct {
		viewer int
		ended  bool
		want   []int64
	}{
		{0, false, []int64{1}}, {1, false, []int64{1, 2, 5}}, {2, false, []int64{1, 4, 5}},
		{0, true, []int64{1, 2, 3, 5}}, {2, true, []int64{1, 2, 3, 4, 5}},
	} {
		if got := seqs(Redact(evs, c.viewer, c.ended)); !slices.Equal(got, c.want) {
			t.Errorf("viewer %d ended %v: %v, want %v", c.viewer, c.ended, got, c.want)
		}
	}
	if len(evs) != 5 || evs[1].Seq != 2 {
		t.Fatal("Redact changed its input")
	}
}

// Rank gives equal scores one rank and orders ties by seat.
func TestRank(t *testing.T) {
	got := Rank(map[int]float64{1: 5, 2: 9, 3: 5, 4: -1})
	want := []Standing{{2, 1, 9}, {1, 2, 5}, {3, 2, 5}, {4, 4, -1}}
	if !slices.Equal(got, want) {
		t.Fatalf("%v, want %v", got, want)
	}
	r := Result{Standings: got}
	if p, ok := r.Place(3); !ok || p != 2 || !slices.Equal(r.Ranking(), []int{2, 1, 3, 4}) || r.ScoreOf(4) != -1 {
		t.Fatalf("place %d %v ranking %v", p, ok, r.Ranking())
	}
}

// An action writes its bounds beside its name and reads back the same.
func TestActionJSON(t *testing.T) {
	as := []Action{Act("fold"), {Name: "raise", Bounds: json.RawMessage(`{"min":1,"max":10}`)},
		{Name: "vote", Bounds: json.RawMessage(` {"targets":[0,2,5]} `)}, {Name: "x", Bounds: json.RawMessage(`{}`)}}
	b, err := json.Marshal(as)
	if err != nil || string(b) != `[{"action":"fold"},{"action":"raise","min":1,"max":10},{"action":"vote","targets":[0,2,5]},{"action":"x"}]` {
		t.Fatalf("%s %v", b, err)
	}
	var back []Action
	if err := json.Unmarshal(b, &back); err != nil || !slices.Equal(Names(back), []string{"fold", "raise", "vote", "x"}) ||
		string(back[1].Bounds) != `{"max":10,"min":1}` || back[0].Bounds != nil {
		t.Fatalf("%+v %v", back, err)
	}
	for _, bad := range []Action{{Name: "a", Bounds: json.RawMessage(`[1]`)}, {Name: "a", Bounds: json.RawMessage(`{"action":"b"}`)}} {
		if _, err := json.Marshal(bad); err == nil {
			t.Errorf("%s marshalled", bad.Bounds)
		}
	}
	if err := json.Unmarshal([]byte(`{"min":1}`), &back); err == nil {
		t.Error("an action without a name read")
	}
}

// SubSeed streams are fixed by seed and label, and differ by label.
func TestSubSeed(t *testing.T) {
	var seed [32]byte
	seed[0] = 7
	a, b, c := SubSeed(seed, "house/1"), SubSeed(seed, "house/1"), SubSeed(seed, "house/2")
	x, y, z := a.Uint64(), b.Uint64(), c.Uint64()
	if x != y || x == z {
		t.Fatalf("%x %x %x", x, y, z)
	}
}
