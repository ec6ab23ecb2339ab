package badge

import (
	"bytes"
	"context"
	"crypto/ed25519"
	"crypto/sha256"
	"errors"
	"regexp"
	"strings"
	"sync"
	"time"

	"arena/chain/ccd"
	"arena/chain/egress"
	"arena/games"
	"arena/games/canon"
)

// DefaultTTL is how long a resolution is reused when Config.TTL is zero (§4.1: a round calls
// each agent eleven times; a minute spans a round's seating without outliving a key rotation
// by much).
const DefaultTTL = 60 * time.Second

// DefaultRegistryTimeout bounds the node calls of one resolution when Config.RegistryTimeout is
// zero.
const DefaultRegistryTimeout = 5 * time.Second

// sweepEvery is how many cache inserts pass between sweeps of expired entries, so the cache
// holds about the Badges resolved within one TTL, not every Badge ever seen.
const sweepEvery = 256

// Config configures a Resolver.
type Config struct {
	// Node reads the registry. nil means no registry is configured: every Resolve refuses
	// with CodeNoRegistry and the door answers 503 (§4.1: seat nobody, say so).
	Node Node
	// Registry is the registry contract on a chain that is neither testnet nor mainnet (a
	// devchain with its own genesis); nil means <12802,0>. On testnet and mainnet the
	// registry is fixed (§4.1) and a Registry naming another contract refuses every Badge
	// with CodeWrongRegistry rather than read a contract that is not the network's.
	Registry *Contract
	// Cards fetches agent cards; nil means egress.NewClient(egress.Policy{}) (https, public
	// addresses only, 10 s, 64 KiB).
	Cards *egress.Client
	// House is the house identity account (§3): the only owner whose Badges may say kind
	// house or arena, and the owner every operator must have. Zero means no house: such
	// cards are refused.
	House ccd.Address
	// HouseEndpoints are URL prefixes of endpoints the house serves for agents it runs: a
	// player card whose endpoint starts with one of them, or that has no endpoint, is an
	// off-the-shelf card and must name an operator (§4.2).
	HouseEndpoints []string
	// TTL is how long a resolution is reused: zero means DefaultTTL, negative disables the
	// cache. Refusals are never cached.
	TTL time.Duration
	// Now is the clock for the cache; nil means time.Now.
	Now func() time.Time
	// RegistryTimeout bounds the node calls of one resolution (the network read and agentOf);
	// zero or negative means DefaultRegistryTimeout. The card fetch is bounded by the egress
	// policy's timeout. A call that runs out is registry_unreadable.
	RegistryTimeout time.Duration
	// Keys is the key→Badge index (§4.2 "a key MUST be used by exactly one Badge, ever");
	// nil gives the Resolver an index of its own. Share one among Resolvers of a process.
	Keys *KeyIndex
}

// Agent is a resolved Badge: everything §4.1 proved, and the card's fields that count.
type Agent struct {
	ID         AgentID
	TokenID    uint64      // the registry token id
	Owner      ccd.Address // from the registry, not the card
	HouseOwned bool        // Owner is the house identity account (§3 in-house)
	Name       string      // the card's name: wins over a name sent at join (§4.2)
	Kind       string      // player, house or arena
	Key        ed25519.PublicKey
	Endpoint   string   // "" for an agent with none (off-the-shelf)
	Operator   *AgentID // the house Badge running it, when the card names one (resolved)
	OffShelf   bool     // an off-the-shelf card (see Config.HouseEndpoints)
	Wallet     *ccd.Address
	CardURI    string
	CardHash   [32]byte // metadata_hash, equal to SHA-256 of Card
	Card       []byte   // the card's bytes as served
	ResolvedAt time.Time
}

// Resolver resolves agent ids to keys per §4.1. Safe for concurrent use.
type Resolver struct {
	cfg   Config
	cards *egress.Client
	keys  *KeyIndex
	now   func() time.Time
	ttl   time.Duration

	mu      sync.Mutex
	network Chain // learned from the node on first use; "" until then
	cache   map[string]cached
	inserts int // since the last sweep
}

