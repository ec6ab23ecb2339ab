package play

import (
	"context"

	"arena/games"
	"arena/games/breakroom/wire"
	"arena/transport/door"
)

// What Break Room's other doors (transport/breakroom/mcp, which drives the HTTP fallback for
// agents that act through tools) take from these: the same challenge desk, the same join
// checks and the same refusals, so every door refuses a join alike.

// ViaMCP is Join.Via for a join through the MCP door: to the product it is an HTTP connection
// (the tools drive the HTTP fallback's calls), counted apart in the usage stats.
const ViaMCP = "mcp"

// Backend is the product the doors serve.
func (d *Door) Backend() Backend { return d.o.Backend }

// Challenge issues a nonce for caller (door.ClientAddr), as GET /v0/challenge does.
func (d *Door) Challenge(caller string) (string, error) { return d.o.Nonces.Issue(caller) }

// SignedJoin is POST /v0/join after its body is decoded: a paid join is payments_disabled, an
// unknown game unknown_game naming the open games (both before the signature, so the nonce
// stays good), then the key, nonce and signature are checked (bad_request, auth_failed; the
// nonce is spent) and the join handed to the product, through door via (ViaMCP for the MCP door).
func (d *Door) SignedJoin(ctx context.Context, j *wire.Join, via string) (Joined, error) {
	if err := d.preJoin(ctx, j); err != nil {
		return Joined{}, err
	}
	jn, err := d.verifyJoin(j, via)
	if err != nil {
		return Joined{}, err
	}
	return d.o.Backend.Join(ctx, jn)
}

// SignedPaid is POST /v0/paid after its body is decoded: without paid tables
// payments_disabled (nothing spent); the signature is checked without spending the nonce; the
// product takes the stake through door via (ViaMCP for the MCP door); once the seat is claimed
// the nonce is spent. A not_paid keeps the nonce good: the same message may be sent again.
func (d *Door) SignedPaid(ctx context.Context, m *wire.Paid, via string) (Joined, error) {
	p := d.payer()
	if p == nil {
		return Joined{}, games.Errorf(CodePaymentsDisabled, "paid tables are not open on this server: there is no invoice to confirm; play the free tables")
	}
	key, err := d.o.Nonces.Check(m.AuthorPubkey, m.Nonce, m.Sig)
	if err != nil {
		return Joined{}, err
	}
	joined, err := p.Paid(ctx, PaidJoin{Key: key.String(), Via: via, PaymentHash: m.PaymentHash, Lnaddr: m.PayoutLnaddr})
	if err != nil {
		return Joined{}, err
	}
	// The seat is claimed: the nonce is spent (a replay of this message is auth_failed).
	_ = d.o.Nonces.Consume(m.Nonce)
	return joined, nil
}

// RefusalOf is err as the doors write it (door.AsRefusal; unknown_game with its "games"); ok is
// false for an internal error, which is logged and not described.
func RefusalOf(err error) (*door.Refusal, bool) { return refusalOf(err) }
