package blitz

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"
	"time"

	"arena/games"
)

// Hostile tests (T6) of this afternoon's talk answer reader (scanMessage on local offsets, type
// and tone as literals, strAt over canon.SkipPlain) and of what the match keeps from an answer:
// checkQuick (answer_quick_test.go) holds every taken answer to canon.Parse, fastAnswer and
// readMessage.

// A message's text with a special byte or sequence at every offset, at lengths around
// SkipPlain's 16- and 32-byte blocks, the text first or last in its message and the message
// last in the answer (its closing quote near the end of the data).
func TestQuickAnswerHostile6TextBytes(t *testing.T) {
	seqs := []string{"\x00", "\x1f", "\x7f", "\x80", "\xbf", "\xc3", "\xc3\xa9", "\xe2\x82", "\xe2\x82\xac", "\xed\xa0\x80",
		"\xf0\x9f\x98\x80", "\xf0\x9f\x98", "\xf4\x90\x80\x80", "\xff", `\"`, `\\`, `\u0041`, `\ud800`, `"`, "\\", "\n", "~", " "}
	took := 0
	for _, l := range []int{0, 1, 15, 16, 17, 31, 32, 33, 34, 63, 64, 65} {
		for pos := 0; pos <= l; pos++ {
			for _, s := range seqs {
				text := strings.Repeat("t", pos) + s + strings.Repeat("q", l-pos) // (\q is no escape)
				for _, raw := range []string{
					`{"messages":[{"text":"` + text + `","type":"public","tone":"offer"}]}`,
					`{"messages":[{"type":"private","to":2},{"type":"public","tone":"ask","text":"` + text + `"}]}`,
					`{"messages":[{"type":"public","text":"` + text + `"}]}` + strings.Repeat(" ", pos%3),
				} {
					if checkQuick(t, []byte(raw)) {
						took++
					}
				}
			}
			if pos > 34 {
				break
			}
		}
	}
	if took < 1000 {
		t.Fatalf("only %d answers taken: the test judges too little", took)
	}
}

// Type and tone near their literals: another case, an escape, a prefix or extension, the
// literal followed at once by a byte that is not a comma or brace, cut short at the end of the
// data; and member names near theirs.
func TestQuickAnswerHostile6NearLiterals(t *testing.T) {
	vals := []string{`"public"`, `"private"`, `"Public"`, `"publi\u0063"`, `"publicx"`, `"publi"`, `"public"x`, `"public" `,
		`"public"` + "\t", `"offer"`, `"ask"`, `"accept"`, `"decline"`, `"neutral"`, `"asks"`, `"as"`, `"ASK"`,
		`"\u0061sk"`, `"neutral"}`, `"neutral",`, `""`, `"é"`, `null`, `1`, `true`, `["ask"]`, `{}`, `"ask`, `"`}
	names := []string{`"type"`, `"tone"`, `"text"`, `"to"`, `"Type"`, `"typ\u0065"`, `"types"`, `"tonE"`, `"t"`, `"to "`, `"tex"`}
	took := 0
	for _, n := range names {
		for _, v := range vals {
			for _, raw := range []string{
				`{"messages":[{` + n + `:` + v + `}]}`,
				`{"messages":[{"text":"x",` + n + `:` + v + `,"to":1}]}`,
				`{"messages":[{` + n + `:` + v + `,"type":"public"}]}`,
				`{"messages":[{` + n + `:` + v,
				`{"messages":[{` + n + ` : ` + v + ` } ] }`,
			} {
				if checkQuick(t, []byte(raw)) {
					took++
				}
			}
		}
	}
	if took < 50 {
		t.Fatalf("only %d taken", took)
	}
}

// A valid talk answer and a valid commit answer cut short at every length: never taken, unless
// what was cut is only whitespace after the object.
func TestQuickAnswerHostile6Truncated(t *testing.T) {
	r := rand.New(rand.NewPCG(6, 1))
	keys := newTestKeys(6)
	seq := 0
	answers := []string{
		`{"messages":[{"type":"public","text":"` + strings.Repeat("é", 20) + `","tone":"offer"},{"type":"private","to":3,"text":"x"}]} `,
		`{"commitments":[` + fpSigned(r, keys, 1, 6, 1, &seq) + `,` + fpSigned(r, keys, 1, 6, 1, &seq) + `]}`,
	}
	for _, a := range answers {
		if !checkQuick(t, []byte(a)) {
			t.Fatalf("%s: not taken whole", a)
		}
		whole := len(strings.TrimRight(a, " "))
		for n := 0; n < whole; n++ {
			if checkQuick(t, []byte(a[:n])) {
				t.Fatalf("taken cut at %d of %d: %q", n, len(a), a[:n])
			}
		}
	}
}