type cached struct {
	a       Agent
	expires time.Time
}

// New makes a Resolver. It does not touch the node: the network is read on the first Resolve.
func New(cfg Config) *Resolver {
	r := &Resolver{cfg: cfg, cards: cfg.Cards, keys: cfg.Keys, now: cfg.Now, ttl: cfg.TTL, cache: map[string]cached{}}
	if r.cards == nil {
		r.cards = egress.NewClient(egress.Policy{})
	}
	if r.keys == nil {
		r.keys = NewKeyIndex()
	}
	if r.now == nil {
		r.now = time.Now
	}
	if r.ttl == 0 {
		r.ttl = DefaultTTL
	}
	return r
}

// maxOperatorDepth bounds operator resolution: an agent's operator is resolved; an operator
// whose own card names an operator is refused (chains of operators are not followed).
const maxOperatorDepth = 1

// Resolve runs §4.1 for id, every step in order, and returns the agent or a *games.Error with
// one of the Code* reasons. A fresh earlier resolution is returned from the cache; a refusal
// is never cached, and it evicts any earlier resolution of the same id.
func (r *Resolver) Resolve(ctx context.Context, id string) (Agent, error) {
	return r.resolve(ctx, id, 0)
}

func (r *Resolver) resolve(ctx context.Context, id string, depth int) (Agent, error) {
	if r.cfg.Node == nil {
		return Agent{}, refuse(CodeNoRegistry, "no registry configured: nobody is seated")
	}
	// The cache is keyed by the canonical id; ParseAgentID accepts only canonical ids (one
	// spelling per Badge), so a hit on the raw text skips the base58 decode.
	now := r.now()
	r.mu.Lock()
	c, hit := r.cache[id]
	r.mu.Unlock()
	// A cached resolution counts only while its Badge still holds its key: an earlier
	// registration naming the same key takes it (KeyIndex), and this one is then key_reused.
	if hit && now.Before(c.expires) && r.keys.holds(c.a.Key, id) {
		return c.a, nil
	}
	aid, err := ParseAgentID(id)
	if err != nil {
		if errors.Is(err, ErrNotBase58) {
			return Agent{}, refuse(CodeNotBase58, "agent id has a character outside base58 (0, O, I and l are not base58): %v", err)
		}
		return Agent{}, refuse(CodeBadAgentID, "agent id is not ccd:<chain>/cis-2:<token address>: %v", err)
	}
	key := aid.String()
	a, err := r.resolveUncached(ctx, aid, depth)
	r.mu.Lock()
	defer r.mu.Unlock()
	if err != nil {
		delete(r.cache, key)
		return Agent{}, err
	}
	if r.ttl > 0 {
		r.cache[key] = cached{a: a, expires: now.Add(r.ttl)}
		if r.inserts++; r.inserts >= sweepEvery {
			r.inserts = 0
			for k, c := range r.cache {
				if !now.Before(c.expires) {
					delete(r.cache, k)
				}
			}
		}
	}
	return a, nil
}

// networkInUse is the node's chain, read once.
func (r *Resolver) networkInUse(ctx context.Context) (Chain, error) {
	r.mu.Lock()
	n := r.network
	r.mu.Unlock()
	if n != "" {
		return n, nil
	}
	s, err := r.cfg.Node.Network(ctx)
	if err != nil {
		return "", err
	}
	c, err := ParseChain(s)
	if err != nil {
		return "", err
	}
	r.mu.Lock()
	r.network = c
	r.mu.Unlock()
	return c, nil
}

// reRejectReason finds the reject code in ccd.Client.Invoke's failure text (the SDK gives the
// RejectReason only as text there; prototext may put spaces after the colon).
var reRejectReason = regexp.MustCompile(`reject_reason:\s*(-?\d+)`)

