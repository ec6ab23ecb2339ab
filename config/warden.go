package config

import (
	"net/url"
	"strings"

	"arena/chain/evm"
	"arena/chain/x402"
)

// Warden is the Warden section (warden-rulebook.md, warden-games.md): its site, the origin its
// 402s name, and the stake rail (EVM). With no rail (EVM.RPCURL "") the site serves
// registration and the public reads; the money doors (queue, open, join, stake) answer
// facilitator_unavailable (§10.10).
type Warden struct {
	Site Site `json:"site"`
	// PublicURL is the origin a stake's 402 names as its resource.url (§10.2); "" takes the
	// site's own listen address, or http://<first Host>:<main port>.
	PublicURL string    `json:"public_url"`
	EVM       WardenEVM `json:"evm"`
	// StakesAllowed are the stakes a match may name, atomic units (§2.1, §17), each a
	// multiple of StakeMultiple.
	StakesAllowed []uint64       `json:"stakes_allowed"`
	Standing      WardenStanding `json:"standing"`
	Prices        WardenPrices   `json:"prices"`
	// GatewayWallet is Circle's GatewayWallet contract the metered reads are signed to (§10.1
	// arc-gateway: the GatewayWalletBatched domain's verifying contract); default Arc
	// Testnet's.
	GatewayWallet string `json:"gateway_wallet"`
}

// WardenEVM is the stake rail (§10.6 selfsettle): an EIP-3009 token on an EVM chain reached over
// JSON-RPC, each stake settled by a transferWithAuthorization the Relayer sends (a node-held
// account: eth_sendTransaction, the node signs). Addresses are 0x + 40 hex.
type WardenEVM struct {
	// RPCURL is the node's JSON-RPC URL; "" is no rail.
	RPCURL string `json:"rpc_url"`
	// ChainID is the EIP-155 chain id the node must be on (checked at start) and the
	// authorizations' EIP-712 domain chain id.
	ChainID uint64 `json:"chain_id"`
	// Network is the chain's x402 v1 network name (base-sepolia); "" when it has none.
	Network string `json:"network"`
	// Token is the stake token's contract; TokenName and TokenVersion its EIP-712 domain.
	Token        string `json:"token"`
	TokenName    string `json:"token_name"`
	TokenVersion string `json:"token_version"`
	// Relayer sends the transfers and pays their gas; PayTo receives the stakes.
	Relayer string `json:"relayer"`
	PayTo   string `json:"pay_to"`
	// WalletKey is the Warden wallet's secp256k1 key, 64 hex digits (an optional 0x): the
	// escrow PayTo names, which signs every payout and refund (§11) and pays their gas. Give
	// it in the environment (ARENA_WARDEN_EVM_WALLET_KEY) rather than a flag, which other
	// users of the machine can read. "" takes DevWalletKey on a geth --dev chain (chain id
	// 1337) whose PayTo is DevWalletKey's address; otherwise no wallet: payouts and refunds
	// are queued durably and wait for one.
	WalletKey string `json:"wallet_key"`
}

// DevWalletKey is the Warden wallet's key when none is configured on a geth --dev chain
// (chain id 1337) paying stakes to its address, 0x9d8A62f656a8d1615C1294fd71e9CFb3E4855A4F:
// 32 bytes of 0x46, the account chain/evm/evmtest's dev genesis funds. Public: never for a
// chain with real money.
const DevWalletKey = "4646464646464646464646464646464646464646464646464646464646464646"

// DevWalletAddress is DevWalletKey's address.
const DevWalletAddress = "0x9d8A62f656a8d1615C1294fd71e9CFb3E4855A4F"

// Wallet is the wallet key payouts are signed with: WalletKey, or DevWalletKey on chain 1337
// when PayTo is its address (dev true), or "" when there is none.
func (e WardenEVM) Wallet() (key string, dev bool) {
	switch {
	case e.WalletKey != "":
		return e.WalletKey, false
	case e.ChainID == 1337 && strings.EqualFold(e.PayTo, DevWalletAddress):
		return DevWalletKey, true
	}
	return "", false
}

