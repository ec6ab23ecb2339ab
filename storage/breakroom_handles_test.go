package storage

import (
	"errors"
	"testing"
	"time"
)

// A handle is claimed once per name and once per live key; revoking it keeps the name taken and
// frees the key; every record survives a reopen and the file checks clean.
func TestBreakroomHandleClaimRevokeReopen(t *testing.T) {
	s, path := openTest(t, Options{NoSync: true})
	at := time.Date(2026, 3, 4, 5, 0, 0, 0, time.UTC)
	if err := s.ClaimBreakroomHandle(BreakroomHandle{Name: "ada", Pubkey: "aa", ClaimedAt: at}); err != nil {
		t.Fatal(err)
	}
	if err := s.ClaimBreakroomHandle(BreakroomHandle{Name: "ada", Pubkey: "bb", ClaimedAt: at}); !errors.Is(err, ErrHandleTaken) {
		t.Fatalf("second claim of ada: %v", err)
	}
	if err := s.ClaimBreakroomHandle(BreakroomHandle{Name: "ada2", Pubkey: "aa", ClaimedAt: at}); !errors.Is(err, ErrHasHandle) {
		t.Fatalf("second name for aa: %v", err)
	}
	if err := s.ClaimBreakroomHandle(BreakroomHandle{Name: "a/b", Pubkey: "cc"}); !errors.Is(err, ErrBadKey) {
		t.Fatalf("name with a slash: %v", err)
	}
	if h, err := s.BreakroomHandleOf("aa"); err != nil || h.Name != "ada" || !h.ClaimedAt.Equal(at) {
		t.Fatalf("handle of aa: %+v %v", h, err)
	}
	if _, err := s.BreakroomHandleOf("bb"); !errors.Is(err, ErrNotFound) {
		t.Fatalf("handle of bb: %v", err)
	}
	if _, err := s.RevokeBreakroomHandle("nobody", at, "x"); !errors.Is(err, ErrNotFound) {
		t.Fatalf("revoke of an unclaimed name: %v", err)
	}
	h, err := s.RevokeBreakroomHandle("ada", at.Add(time.Hour), "impersonation")
	if err != nil || h.RevokedAt == nil || !h.RevokedAt.Equal(at.Add(time.Hour)) || h.Reason != "impersonation" || h.Pubkey != "aa" {
		t.Fatalf("revoke: %+v %v", h, err)
	}
	if _, err := s.RevokeBreakroomHandle("ada", at, "again"); !errors.Is(err, ErrNotFound) {
		t.Fatalf("second revoke: %v", err)
	}
	if err := s.ClaimBreakroomHandle(BreakroomHandle{Name: "ada", Pubkey: "bb", ClaimedAt: at}); !errors.Is(err, ErrHandleTaken) {
		t.Fatalf("claim of a revoked name: %v", err)
	}
	if err := s.ClaimBreakroomHandle(BreakroomHandle{Name: "ada_b", Pubkey: "aa", ClaimedAt: at}); err != nil {
		t.Fatalf("a new name for the revoked key: %v", err)
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	s2, err := Open(path, Options{NoSync: true})
	if err != nil {
		t.Fatal(err)
	}
	defer s2.Close()
	var names []string
	if err := s2.BreakroomHandles(func(h BreakroomHandle) error {
		names = append(names, h.Name+":"+h.Pubkey+":"+map[bool]string{true: "revoked", false: "live"}[h.RevokedAt != nil])
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	if got := names; len(got) != 2 || got[0] != "ada:aa:revoked" || got[1] != "ada_b:aa:live" {
		t.Fatalf("after reopen: %v", got)
	}
	if h, err := s2.BreakroomHandleOf("aa"); err != nil || h.Name != "ada_b" {
		t.Fatalf("aa after reopen: %+v %v", h, err)
	}
	if err := s2.Close(); err != nil {
		t.Fatal(err)
	}
	checkFile(t, path)
}
