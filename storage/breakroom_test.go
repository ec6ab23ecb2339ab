package storage

import (
	"errors"
	"strconv"
	"testing"
)

// A ranked match is counted into its players' reputations once, through a reopen; a second count
// of the same match writes nothing; an update's error writes nothing; the file checks clean.
func TestBreakroomCountOnce(t *testing.T) {
	s, path := openTest(t, Options{NoSync: true})
	incr := func(_ string, old []byte) ([]byte, error) {
		n := 0
		if old != nil {
			n, _ = strconv.Atoi(string(old))
		}
		return []byte(strconv.Itoa(n + 1)), nil
	}
	if ok, err := s.CountBreakroomMatch("T-1", []string{"aa", "bb"}, incr); !ok || err != nil {
		t.Fatalf("first count: %v %v", ok, err)
	}
	if ok, err := s.CountBreakroomMatch("T-1", []string{"aa", "bb"}, incr); ok || err != nil {
		t.Fatalf("second count of the same match: %v %v", ok, err)
	}
	if _, err := s.CountBreakroomMatch("T-2", []string{"aa"}, func(string, []byte) ([]byte, error) { return nil, errors.New("no") }); err == nil {
		t.Fatal("an update's error was not returned")
	}
	if _, err := s.CountBreakroomMatch("T-3", []string{"a/b"}, incr); !errors.Is(err, ErrBadKey) {
		t.Fatalf("key with a slash: %v", err)
	}
	if ok, _ := s.CountBreakroomMatch("T-4", []string{"aa"}, incr); !ok {
		t.Fatal("T-4 not counted")
	}
	if err := s.PutBreakroomFeedback("T-1", "aa", []byte(`{"text":"fun"}`)); err != nil {
		t.Fatal(err)
	}
	if err := s.PutBreakroomFeedback("T-1", "aa", []byte(`{"text":"more fun"}`)); err != nil {
		t.Fatal(err)
	}
	if err := s.PutBreakroomTable("br-1", []byte(`{"seats":[]}`)); err != nil {
		t.Fatal(err)
	}
	_ = s.Close()
	s2, err := Open(path, Options{NoSync: true})
	if err != nil {
		t.Fatal(err)
	}
	defer s2.Close()
	for key, want := range map[string]string{"aa": "2", "bb": "1"} {
		if got, err := s2.BreakroomReputation(key); err != nil || string(got) != want {
			t.Errorf("%s: %s %v, want %s", key, got, err, want)
		}
	}
	if _, err := s2.BreakroomReputation("cc"); !errors.Is(err, ErrNotFound) {
		t.Errorf("unknown key: %v", err)
	}
	if got, err := s2.BreakroomFeedback("T-1", "aa"); err != nil || string(got) != `{"text":"more fun"}` {
		t.Errorf("feedback %s %v", got, err)
	}
	var tables []string
	if err := s2.BreakroomTables(func(id string, v []byte) error { tables = append(tables, id+"="+string(v)); return nil }); err != nil ||
		len(tables) != 1 || tables[0] != `br-1={"seats":[]}` {
		t.Errorf("tables %q %v", tables, err)
	}
	if err := s2.Check(); err != nil {
		t.Fatal(err)
	}
}
