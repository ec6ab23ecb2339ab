package script

import (
	"errors"
	"strings"
	"testing"
)

// baseScript is a valid six-seat Blitz script; cases below change one thing in it.
const baseScript = `{
  "format": "blitz",
  "round": "T-1",
  "seed": "00112233445566778899aabbccddeeff00112233445566778899aabbccddeeff",
  "seats": [
    { "name": "Ada",  "entry": 200000000, "collateral": 120000000, "human": true },
    { "name": "Bo",   "entry": 200000000, "collateral": 120000000 },
    { "name": "Cy",   "entry": 200000000, "collateral": 120000000 },
    { "name": "Di",   "entry": 200000000, "collateral": 120000000 },
    { "name": "Ed",   "entry": 200000000, "collateral": 120000000 },
    { "name": "Flo",  "entry": 200000000, "collateral": 120000000 }
  ],
  "mole": 5,
  "task": { "kind": "broker", "named": [] },
  "moves": [
    { "turn": 1, "phase": "talk", "exchange": 1, "seat": 2,
      "answer": { "messages": [ { "type": "public", "text": "hello", "tone": "offer" },
                                { "type": "private", "to": 3, "text": "psst" } ], "accusation": 5 } },
    { "turn": 1, "phase": "commit", "seat": 1,
      "answer": { "commitments": [ { "ref": "a", "payee": 2, "amount": 40000000,
                                     "condition": { "always": true }, "due": 1 } ] } },
    { "turn": 2, "phase": "commit", "seat": 1,
      "answer": { "commitments": [ { "ref": "a2", "payee": 3, "amount": 10000000,
                                     "condition": { "and": [ { "honoured": "ref:a" }, { "backs": [2, 3] } ] }, "due": 3, "pair": "deal:00000001" } ] } },
    { "turn": 2, "phase": "commit", "seat": 1, "lever": { "veto": "a2" } },
    { "turn": 2, "phase": "talk", "exchange": 1, "seat": 3, "lever": { "call": "seat 4 is the mole" } },
    { "turn": 3, "phase": "talk", "exchange": 1, "seat": 6, "lever": { "accuse": 2 } }
  ]
}`

func TestParseBase(t *testing.T) {
	s, err := Parse([]byte(baseScript))
	if err != nil {
		t.Fatalf("Parse: %v", err)
	}
	if s.Format != "blitz" || s.Round != "T-1" || len(s.Seats) != 6 || s.Mole != 5 {
		t.Fatalf("head: got format %q round %q seats %d mole %d", s.Format, s.Round, len(s.Seats), s.Mole)
	}
	if s.Seed[0] != 0x00 || s.Seed[1] != 0x11 || s.Seed[31] != 0xff {
		t.Errorf("seed: got %x", s.Seed)
	}
	if !s.Seats[0].Human || s.Seats[1].Human || s.Seats[0].Entry != 200000000 || s.Seats[0].Collateral != 120000000 {
		t.Errorf("seat 1: got %+v", s.Seats[0])
	}
	if s.Task == nil || s.Task.Kind != "broker" || len(s.Task.Named) != 0 {
		t.Errorf("task: got %+v", s.Task)
	}
	if len(s.Moves) != 6 {
		t.Fatalf("moves: got %d, want 6", len(s.Moves))
	}
	m0 := s.Moves[0]
	if m0.Answer == nil || len(m0.Answer.Messages) != 2 || m0.Answer.Accusation != 5 {
		t.Fatalf("moves[0]: got %+v", m0.Answer)
	}
	if got := m0.Answer.Messages[1]; got.Type != "private" || got.To.Seat != 3 || got.Text != "psst" || got.Tone != "" {
		t.Errorf("moves[0] private message: got %+v", got)
	}
	c := s.Moves[2].Answer.Commitments[0]
	if c.Ref != "a2" || c.Payee.Seat != 3 || c.Amount != 10000000 || c.Due != 3 || c.Pair != "deal:00000001" {
		t.Errorf("moves[2] commitment: got %+v", c)
	}
	if string(c.Condition) != `{"and":[{"honoured":"ref:a"},{"backs":[2,3]}]}` {
		t.Errorf("moves[2] condition: got %s", c.Condition)
	}
	if l := s.Moves[3].Lever; l == nil || l.Kind != "veto" || l.Ref != "a2" {
		t.Errorf("moves[3] lever: got %+v", l)
	}
	if l := s.Moves[5].Lever; l == nil || l.Kind != "accuse" || l.Seat != 2 {
		t.Errorf("moves[5] lever: got %+v", l)
	}
	// Application order: T1 talk, T1 commit, T2 talk, T2 commit (as listed), T3 talk.
	want := []int{0, 1, 4, 2, 3, 5}
	got := s.Order()
	for i := range want {
		if got[i] != want[i] {
			t.Fatalf("Order: got %v, want %v", got, want)
		}
	}
}

