package commitment

import (
	"encoding/json"
	"strings"
	"testing"
)

var id1 = "sha256:" + strings.Repeat("ab", 32)

func TestConditionVocabularyValid(t *testing.T) {
	cases := []struct {
		raw   string
		op    string
		depth int
	}{
		{`{"always":true}`, OpAlways, 0},
		{`{"backs":["` + alice + `","` + bob + `"]}`, OpBacks, 0},
		{`{"backs":["` + alice + `","` + bob + `",40000000]}`, OpBacks, 0},
		{`{"backs":["` + alice + `","` + bob + `",1]}`, OpBacks, 0},
		{`{"survives":["` + alice + `",3]}`, OpSurvives, 0},
		{`{"honoured":"` + id1 + `"}`, OpHonoured, 0},
		{`{"not":{"always":true}}`, OpNot, 1},
		{`{"and":[{"always":true},{"survives":["` + bob + `",1]}]}`, OpAnd, 1},
		{`{"or":[{"not":{"always":true}},{"always":true}]}`, OpOr, 2},
		{`{"not":{"and":[{"always":true},{"always":true}]}}`, OpNot, 2},
		{`{"and":[{"or":[{"always":true},{"honoured":"` + id1 + `"}]},{"not":{"backs":["` + alice + `","` + carol + `"]}}]}`, OpAnd, 2},
		{` { "always" : true } `, OpAlways, 0},
	}
	for _, c := range cases {
		got, err := ParseCondition(json.RawMessage(c.raw))
		if err != nil {
			t.Errorf("%s: %v", c.raw, err)
			continue
		}
		if got.Op != c.op || got.Depth() != c.depth {
			t.Errorf("%s: op %s depth %d, want %s %d", c.raw, got.Op, got.Depth(), c.op, c.depth)
		}
		// It marshals back to its own canonical form.
		out, err := json.Marshal(got)
		if err != nil {
			t.Fatalf("%s: marshal %v", c.raw, err)
		}
		var a, b any
		json.Unmarshal([]byte(c.raw), &a)
		json.Unmarshal(out, &b)
		ja, _ := json.Marshal(a)
		jb, _ := json.Marshal(b)
		if string(ja) != string(jb) {
			t.Errorf("round trip: %s → %s", c.raw, out)
		}
	}
	b, _ := ParseCondition(json.RawMessage(`{"backs":["` + alice + `","` + bob + `"]}`))
	if b.X != alice || b.Y != bob || b.Min != DefaultBacksMin || b.MinSet {
		t.Fatalf("backs default min: %+v", b)
	}
}