// scribbledTwins plays two matches of one round in lockstep from the same partly hostile inputs
// (hostile4Input: talk and commit answers, signed and forged commitments, intents, calls,
// vetoes, accusations), each given its own copy of every body; the first twin's copy is
// overwritten as soon as Act returns, as a transport reusing its read buffer would. Every step
// must read the same in both twins when handed out and at the end of the round. It returns the
// twins, scribbled first.
func scribbledTwins(t *testing.T, seed uint64) (*Match, *Match) {
	t.Helper()
	r := rand.New(rand.NewPCG(seed, 6))
	a, b, keys := hostile4Twins(t, seed+60)
	seqs := map[int]*int{}
	for i := 1; i <= 6; i++ {
		seqs[i] = new(int)
	}
	type kept struct {
		step games.Step
		want []byte
	}
	var keep []kept
	acts, taken := 0, 0
	for i := 0; i < 2000; i++ {
		dl, ok := a.Deadline()
		if !ok {
			break
		}
		sa, sb := a.Advance(dl), b.Advance(dl)
		if !bytes.Equal(stepBytes(sa), stepBytes(sb)) {
			t.Fatalf("seed %d advance %d: the twins differ", seed, i)
		}
		keep = append(keep, kept{sa, stepBytes(sa)})
		mv := a.Phase()
		for _, p := range a.Prompts() {
			for k := 0; k < 1+r.IntN(2); k++ {
				in := hostile4Input(r, keys, seqs, mv, p.Seat)
				at := dl.Add(time.Duration(1+r.IntN(900)) * time.Millisecond)
				ina, inb := in, in
				ina.Body, inb.Body = bytes.Clone(in.Body), bytes.Clone(in.Body)
				sa, ea := a.Act(at, ina)
				for j := range ina.Body {
					ina.Body[j] = "\"\\{x"[j%4]
				}
				sb, eb := b.Act(at, inb)
				acts++
				if fmt.Sprint(ea) != fmt.Sprint(eb) {
					t.Fatalf("seed %d act %d (%s %.80s): scribbled twin %v, plain twin %v", seed, acts, in.Kind, in.Body, ea, eb)
				}
				if ea != nil {
					continue
				}
				taken++
				ba, bb := stepBytes(sa), stepBytes(sb)
				if !bytes.Equal(ba, bb) {
					t.Fatalf("seed %d act %d (%s %.80s): the step differs once the body was overwritten:\n%.400s\n%.400s",
						seed, acts, in.Kind, in.Body, ba, bb)
				}
				keep = append(keep, kept{sa, bytes.Clone(bb)})
			}
		}
	}
	if _, ok := a.Result(); !ok {
		t.Fatalf("seed %d: round not revealed", seed)
	}
	for k, kp := range keep {
		if got := stepBytes(kp.step); !bytes.Equal(got, kp.want) {
			t.Fatalf("seed %d: step %d reads differently at the end of the round:\n got  %.300s\n want %.300s", seed, k, got, kp.want)
		}
	}
	if taken < 100 {
		t.Fatalf("seed %d: %d inputs taken of %d: too few to judge", seed, taken, acts)
	}
	return a, b
}

// TestAnswerBodyScribbledHostile6: no message text, commitment, condition, sig or id a step
// hands out is a view of the answer's body or of a pooled answer scratch reused by the next
// answer: the twin whose bodies were overwritten hands out the same bytes, then and at the end.
// This asks more than games.Match.Act promises since 5f792c0 (the match may keep in.Body; its
// input log does, for the snapshot, so the snapshot itself is not compared): what a step hands
// out goes to other goroutines and to storage, and owes nothing to the body.
func TestAnswerBodyScribbledHostile6(t *testing.T) {
	for seed := uint64(1); seed <= 2; seed++ {
		a, b := scribbledTwins(t, seed)
		x, _ := a.Result()
		y, _ := b.Result()
		jx, _ := json.Marshal(x)
		jy, _ := json.Marshal(y)
		if !bytes.Equal(jx, jy) {
			t.Fatalf("seed %d: the twins' results differ", seed)
		}
	}
}