func isAgentNotFound(err error) bool {
	if !errors.Is(err, ccd.ErrInvokeFailed) {
		return false
	}
	m := reRejectReason.FindStringSubmatch(err.Error())
	return m != nil && m[1] == "-7200"
}

func (r *Resolver) resolveUncached(ctx context.Context, id AgentID, depth int) (Agent, error) {
	tokenID, ok := id.BadgeTokenID()
	if !ok {
		return Agent{}, refuse(CodeBadAgentID, "%s is not a Badge: its token id has %d bytes, a CIS-8004 token id has 8", id, len(id.Token.TokenID))
	}
	rt := r.cfg.RegistryTimeout
	if rt <= 0 {
		rt = DefaultRegistryTimeout
	}
	nctx, cancel := context.WithTimeout(ctx, rt)
	defer cancel()
	network, err := r.networkInUse(nctx)
	if err != nil {
		return Agent{}, refuseRetry(CodeRegistryUnreadable, "registry unreadable: the node's network: %v", err)
	}
	registry := RegistryFor(network, r.cfg.Registry)
	if c := r.cfg.Registry; c != nil && (c.Index != registry.Index || c.Subindex != registry.Subindex) {
		return Agent{}, refuse(CodeWrongRegistry, "the configured registry <%d,%d> is not the registry of %s (%s)", c.Index, c.Subindex, network, registry)
	}
	if id.Chain != network {
		return Agent{}, refuse(CodeWrongNetwork, "%s is a Badge on %s; the network in use is %s", id, id.Chain, network)
	}
	if id.Token.Index != registry.Index || id.Token.Subindex != registry.Subindex {
		return Agent{}, refuse(CodeWrongRegistry, "%s is a token of contract <%d,%d>, not of the registry %s: it is not a Badge", id, id.Token.Index, id.Token.Subindex, registry)
	}

	// agentOf(agent id) on chain.
	ret, err := r.cfg.Node.Invoke(nctx, agentOfCall(registry, tokenID))
	if err != nil {
		if isAgentNotFound(err) {
			return Agent{}, refuse(CodeNotRegistered, "%s is not registered in %s", id, registry)
		}
		return Agent{}, refuseRetry(CodeRegistryUnreadable, "registry unreadable: agentOf(%d): %v", tokenID, err)
	}
	rec, found, err := DecodeRecord(ret)
	if err != nil {
		return Agent{}, refuseRetry(CodeRegistryUnreadable, "registry unreadable: agentOf(%d): %v", tokenID, err)
	}
	if !found {
		return Agent{}, refuse(CodeNotRegistered, "%s is not registered in %s", id, registry)
	}
	if rec.TokenID != tokenID {
		return Agent{}, refuseRetry(CodeRegistryUnreadable, "registry unreadable: agentOf(%d) answered the record of token %d", tokenID, rec.TokenID)
	}
	// Status after the read: a live registry returns a revoked record, not an error.
	if rec.Status != StatusActive {
		return Agent{}, refuse(CodeStatusNotActive, "%s is %s, not Active", id, rec.Status)
	}
	if rec.AgentURI == "" {
		return Agent{}, refuse(CodeNoAgentURI, "%s has no agent_uri: registered is not verifiable", id)
	}
	if rec.MetadataHash == nil {
		return Agent{}, refuse(CodeNoMetadataHash, "%s has no metadata_hash: registered is not verifiable", id)
	}

	// GET agent_uri: the card, as bytes.
	pol := r.cards.Policy()
	if err := pol.CheckURLShape(rec.AgentURI); err != nil {
		return Agent{}, refuse(CodeCardURLRefused, "agent_uri %q refused: %v", rec.AgentURI, err)
	}
	raw, err := r.cards.Get(ctx, rec.AgentURI, "application/json")
	switch {
	case errors.Is(err, egress.ErrTooLarge):
		return Agent{}, refuse(CodeCardTooLarge, "the card at %q is larger than %d bytes", rec.AgentURI, pol.BodyCap())
	case egress.IsRefusal(err):
		return Agent{}, refuse(CodeCardURLRefused, "agent_uri %q refused: %v", rec.AgentURI, err)
	case err != nil:
		return Agent{}, refuseRetry(CodeCardUnreachable, "the card at %q could not be fetched: %v", rec.AgentURI, err)
	}
	// SHA-256 over the bytes as served, before any parsing.
	sum := sha256.Sum256(raw)
	if !bytes.Equal(sum[:], rec.MetadataHash) {
		return Agent{}, refuse(CodeCardHashMismatch, "SHA-256 of the card as served is %x; metadata_hash on chain is %x", sum, rec.MetadataHash)
	}
	card, err := ParseCard(raw)
	if err != nil {
		return Agent{}, err
	}
	if card.Agent != id.String() {
		return Agent{}, refuse(CodeCardAgentMismatch, "the card names %q, not %s: it belongs to another registration", card.Agent, id)
	}
	if card.Badge.TokenAddress != id.String() {
		return Agent{}, refuse(CodeBadgeMismatch, "the badge's tokenAddress is %q, not %s", card.Badge.TokenAddress, id)
	}
	if card.Badge.CIS8004 != "" && card.Badge.CIS8004 != registry.String() {
		return Agent{}, refuse(CodeBadgeMismatch, "the badge names registry %q, not %s", card.Badge.CIS8004, registry)
	}
	for _, reg := range card.Registrations {
		if reg.AgentRegistry == registry.String() && !reg.NoAgentID && reg.AgentID != tokenID {
			return Agent{}, refuse(CodeBadgeMismatch, "registrations names agentId %d in %s, not %d", reg.AgentID, registry, tokenID)
		}
	}
	owner := Account{Chain: network, Address: rec.Owner}
	if card.Badge.OwnerAccount != "" && card.Badge.OwnerAccount != owner.String() {
		return Agent{}, refuse(CodeOwnerMismatch, "the badge names owner %q; the registry says %s", card.Badge.OwnerAccount, owner)
	}

	// Only now does signing_key count.
	if card.SigningKey == "" {
		return Agent{}, refuse(CodeBadSigningKey, "the card has no signing_key")
	}
	pub, err := canon.ParseKey(card.SigningKey)
	if err != nil {
		return Agent{}, refuse(CodeBadSigningKey, "signing_key refused: %v", err)
	}

	// In-house is a fact about the owner; the card must agree (§3, §4.2).
	house := r.cfg.House != (ccd.Address{}) && rec.Owner == r.cfg.House
	switch {
	case (card.Kind == KindHouse || card.Kind == KindArena) && !house:
		return Agent{}, refuse(CodeKindNotHouseOwned, "the card says kind %s but %s is not the house identity account", card.Kind, owner)
	case card.Kind == KindPlayer && house:
		return Agent{}, refuse(CodeHouseKindUndisclose, "the Badge is owned by the house identity account but its card says kind player: in-house agents are disclosed")
	}
	if card.Endpoint != "" {
		if err := pol.CheckURLShape(card.Endpoint); err != nil {
			return Agent{}, refuse(CodeBadEndpoint, "endpoint %q refused: %v", card.Endpoint, err)
		}
	}
	offShelf := card.Kind == KindPlayer && r.isHouseEndpoint(card.Endpoint)
	a := Agent{ID: id, TokenID: tokenID, Owner: rec.Owner, HouseOwned: house, Name: card.Name, Kind: card.Kind,
		Key: pub, Endpoint: card.Endpoint, OffShelf: offShelf, Wallet: rec.Wallet, CardURI: rec.AgentURI,
		CardHash: sum, Card: raw, ResolvedAt: r.now()}
	if offShelf && card.Operator == "" {
		return Agent{}, refuse(CodeOperatorMissing, "an off-the-shelf card (no endpoint of its own, or one the house serves) must name its operator")
	}
	if card.Operator != "" {
		op, err := r.checkOperator(ctx, card.Operator, depth)
		if err != nil {
			return Agent{}, err
		}
		a.Operator = &op
	}
	if err := r.keys.claim(pub, id, tokenID); err != nil {
		return Agent{}, err
	}
	return a, nil
}

