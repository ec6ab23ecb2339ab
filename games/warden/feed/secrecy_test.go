package feed_test

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"regexp"
	"strings"
	"testing"

	"arena/games/warden/claims"
	"arena/games/warden/dilemma"
	"arena/games/warden/feed"
	"arena/games/warden/feed/feedtest"
)

// script is match n of a random run: Game I and Game II alternately, random seeds and stakes.
func script(r *rand.Rand, n int) feedtest.Script {
	s := feedtest.Script{Game: claims.GameID, MatchID: fmt.Sprintf("wm_%016x", r.Uint64()),
		Stake: claims.StakeFactor * (1 + r.Int64N(50)), Public: r.Uint64(), Secret: r.Uint64(), Texts: r.Uint64(),
		Ledger: uint64(2 * n)}
	if n%2 == 1 {
		s.Game = dilemma.GameID
	}
	for i := range s.Seed {
		s.Seed[i] = byte(r.IntN(256))
	}
	return s
}

func play(t *testing.T, s feedtest.Script) (*feedtest.Played, []feed.Envelope, []string) {
	t.Helper()
	p, err := feedtest.Play(s)
	if err != nil {
		t.Fatal(err)
	}
	envs, err := p.Envelopes()
	if err != nil {
		t.Fatal(err)
	}
	docs := make([]string, len(envs))
	for i, e := range envs {
		b, err := json.Marshal(e)
		if err != nil {
			t.Fatal(err)
		}
		docs[i] = string(b)
	}
	return p, envs, docs
}

// TestSecrecyScan: across 200 random matches of both games, no feed event before a secret's
// moment, and no public view taken before it, holds the secret: a private message's text (until
// messages_published), the seed (until match_finished), a claim's, offer's or commit's salt (until
// its round's reveal). And the feed is the §15.3 story: every event a known type, in a match's
// order, with the log hash of §15.5 in match_finished.
func TestSecrecyScan(t *testing.T) {
	r := rand.New(rand.NewPCG(22, 15))
	counts := map[string]int{}
	for n := range 200 {
		p, envs, docs := play(t, script(r, n))
		for _, sec := range p.Secrets {
			if len(sec.Text) < 16 {
				t.Fatalf("match %d: secret %s %q too short to scan for", n, sec.What, sec.Text)
			}
			counts[sec.What]++
			for i := 0; i < sec.Until && i < len(docs); i++ {
				if strings.Contains(docs[i], sec.Text) {
					t.Fatalf("match %d: %s %q in feed event %d (%s) before event %d", n, sec.What, sec.Text, i, envs[i].Type, sec.Until)
				}
			}
			for _, v := range p.Views {
				if v.Feed <= sec.Until && strings.Contains(string(v.Doc), sec.Text) {
					t.Fatalf("match %d: %s %q in the public view after %d events (public from %d): %s", n, sec.What, sec.Text, v.Feed, sec.Until, v.Doc)
				}
			}
		}
		fin := p.Reveals["match_finished"]
		var d struct {
			LogHash string `json:"log_hash"`
		}
		if err := json.Unmarshal(envs[fin].Data, &d); err != nil {
			t.Fatal(err)
		}
		if want, _ := feed.LogHash(envs[:fin]); d.LogHash != want {
			t.Fatalf("match %d: log hash %s, want %s", n, d.LogHash, want)
		}
		if envs[0].Type != feed.TypeMatchOpened || envs[1].Type != feed.TypeMatchPaired || envs[4].Type != feed.TypeMatchStarted {
			t.Fatalf("match %d: opening %s %s %s", n, envs[0].Type, envs[1].Type, envs[4].Type)
		}
		reveals := 0
		offerTimeouts := map[string]bool{}
		for _, e := range envs {
			counts[e.Type]++
			if e.Type == feed.TypeTimeout {
				var d feed.Timeout
				_ = json.Unmarshal(e.Data, &d)
				if d.Step == feed.StepOffer {
					offerTimeouts[fmt.Sprint(d.Round, d.Seat)] = true
				}
			}
			if e.Type == feed.TypeRoundRevealed {
				var d feed.RoundRevealed
				if err := json.Unmarshal(e.Data, &d); err != nil {
					t.Fatal(err)
				}
				zeroedOK := (d.Zeroed == nil) == !d.Overshoot
				if d.Payouts.A+d.Payouts.B+d.Spill != d.Pot || d.Contributions.A != d.Pot/2 || d.Contributions.B != d.Pot/2 || !zeroedOK ||
					d.Defaulted.A != offerTimeouts[fmt.Sprint(d.Round, "A")] || d.Defaulted.B != offerTimeouts[fmt.Sprint(d.Round, "B")] {
					t.Fatalf("match %d: round_revealed %s", n, e.Data)
				}
			}
			if e.Type == feed.TypeRoundRevealed || e.Type == feed.TypeChoicesRevealed {
				reveals++
			}
		}
		if want := map[string]int{claims.GameID: 5, dilemma.GameID: 1}[p.Script.Game]; reveals != want {
			t.Fatalf("match %d: %d reveals, want %d", n, reveals, want)
		}
	}
	// Every kind of secret and every event the engines give rise to was met.
	for _, k := range []string{"message", "seed", "salt", feed.TypeMessageSent, feed.TypeTimeout, feed.TypeClaimSealed,
		feed.TypeOfferSealed, feed.TypeCommitSealed, feed.TypeClaimsPublished, feed.TypeRoundRevealed,
		feed.TypeChoicesRevealed, feed.TypeStepOpened, feed.TypeRoundStarted, feed.TypePayoutConfirmed,
		feed.TypeMatchSettled, feed.TypeMessagesPublished} {
		if counts[k] == 0 {
			t.Errorf("no %s in 200 matches", k)
		}
	}
}

