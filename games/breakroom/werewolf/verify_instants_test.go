package werewolf

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"testing"
	"time"
)

// TestVerifyRefusesInstantsBeforeTheirTurn: a move, its talk or an abandon whose t is moved back
// before the instant its turn opened (the line before it) is a log no table writes: the log's
// instants never go back. verify-log fails at that line, even when the line has no consequence
// a later line would contradict (a villager's sleep, a pass, the abandon itself).
func TestVerifyRefusesInstantsBeforeTheirTurn(t *testing.T) {
	lines := workedExample(t).lines()
	find := func(typ, has string) int {
		for i, l := range lines {
			if bytes.Contains(l, []byte(`"type":"`+typ+`"`)) && bytes.Contains(l, []byte(has)) {
				return i
			}
		}
		t.Fatalf("no %s line with %s", typ, has)
		return -1
	}
	for _, c := range []struct {
		name string
		at   int
	}{
		{"a villager's sleep", find("action_private", `"action":"sleep","reveal":"end","round":1,"seat":0`)},
		{"a discussion pass", find("action", `"action":"pass","round":1,"seat":2`)},
		{"a vote", find("action_private", `"action":"vote","reveal":"end","round":1,"seat":1`)},
		{"talk", find("message", `"seat":1,"text":"I am the seer`)},
	} {
		t.Run(c.name, func(t *testing.T) {
			alt := make([][]byte, len(lines))
			copy(alt, lines)
			prev := tOf(t, alt[c.at-1])
			back := fmt.Sprintf(`"t":"%s"`, stamp(prev.Add(-time.Millisecond))) // 1 ms before its turn opened
			alt[c.at] = bytes.Replace(alt[c.at], []byte(`"t":"`+stamp(tOf(t, alt[c.at]))+`"`), []byte(back), 1)
			if c.name == "talk" { // the move's line shares its talk's instant
				alt[c.at+1] = bytes.Replace(alt[c.at+1], []byte(`"t":"`+stamp(tOf(t, alt[c.at+1]))+`"`), []byte(back), 1)
			}
			rep := Verify(alt)
			if rep.OK || rep.At != c.at {
				t.Fatalf("line %d moved back before its turn opened: report %+v, want a failure at line %d", c.at, rep, c.at)
			}
		})
	}
	t.Run("an abandon", func(t *testing.T) {
		rnd := rand.New(rand.NewPCG(7, 7))
		tb := randomMatch(t, 6, randomSeed(rnd), "", rnd, 20, false, nil)
		alt := tb.lines()
		last := len(alt) - 1
		if !bytes.Contains(alt[last], []byte(`"type":"match_abandoned"`)) {
			t.Fatalf("the match did not end abandoned: %s", alt[last])
		}
		if rep := Verify(alt); !rep.OK {
			t.Fatalf("honest abandoned log: %+v", rep)
		}
		at := tOf(t, alt[last])
		alt[last] = bytes.Replace(alt[last], []byte(`"t":"`+stamp(at)+`"`), []byte(`"t":"`+stamp(tOf(t, alt[last-1]).Add(-time.Millisecond))+`"`), 1)
		if rep := Verify(alt); rep.OK || rep.At != last {
			t.Fatalf("match_abandoned moved back before the line it follows: report %+v, want a failure at line %d", rep, last)
		}
	})
}

// tOf is a log line's t.
func tOf(t *testing.T, line []byte) time.Time {
	t.Helper()
	var l struct {
		T string `json:"t"`
	}
	if err := json.Unmarshal(line, &l); err != nil {
		t.Fatal(err)
	}
	at, err := time.Parse(time.RFC3339Nano, l.T)
	if err != nil {
		t.Fatal(err)
	}
	return at
}