// TestParseRefusals changes the base script in one place and expects an *Error naming the field.
func TestParseRefusals(t *testing.T) {
	tests := []struct {
		name     string
		old, new string // replace the first old with new in baseScript
		wantPath string
		wantMsg  string // a part of the message
	}{
		{"payee not seated", `"payee": 2,`, `"payee": 9,`, "moves[1].answer.commitments[0].payee", "seat 9 is not seated"},
		{"format unknown", `"format": "blitz"`, `"format": "standard"`, "format", `"blitz" or "short"`},
		{"format case", `"format": "blitz"`, `"Format": "blitz"`, "Format", `did you mean "format"`},
		{"format missing", `"format": "blitz",`, ``, "format", "required"},
		{"round bad", `"round": "T-1"`, `"round": "T-01"`, "round", "T-<n>"},
		{"round not T", `"round": "T-1"`, `"round": "R-1"`, "round", "T-<n>"},
		{"seed short", `"seed": "00112233445566778899aabbccddeeff00112233445566778899aabbccddeeff"`, `"seed": "0011"`, "seed", "64 lowercase hex"},
		{"seed upper", `"seed": "00112233445566778899aabbccddeeff00112233445566778899aabbccddeeff"`, `"seed": "00112233445566778899AABBCCDDEEFF00112233445566778899aabbccddeeff"`, "seed", "64 lowercase hex"},
		{"too few seats", `,
    { "name": "Flo",  "entry": 200000000, "collateral": 120000000 }`, ``, "seats", "format blitz seats 6 to 8, got 5"},
		{"collateral low", `"collateral": 120000000, "human": true`, `"collateral": 79999999, "human": true`, "seats[0].collateral", "collateral band of 80000000 to 160000000"},
		{"collateral high", `"collateral": 120000000, "human": true`, `"collateral": 160000001, "human": true`, "seats[0].collateral", "outside the collateral band"},
		{"entry low", `{ "name": "Bo",   "entry": 200000000, "collateral": 120000000 }`, `{ "name": "Bo",   "entry": 49999999, "collateral": 30000000 }`, "seats[1].entry", "entry minimum"},
		{"entry fraction", `{ "name": "Bo",   "entry": 200000000,`, `{ "name": "Bo",   "entry": 200000000.5,`, "seats[1].entry", "must be an integer"},
		{"entry exponent", `{ "name": "Bo",   "entry": 200000000,`, `{ "name": "Bo",   "entry": 2e8,`, "seats[1].entry", "must be an integer"},
		{"entry above 2^53", `{ "name": "Bo",   "entry": 200000000,`, `{ "name": "Bo",   "entry": 9007199254740993,`, "seats[1].entry", "2^53"},
		{"entry string", `{ "name": "Bo",   "entry": 200000000,`, `{ "name": "Bo",   "entry": "200000000",`, "seats[1].entry", "must be an integer, got a string"},
		{"name twice", `"name": "Bo"`, `"name": "ADA"`, "seats[1].name", "already seat 1's name"},
		{"name empty", `"name": "Bo"`, `"name": " "`, "seats[1].name", "empty"},
		{"human not bool", `"human": true`, `"human": 1`, "seats[0].human", "true or false"},
		{"member twice", `"name": "Bo",`, `"name": "Bo", "name": "Bob",`, "seats[1].name", "member given twice"},
		{"seat unknown member", `"name": "Bo",`, `"name": "Bo", "rating": 1500,`, "seats[1].rating", "unknown member"},
		{"long s folds to seq", `"amount": 40000000,`, `"amount": 40000000, "\u017fe": 1,`, "moves[1].answer.commitments[0].\"\\u017fe\"", "unknown member"},
		{"mole not seated", `"mole": 5`, `"mole": 7`, "mole", "seat 7 is not seated"},
		{"task kind", `"kind": "broker"`, `"kind": "spy"`, "task.kind", "nine task kinds"},
		{"task named count", `"kind": "broker", "named": []`, `"kind": "breach", "named": []`, "task.named", "names 1 seat(s), got 0"},
		{"task names mole", `"kind": "broker", "named": []`, `"kind": "breach", "named": [5]`, "task.named[0]", "seat 5 is the mole"},
		{"named without mole", `"mole": 5,`, ``, "", ""}, // broker names nobody: fine
		{"named needs mole", `"mole": 5,
  "task": { "kind": "broker", "named": [] }`, `"task": { "kind": "breach", "named": [2] }`, "task.named", "needs \"mole\""},
		{"task names twice", `"kind": "broker", "named": []`, `"kind": "pair", "named": [2, 2]`, "task.named[1]", "named twice"},
		{"veto without human", `"collateral": 120000000, "human": true`, `"collateral": 120000000, "human": false`, "", ""}, // valid: broker
		{"turn too late", `{ "turn": 3, "phase": "talk", "exchange": 1, "seat": 6`, `{ "turn": 6, "phase": "talk", "exchange": 1, "seat": 6`, "moves[5].turn", "outside 1 to 5"},
		{"exchange too high", `{ "turn": 3, "phase": "talk", "exchange": 1, "seat": 6`, `{ "turn": 3, "phase": "talk", "exchange": 4, "seat": 6`, "moves[5].exchange", "outside 1 to 3"},
		{"exchange missing", `{ "turn": 3, "phase": "talk", "exchange": 1, "seat": 6`, `{ "turn": 3, "phase": "talk", "seat": 6`, "moves[5].exchange", "required"},
		{"exchange on commit", `{ "turn": 1, "phase": "commit", "seat": 1,`, `{ "turn": 1, "phase": "commit", "exchange": 1, "seat": 1,`, "moves[1].exchange", "only talk"},
		{"phase settle", `{ "turn": 1, "phase": "commit", "seat": 1,`, `{ "turn": 1, "phase": "settle", "seat": 1,`, "moves[1].phase", "talk\" or \"commit"},
		{"seat not seated", `"exchange": 1, "seat": 6,`, `"exchange": 1, "seat": 0,`, "moves[5].seat", "seat 0 is not seated"},
		{"answer and lever", `"lever": { "accuse": 2 }`, `"lever": { "accuse": 2 }, "answer": {}`, "moves[5]", "both an answer and a lever"},
		{"neither", `, "lever": { "accuse": 2 }`, ``, "moves[5]", "needs an answer or a lever"},
		{"lever two kinds", `"lever": { "accuse": 2 }`, `"lever": { "accuse": 2, "call": "x" }`, "moves[5].lever", "exactly one"},
		{"lever unknown", `"lever": { "accuse": 2 }`, `"lever": { "Accuse": 2 }`, "moves[5].lever.Accuse", "did you mean \"accuse\""},
		{"accuse not seated", `"lever": { "accuse": 2 }`, `"lever": { "accuse": 9 }`, "moves[5].lever.accuse", "seat 9"},
		{"veto unknown ref", `"lever": { "veto": "a2" }`, `"lever": { "veto": "zz" }`, "moves[3].lever.veto", `no commitment in the script has ref "zz"`},
		{"veto before its commitment", `{ "turn": 2, "phase": "commit", "seat": 1, "lever": { "veto": "a2" } }`, `{ "turn": 1, "phase": "commit", "seat": 1, "lever": { "veto": "a2" } }`, "moves[3].lever.veto", "applies after this move"},
		{"honoured unknown ref", `{ "honoured": "ref:a" }`, `{ "honoured": "ref:b" }`, "moves[2].answer.commitments[0].condition.and[0].honoured", `no commitment in the script has ref "b"`},
		{"condition min above 2^53", `{ "backs": [2, 3] }`, `{ "backs": [2, 3, 9007199254740993] }`, "moves[2].answer.commitments[0].condition.and[1].backs[2]", "2^53"},
		{"backs seat not seated", `{ "backs": [2, 3] }`, `{ "backs": [2, 30] }`, "moves[2].answer.commitments[0].condition.and[1].backs[1]", "seat 30 is not seated"},
		{"ref twice", `"ref": "a2"`, `"ref": "a"`, "moves[2].answer.commitments[0].ref", `already defined at moves[1].answer.commitments[0].ref`},
		{"ref empty", `"ref": "a2"`, `"ref": ""`, "moves[2].answer.commitments[0].ref", "empty"},
		{"arena-filled seq", `"amount": 40000000,`, `"amount": 40000000, "seq": 1,`, "moves[1].answer.commitments[0].seq", "filled and signed by the arena"},
		{"arena-filled sig", `"amount": 40000000,`, `"amount": 40000000, "sig": "ed25519:00",`, "moves[1].answer.commitments[0].sig", "filled and signed by the arena"},
		{"amount missing", `"amount": 40000000,`, ``, "moves[1].answer.commitments[0].amount", "required"},
		{"amount above 2^53", `"amount": 40000000,`, `"amount": 9007199254740993,`, "moves[1].answer.commitments[0].amount", "2^53"},
		{"condition missing", `"condition": { "always": true },`, ``, "moves[1].answer.commitments[0].condition", "required"},
		{"messages in commit", `"answer": { "commitments": [ { "ref": "a",`, `"answer": { "messages": [], "commitments": [ { "ref": "a",`, "moves[1].answer.messages", "sent in talk"},
		{"commitments in talk", `"accusation": 5 }`, `"accusation": 5, "commitments": [] }`, "moves[0].answer.commitments", "submitted in commit"},
		{"private without to", `{ "type": "private", "to": 3, "text": "psst" }`, `{ "type": "private", "text": "psst" }`, "moves[0].answer.messages[1].to", "required"},
		{"public with to", `{ "type": "public", "text": "hello"`, `{ "type": "public", "to": 2, "text": "hello"`, "moves[0].answer.messages[0].to", "no addressee"},
		{"message type", `{ "type": "public", "text": "hello"`, `{ "type": "shout", "text": "hello"`, "moves[0].answer.messages[0].type", "public\" or \"private"},
		{"to not seated", `"to": 3,`, `"to": 12,`, "moves[0].answer.messages[1].to", "seat 12 is not seated"},
		{"accusation not seated", `"accusation": 5`, `"accusation": -1`, "moves[0].answer.accusation", "seat -1 is not seated"},
		{"answer unknown member", `"accusation": 5`, `"accusation": 5, "dropped": []`, "moves[0].answer.dropped", "unknown member"},
		{"moves not array", `"moves": [`, `"moves": {}, "moves2": [`, "moves2", "unknown member"},
		{"trailing data", `  ]
}`, `  ]
} {}`, "", "trailing data"},
		{"truncated", `  ]
}`, `  ]`, "", "invalid JSON"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if !strings.Contains(baseScript, tt.old) {
				t.Fatalf("test bug: %q not in base script", tt.old)
			}
			src := strings.Replace(baseScript, tt.old, tt.new, 1)
			_, err := Parse([]byte(src))
			if tt.wantPath == "" && tt.wantMsg == "" {
				if err != nil {
					t.Fatalf("Parse: %v, want success", err)
				}
				return
			}
			var e *Error
			if !errors.As(err, &e) {
				t.Fatalf("Parse: got %v, want *Error at %s", err, tt.wantPath)
			}
			if e.Path != tt.wantPath || !strings.Contains(e.Msg, tt.wantMsg) {
				t.Errorf("Parse: got path %q msg %q, want path %q msg containing %q", e.Path, e.Msg, tt.wantPath, tt.wantMsg)
			}
		})
	}
}

