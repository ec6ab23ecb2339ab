package storage

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"strings"
	"testing"
	"time"
)

func hashOf(s string) string {
	sum := sha256.Sum256([]byte(s))
	return hex.EncodeToString(sum[:])
}

// Challenges and sessions are kept through a reopen until they expire; a deleted one is gone;
// the sweep drops only the expired ones.
func TestOwnerSessionsSurviveReopen(t *testing.T) {
	s, path := openTest(t, Options{NoSync: true})
	t0 := time.Date(2026, 9, 9, 14, 0, 0, 0, time.UTC)
	agent := "ccd:4221332d34e1694168c2a0c0b3fd0f27/cis-2:4dKzQp7"
	put := func(kind, secret string, v OwnerSession) {
		t.Helper()
		if err := s.PutOwnerSession(kind, hashOf(secret), v); err != nil {
			t.Fatal(err)
		}
	}
	put(SessionChallenge, "c_1", OwnerSession{Agent: agent, Addr: "192.0.2.7", Expires: t0.Add(2 * time.Minute)})
	put(SessionBearer, "s_1", OwnerSession{Agent: agent, Expires: t0.Add(30 * time.Minute)})
	put(SessionBearer, "s_old", OwnerSession{Agent: agent, Expires: t0.Add(time.Minute)})
	put(SessionBearer, "s_gone", OwnerSession{Agent: agent, Expires: t0.Add(30 * time.Minute)})
	if err := s.DeleteOwnerSession(SessionBearer, hashOf("s_gone")); err != nil {
		t.Fatal(err)
	}
	for _, bad := range [][2]string{{"x", hashOf("a")}, {SessionBearer, "s_1"}, {SessionBearer, strings.ToUpper(hashOf("a"))}} {
		if err := s.PutOwnerSession(bad[0], bad[1], OwnerSession{Agent: agent}); !errors.Is(err, ErrBadKey) {
			t.Errorf("key %q: %v, want ErrBadKey", bad, err)
		}
	}
	_ = s.Close()
	s2, err := Open(path, Options{NoSync: true})
	if err != nil {
		t.Fatal(err)
	}
	defer s2.Close()
	list := func(now time.Time) map[string]OwnerSession {
		t.Helper()
		got := map[string]OwnerSession{}
		if err := s2.OwnerSessions(now, func(kind, hash string, v OwnerSession) error {
			got[kind+"/"+hash] = v
			return nil
		}); err != nil {
			t.Fatal(err)
		}
		return got
	}
	got := list(t0.Add(90 * time.Second))
	c, s1 := got["c/"+hashOf("c_1")], got["s/"+hashOf("s_1")]
	if len(got) != 2 || c.Agent != agent || c.Addr != "192.0.2.7" || !c.Expires.Equal(t0.Add(2*time.Minute)) ||
		s1.Agent != agent || !s1.Expires.Equal(t0.Add(30*time.Minute)) {
		t.Fatalf("after reopen at +90s: %+v (want the challenge and s_1; s_old expired, s_gone deleted)", got)
	}
	if n, err := s2.SweepOwnerSessions(t0.Add(2 * time.Minute)); err != nil || n != 2 {
		t.Fatalf("sweep at +2m: %d %v, want s_old and the challenge", n, err)
	}
	if got := list(t0); len(got) != 1 || got["s/"+hashOf("s_1")].Agent != agent {
		t.Fatalf("after the sweep: %+v", got)
	}
}

func TestOwnerSessionCheckFindsDamage(t *testing.T) {
	exp := time.Date(2026, 9, 9, 14, 0, 0, 0, time.UTC)
	checkDamage(t, BucketSessions, []damaged{
		{"c/" + hashOf("a"), []byte("{"), "owner session does not decode"},
		{"x/" + hashOf("b"), mustJSON(OwnerSession{Agent: "a", Expires: exp}), "key is not c/ or s/"},
		{"s_raw_token", mustJSON(OwnerSession{Agent: "a", Expires: exp}), "key is not <kind>/<hash>"},
		{"s/" + hashOf("c"), mustJSON(OwnerSession{Expires: exp}), `owner session of agent ""`},
	})
}
