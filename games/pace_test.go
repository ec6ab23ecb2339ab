package games

import (
	"encoding/json"
	"reflect"
	"testing"
	"time"
)

// A pace reads back as written, and a record's pace of the earlier form (a member per Blitz
// step) reads as the same steps.
func TestPaceJSON(t *testing.T) {
	p := Pace{Name: "chat", Move: time.Minute, Steps: map[string]time.Duration{"talk": 3 * time.Minute}, CloseEarly: true}
	b, err := json.Marshal(p)
	if err != nil {
		t.Fatal(err)
	}
	var back Pace
	if err := json.Unmarshal(b, &back); err != nil || !reflect.DeepEqual(back, p) {
		t.Fatalf("%s: %+v %v", b, back, err)
	}
	old := `{"name":"agent","scouting":90000000000,"talk":15000000000,"commit":25000000000,"settle":5000000000,"close_early":false}`
	var o Pace
	if err := json.Unmarshal([]byte(old), &o); err != nil {
		t.Fatal(err)
	}
	want := Pace{Name: "agent", Steps: map[string]time.Duration{"scouting": 90 * time.Second, "talk": 15 * time.Second,
		"commit": 25 * time.Second, "settle": 5 * time.Second}}
	if !reflect.DeepEqual(o, want) || o.Step("talk") != 15*time.Second || o.Step("other") != 0 || o.IsZero() || !(Pace{}).IsZero() {
		t.Fatalf("old form read as %+v", o)
	}
	if (Pace{Move: time.Second}).Step("x") != time.Second {
		t.Fatal("Move is the length of a step Steps does not name")
	}
}