// checkOperator resolves an operator Badge (§4.1 in full) and requires it house-owned.
func (r *Resolver) checkOperator(ctx context.Context, opID string, depth int) (AgentID, error) {
	if depth >= maxOperatorDepth {
		return AgentID{}, refuse(CodeOperatorNotHouse, "operator %q is itself run by an operator: chains of operators are not followed", opID)
	}
	op, err := r.resolve(ctx, opID, depth+1)
	if err != nil {
		var ge *games.Error
		if errors.As(err, &ge) {
			return AgentID{}, &games.Error{Code: CodeOperatorNotHouse, Msg: "operator " + opID + " does not resolve: " + ge.Code + ": " + ge.Msg, Retry: ge.Retry}
		}
		return AgentID{}, refuse(CodeOperatorNotHouse, "operator %q does not resolve: %v", opID, err)
	}
	if !op.HouseOwned {
		return AgentID{}, refuse(CodeOperatorNotHouse, "operator %s is not owned by the house identity account", opID)
	}
	if op.Operator != nil {
		// Also when op came from the cache, resolved on its own with its operator checked.
		return AgentID{}, refuse(CodeOperatorNotHouse, "operator %q is itself run by an operator: chains of operators are not followed", opID)
	}
	return op.ID, nil
}

func (r *Resolver) isHouseEndpoint(endpoint string) bool {
	if endpoint == "" {
		return true
	}
	for _, p := range r.cfg.HouseEndpoints {
		if p != "" && strings.HasPrefix(endpoint, p) {
			return true
		}
	}
	return false
}

