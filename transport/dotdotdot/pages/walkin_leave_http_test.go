package pages_test

import "testing"

// TestWalkinLeavesAFreeTableOverHTTP: POST /v1/walkin/leave takes a walk-in waiting at a Free
// play table away (200 {"status": "left"}): GET /v1/walkin/next says idle, a second leave is
// 409 not_at_a_table, as is a leave by a walk-in waiting nowhere, and a Practice join is 200.
func TestWalkinLeavesAFreeTableOverHTTP(t *testing.T) {
	s := newStack(t)
	wanda, idle := s.register("Wanda"), s.register("Idle")
	var r refused
	s.must(409, "POST", "/v1/walkin/leave", idle, "", &r)
	if r.Code != "not_at_a_table" {
		t.Fatalf("a leave by a walk-in waiting nowhere: %+v", r)
	}
	var j struct{ Status, Kind, Table string }
	s.must(200, "POST", "/v1/walkin/join", wanda, `{"table":"free"}`, &j)
	if j.Status != "gathering" || j.Kind != "free" || j.Table == "" {
		t.Fatalf("the Free join %+v", j)
	}
	var n struct{ Status string }
	s.must(200, "GET", "/v1/walkin/next?wait=0", wanda, "", &n)
	if n.Status != "gathering" {
		t.Fatalf("the poll while waiting %+v", n)
	}
	var left struct{ Status string }
	s.must(200, "POST", "/v1/walkin/leave", wanda, "", &left)
	if left.Status != "left" {
		t.Fatalf("the leave %+v", left)
	}
	s.must(200, "GET", "/v1/walkin/next?wait=0", wanda, "", &n)
	if n.Status != "idle" {
		t.Fatalf("the poll after the leave %+v", n)
	}
	if gs, err := s.a.Gatherings(t.Context()); err != nil || len(gs) != 0 {
		t.Fatalf("gatherings after the leave %+v %v", gs, err)
	}
	s.must(409, "POST", "/v1/walkin/leave", wanda, "", &r)
	if r.Code != "not_at_a_table" {
		t.Fatalf("a second leave: %+v", r)
	}
	var p struct{ Status, Round string }
	s.must(200, "POST", "/v1/walkin/join", wanda, `{"table":"practice"}`, &p)
	if p.Round == "" {
		t.Fatalf("the Practice join after the leave %+v", p)
	}
}
