package claims

import (
	"crypto/sha256"
	"encoding/binary"
)

// Parameters of warden-games §3.1 (the manifest defaults; the engine takes no options yet).
const (
	Rounds      = 5
	ValMin      = 2000 // bps of the round pot
	ValMax      = 8000
	ValStep     = 100
	BaseBps     = 2000 // base pot, bps of one stake
	StepBps     = 500  // one escalation step, bps of one stake
	CapBps      = 4000 // the pot's cap, bps of one stake
	MaxSteps    = 4    // escalation steps one seat may add in one round
	MaxChars    = 500  // one private message, in characters
	RakeBps     = 500  // settlement's, reported in match_started only
	NoClaimDev  = 10001
	StakeFactor = 200_000 // stakes are whole multiples of 0.2 USDC (§16.1 multiple_of)
)

// Valuation is seat's valuation (0 = A, 1 = B) in round (1..5) drawn from seed by the
// rejection-sampled SHA-256 procedure of warden-games §3.2.
func Valuation(seed [32]byte, round, seat int) int64 {
	const n = (ValMax-ValMin)/ValStep + 1
	limit := ^uint64(0) - (^uint64(0)%n+1)%n // 2^64 − (2^64 mod n), less one: x ≤ limit accepted
	for counter := uint32(0); ; counter++ {
		h := sha256.New()
		h.Write([]byte("warden/valuation/v1"))
		h.Write(seed[:])
		h.Write([]byte{byte(round), byte(seat)})
		var c [4]byte
		binary.BigEndian.PutUint32(c[:], counter)
		h.Write(c[:])
		x := binary.BigEndian.Uint64(h.Sum(nil)[:8])
		if x <= limit {
			return ValMin + ValStep*int64(x%n)
		}
	}
}

// Pot is the round pot in micro-units for stake S and the two escalation counts (§3.4):
// min(cap, base + step × (escA + escB)).
func Pot(stake int64, escA, escB int) int64 {
	base, step, cap := bps(stake, BaseBps), bps(stake, StepBps), bps(stake, CapBps)
	return min(cap, base+step*int64(escA+escB))
}

// Deviation is |ask − claim| in bps (§3.5); a missing claim (claimed false) is 10001.
func Deviation(ask, claim int64, claimed bool) int64 {
	if !claimed {
		return NoClaimDev
	}
	if ask > claim {
		return ask - claim
	}
	return claim - ask
}

// Resolution is one round's REVEAL arithmetic (§3.6), micro-units except where said.
type Resolution struct {
	Pot       int64
	Overshoot bool     // asks summed above 10000 bps
	Dev       [2]int64 // bps
	Pay       [2]int64
	Spill     int64 // pot − pay A − pay B, the house's
}

// Resolve settles asks (bps) against deviations dev (bps) on pot: both paid in full when the
// asks sum to ≤ 10000; otherwise the further deviator gets nothing and the other its full ask
// ([JC-8]); equal deviations pay neither.
func Resolve(pot int64, ask, dev [2]int64) Resolution {
	r := Resolution{Pot: pot, Dev: dev}
	full := [2]int64{bps(pot, ask[0]), bps(pot, ask[1])}
	switch {
	case ask[0]+ask[1] <= 10000:
		r.Pay = full
	case dev[0] > dev[1]:
		r.Overshoot, r.Pay = true, [2]int64{0, full[1]}
	case dev[1] > dev[0]:
		r.Overshoot, r.Pay = true, [2]int64{full[0], 0}
	default:
		r.Overshoot = true
	}
	r.Spill = pot - r.Pay[0] - r.Pay[1]
	return r
}

// bps is floor(b × amount / 10000) without overflow for amount < 2^53 (0 ≤ b ≤ 10000).
func bps(amount, b int64) int64 {
	return amount/10000*b + amount%10000*b/10000
}
