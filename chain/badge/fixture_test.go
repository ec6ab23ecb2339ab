package badge

import (
	"context"
	"crypto/ed25519"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"fmt"
	"net/http"
	"net/http/httptest"
	"sync"
	"sync/atomic"
	"testing"

	"arena/chain/ccd"
	"arena/chain/devchain"
	"arena/chain/egress"

	v2 "github.com/Concordium/concordium-go-sdk/v2"
)

// world is one embedded devchain posing as testnet (registry at <12802,0>) on a real
// loopback socket, the SDK client pointed at it, and a loopback HTTP server serving cards.
type world struct {
	t        testing.TB
	node     *devchain.Node
	client   *ccd.Client
	house    ccd.Address
	player   ccd.Address // test-1
	other    ccd.Address // test-2
	srv      *httptest.Server
	chain    Chain    // the node's network
	registry Contract // where the node serves the registry

	mu    sync.Mutex
	cards map[string][]byte // path → bytes served
	seq   int
}

func newWorld(t testing.TB) *world {
	t.Helper()
	return newWorldWith(t, func(o *devchain.Options) {
		h, _ := hex.DecodeString(devchain.TestnetGenesisHash)
		o.Genesis.BlockHash = [32]byte(h)
	})
}

// newWorldWith is newWorld with the node's options (and genesis) set by mod.
func newWorldWith(t testing.TB, mod func(*devchain.Options)) *world {
	t.Helper()
	g, err := devchain.DefaultGenesis()
	if err != nil {
		t.Fatal(err)
	}
	opts := devchain.Options{Genesis: &g}
	mod(&opts)
	node, err := devchain.Start(context.Background(), opts)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(node.Stop)
	client, err := ccd.Dial(context.Background(), node.Addr(), false)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { client.Close() })
	network, err := client.Network(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	w := &world{t: t, node: node, client: client, cards: map[string][]byte{}, chain: Chain(network),
		registry: Contract{Chain: Chain(network), Index: opts.Registry.Index, Subindex: opts.Registry.Subindex}}
	if opts.Registry == (devchain.ContractAddress{}) {
		w.registry.Index, w.registry.Subindex = devchain.DefaultRegistry.Index, devchain.DefaultRegistry.Subindex
	}
	acct := func(name string) ccd.Address {
		a, ok := node.Account(name)
		if !ok {
			t.Fatalf("no genesis account %s", name)
		}
		return ccd.Address(a.Address.Value)
	}
	w.house, w.player, w.other = acct(devchain.AccountHouse), acct("test-1"), acct("test-2")
	w.srv = httptest.NewServer(http.HandlerFunc(func(rw http.ResponseWriter, r *http.Request) {
		w.mu.Lock()
		b, ok := w.cards[r.URL.Path]
		w.mu.Unlock()
		if !ok {
			http.NotFound(rw, r)
			return
		}
		rw.Header().Set("Content-Type", "application/json")
		rw.Write(b)
	}))
	t.Cleanup(w.srv.Close)
	return w
}

// resolver is a Resolver on this world with the dev egress policy (loopback, http).
func (w *world) resolver(mod func(*Config)) *Resolver {
	cfg := Config{Node: w.client, Cards: egress.NewClient(egress.Dev()), House: w.house}
	if mod != nil {
		mod(&cfg)
	}
	return New(cfg)
}

// serve puts b at a fresh path and returns its URL.
func (w *world) serve(b []byte) string {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.seq++
	p := fmt.Sprintf("/cards/%d.json", w.seq)
	w.cards[p] = b
	return w.srv.URL + p
}

// replace changes the bytes served at url.
func (w *world) replace(url string, b []byte) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.cards[url[len(w.srv.URL):]] = b
}

// nextID is the Badge the next registration will get (RegisterAgent takes the next id).
func (w *world) nextID() AgentID {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.peekID()
}

func (w *world) peekID() AgentID {
	var next uint64
	for id := uint64(0); ; id++ {
		if _, ok, _ := w.node.Agent(id); !ok {
			next = id
			break
		}
	}
	return NewAgentID(w.chain, w.registry, next)
}

// reg is one registration to make: the record and the card.
type reg struct {
	owner  ccd.Address
	status devchain.AgentStatus
	noURI  bool
	noHash bool
	uri    string   // overrides the served URL
	hash   []byte   // overrides SHA-256 of the card
	card   []byte   // the bytes to serve; nil writes spec
	spec   CardSpec // Agent, Owner and Registry are filled in when zero
}

// register registers r on the devchain and serves its card; it returns the Badge.
func (w *world) register(r reg) AgentID {
	w.t.Helper()
	id := w.nextID()
	if r.spec.Agent.Chain == "" {
		r.spec.Agent = id
	}
	if r.spec.Owner == (ccd.Address{}) {
		r.spec.Owner = r.owner
	}
	if r.spec.Registry == (Contract{}) || r.spec.Registry == TestnetRegistry {
		r.spec.Registry = w.registry
	}
	card := r.card
	if card == nil {
		var err error
		if card, err = WriteCard(r.spec); err != nil {
			w.t.Fatalf("write card: %v", err)
		}
	}
	url := w.serve(card)
	if r.uri != "" {
		url = r.uri
	}
	sum := sha256.Sum256(card)
	hash := sum[:]
	if r.hash != nil {
		hash = r.hash
	}
	a := devchain.Agent{Owner: v2.AccountAddress{Value: r.owner}, AgentURI: url, MetadataHash: hash, Status: r.status}
	if r.noURI {
		a.AgentURI = ""
	}
	if r.noHash {
		a.MetadataHash = nil
	}
	got, err := w.node.RegisterAgent(a)
	if err != nil {
		w.t.Fatal(err)
	}
	if got.TokenID != mustToken(id) {
		w.t.Fatalf("registered token %d, expected %d", got.TokenID, mustToken(id))
	}
	return id
}

func mustToken(id AgentID) uint64 {
	t, _ := id.BadgeTokenID()
	return t
}

var keySeq atomic.Uint64

// newKey is a fresh ed25519 key, never the same twice in a test binary.
func newKey() ed25519.PublicKey {
	s := make([]byte, 32)
	binary.LittleEndian.PutUint64(s, keySeq.Add(1))
	return ed25519.NewKeyFromSeed(s).Public().(ed25519.PublicKey)
}

type ccdCall = ccd.ContractCall

func sha(b []byte) []byte { s := sha256.Sum256(b); return s[:] }
