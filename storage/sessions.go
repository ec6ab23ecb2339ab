package storage

import (
	"encoding/json"
	"errors"
	"fmt"
	"time"

	bolt "go.etcd.io/bbolt"
)

// Owner sessions (bucket sessions), the DOTDOTDOT join door's sign-in for the levers (§12): the
// challenges it issued and the sessions it opened, each under the SHA-256 of its secret (the
// secret itself is never stored), until it expires, so a restart signs nobody out:
//
//	sessions  "c/" <sha256(challenge) hex>   OwnerSession JSON: an outstanding challenge
//	sessions  "s/" <sha256(session) hex>     OwnerSession JSON: an open session
//
// The join door (transport/dotdotdot/join/sessions.go) is the only writer.

// Owner session kinds (the key's prefix).
const (
	SessionChallenge = "c"
	SessionBearer    = "s"
)

// OwnerSession is one challenge or session as stored: the Badge it names, the caller's address
// it was issued to (challenges: their bound is per address), and when it expires.
type OwnerSession struct {
	Agent   string    `json:"agent"`
	Addr    string    `json:"addr,omitempty"`
	Expires time.Time `json:"expires"`
}

func sessionKey(kind, hash string) (string, error) {
	if (kind != SessionChallenge && kind != SessionBearer) || !isHexHash(hash) {
		return "", ErrBadKey
	}
	return kind + "/" + hash, nil
}

// PutOwnerSession stores v as the challenge or session (kind) whose secret hashes to hash (64
// lower-case hex): durable when it returns nil, so the secret may then be handed out.
// ErrBadKey for another kind or hash.
func (s *Store) PutOwnerSession(kind, hash string, v OwnerSession) error {
	key, err := sessionKey(kind, hash)
	if err != nil {
		return fmt.Errorf("storage: put owner session %s/%q: %w", kind, hash, err)
	}
	b, err := json.Marshal(&v)
	if err != nil {
		return fmt.Errorf("storage: put owner session %s: %w", key, err)
	}
	return s.put(BucketSessions, key, b)
}

// DeleteOwnerSession removes a challenge or session; an absent one is not an error.
func (s *Store) DeleteOwnerSession(kind, hash string) error {
	key, err := sessionKey(kind, hash)
	if err != nil {
		return fmt.Errorf("storage: delete owner session %s/%q: %w", kind, hash, err)
	}
	return s.del(BucketSessions, key)
}

// OwnerSessions calls fn for every stored challenge and session not expired at now, in key
// order, until fn returns an error, which it returns wrapped.
func (s *Store) OwnerSessions(now time.Time, fn func(kind, hash string, v OwnerSession) error) error {
	return s.scan(BucketSessions, "", func(k string, b []byte) error {
		var v OwnerSession
		if err := json.Unmarshal(b, &v); err != nil {
			return fmt.Errorf("owner session %s: %w", k, err)
		}
		if !now.Before(v.Expires) {
			return nil
		}
		return fn(k[:1], k[2:], v)
	})
}

// SweepOwnerSessions deletes every challenge and session expired at now (and any record that
// does not decode), and returns how many it deleted.
func (s *Store) SweepOwnerSessions(now time.Time) (int, error) {
	var n int
	err := s.write(func(tx *bolt.Tx) error {
		b := tx.Bucket([]byte(BucketSessions))
		var dead [][]byte
		_ = b.ForEach(func(k, v []byte) error {
			var o OwnerSession
			if json.Unmarshal(v, &o) != nil || !now.Before(o.Expires) {
				dead = append(dead, append([]byte(nil), k...))
			}
			return nil
		})
		n = len(dead)
		for _, k := range dead {
			if err := b.Delete(k); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		return 0, fmt.Errorf("storage: sweep owner sessions: %w", err)
	}
	return n, nil
}

// checkSession is Check's reading of one challenge or session.
func checkSession(k, v []byte, _ *bolt.Bucket) error {
	if len(k) < 2 || k[1] != '/' {
		return errors.New("key is not <kind>/<hash>")
	}
	if _, err := sessionKey(string(k[:1]), string(k[2:])); err != nil {
		return errors.New("key is not c/ or s/ and a SHA-256 in hex")
	}
	var o OwnerSession
	if err := json.Unmarshal(v, &o); err != nil {
		return fmt.Errorf("owner session does not decode: %v", err)
	}
	if o.Agent == "" || o.Expires.IsZero() {
		return fmt.Errorf("owner session of agent %q expiring %v", o.Agent, o.Expires)
	}
	return nil
}
