package badge

import (
	"encoding/binary"
	"errors"
	"fmt"
	"strconv"
	"strings"

	"arena/chain/ccd"

	"github.com/btcsuite/btcutil/base58"
)

// Chain is a CAIP-2 chain id of the Concordium namespace: "ccd:" and the first 16 bytes of
// the genesis block hash in 32 lowercase hex digits (§3).
type Chain string

// The public networks (§3).
const (
	Testnet Chain = "ccd:4221332d34e1694168c2a0c0b3fd0f27"
	Mainnet Chain = "ccd:9dd9ca4d19e9393877d2c44b70f89acb"
)

// tokenAddressVersion is the base58check version byte of a CIS-2 token address
// (addresses.json cis2_token_addresses).
const tokenAddressVersion = 2

// Parse errors. Each wraps with the offending text.
var (
	// ErrNotBase58: an agent id carries a character outside the base58 alphabet (0, O, I, l
	// or anything else), refused at the door before any other check (§3).
	ErrNotBase58 = errors.New("badge: character outside base58")
	// ErrSyntax: an identifier is not of the form its kind requires.
	ErrSyntax = errors.New("badge: malformed identifier")
)

const base58Alphabet = "123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz"

func isBase58(s string) (bad rune, ok bool) {
	for _, c := range s {
		if c > 127 || !strings.ContainsRune(base58Alphabet, c) {
			return c, false
		}
	}
	return 0, true
}

// ParseChain reads a CAIP-2 Concordium chain id.
func ParseChain(s string) (Chain, error) {
	ref, ok := strings.CutPrefix(s, "ccd:")
	if !ok || len(ref) != 32 || !isLowerHex(ref) {
		return "", fmt.Errorf("%w: chain id %q is not ccd:<32 lowercase hex>", ErrSyntax, s)
	}
	return Chain(s), nil
}

func isLowerHex(s string) bool {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if (c < '0' || c > '9') && (c < 'a' || c > 'f') {
			return false
		}
	}
	return true
}

// Account is a CAIP-10 account id: "ccd:<chain reference>:<base58check address>" (§3 Owner).
type Account struct {
	Chain   Chain
	Address ccd.Address
}

// ParseAccount reads a CAIP-10 account id; the address must be a version-1 base58check
// account address (ccd.ParseAddress).
func ParseAccount(s string) (Account, error) {
	chain, rest, err := splitChain(s, ':')
	if err != nil {
		return Account{}, err
	}
	a, err := ccd.ParseAddress(rest)
	if err != nil {
		return Account{}, fmt.Errorf("%w: account %q: %v", ErrSyntax, s, err)
	}
	return Account{Chain: chain, Address: a}, nil
}

// String is the CAIP-10 form.
func (a Account) String() string { return string(a.Chain) + ":" + a.Address.String() }

// Contract is a contract instance address as a CAIP-10 id: "ccd:<chain reference>:<index>.<subindex>"
// (§4.2 params.contracts, e.g. ccd:4221332d34e1694168c2a0c0b3fd0f27:12802.0).
type Contract struct {
	Chain    Chain
	Index    uint64
	Subindex uint64
}

// ParseContract reads a contract address id. Index and subindex are decimal, without sign or
// leading zeros (one spelling per address).
func ParseContract(s string) (Contract, error) {
	chain, rest, err := splitChain(s, ':')
	if err != nil {
		return Contract{}, err
	}
	is, ss, ok := strings.Cut(rest, ".")
	idx, err1 := parseDecimal(is)
	sub, err2 := parseDecimal(ss)
	if !ok || err1 != nil || err2 != nil {
		return Contract{}, fmt.Errorf("%w: contract %q is not ccd:<chain>:<index>.<subindex>", ErrSyntax, s)
	}
	return Contract{Chain: chain, Index: idx, Subindex: sub}, nil
}

func parseDecimal(s string) (uint64, error) {
	if s == "" || (len(s) > 1 && s[0] == '0') || s[0] == '+' || s[0] == '-' {
		return 0, ErrSyntax
	}
	return strconv.ParseUint(s, 10, 64)
}

// String is the CAIP-10 contract form.
func (c Contract) String() string {
	return fmt.Sprintf("%s:%d.%d", c.Chain, c.Index, c.Subindex)
}

// splitChain splits "ccd:<ref><sep><rest>" into the chain id and the rest.
func splitChain(s string, sep byte) (Chain, string, error) {
	if len(s) < 4+32+1 || s[4+32] != sep {
		return "", "", fmt.Errorf("%w: %q does not begin with a chain id", ErrSyntax, s)
	}
	chain, err := ParseChain(s[:4+32])
	if err != nil {
		return "", "", err
	}
	return chain, s[4+32+1:], nil
}

