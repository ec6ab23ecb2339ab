package breakroom

import (
	"context"
	"crypto/ed25519"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"testing"
	"time"

	"github.com/btcsuite/btcd/btcec/v2"
	"github.com/btcsuite/btcd/btcec/v2/schnorr"

	"arena/actors"
	"arena/chain/nostr"
	"arena/games"
	"arena/games/breakroom/dilemma"
	"arena/games/breakroom/inference"
	"arena/games/breakroom/werewolf"
	"arena/games/breakroom/wire"
	"arena/storage"
	"arena/storage/storagetest"
)

// harness runs the room on a real runtime (wall clock, compressed figures) and a real store.
type harness struct {
	t     *testing.T
	store *storage.Store
	path  string
	arena *actors.Arena
	room  *Room
	lobby *actors.FakeClock // the room's clock: the lobby timer, the house fill and the HTTP silence wait for the test
	seed  []byte            // every match's seed (nil: drawn)
	clock actors.Clock      // the runtime's clock (nil: the wall clock)
}

// shortDilemma is a Dilemma game with a short match and deadlines: two iterations at most per
// pairing, 3 s turns, 300 ms away turns.
func shortDilemma(size, min int) Game {
	return Game{ID: dilemma.GameID, Name: dilemma.Name, RulesVersion: dilemma.RulesVersion, TableSize: size, Min: min,
		Options: json.RawMessage(`{"max_iterations":2,"stop_one_in":2}`), Rules: dilemmaRules,
		Pace: games.Pace{Steps: map[string]time.Duration{"turn": 3 * time.Second, "away": 300 * time.Millisecond}}}
}

func newHarness(t *testing.T, g Game) *harness { t.Helper(); return newSeededHarness(t, g, nil) }

// newSeededHarness is newHarness giving every match the seed seed (nil: drawn).
func newSeededHarness(t *testing.T, g Game, seed []byte) *harness {
	t.Helper()
	h := &harness{t: t, path: storagetest.Path(t), lobby: actors.NewFakeClock(time.Date(2026, 10, 2, 8, 0, 0, 0, time.UTC)), seed: seed}
	h.start(g)
	t.Cleanup(func() { h.stop() })
	return h
}

func (h *harness) start(g Game) {
	h.t.Helper()
	st, err := storage.Open(h.path, storage.Options{NoSync: true})
	if err != nil {
		h.t.Fatal(err)
	}
	h.store = st
	br, err := games.NewBracket(dilemma.Engine{}, inference.Engine{}, werewolf.Engine{})
	if err != nil {
		h.t.Fatal(err)
	}
	room, err := New(Options{Games: []Game{g}, PublicURL: "https://breakroom.test", HousePause: 5 * time.Millisecond,
		Clock: h.lobby, Seed: seedOf(h.seed)})
	if err != nil {
		h.t.Fatal(err)
	}
	h.room = room
	h.arena, err = actors.Start(actors.Options{DB: st, Bracket: br, InstanceKey: ed25519.NewKeyFromSeed(make([]byte, 32)),
		Clock: h.clock, Products: []actors.Product{room.Product()}})
	if err != nil {
		h.t.Fatal(err)
	}
}

// seedOf is Options.Seed giving every match seed (nil for nil: drawn).
func seedOf(seed []byte) func(string) []byte {
	if seed == nil {
		return nil
	}
	return func(string) []byte { return seed }
}

func (h *harness) stop() {
	if h.arena != nil {
		_ = h.arena.Shutdown(context.Background())
		h.arena = nil
	}
	if h.store != nil {
		_ = h.store.Close()
		h.store = nil
	}
}

// agent is an in-process Break Room agent with a real Nostr key.
type agent struct {
	h        *harness
	priv     *btcec.PrivateKey
	key      string
	name     string
	spoilers bool
	rd       *reader // the agent's socket, when a test keeps one
	game     string  // the game it joins ("": the Dilemma)
}

func newAgent(h *harness, name string) *agent {
	priv, err := btcec.NewPrivateKey()
	if err != nil {
		h.t.Fatal(err)
	}
	return &agent{h: h, priv: priv, key: hex.EncodeToString(schnorr.SerializePubKey(priv.PubKey())), name: name}
}

// join signs a challenge as the protocol says and, the signature checked as the door checks it,
// joins through the product.
func (a *agent) join(via string) Joined {
	a.h.t.Helper()
	nonce := fmt.Sprintf("nonce-%s-%d", a.name, time.Now().UnixNano())
	digest := nostr.Challenge(nonce)
	sig, err := schnorr.Sign(a.priv, digest[:])
	if err != nil {
		a.h.t.Fatal(err)
	}
	k, err1 := nostr.ParsePubKey(a.key)
	s, err2 := nostr.ParseSig(hex.EncodeToString(sig.Serialize()))
	if err1 != nil || err2 != nil || !nostr.Verify(k, s, digest) {
		a.h.t.Fatalf("the agent's signature does not check: %v %v", err1, err2)
	}
	game := a.game
	if game == "" {
		game = dilemma.GameID
	}
	j, err := a.h.room.Join(context.Background(), JoinRequest{Game: game, Key: a.key, Name: a.name, Spoilers: a.spoilers, Via: via})
	if err != nil {
		a.h.t.Fatalf("join %s: %v", a.name, err)
	}
	return j
}

// next reads a socket connection's next message, acknowledging what it read before.
type reader struct {
	h     *harness
	conn  string
	after uint64
	buf   []Item
}

func (r *reader) next() (wire.Outbound, error) {
	for len(r.buf) == 0 {
		ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
		items, err := r.h.room.Next(ctx, r.conn, r.after)
		cancel()
		if err != nil {
			return nil, err
		}
		r.buf = items
	}
	it := r.buf[0]
	r.buf = r.buf[1:]
	r.after = it.Seq
	return it.Msg, nil
}

func (r *reader) must() wire.Outbound {
	r.h.t.Helper()
	m, err := r.next()
	if err != nil {
		r.h.t.Fatalf("next: %v", err)
	}
	return m
}

var errNoEnd = errors.New("no match_end")

// dilemmaRules is a short rules text for the bartender to answer from.
const dilemmaRules = `# Dilemma

Every seat meets every other seat once, a round per pairing.

## Points

Both cooperate: 3 points each. Both defect: 1 point each. A defector against a cooperator scores 5 points, the cooperator 0.

## Deadlines

Answer within deadline_ms; a missed deadline plays cooperate.`
