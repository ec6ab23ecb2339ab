package auth

import (
	"encoding/hex"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"strconv"
	"testing"
	"time"

	"github.com/btcsuite/btcd/btcec/v2"
	"github.com/btcsuite/btcd/btcec/v2/schnorr"

	"arena/chain/nostr"
	"arena/games"
	brgames "arena/games/breakroom"
	"arena/games/breakroom/auction"
	"arena/games/breakroom/dilemma"
	"arena/games/breakroom/inference"
	"arena/games/breakroom/werewolf"
)

// rulesCostGames are the Break Room engines BenchmarkRulesCost compares with their joins, each at
// its default config.
var rulesCostGames = []brgames.Game{dilemma.Engine{}, auction.Engine{}, werewolf.Engine{}, inference.Engine{}}

// setupOptions are the Setup.Options a game needs beyond its defaults: the Inference's deal is
// drawn from deal_key, which the server supplies (§2.2), not from the seed.
func setupOptions(game string, seed [32]byte) json.RawMessage {
	if game != inference.GameID {
		return nil
	}
	key := seed
	key[31] ^= 0xd1 // any key other than the seed
	return json.RawMessage(`{"` + inference.DealKeyOption + `":"` + inference.DealKeyHex(key) + `"}`)
}

// bounds are a legal_actions entry's bounds as randomLegal reads them.
type bounds struct {
	Min, Max, Amount *int64
	Targets          []int
	Recipients       []int
}

// randomLegal is a random legal move for p from its legal_actions alone, in the protocol's
// terms (§1.3): a random action; an integer amount within min..max (or its fixed amount); a
// random target and recipient from their lists; a message where the action requires one. Bounds
// are decoded once per distinct entry (cache) and the body written by hand, so the agents' side
// leaves little garbage for the engine's timed calls to collect.
func randomLegal(p games.Prompt, rnd *rand.Rand, cache map[string]bounds) []byte {
	a := p.Legal[rnd.IntN(len(p.Legal))]
	b, ok := cache[string(a.Bounds)]
	if !ok {
		_ = json.Unmarshal(a.Bounds, &b)
		cache[string(a.Bounds)] = b
	}
	move := append(make([]byte, 0, 96), `{"action":"`...)
	move = append(append(move, a.Name...), '"')
	switch {
	case b.Amount != nil:
		move = strconv.AppendInt(append(move, `,"amount":`...), *b.Amount, 10)
	case b.Min != nil && b.Max != nil && *b.Max >= *b.Min:
		move = strconv.AppendInt(append(move, `,"amount":`...), *b.Min+rnd.Int64N(*b.Max-*b.Min+1), 10)
	}
	if len(b.Targets) > 0 {
		move = strconv.AppendInt(append(move, `,"target":`...), int64(b.Targets[rnd.IntN(len(b.Targets))]), 10)
	}
	if len(b.Recipients) > 0 {
		move = strconv.AppendInt(append(move, `,"recipient":`...), int64(b.Recipients[rnd.IntN(len(b.Recipients))]), 10)
	}
	switch a.Name {
	case "say", "send", "broadcast":
		move = append(move, `,"message":"hello"`...)
	}
	return append(move, '}')
}

// playRandom plays one whole match of g at its table size through the games contract, every
// prompt answered a second after it opened with a random legal move, and returns the time spent
// in the engine (New, Advance, Prompts, Act): choosing the moves is the agents' work, not the
// server's.
func playRandom(b *testing.B, g brgames.Game, seed [32]byte, rnd *rand.Rand, cache map[string]bounds) time.Duration {
	info := g.Info()
	s := games.Setup{Game: info.ID, Round: "m_bench", Seed: seed, Start: time.Date(2026, 10, 2, 8, 0, 0, 0, time.UTC),
		Options: setupOptions(info.ID, seed)}
	for i := 1; i <= info.TableSize; i++ {
		s.Seats = append(s.Seats, games.Seat{Seat: i, Agent: fmt.Sprintf("%064x", i), Name: fmt.Sprintf("Agent %d", i)})
	}
	start := time.Now()
	m, err := g.New(s, nil)
	if err != nil {
		b.Fatal(err)
	}
	now := s.Start
	m.Advance(now)
	spent := time.Since(start)
	for {
		t0 := time.Now()
		ps := m.Prompts()
		if len(ps) == 0 {
			if _, done := m.Result(); done {
				return spent + time.Since(t0)
			}
			b.Fatalf("%s: no prompt open and no result", info.ID)
		}
		p := ps[0]
		spent += time.Since(t0)
		body := randomLegal(p, rnd, cache)
		now = now.Add(time.Second)
		t1 := time.Now()
		if _, err := m.Act(now, games.Input{Seat: p.Seat, Kind: "answer", Move: p.Move, Body: body}); err != nil {
			b.Fatal(err)
		}
		spent += time.Since(t1)
	}
}

// BenchmarkRulesCost is the Break Room rules cost paired with its joins (docs/performance.md,
// "Break Room rules cost"): per op, one whole match of the game at its lobby table size
// (random legal moves; only the engine's calls are timed) and then table-size join checks
// (Nonces.Check, one BIP-340 verification each), alternated so that a busy host slows both
// alike. It reports match-ns/op, joins-ns/op and match/joins, the ratio the goal holds below
// 1. Wall time within one goroutine, so it reads CPU time on an idle core.
func BenchmarkRulesCost(b *testing.B) {
	at := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	n := New(Options{Now: func() time.Time { return at }})
	sk, err := btcec.NewPrivateKey()
	if err != nil {
		b.Fatal(err)
	}
	pub := hex.EncodeToString(schnorr.SerializePubKey(sk.PubKey()))
	nonce, err := n.Issue("bench")
	if err != nil {
		b.Fatal(err)
	}
	msg := nostr.Challenge(nonce)
	sig, err := schnorr.Sign(sk, msg[:])
	if err != nil {
		b.Fatal(err)
	}
	sigHex := hex.EncodeToString(sig.Serialize())
	for _, g := range rulesCostGames {
		b.Run(g.Info().ID, func(b *testing.B) {
			rnd := rand.New(rand.NewPCG(1, 2))
			cache := map[string]bounds{}
			var matchNS, joinNS time.Duration
			for i := 0; b.Loop(); i++ {
				matchNS += playRandom(b, g, [32]byte{byte(i), byte(i >> 8)}, rnd, cache)
				t1 := time.Now()
				for range g.Info().TableSize {
					if _, err := n.Check(pub, nonce, sigHex); err != nil {
						b.Fatal(err)
					}
				}
				joinNS += time.Since(t1)
			}
			b.ReportMetric(float64(matchNS.Nanoseconds())/float64(b.N), "match-ns/op")
			b.ReportMetric(float64(joinNS.Nanoseconds())/float64(b.N), "joins-ns/op")
			b.ReportMetric(float64(matchNS)/float64(joinNS), "match/joins")
		})
	}
}
