package storage_test

import (
	"errors"
	"strings"
	"testing"
	"time"

	"arena/storage"
	"arena/storage/storagetest"
)

// TestMarketKeys: a key is stored by its hash, listed, found, revoked once (the first instant
// kept), and never issued twice; bad records are refused.
func TestMarketKeys(t *testing.T) {
	s := storagetest.Open(t, storage.Options{})
	t0 := time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)
	h := strings.Repeat("ab", 32)
	k := storage.MarketKey{ID: "mk_abababababababab", Hash: h, Owner: "owner-1", Name: "desk", CreatedAt: t0}
	if err := s.PutMarketKey(k); err != nil {
		t.Fatal(err)
	}
	if err := s.PutMarketKey(k); !errors.Is(err, storage.ErrExists) {
		t.Errorf("twice: %v, want ErrExists", err)
	}
	other := k
	other.Hash = strings.Repeat("cd", 32)
	if err := s.PutMarketKey(other); !errors.Is(err, storage.ErrExists) {
		t.Errorf("same id: %v, want ErrExists", err)
	}
	for _, bad := range []storage.MarketKey{{ID: "x", Hash: "AB", Owner: "o"}, {ID: "x", Hash: strings.Repeat("ef", 32), Owner: " "}} {
		if err := s.PutMarketKey(bad); !errors.Is(err, storage.ErrBadKey) {
			t.Errorf("%+v: %v, want ErrBadKey", bad, err)
		}
	}
	got, err := s.MarketKeyByHash(h)
	if err != nil || got.Owner != "owner-1" || got.RevokedAt != nil {
		t.Fatalf("by hash: %+v %v", got, err)
	}
	if _, err := s.MarketKeyByHash(strings.Repeat("00", 32)); !errors.Is(err, storage.ErrNotFound) {
		t.Errorf("unknown hash: %v", err)
	}
	r1, err := s.RevokeMarketKey(k.ID, t0.Add(time.Minute))
	if err != nil || r1.RevokedAt == nil || !r1.RevokedAt.Equal(t0.Add(time.Minute)) {
		t.Fatalf("revoke: %+v %v", r1, err)
	}
	r2, _ := s.RevokeMarketKey(k.ID, t0.Add(time.Hour))
	if !r2.RevokedAt.Equal(t0.Add(time.Minute)) {
		t.Errorf("second revoke moved RevokedAt to %v", r2.RevokedAt)
	}
	if _, err := s.RevokeMarketKey("mk_none", t0); !errors.Is(err, storage.ErrNotFound) {
		t.Errorf("unknown id: %v", err)
	}
	list, err := s.MarketKeys()
	if err != nil || len(list) != 1 || list[0].RevokedAt == nil {
		t.Errorf("list: %+v %v", list, err)
	}
}
