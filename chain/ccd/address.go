package ccd

import (
	"encoding/hex"
	"fmt"

	sdk "github.com/Concordium/concordium-go-sdk/v2"
	"github.com/btcsuite/btcutil/base58"
)

// Address is a Concordium account address: 32 bytes, written in base58check with version byte
// 1 (e.g. "2wkH4kHMn2WPndf8CxmsoFkX93ouZMJUwTBFSZpDCeNeGWa7dj" for bytes 00..1f).
type Address [32]byte

// ParseAddress reads a base58check account address. It refuses a bad checksum, a payload that
// is not 32 bytes, and a version byte other than 1 (the SDK's AccountAddressFromString accepts
// any version, so a contract or token address of 32 bytes would pass there). Errors wrap
// ErrAddress.
func ParseAddress(s string) (Address, error) {
	b, version, err := base58.CheckDecode(s)
	if err != nil {
		return Address{}, fmt.Errorf("%w: %q: %v", ErrAddress, s, err)
	}
	if version != 1 {
		return Address{}, fmt.Errorf("%w: %q has version %d, want 1 (account)", ErrAddress, s, version)
	}
	a, err := sdk.AccountAddressFromBytes(b)
	if err != nil {
		return Address{}, fmt.Errorf("%w: %q: %v", ErrAddress, s, err)
	}
	return Address(a.Value), nil
}

// String is the base58check form (version 1).
func (a Address) String() string {
	sa := sdk.AccountAddress{Value: a}
	return sa.ToBase58()
}

// Hex is the 64 hex digits of the 32 bytes.
func (a Address) Hex() string { return hex.EncodeToString(a[:]) }

// MarshalText writes the base58check form, so Address is a JSON string.
func (a Address) MarshalText() ([]byte, error) { return []byte(a.String()), nil }

// UnmarshalText reads the base58check form (ParseAddress).
func (a *Address) UnmarshalText(b []byte) error {
	v, err := ParseAddress(string(b))
	if err != nil {
		return err
	}
	*a = v
	return nil
}

func (a Address) sdk() sdk.AccountAddress { return sdk.AccountAddress{Value: a} }