// hexRun is any 64-hex run: commitments, salts, seeds, hashes, which differ with the secrets by
// design (a commitment hides what it commits to).
var hexRun = regexp.MustCompile(`[0-9a-f]{64}`)

func norm(s string) string { return hexRun.ReplaceAllString(s, "*") }

// TestSecrecyDifferential: a play and its variant that differs only in secrets publish the same
// (commitments aside) until the secrets' moment, in the feed and in the public view:
//   - other message texts of the same lengths: the same until messages_published;
//   - other sealed offers or choices from round k on: the same until round k's reveal;
//   - another seed (every valuation, salt and the seed hash): the same until round 1's reveal.
//
// So nothing public before its moment depends on a valuation, an ask, an escalation, a choice or
// a message's text, whatever field it might hide in.
func TestSecrecyDifferential(t *testing.T) {
	r := rand.New(rand.NewPCG(22, 16))
	tried, changed := map[string]int{}, map[string]int{}
	for n := range 80 {
		base := script(r, n)
		bp, _, bdocs := play(t, base)
		type variant struct {
			name  string
			s     feedtest.Script
			until string // the Reveals key of the moment
		}
		texts := base
		texts.Texts ^= 0x5eed
		vs := []variant{{"message texts", texts, "messages_published"}}
		rounds := 5
		reveal := "round_revealed/"
		if base.Game == dilemma.GameID {
			rounds, reveal = 1, "choices_revealed/"
			vs = vs[:0] // Game II has no messages
		}
		k := 1 + r.IntN(rounds)
		sealed := base
		sealed.From, sealed.Vary = k, r.Uint64()|1
		vs = append(vs, variant{fmt.Sprintf("sealed inputs from round %d", k), sealed, reveal + fmt.Sprint(k)})
		seed := base
		seed.A, seed.B = bp.Script.A, bp.Script.B
		seed.Seed[0] ^= 0xff
		vs = append(vs, variant{"seed", seed, reveal + "1"})
		for _, v := range vs {
			vp, _, vdocs := play(t, v.s)
			until, ok := bp.Reveals[v.until]
			if !ok {
				t.Fatalf("match %d: no %s", n, v.until)
			}
			if vu := vp.Reveals[v.until]; vu != until {
				t.Fatalf("match %d, %s: %s at %d and %d", n, v.name, v.until, until, vu)
			}
			for i := 0; i < until; i++ {
				if norm(bdocs[i]) != norm(vdocs[i]) {
					t.Fatalf("match %d, %s: event %d differs before %s:\n%s\n%s", n, v.name, i, v.until, bdocs[i], vdocs[i])
				}
			}
			for i, bv := range bp.Views {
				if bv.Feed > until || i >= len(vp.Views) {
					break
				}
				if vp.Views[i].Feed != bv.Feed || norm(string(bv.Doc)) != norm(string(vp.Views[i].Doc)) {
					t.Fatalf("match %d, %s: public view %d differs before %s:\n%s\n%s", n, v.name, i, v.until, bv.Doc, vp.Views[i].Doc)
				}
			}
			kind := strings.Fields(v.name)[0]
			tried[kind]++
			if strings.Join(bdocs, "\n") != strings.Join(vdocs, "\n") {
				changed[kind]++
			}
		}
	}
	// Most variants did change what was published later (a sealed input may repeat by chance, a
	// seat may time out): the comparison is not vacuous.
	for kind, n := range tried {
		if changed[kind]*4 < n*3 {
			t.Errorf("%s variants: %d of %d changed the feed", kind, changed[kind], n)
		}
	}
}
