package badge

import (
	"context"
	"testing"
)

// §4.2: "a key MUST be used by exactly one Badge, ever." The KeyIndex gives a key to whichever
// Badge is resolved first, and the join door resolves before it checks the signature. So a
// copycat registers a later Badge whose card names the victim's public key (no private key
// needed), sends one unsigned join, and from then on (until a restart, and first again after
// one) the victim's own joins and owner sessions are refused key_reused: the victim is locked
// out of its seat's levers by someone who cannot sign anything. The key belongs to the Badge
// that was registered with it first; the later card is the reuse, whatever order they are read.
func TestHostile2CopycatResolvedFirstDoesNotLockOutTheEarlierBadge(t *testing.T) {
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