func TestParseNotJSON(t *testing.T) {
	for _, src := range []string{"", "null", "[]", "\xff", `{"format":"blitz"`, "{} x"} {
		_, err := Parse([]byte(src))
		var e *Error
		if !errors.As(err, &e) {
			t.Errorf("Parse(%q): got %v, want *Error", src, err)
		}
	}
}

func TestParseShort(t *testing.T) {
	src := `{"format":"short","round":"T-7","seed":"` + strings.Repeat("ab", 32) + `",
	 "seats":[{"name":"A","entry":100000000,"collateral":60000000},{"name":"B","entry":100000000,"collateral":60000000},{"name":"C","entry":100000000,"collateral":60000000}],
	 "mole":3,"task":{"kind":"pair","named":[1,2]},
	 "moves":[{"turn":3,"phase":"talk","exchange":2,"seat":1,"answer":{}}]}`
	s, err := Parse([]byte(src))
	if err != nil {
		t.Fatalf("Parse: %v", err)
	}
	if s.Turns() != 3 || s.Exchanges() != 2 || s.Task.Named[1] != 2 {
		t.Errorf("got turns %d exchanges %d task %+v", s.Turns(), s.Exchanges(), s.Task)
	}
	bad := strings.Replace(src, `"exchange":2`, `"exchange":3`, 1)
	if _, err := Parse([]byte(bad)); err == nil || !strings.Contains(err.Error(), "moves[0].exchange: exchange 3 is outside 1 to 2") {
		t.Errorf("short exchange 3: got %v", err)
	}
	four := strings.Replace(src, `{"name":"C"`, `{"name":"D","entry":100000000,"collateral":60000000},{"name":"C"`, 1)
	if _, err := Parse([]byte(four)); err == nil || !strings.Contains(err.Error(), "seats: format short seats exactly 3, got 4") {
		t.Errorf("short with 4 seats: got %v", err)
	}
}