// TokenAddress is a CIS-2 token address: the contract instance and the token id bytes. Its
// text form is base58check with version byte 2 over LEB128(index) || LEB128(subindex) ||
// token id (addresses.json: <12802,0> with token id 01 is "2rSzdzSTqWnb").
type TokenAddress struct {
	Index, Subindex uint64
	TokenID         []byte // at most 255 bytes (CIS-2)
}

// ParseTokenAddress reads the base58check form. It refuses a character outside base58
// (ErrNotBase58), a bad checksum or version, a non-minimal or overlong LEB128 and a token id
// over 255 bytes (ErrSyntax).
func ParseTokenAddress(s string) (TokenAddress, error) {
	if c, ok := isBase58(s); !ok {
		return TokenAddress{}, fmt.Errorf("%w: %q in token address %q", ErrNotBase58, c, s)
	}
	b, v, err := base58.CheckDecode(s)
	if err != nil || v != tokenAddressVersion {
		return TokenAddress{}, fmt.Errorf("%w: token address %q: bad checksum or version", ErrSyntax, s)
	}
	idx, n := uleb(b)
	if n <= 0 {
		return TokenAddress{}, fmt.Errorf("%w: token address %q: bad index", ErrSyntax, s)
	}
	sub, m := uleb(b[n:])
	if m <= 0 {
		return TokenAddress{}, fmt.Errorf("%w: token address %q: bad subindex", ErrSyntax, s)
	}
	id := b[n+m:]
	if len(id) > 255 {
		return TokenAddress{}, fmt.Errorf("%w: token address %q: token id of %d bytes", ErrSyntax, s, len(id))
	}
	return TokenAddress{Index: idx, Subindex: sub, TokenID: append([]byte{}, id...)}, nil
}

// uleb reads a minimal unsigned LEB128 of at most 64 bits: the value and the bytes read, or
// n <= 0 when malformed.
func uleb(b []byte) (v uint64, n int) {
	for i := 0; i < len(b) && i < 10; i++ {
		c := b[i]
		if i == 9 && c > 1 {
			return 0, -1 // past 64 bits
		}
		v |= uint64(c&0x7f) << (7 * i)
		if c&0x80 == 0 {
			if i > 0 && c == 0 {
				return 0, -1 // non-minimal: a trailing zero group
			}
			return v, i + 1
		}
	}
	return 0, -1
}

// String is the base58check form.
func (t TokenAddress) String() string {
	b := binary.AppendUvarint(nil, t.Index)
	b = binary.AppendUvarint(b, t.Subindex)
	b = append(b, t.TokenID...)
	return base58.CheckEncode(b, tokenAddressVersion)
}

// AgentID is a CAIP-19 agent id, which is the Badge (§3): "ccd:<chain reference>/cis-2:<token
// address>".
type AgentID struct {
	Chain Chain
	Token TokenAddress
}

// ParseAgentID reads a CAIP-19 agent id. A character outside base58 in the token part is
// ErrNotBase58 (its own reason, §3), checked before the shape so that such an id is refused
// for that and nothing else; any other defect is ErrSyntax.
func ParseAgentID(s string) (AgentID, error) {
	if len(s) > 256 {
		return AgentID{}, fmt.Errorf("%w: agent id of %d bytes", ErrSyntax, len(s))
	}
	chain, rest, err := splitChain(s, '/')
	if err != nil {
		return AgentID{}, err
	}
	tok, ok := strings.CutPrefix(rest, "cis-2:")
	if !ok || tok == "" {
		return AgentID{}, fmt.Errorf("%w: agent id %q is not ccd:<chain>/cis-2:<token address>", ErrSyntax, s)
	}
	t, err := ParseTokenAddress(tok)
	if err != nil {
		return AgentID{}, err
	}
	return AgentID{Chain: chain, Token: t}, nil
}

// String is the CAIP-19 form.
func (a AgentID) String() string { return string(a.Chain) + "/cis-2:" + a.Token.String() }

// BadgeTokenID is the registry token id of a Badge: CIS-8004 Badges are TokenIdU64, eight
// bytes little-endian (cis8004.json: token 484 is e401000000000000). ok is false for any
// other length.
func (a AgentID) BadgeTokenID() (uint64, bool) {
	if len(a.Token.TokenID) != 8 {
		return 0, false
	}
	return binary.LittleEndian.Uint64(a.Token.TokenID), true
}

// NewAgentID is the Badge with registry token id tokenID on the registry contract on chain.
func NewAgentID(chain Chain, registry Contract, tokenID uint64) AgentID {
	return AgentID{Chain: chain, Token: TokenAddress{Index: registry.Index, Subindex: registry.Subindex,
		TokenID: binary.LittleEndian.AppendUint64(nil, tokenID)}}
}