// KeyIndex binds each signing key to one Badge for the life of the index (§4.2: a key MUST be
// used by exactly one Badge, ever). A Badge may hold several keys over time (rotation); who
// holds a key is decided so that a card merely naming someone else's public key (no private
// key needed) can never take it from its Badge:
//   - a binding proven by a signature (Prove: a request signed with the key verified for that
//     Badge) is final: every other Badge naming the key is key_reused;
//   - among unproven bindings the earlier registration holds the key: the lower registry token
//     id (the registry numbers Badges in registration order), whatever order they are read in.
//     A later card read first holds the key only until the earlier Badge is read; from then on
//     the later one is key_reused (its cached resolution is dropped too).
//
// Without a KeyStore the index is in memory: its scope is the process (share one index among
// its Resolvers). With one (LoadKeyIndex) every change is saved before it counts, so a binding,
// and above all a proof, outlives a restart: a key is used by one Badge for the life of the store.
// Safe for concurrent use.
type KeyIndex struct {
	mu    sync.Mutex
	byKey map[[32]byte]keyHolder
	store KeyStore // nil: memory only
}

// KeyStore keeps a KeyIndex's bindings (cmd/arena: storage's badge_keys bucket). SaveKey is
// durable when it returns nil.
type KeyStore interface {
	SaveKey(pub ed25519.PublicKey, b KeyBinding) error
}

// KeyBinding is the Badge a key is bound to, as a KeyStore keeps it: the canonical agent id, the
// registry token id (lower is the earlier registration) and whether a signature with the key
// verified for that Badge (final).
type KeyBinding struct {
	Agent  string
	Token  uint64
	Proven bool
}

// keyHolder is the Badge a key is bound to.
type keyHolder struct {
	id     string // canonical agent id
	token  uint64 // registry token id: lower is the earlier registration
	proven bool   // a signature with the key verified for id
}

// NewKeyIndex makes an empty index, in memory only.
func NewKeyIndex() *KeyIndex { return &KeyIndex{byKey: map[[32]byte]keyHolder{}} }