func defaultWarden() Warden {
	w := Warden{Site: Site{Hosts: []string{"warden.localhost"}},
		EVM: WardenEVM{TokenName: "USDC", TokenVersion: "2"}}
	defaultWardenPlay(&w)
	return w
}

// Enabled reports whether a stake rail is configured.
func (e WardenEVM) Enabled() bool { return e.RPCURL != "" }

// validate checks the section's settings (its site is checked with the others', validateSites):
// a rail names its chain id, token, relayer and payTo; without a rail none of those is set.
func (w Warden) validate(bad func(field, format string, args ...any)) {
	w.validatePlay(bad)
	if w.PublicURL != "" {
		if u, err := url.Parse(w.PublicURL); err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
			bad("warden.public_url (--warden-public-url, ARENA_WARDEN_PUBLIC_URL)", "want http(s)://HOST[:PORT][/PATH], got %q", w.PublicURL)
		}
	}
	e := w.EVM
	if !e.Enabled() && e.WalletKey != "" {
		bad("warden.evm.wallet_key (--warden-evm-wallet-key, ARENA_WARDEN_EVM_WALLET_KEY)", "needs warden.evm.rpc_url (--warden-evm-rpc, ARENA_WARDEN_EVM_RPC)")
	}
	addrs := []struct{ field, v string }{
		{"warden.evm.token (--warden-evm-token, ARENA_WARDEN_EVM_TOKEN)", e.Token},
		{"warden.evm.relayer (--warden-evm-relayer, ARENA_WARDEN_EVM_RELAYER)", e.Relayer},
		{"warden.evm.pay_to (--warden-evm-pay-to, ARENA_WARDEN_EVM_PAY_TO)", e.PayTo},
	}
	if !e.Enabled() {
		for _, a := range addrs {
			if a.v != "" {
				bad(a.field, "needs warden.evm.rpc_url (--warden-evm-rpc, ARENA_WARDEN_EVM_RPC)")
			}
		}
		if e.ChainID != 0 {
			bad("warden.evm.chain_id (--warden-evm-chain-id, ARENA_WARDEN_EVM_CHAIN_ID)", "needs warden.evm.rpc_url (--warden-evm-rpc, ARENA_WARDEN_EVM_RPC)")
		}
		return
	}
	if u, err := url.Parse(e.RPCURL); err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		bad("warden.evm.rpc_url (--warden-evm-rpc, ARENA_WARDEN_EVM_RPC)", "want http(s)://HOST[:PORT][/PATH], got %q", e.RPCURL)
	}
	if e.ChainID == 0 {
		bad("warden.evm.chain_id (--warden-evm-chain-id, ARENA_WARDEN_EVM_CHAIN_ID)", "is required with warden.evm.rpc_url")
	}
	for _, a := range addrs {
		if a.v == "" {
			bad(a.field, "is required with warden.evm.rpc_url")
		} else if _, ok := x402.ParseAddress(a.v); !ok {
			bad(a.field, "want 0x followed by 40 hex digits, got %q", a.v)
		}
	}
	if e.WalletKey != "" {
		const field = "warden.evm.wallet_key (--warden-evm-wallet-key, ARENA_WARDEN_EVM_WALLET_KEY)"
		w, err := evm.ParseWalletKey(e.WalletKey, e.ChainID)
		switch {
		case err != nil:
			bad(field, "%v", err) // never the key itself
		case !strings.EqualFold(w.Address.String(), e.PayTo):
			bad(field, "is the key of %s; warden.evm.pay_to is %s: the stakes' escrow pays the payouts, so they must be one account", w.Address, e.PayTo)
		}
	}
	if e.TokenName == "" || e.TokenVersion == "" {
		bad("warden.evm.token_name, token_version (--warden-evm-token-name, --warden-evm-token-version)", "must not be empty")
	}
}
