package dilemma

import (
	"bytes"
	"encoding/json"
	"flag"
	"os"
	"testing"
	"time"
)

var update = flag.Bool("update", false, "rewrite the golden log in testdata")

// workedExample plays §5.11: 4 seats, stop_one_in 2, seed 00..1f (H = 1, 2, 1), seat 3 always
// defects and talks once, seat 2 times out in round 3.
func workedExample(t testing.TB) *table {
	tb := newTable(t, setupN(4, seq0(), `{"stop_one_in":2}`))
	tb.choose(0, "cooperate")
	tb.choose(1, "cooperate")
	tb.choose(2, "cooperate")
	tb.play(3, time.Second, `{"action":"defect","message":"Nice doing business."}`)
	for _, c := range []string{"cooperate", "cooperate", "cooperate", "defect", "cooperate", "defect", "defect", "defect"} {
		tb.choose(len(tb.ofType("action_private"))%4, c)
	}
	tb.choose(0, "cooperate")
	tb.choose(1, "cooperate")
	tb.expire(2)
	tb.choose(3, "defect")
	return tb
}

func TestWorkedExample(t *testing.T) {
	tb := workedExample(t)
	if got := tb.m.horizons; len(got) != 3 || got[0] != 1 || got[1] != 2 || got[2] != 1 {
		t.Fatalf("horizons %v, want [1 2 1] (§5.11)", got)
	}
	ends := tb.ofType("match_end")
	if len(ends) != 1 {
		t.Fatalf("%d match_end lines", len(ends))
	}
	got, _ := json.Marshal(ends[0]["ranking"])
	want := `[{"cooperated":0,"defected":4,"iterations":4,"name":"Agent 4","points":16,"pubkey":"0000000000000000000000000000000000000000000000000000000000000004","rank":1,"score":4,"seat":3},` +
		`{"cooperated":3,"defected":1,"iterations":4,"name":"Agent 3","points":11,"pubkey":"0000000000000000000000000000000000000000000000000000000000000003","rank":2,"score":2.75,"seat":2},` +
		`{"cooperated":3,"defected":1,"iterations":4,"name":"Agent 2","points":7,"pubkey":"0000000000000000000000000000000000000000000000000000000000000002","rank":3,"score":1.75,"seat":1},` +
		`{"cooperated":4,"defected":0,"iterations":4,"name":"Agent 1","points":6,"pubkey":"0000000000000000000000000000000000000000000000000000000000000001","rank":4,"score":1.5,"seat":0}]`
	if string(got) != want {
		t.Fatalf("ranking\n%s\nwant\n%s", got, want)
	}
	if ends[0]["seed"] != "000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f" {
		t.Fatalf("seed %v", ends[0]["seed"])
	}
	to := tb.ofType("timeout_private")
	if len(to) != 1 || to[0]["seat"] != 2.0 || to[0]["turn"] != 2.0 || to[0]["strikes"] != 1.0 || to[0]["auto"] != "cooperate" || to[0]["reveal"] != "end" {
		t.Fatalf("timeout lines %v, want seat 2 turn 2 strikes 1 (§5.11)", to)
	}
	msgs := tb.ofType("message")
	if len(msgs) != 1 || msgs[0]["seat"] != 3.0 || msgs[0]["turn"] != 3.0 || msgs[0]["text"] != "Nice doing business." {
		t.Fatalf("messages %v", msgs)
	}

	var all []byte
	for _, l := range tb.lines() {
		all = append(append(all, l...), '\n')
	}
	const golden = "testdata/worked_example.jsonl"
	if *update {
		if err := os.WriteFile(golden, all, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want2, err := os.ReadFile(golden)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(all, want2) {
		t.Fatalf("the worked example's log differs from %s (go test -run TestWorkedExample -update rewrites it):\n%s", golden, all)
	}
}

// TestVisibleStateExample: seat 0's prompt in round 2, iteration 2 of the worked example is §5.6's
// visible_state, member for member (our own members beside them: status, strikes, sitting_out,
// talk).
func TestVisibleStateExample(t *testing.T) {
	tb := newTable(t, setupN(4, seq0(), `{"stop_one_in":2}`))
	tb.choose(0, "cooperate")
	tb.choose(1, "cooperate")
	tb.choose(2, "cooperate")
	tb.play(3, time.Second, `{"action":"defect","message":"Nice doing business."}`)
	for _, c := range []string{"cooperate", "cooperate", "cooperate", "defect"} {
		tb.choose(len(tb.ofType("action_private"))%4, c)
	}
	p := tb.open()
	if p.Seat != 1 {
		t.Fatalf("open prompt is seat %d's", p.Seat-1)
	}
	spec := `{"game":"dilemma","rules_version":"dilemma-0.1","round":2,"rounds_total":3,"iteration":2,
 "seat":0,"opponent":2,"pairs":[[0,2],[1,3]],"bye":null,
 "payoffs":{"T":5,"R":3,"P":1,"S":0},"stop_one_in":2,"max_iterations":20,
 "points":3,"iterations_played":2,
 "current":[{"iteration":1,"you":"C","them":"C","points":3}],
 "past":[{"round":1,"opponent":3,"you":"C","them":"D","points":0}]}`
	var want, got map[string]any
	if err := json.Unmarshal([]byte(spec), &want); err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(p.State.Bytes(), &got); err != nil {
		t.Fatal(err)
	}
	for k, w := range want {
		wj, _ := json.Marshal(w)
		gj, _ := json.Marshal(got[k])
		if string(wj) != string(gj) {
			t.Errorf("%s: %s, §5.6 says %s", k, gj, wj)
		}
	}
	extra, _ := json.Marshal(map[string]any{"status": got["status"], "strikes": got["strikes"], "sitting_out": got["sitting_out"], "talk": got["talk"]})
	if string(extra) != `{"sitting_out":[],"status":"playing","strikes":0,"talk":[{"round":1,"seat":3,"text":"Nice doing business.","turn":3}]}` {
		t.Errorf("own members %s", extra)
	}
	// The spectators see the public members only.
	var spec0 map[string]any
	json.Unmarshal(tb.m.View(0).Bytes(), &spec0)
	for _, own := range []string{"seat", "opponent", "points", "iterations_played", "current", "past", "strikes"} {
		if _, ok := spec0[own]; ok {
			t.Errorf("the spectators' view has %s", own)
		}
	}
}
