package bolt11

import (
	"fmt"
	"math"
	"math/bits"
	"strconv"
)

// Currency is the BIP-173 currency prefix after "ln" in the human-readable part, which names the
// chain the invoice is paid on ("Human-Readable Part").
type Currency string

// The currencies Decode knows. A reader MUST fail an invoice whose prefix it does not understand.
const (
	Bitcoin Currency = "bc"   // mainnet, lnbc
	Testnet Currency = "tb"   // testnet, lntb
	Signet  Currency = "tbs"  // signet, lntbs
	Regtest Currency = "bcrt" // regtest, lnbcrt
	Simnet  Currency = "sb"   // btcd/lnd simnet, lnsb (not in BOLT 11; lnd writes it)
)

// known reports whether c is one of the currencies above.
func (c Currency) known() bool {
	switch c {
	case Bitcoin, Testnet, Signet, Regtest, Simnet:
		return true
	}
	return false
}

// Amount is the amount as the human-readable part writes it: Value times the Multiplier's
// fraction of a bitcoin. The zero Amount is "no amount" (the payer chooses). Two Amounts with the
// same Msat are different strings ("2500u", "250000n"); the invoice keeps the one it was written with.
type Amount struct {
	// Value is the decimal number as written: positive, no leading 0. 0 means no amount.
	Value uint64
	// Multiplier is 0 (whole bitcoin) or one of 'm' (10^-3), 'u' (10^-6), 'n' (10^-9), 'p' (10^-12).
	Multiplier byte
}

// msatPer is the number of millisatoshis in one Value of each multiplier; p is 1/10 and is
// handled apart.
func msatPer(m byte) (uint64, bool) {
	switch m {
	case 0:
		return 100_000_000_000, true
	case 'm':
		return 100_000_000, true
	case 'u':
		return 100_000, true
	case 'n':
		return 100, true
	}
	return 0, false
}

// Msat is the amount in millisatoshis, and false when a is not a valid amount: a multiplier that
// is none of the four, a p value whose last digit is not 0, or a product over 2^64-1. The zero
// Amount is (0, true).
func (a Amount) Msat() (uint64, bool) {
	if a.Multiplier == 'p' {
		if a.Value%10 != 0 {
			return 0, false
		}
		return a.Value / 10, true
	}
	per, ok := msatPer(a.Multiplier)
	if !ok {
		return 0, false
	}
	hi, lo := bits.Mul64(a.Value, per)
	if hi != 0 {
		return 0, false
	}
	return lo, true
}

// String is the amount as the human-readable part writes it ("2500u"); "" for no amount.
func (a Amount) String() string {
	if a.Value == 0 {
		return ""
	}
	s := strconv.FormatUint(a.Value, 10)
	if a.Multiplier != 0 {
		s += string(rune(a.Multiplier))
	}
	return s
}

// AmountMsat is the shortest Amount for msat: the largest multiplier that keeps the value whole,
// as a writer SHOULD use ("Human-Readable Part"). AmountMsat(0) is no amount. It is false only
// for a msat above 2^64/10 that is not a multiple of 100, which no amount of 64 bits writes.
func AmountMsat(msat uint64) (Amount, bool) {
	if msat == 0 {
		return Amount{}, true
	}
	for _, m := range []byte{0, 'm', 'u', 'n'} {
		per, _ := msatPer(m)
		if msat%per == 0 {
			return Amount{Value: msat / per, Multiplier: m}, true
		}
	}
	if msat > math.MaxUint64/10 {
		return Amount{}, false
	}
	return Amount{Value: msat * 10, Multiplier: 'p'}, true
}

// parseHRP reads the human-readable part (lower case, as decodeBech32 returns it): "ln", a known
// currency, then an optional amount. Errors wrap ErrPrefix, ErrAmount or ErrSubMsat.
func parseHRP(hrp string) (Currency, Amount, error) {
	if len(hrp) < 2 || hrp[:2] != "ln" {
		return "", Amount{}, fmt.Errorf("%w: %q does not start with \"ln\"", ErrPrefix, hrp)
	}
	rest := hrp[2:]
	i := 0
	for i < len(rest) && (rest[i] < '0' || rest[i] > '9') {
		i++
	}
	cur := Currency(rest[:i])
	if !cur.known() {
		return "", Amount{}, fmt.Errorf("%w: currency %q in %q", ErrPrefix, cur, hrp)
	}
	num := rest[i:]
	if num == "" {
		return cur, Amount{}, nil
	}
	j := 0
	for j < len(num) && '0' <= num[j] && num[j] <= '9' {
		j++
	}
	digits, tail := num[:j], num[j:]
	var a Amount
	switch {
	case digits[0] == '0':
		return "", Amount{}, fmt.Errorf("%w: %q has a leading 0 (or is 0)", ErrAmount, num)
	case len(tail) > 1:
		return "", Amount{}, fmt.Errorf("%w: %q is not digits and one multiplier", ErrAmount, num)
	case len(tail) == 1:
		a.Multiplier = tail[0]
		if _, ok := msatPer(a.Multiplier); !ok && a.Multiplier != 'p' {
			return "", Amount{}, fmt.Errorf("%w: multiplier %q in %q", ErrAmount, tail, num)
		}
	}
	v, err := strconv.ParseUint(digits, 10, 64)
	if err != nil {
		return "", Amount{}, fmt.Errorf("%w: %q does not fit 64 bits", ErrAmount, digits)
	}
	a.Value = v
	if _, ok := a.Msat(); !ok {
		if a.Multiplier == 'p' {
			return "", Amount{}, fmt.Errorf("%w: %q (a p amount must end in 0)", ErrSubMsat, num)
		}
		return "", Amount{}, fmt.Errorf("%w: %q is more millisatoshis than 64 bits hold", ErrAmount, num)
	}
	return cur, a, nil
}
