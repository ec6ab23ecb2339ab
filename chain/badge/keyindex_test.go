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
	if ok, err := r.Proven(userID.String(), a.Key); !ok || err != nil {
		t.Fatal("Proven: the user holds its key but Prove said no")
	}
	if ok, _ := r.Proven(oldID.String(), a.Key); ok {
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

// §4.2: "a key MUST be used by exactly one Badge, ever." The key belongs to the Badge that was
// registered with it first, whatever order the cards are read in. The join door resolves before
// it checks the signature, so a copycat that registers a later Badge whose card names the
// victim's public key (no private key needed) and sends one unsigned join is read first; that
// must not lock the victim out of its own joins and owner sessions (key_reused, until a restart
// and first again after one). The later card is the reuse.
func TestCopycatResolvedFirstDoesNotLockOutTheEarlierBadge(t *testing.T) {
	w := newWorld(t)
	keys := NewKeyIndex()
	r := w.resolver(func(c *Config) { c.Keys = keys })
	ctx := context.Background()

	victim := player("Victim")
	victimID := w.register(reg{owner: w.player, spec: victim})
	copycat := player("Copycat")
	copycat.SigningKey = victim.SigningKey // copied from the victim's public card
	copycatID := w.register(reg{owner: w.other, spec: copycat})

	// The copycat is read first (an unsigned POST /v1/join resolves it before the sig check).
	_, copyErr := r.Resolve(ctx, copycatID.String())

	if _, err := r.Resolve(ctx, victimID.String()); err != nil {
		t.Fatalf("the victim, registered first with its own key, is refused after a copycat was read: %v (copycat got %v)", err, copyErr)
	}
	if _, err := r.Resolve(ctx, copycatID.String()); codeOf(err) != CodeKeyReused {
		t.Fatalf("the copycat with the victim's key: %v, want %s", err, CodeKeyReused)
	}
}
