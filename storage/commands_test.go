package storage

import (
	"errors"
	"fmt"
	"testing"
)

// The first answer to a command is kept: a retry gets it back, not its own; players are separate.
func TestPutCommandFirstAnswerWins(t *testing.T) {
	s, _ := openTest(t, Options{NoSync: true})
	if got, fresh, err := s.PutCommand("p1", "c1", []byte("first")); err != nil || !fresh || string(got) != "first" {
		t.Fatalf("first put: %s %v %v", got, fresh, err)
	}
	if got, fresh, err := s.PutCommand("p1", "c1", []byte("second")); err != nil || fresh || string(got) != "first" {
		t.Fatalf("retry: %s %v %v", got, fresh, err)
	}
	for _, k := range [][2]string{{"p1", "c0"}, {"p2", "c1"}, {"p10", "c1"}} {
		if _, _, err := s.PutCommand(k[0], k[1], []byte(k[0]+k[1])); err != nil {
			t.Fatal(err)
		}
	}
	if v, err := s.Command("p2", "c1"); err != nil || string(v) != "p2c1" {
		t.Fatalf("Command(p2, c1) = %s %v", v, err)
	}
	if _, err := s.Command("p2", "c9"); !errors.Is(err, ErrNotFound) {
		t.Fatalf("missing command: %v", err)
	}
	var ids []string
	if err := s.Commands("p1", func(id string, _ []byte) error { ids = append(ids, id); return nil }); err != nil {
		t.Fatal(err)
	}
	if fmt.Sprint(ids) != "[c0 c1]" {
		t.Fatalf("Commands(p1) = %v (p10's must not show)", ids)
	}
	for _, k := range [][2]string{{"", "c"}, {"p", ""}, {"p/q", "c"}} {
		if _, _, err := s.PutCommand(k[0], k[1], nil); !errors.Is(err, ErrBadKey) {
			t.Fatalf("PutCommand(%q, %q): %v", k[0], k[1], err)
		}
	}
}