// LoadKeyIndex makes an index holding the saved bindings, which saves every later change to st
// before it counts (a claim or a proof that cannot be saved is refused, busy with retry).
func LoadKeyIndex(st KeyStore, saved map[[32]byte]KeyBinding) *KeyIndex {
	k := &KeyIndex{byKey: make(map[[32]byte]keyHolder, len(saved)), store: st}
	for pub, b := range saved {
		k.byKey[pub] = keyHolder{id: b.Agent, token: b.Token, proven: b.Proven}
	}
	return k
}

// setLocked binds pub to h, saving it first when the index has a store. k.mu is held.
func (k *KeyIndex) setLocked(pub ed25519.PublicKey, h keyHolder) error {
	if k.store != nil {
		if err := k.store.SaveKey(pub, KeyBinding{Agent: h.id, Token: h.token, Proven: h.proven}); err != nil {
			return refuseRetry(CodeBusy, "the key index could not be saved (%v); try again", err)
		}
	}
	k.byKey[[32]byte(pub)] = h
	return nil
}

// Owner is the Badge key is bound to, if any.
func (k *KeyIndex) Owner(pub ed25519.PublicKey) (string, bool) {
	if len(pub) != 32 {
		return "", false
	}
	k.mu.Lock()
	defer k.mu.Unlock()
	h, ok := k.byKey[[32]byte(pub)]
	return h.id, ok
}

// Prove records that a signature with pub verified for the Badge agent: when agent holds pub,
// the binding becomes final (saved before Prove returns). It reports whether agent holds pub
// (false: another Badge does, or the key is unknown here; nothing changes); the error is the
// save's (busy, retry).
func (k *KeyIndex) Prove(pub ed25519.PublicKey, agent string) (bool, error) {
	if len(pub) != 32 {
		return false, nil
	}
	k.mu.Lock()
	defer k.mu.Unlock()
	h, ok := k.byKey[[32]byte(pub)]
	if !ok || h.id != agent {
		return false, nil
	}
	if h.proven {
		return true, nil
	}
	h.proven = true
	if err := k.setLocked(pub, h); err != nil {
		return false, err
	}
	return true, nil
}

// holds reports whether pub is bound to agent (a cached resolution is reused only then).
func (k *KeyIndex) holds(pub ed25519.PublicKey, agent string) bool {
	if len(pub) != 32 {
		return false
	}
	k.mu.Lock()
	defer k.mu.Unlock()
	h, ok := k.byKey[[32]byte(pub)]
	return ok && h.id == agent
}

// claim binds pub to id (registry token id token) by the rules on KeyIndex, or refuses with
// CodeKeyReused when another Badge holds it (or busy when the new binding cannot be saved).
func (k *KeyIndex) claim(pub ed25519.PublicKey, id AgentID, token uint64) error {
	k.mu.Lock()
	defer k.mu.Unlock()
	s := id.String()
	h, ok := k.byKey[[32]byte(pub)]
	switch {
	case !ok:
		return k.setLocked(pub, keyHolder{id: s, token: token})
	case h.id == s:
	case h.proven || h.token <= token:
		return refuse(CodeKeyReused, "signing_key %s already belongs to %s: a key is used by exactly one Badge", canon.FormatKey(pub), h.id)
	default: // an earlier registration than the unproven holder: the key is its own
		return k.setLocked(pub, keyHolder{id: s, token: token})
	}
	return nil
}

// Proven tells the key index that a signature with key verified for agent (a signed join or
// owner session, §4.1): the Badge's hold on the key becomes final, so no other card naming it
// can take it, earlier registration or not. It reports whether agent holds key; with a
// KeyStore the proof is saved before Proven returns, and a save that fails is the error (busy,
// retry): the request it proves must not be answered.
func (r *Resolver) Proven(agent string, key ed25519.PublicKey) (bool, error) {
	return r.keys.Prove(key, agent)
}
