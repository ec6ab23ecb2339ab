package badge

import (
	"context"
	"testing"
)

// A binding proven by a signature is final: an earlier registration naming the same key (an
// old Badge whose card is changed to name a key someone else uses) does not take it.
func TestProvenKeyIsNotTakenByAnEarlierRegistration(t *testing.T) {
	w := newWorld(t)
	keys := NewKeyIndex()
	r := w.resolver(func(c *Config) { c.Keys = keys })
	ctx := context.Background()

	old := player("Old")
	user := player("User")
	old.SigningKey = user.SigningKey
	oldID := w.register(reg{owner: w.other, spec: old})
	userID := w.register(reg{owner: w.player, spec: user})

	a, err := r.Resolve(ctx, userID.String())
	if err != nil {
		t.Fatal(err)
	}
	if !r.Proven(userID.String(), a.Key) {
		t.Fatal("Proven: the user holds its key but Prove said no")
	}
	if r.Proven(oldID.String(), a.Key) {
		t.Fatal("Proven for a Badge that does not hold the key said yes")
	}
	if _, err := r.Resolve(ctx, oldID.String()); codeOf(err) != CodeKeyReused {
		t.Fatalf("the earlier registration naming a proven key: %v, want %s", err, CodeKeyReused)
	}
	if _, err := r.Resolve(ctx, userID.String()); err != nil {
		t.Fatalf("the prover lost its key: %v", err)
	}
	if owner, _ := keys.Owner(a.Key); owner != userID.String() {
		t.Fatalf("owner %q, want %s", owner, userID)
	}
}

// Without a proof, the earlier registration wins whatever the order, and a later card's cached
// resolution stops counting once the earlier Badge took the key (two Resolvers, one index).
func TestEarlierRegistrationTakesTheKeyAcrossResolvers(t *testing.T) {
	w := newWorld(t)
	keys := NewKeyIndex()
	r1 := w.resolver(func(c *Config) { c.Keys = keys })
	r2 := w.resolver(func(c *Config) { c.Keys = keys })
	ctx := context.Background()

	first := player("First")
	later := player("Later")
	later.SigningKey = first.SigningKey
	firstID := w.register(reg{owner: w.player, spec: first})
	laterID := w.register(reg{owner: w.other, spec: later})

	if _, err := r1.Resolve(ctx, laterID.String()); err != nil {
		t.Fatalf("the later card read alone: %v", err)
	}
	if _, err := r2.Resolve(ctx, firstID.String()); err != nil {
		t.Fatalf("the earlier registration: %v", err)
	}
	if _, err := r1.Resolve(ctx, laterID.String()); codeOf(err) != CodeKeyReused {
		t.Fatalf("the later card, cached before: %v, want %s", err, CodeKeyReused)
	}
}
