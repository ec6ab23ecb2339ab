package storage

import (
	"bytes"
	"errors"
	"testing"
)

// Bindings are kept through a reopen, a proof with them; a later Put replaces the binding.
func TestBadgeKeysSurviveReopen(t *testing.T) {
	s, path := openTest(t, Options{NoSync: true})
	k1, k2 := bytes.Repeat([]byte{1}, 32), bytes.Repeat([]byte{2}, 32)
	if err := s.PutBadgeKey(k1, BadgeKey{Agent: "ccd:x/cis-2:a", Token: 9}); err != nil {
		t.Fatal(err)
	}
	if err := s.PutBadgeKey(k1, BadgeKey{Agent: "ccd:x/cis-2:b", Token: 4, Proven: true}); err != nil {
		t.Fatal(err)
	}
	if err := s.PutBadgeKey(k2, BadgeKey{Agent: "ccd:x/cis-2:c", Token: 5}); err != nil {
		t.Fatal(err)
	}
	if err := s.PutBadgeKey(k2[:31], BadgeKey{Agent: "a"}); !errors.Is(err, ErrBadKey) {
		t.Fatalf("31-byte key: %v", err)
	}
	if err := s.PutBadgeKey(k2, BadgeKey{}); !errors.Is(err, ErrBadKey) {
		t.Fatalf("no agent: %v", err)
	}
	_ = s.Close()
	s2, err := Open(path, Options{NoSync: true})
	if err != nil {
		t.Fatal(err)
	}
	defer s2.Close()
	got := map[string]BadgeKey{}
	if err := s2.BadgeKeys(func(pub []byte, b BadgeKey) error {
		got[string(pub)] = b
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	if len(got) != 2 || got[string(k1)] != (BadgeKey{Agent: "ccd:x/cis-2:b", Token: 4, Proven: true}) ||
		got[string(k2)] != (BadgeKey{Agent: "ccd:x/cis-2:c", Token: 5}) {
		t.Fatalf("after reopen: %+v", got)
	}
}

func TestBadgeKeyCheckFindsDamage(t *testing.T) {
	checkDamage(t, BucketBadgeKeys, []damaged{
		{string(bytes.Repeat([]byte{1}, 32)), []byte("{"), "binding does not decode"},
		{"short", mustJSON(BadgeKey{Agent: "a"}), "not a 32-byte public key"},
		{string(bytes.Repeat([]byte{2}, 32)), mustJSON(BadgeKey{Token: 1}), "names no Badge"},
	})
}
