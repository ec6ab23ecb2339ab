package x402

import (
	"math/big"

	"github.com/decred/dcrd/dcrec/secp256k1/v4"
	"github.com/decred/dcrd/dcrec/secp256k1/v4/ecdsa"
)

// The EIP-712 type strings of §10.7.1: the domain every USDC-like EIP-3009 token and Circle's
// GatewayWallet sign under, and EIP-3009's transferWithAuthorization message.
const (
	domainType   = "EIP712Domain(string name,string version,uint256 chainId,address verifyingContract)"
	transferType = "TransferWithAuthorization(address from,address to,uint256 value,uint256 validAfter,uint256 validBefore,bytes32 nonce)"
)

// DomainTypeHash is keccak256 of the EIP712Domain type string.
func DomainTypeHash() [32]byte { return keccak([]byte(domainType)) }

// TransferTypeHash is keccak256 of the TransferWithAuthorization type string (EIP-3009's
// TRANSFER_WITH_AUTHORIZATION_TYPEHASH, 0x7c7c6cdb…2267).
func TransferTypeHash() [32]byte { return keccak([]byte(transferType)) }

// Domain is an EIP-712 signing domain with the four fields EIP-3009 tokens use (§10.7.1).
type Domain struct {
	Name              string
	Version           string
	ChainID           uint64
	VerifyingContract Address
}

// Separator is the domain's EIP-712 domain separator, keccak256(typeHash ‖ keccak(name) ‖
// keccak(version) ‖ uint256(chainId) ‖ address): what the token's DOMAIN_SEPARATOR() returns.
func (d Domain) Separator() [32]byte {
	th := DomainTypeHash()
	name := keccak([]byte(d.Name))
	version := keccak([]byte(d.Version))
	return keccak(th[:], name[:], version[:], wordUint64(d.ChainID), wordAddress(d.VerifyingContract))
}

// Authorization is EIP-3009's transferWithAuthorization message: from pays to value atomic
// units, valid strictly after validAfter and strictly before validBefore (Unix seconds, as the
// token compares them with block.timestamp), once per (from, nonce) at its contract.
type Authorization struct {
	From        Address
	To          Address
	Value       *big.Int
	ValidAfter  *big.Int
	ValidBefore *big.Int
	Nonce       [32]byte
}

// StructHash is the EIP-712 hashStruct of the authorization.
func (a Authorization) StructHash() [32]byte {
	th := TransferTypeHash()
	return keccak(th[:], wordAddress(a.From), wordAddress(a.To), word(a.Value),
		word(a.ValidAfter), word(a.ValidBefore), a.Nonce[:])
}

// Digest is the EIP-712 digest a wallet signs for the authorization under d:
// keccak256(0x19 ‖ 0x01 ‖ domainSeparator ‖ hashStruct).
func Digest(d Domain, a Authorization) [32]byte {
	sep := d.Separator()
	sh := a.StructHash()
	return keccak([]byte{0x19, 0x01}, sep[:], sh[:])
}

// Recover returns the address whose key made sig over digest. sig is the 65 bytes r ‖ s ‖ v of
// an Ethereum signature; v is 27 or 28, or 0 or 1 (taken as 27 and 28). s above n/2 is refused,
// as EIP-2 and the USDC contract refuse it, so that no second signature of one authorization
// exists. Errors are *Refusal with CodeSignature.
func Recover(digest [32]byte, sig []byte) (Address, error) {
	if len(sig) != 65 {
		return Address{}, refuse(CodeSignature, "the signature is not 65 bytes")
	}
	v := sig[64]
	if v < 27 {
		v += 27
	}
	if v != 27 && v != 28 {
		return Address{}, refuse(CodeSignature, "the signature's v is not 27 or 28")
	}
	var s secp256k1.ModNScalar
	if overflow := s.SetByteSlice(sig[32:64]); overflow || s.IsZero() {
		return Address{}, refuse(CodeSignature, "the signature's s is not below the curve order")
	}
	if s.IsOverHalfOrder() {
		return Address{}, refuse(CodeSignature, "the signature's s is above n/2 (malleable form)")
	}
	// RecoverCompact takes the recovery code first, then r and s; 27 and 28 are its codes for
	// an uncompressed key, which is what an Ethereum address hashes.
	var compact [65]byte
	compact[0] = v
	copy(compact[1:], sig[:64])
	pub, _, err := ecdsa.RecoverCompact(compact[:], digest[:])
	if err != nil {
		return Address{}, refuse(CodeSignature, "no key recovers from the signature")
	}
	return addressOf(pub), nil
}

// addressOf is the EVM address of a public key: the last 20 bytes of keccak256 of its
// uncompressed X ‖ Y.
func addressOf(pub *secp256k1.PublicKey) Address {
	u := pub.SerializeUncompressed()
	h := keccak(u[1:])
	var a Address
	copy(a[:], h[12:])
	return a
}
