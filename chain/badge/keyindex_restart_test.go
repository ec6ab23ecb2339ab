package badge

import (
	"context"
	"crypto/ed25519"
	"errors"
	"sync"
	"testing"

	"arena/games"
)

// mapKeys is a KeyStore in a map (the store's badge_keys bucket in `arena serve`); err, when
// set, fails every save.
type mapKeys struct {
	mu    sync.Mutex
	saved map[[32]byte]KeyBinding
	err   error
}

func (m *mapKeys) SaveKey(pub ed25519.PublicKey, b KeyBinding) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.err != nil {
		return m.err
	}
	m.saved[[32]byte(pub)] = b
	return nil
}

// reload is a restart: a fresh index on what was saved.
func (m *mapKeys) reload() *KeyIndex {
	m.mu.Lock()
	defer m.mu.Unlock()
	cp := make(map[[32]byte]KeyBinding, len(m.saved))
	for k, v := range m.saved {
		cp[k] = v
	}
	return LoadKeyIndex(m, cp)
}

// A proof outlives a restart: the Badge that signed with its key keeps it, and the earlier
// registration naming the same key stays key_reused after the index is rebuilt from its store.
// (Rebuilt empty, the earlier registration would take the key on its next read.)
func TestKeyProofSurvivesRestart(t *testing.T) {
	w := newWorld(t)
	st := &mapKeys{saved: map[[32]byte]KeyBinding{}}
	r := w.resolver(func(c *Config) { c.Keys = st.reload() })
	ctx := context.Background()

	old, user := player("Old"), player("User")
	old.SigningKey = user.SigningKey
	oldID := w.register(reg{owner: w.other, spec: old})
	userID := w.register(reg{owner: w.player, spec: user})
	a, err := r.Resolve(ctx, userID.String())
	if err != nil {
		t.Fatal(err)
	}
	if b := st.saved[[32]byte(a.Key)]; b.Agent != userID.String() || b.Proven || b.Token != a.TokenID {
		t.Fatalf("saved after the first read: %+v, want %s unproven at token %d", b, userID, a.TokenID)
	}
	if ok, err := r.Proven(userID.String(), a.Key); !ok || err != nil {
		t.Fatalf("Proven: %v %v", ok, err)
	}
	if b := st.saved[[32]byte(a.Key)]; !b.Proven {
		t.Fatalf("the proof was not saved: %+v", b)
	}

	keys := st.reload() // the restart
	r2 := w.resolver(func(c *Config) { c.Keys = keys })
	if _, err := r2.Resolve(ctx, oldID.String()); codeOf(err) != CodeKeyReused {
		t.Fatalf("the earlier registration after a restart: %v, want %s", err, CodeKeyReused)
	}
	if _, err := r2.Resolve(ctx, userID.String()); err != nil {
		t.Fatalf("the prover after a restart: %v", err)
	}
	if owner, _ := keys.Owner(a.Key); owner != userID.String() {
		t.Fatalf("owner after a restart %q, want %s", owner, userID)
	}
}

// A binding that cannot be saved does not count: the resolution is refused busy (retry) and
// the key stays unbound, and a proof that cannot be saved is an error, the binding unproven.
func TestKeyIndexUnsavedRefuses(t *testing.T) {
	w := newWorld(t)
	st := &mapKeys{saved: map[[32]byte]KeyBinding{}, err: errors.New("disk full")}
	keys := st.reload()
	r := w.resolver(func(c *Config) { c.Keys = keys })
	ctx := context.Background()
	spec := player("Ada")
	id := w.register(reg{owner: w.player, spec: spec})
	_, err := r.Resolve(ctx, id.String())
	var ge *games.Error
	if !errors.As(err, &ge) || ge.Code != CodeBusy || !ge.Retry {
		t.Fatalf("resolve with the index unsaved: %v, want %s with retry", err, CodeBusy)
	}
	if _, ok := keys.Owner(spec.SigningKey); ok {
		t.Fatal("a binding that was not saved counts")
	}
	st.mu.Lock()
	st.err = nil
	st.mu.Unlock()
	a, err := r.Resolve(ctx, id.String())
	if err != nil {
		t.Fatal(err)
	}
	st.mu.Lock()
	st.err = errors.New("disk full")
	st.mu.Unlock()
	if ok, err := r.Proven(id.String(), a.Key); ok || codeOf(err) != CodeBusy {
		t.Fatalf("Proven with the index unsaved: %v %v, want false and %s", ok, err, CodeBusy)
	}
	if b := st.saved[[32]byte(a.Key)]; b.Proven {
		t.Fatal("an unsaved proof was kept")
	}
}