func TestConditionVocabularyInvalid(t *testing.T) {
	deep := `{"not":{"not":{"not":{"always":true}}}}`
	cases := map[string]string{
		`{}`:                                    "empty object",
		`{"always":true,"not":{"always":true}}`: "two operators in one object",
		`{"always":false}`:                      "always false",
		`{"always":1}`:                          "always 1",
		`{"Always":true}`:                       "case variant operator",
		`{"sometimes":true}`:                    "unknown operator",
		`{"backs":["` + alice + `"]}`:           "backs one operand",
		`{"backs":["` + alice + `","` + bob + `",1,2]}`:              "backs four operands",
		`{"backs":["` + alice + `","` + alice + `"]}`:                "backs same party",
		`{"backs":["` + alice + `","` + bob + `",0]}`:                "backs min 0",
		`{"backs":["` + alice + `","` + bob + `",-5]}`:               "backs min negative",
		`{"backs":["` + alice + `","` + bob + `",1.5]}`:              "backs min fractional",
		`{"backs":["` + alice + `","` + bob + `","1"]}`:              "backs min string",
		`{"backs":["` + alice + `","` + bob + `",9007199254740993]}`: "backs min unsafe",
		`{"backs":[1,2]}`:                                           "backs seat numbers outside an intent",
		`{"backs":["","` + bob + `"]}`:                              "backs empty id",
		`{"backs":["a b","` + bob + `"]}`:                           "backs id with space",
		`{"backs":{"x":"` + alice + `"}}`:                           "backs object",
		`{"survives":["` + alice + `"]}`:                            "survives one operand",
		`{"survives":["` + alice + `",0]}`:                          "survives n 0",
		`{"survives":["` + alice + `","3"]}`:                        "survives n string",
		`{"survives":[3,"` + alice + `"]}`:                          "survives swapped",
		`{"honoured":"sha256:abc"}`:                                 "honoured short id",
		`{"honoured":"` + strings.ToUpper(id1) + `"}`:               "honoured upper hex",
		`{"honoured":"ref:a"}`:                                      "honoured ref outside an intent",
		`{"honoured":1}`:                                            "honoured number",
		`{"not":[{"always":true}]}`:                                 "not array",
		`{"not":true}`:                                              "not bool",
		`{"and":[{"always":true}]}`:                                 "and one operand",
		`{"and":[{"always":true},{"always":true},{"always":true}]}`: "and three operands",
		`{"or":[]}`:              "or empty",
		`{"or":{"always":true}}`: "or object",
		deep:                     "depth 3 (not)",
		`{"and":[{"or":[{"not":{"always":true}},{"always":true}]},{"always":true}]}`: "depth 3 (and/or/not)",
		`{"always":true,"always":true}`:                                              "duplicate member",
		`{"always":true,"Always":true}`:                                              "folded member",
		`[{"always":true}]`:                                                          "array",
		`null`:                                                                       "null",
		`"always"`:                                                                   "string",
		`{"always":true} {}`:                                                         "trailing data",
		``:                                                                           "empty",
	}
	for raw, what := range cases {
		_, err := ParseCondition(json.RawMessage(raw))
		if Code(err) != CodeBadCondition {
			t.Errorf("%s (%s): err = %v, want bad_condition", what, raw, err)
		}
	}
}

func TestConditionEval(t *testing.T) {
	f := facts{
		backed:   map[[2]string]int64{{alice, bob}: 40_000_000},
		sealedAt: map[[2]string]int{{alice, bob}: 2},
		dead:     map[string]int{carol: 2}, // eliminated at turn 2's settle: alive at start of 1, 2
		honoured: map[string]bool{id1: true},
	}
	cases := []struct {
		raw  string
		due  int
		want bool
	}{
		{`{"always":true}`, 1, true},
		{`{"backs":["` + alice + `","` + bob + `"]}`, 2, true},
		{`{"backs":["` + alice + `","` + bob + `"]}`, 1, false}, // sealed at turn 2 > due 1
		{`{"backs":["` + alice + `","` + bob + `",40000000]}`, 5, true},
		{`{"backs":["` + alice + `","` + bob + `",40000001]}`, 5, false},
		{`{"backs":["` + bob + `","` + alice + `"]}`, 5, false},
		{`{"survives":["` + carol + `",2]}`, 5, true},
		{`{"survives":["` + carol + `",3]}`, 5, false},
		{`{"survives":["` + alice + `",5]}`, 5, true},
		{`{"honoured":"` + id1 + `"}`, 5, true},
		{`{"honoured":"sha256:` + strings.Repeat("cd", 32) + `"}`, 5, false},
		{`{"not":{"honoured":"` + id1 + `"}}`, 5, false},
		{`{"and":[{"always":true},{"survives":["` + carol + `",3]}]}`, 5, false},
		{`{"or":[{"not":{"always":true}},{"survives":["` + carol + `",1]}]}`, 5, true},
		{`{"not":{"or":[{"survives":["` + carol + `",3]},{"honoured":"sha256:` + strings.Repeat("cd", 32) + `"}]}}`, 5, true},
	}
	for _, c := range cases {
		cond, err := ParseCondition(json.RawMessage(c.raw))
		if err != nil {
			t.Fatalf("%s: %v", c.raw, err)
		}
		if got := cond.Eval(f, c.due); got != c.want {
			t.Errorf("%s at due %d = %v, want %v", c.raw, c.due, got, c.want)
		}
	}
	if (Condition{}).Eval(f, 5) || (Condition{Op: OpNot}).Eval(f, 5) {
		t.Fatal("an invalid Condition evaluated true")
	}
}
