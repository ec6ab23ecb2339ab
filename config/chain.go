package config

import (
	"fmt"
	"strconv"
	"strings"

	"arena/chain/badge"
	"arena/chain/ccd"
)

// A configured node (ChainNode) is a real network: the arena's account key must exist
// (ChainKeyFile: nothing is generated for it), and the network's own addresses come from here,
// never from the devchain's constants:
//
//   - ChainNetwork is the CAIP-2 chain id the node must be on, ccd:<32 hex> (§3: testnet
//     ccd:4221332d34e1694168c2a0c0b3fd0f27). Set, the node's genesis is checked against it before
//     anything is signed; "" takes the node's own and logs it.
//   - ChainEscrow is the DOTDOTDOT escrow instance paid tables deposit to and settle on (§5.5,
//     §5.7, §11.5): Concordium's <INDEX,SUBINDEX> or the CAIP-10 contract form
//     ccd:<chain>:<index>.<subindex>, whose chain must then be the node's.
//   - ChainHouseAccount is the house identity account (§3), base58check: the owner of the
//     instance's Badge (named on the instance card) and of house Badges.
//
// A configured node without ChainEscrow or ChainHouseAccount serves no paid table: `table:
// "open"` is refused with bad_table, naming the missing setting. On the embedded devchain the
// three are the devchain's (it poses as testnet, with its escrow at <12810,0> and its genesis
// house account) and setting them is an error.

// Escrow is an escrow contract instance as configured; Chain is "" for the <INDEX,SUBINDEX>
// form (the node's chain).
type Escrow struct {
	Chain           string
	Index, Subindex uint64
}

// ParseEscrow reads ChainEscrow: "<INDEX,SUBINDEX>" (Concordium's notation, e.g. <12810,0>) or
// "ccd:<chain>:<index>.<subindex>" (CAIP-10). Decimal, no sign, no leading zero.
func ParseEscrow(s string) (Escrow, error) {
	if strings.HasPrefix(s, "ccd:") {
		c, err := badge.ParseContract(s)
		if err != nil {
			return Escrow{}, err
		}
		return Escrow{Chain: string(c.Chain), Index: c.Index, Subindex: c.Subindex}, nil
	}
	in, ok := strings.CutPrefix(s, "<")
	in, ok2 := strings.CutSuffix(in, ">")
	is, ss, ok3 := strings.Cut(in, ",")
	idx, err1 := decimal(is)
	sub, err2 := decimal(ss)
	if !ok || !ok2 || !ok3 || err1 != nil || err2 != nil {
		return Escrow{}, fmt.Errorf("want <INDEX,SUBINDEX> such as <12810,0>, or ccd:<chain>:<index>.<subindex>, got %q", s)
	}
	return Escrow{Index: idx, Subindex: sub}, nil
}

func decimal(s string) (uint64, error) {
	if s == "" || (len(s) > 1 && s[0] == '0') || s[0] == '+' || s[0] == '-' {
		return 0, strconv.ErrSyntax
	}
	return strconv.ParseUint(s, 10, 64)
}

// validateChain checks the configured node's network settings.
func (c Config) validateChain(bad func(field, format string, args ...any)) {
	fields := []struct {
		field, v string
	}{{"chain_network (--chain-network, ARENA_CHAIN_NETWORK)", c.ChainNetwork},
		{"chain_escrow (--chain-escrow, ARENA_CHAIN_ESCROW)", c.ChainEscrow},
		{"chain_house_account (--chain-house-account, ARENA_CHAIN_HOUSE_ACCOUNT)", c.ChainHouseAccount}}
	if c.ChainNode == "" {
		for _, f := range fields {
			if f.v != "" {
				bad(f.field, "needs chain_node: the embedded devchain makes its own (its network, escrow and house account)")
			}
		}
		return
	}
	if c.ChainNetwork != "" {
		if _, err := badge.ParseChain(c.ChainNetwork); err != nil {
			bad(fields[0].field, "want a CAIP-2 chain id ccd:<32 hex>, e.g. %s (testnet), got %q", TestnetChain, c.ChainNetwork)
		}
	}
	if c.ChainEscrow != "" {
		e, err := ParseEscrow(c.ChainEscrow)
		switch {
		case err != nil:
			bad(fields[1].field, "%v", err)
		case e.Chain != "" && c.ChainNetwork != "" && e.Chain != c.ChainNetwork:
			bad(fields[1].field, "the escrow is on %s but chain_network is %s", e.Chain, c.ChainNetwork)
		}
	}
	if c.ChainHouseAccount != "" {
		if a, err := ccd.ParseAddress(c.ChainHouseAccount); err != nil || a == (ccd.Address{}) {
			bad(fields[2].field, "want a Concordium account address (base58check, version 1), got %q", c.ChainHouseAccount)
		}
	}
}
