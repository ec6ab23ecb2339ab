package mcp

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"sync"
	"time"

	"github.com/mark3labs/mcp-go/mcp"

	"arena/chain/nostr"
	"arena/games/breakroom/wire"
	"arena/transport/breakroom/play"
)

// maxPaidSessions bounds the paid joins awaiting confirm_payment the door keeps in memory;
// beyond it the oldest is forgotten (its confirm_payment is unauthorized: join again).
const maxPaidSessions = 4096

// paidGrace is how long after its invoice expires a paid session is kept, so a confirmation
// of an expired invoice is the product's payment_expired rather than unauthorized.
const paidGrace = time.Minute

// paidSession is a paid join waiting for confirm_payment: the key that signed the join (the
// door signs the confirmation's challenge with it, as it signed the join's) and the invoice.
type paidSession struct {
	sk      nostr.SecretKey
	hash    string
	expires time.Time
}

// paidSessions are the paid joins awaiting confirm_payment, by session, in memory (a restart
// forgets them: the agent joins again, its stake refunded by the cashier's Resume).
type paidSessions struct {
	mu    sync.Mutex
	by    map[string]paidSession
	order []string
}

func (p *paidSessions) put(s paidSession) (string, error) {
	var b [16]byte
	if _, err := rand.Read(b[:]); err != nil {
		return "", err
	}
	id := "pay_" + hex.EncodeToString(b[:])
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.by == nil {
		p.by = map[string]paidSession{}
	}
	now := time.Now()
	for len(p.order) > 0 && (len(p.order) >= maxPaidSessions || !now.Before(p.by[p.order[0]].expires)) {
		delete(p.by, p.order[0])
		p.order = p.order[1:]
	}
	p.by[id] = s
	p.order = append(p.order, id)
	return id, nil
}

func (p *paidSessions) get(id string) (paidSession, bool) {
	p.mu.Lock()
	defer p.mu.Unlock()
	s, ok := p.by[id]
	if ok && !time.Now().Before(s.expires) {
		return paidSession{}, false
	}
	return s, ok
}

func (p *paidSessions) drop(id string) {
	p.mu.Lock()
	defer p.mu.Unlock()
	delete(p.by, id) // its place in order is skipped when reached
}

// paidJoinAnswer is a paid join's payment_required with a session for confirm_payment.
func (h *handlers) paidJoinAnswer(pr wire.PaymentRequired, sk nostr.SecretKey, extra map[string]any) *mcp.CallToolResult {
	id, err := h.pend.put(paidSession{sk: sk, hash: pr.PaymentHash,
		expires: time.Now().Add(time.Duration(pr.ExpiresInS)*time.Second + paidGrace)})
	if err != nil {
		return h.refuse(err, "")
	}
	extra["session"] = id
	extra["next"] = "pay bolt11 with a Lightning wallet, then call confirm_payment with this session, payment_hash and payout_lnaddr (your Lightning address for winnings)"
	return answer(pr, extra)
}

// confirmPayment is POST /v0/paid for the paid join of session: the door signs a fresh
// challenge with the join's key; the payment hash and payout address are judged by the HTTP
// door's decoder and the product's checks, so every refusal is the HTTP door's code
// (unknown_payment, not_paid — call again once paid —, payment_expired, bad_payout_address,
// wallet_error, bad_request). Queued, the answer's session is the one for wait_for_turn.
func (h *handlers) confirmPayment(ctx context.Context, raw []byte) *mcp.CallToolResult {
	var a paymentArgs
	if r := decode(raw, &a); r != nil {
		return r
	}
	if h.d.Payer() == nil {
		return refusal(codePaymentsDisabled, "paid tables are not open on this server: there is no invoice to confirm; play the free tables", "")
	}
	if r := session(a.Session); r != nil {
		return r
	}
	ps, ok := h.pend.get(a.Session)
	if !ok {
		return refusal(codeUnauthorized, "no paid join_game answered this session (or it expired): join_game with stake_sats again", "")
	}
	m := wire.Paid{AuthorPubkey: ps.sk.Public().String()}
	if a.PaymentHash != nil {
		m.PaymentHash = *a.PaymentHash
	}
	if a.PayoutLnaddr != nil {
		m.PayoutLnaddr = *a.PayoutLnaddr
	}
	addr, _ := ctx.Value(addrKey{}).(string)
	nonce, err := h.d.Challenge(addr)
	if err != nil {
		return h.refuse(err, "")
	}
	if m.Sig, err = ps.sk.Sign(nostr.Challenge(nonce)); err != nil {
		return h.refuse(err, "")
	}
	m.Nonce = nonce
	body, _ := json.Marshal(m)
	in, err := wire.DecodeHTTP(wire.KindPaid, "", body)
	if err != nil {
		return h.refuse(err, "")
	}
	cctx, cancel := h.call(ctx)
	defer cancel()
	joined, err := h.d.SignedPaid(cctx, in.(*wire.Paid), play.ViaMCP)
	if err != nil {
		return h.refuse(err, "")
	}
	h.pend.drop(a.Session)
	return answer(joined.First, map[string]any{"session": joined.Conn, "next": "call wait_for_turn with this session"})
}
