// Package feedtest plays whole Warden matches on the pure engines (games/warden/claims and
// games/warden/dilemma) with random legal answers and timeouts, and builds the Gallery feed the
// Warden publishes for each (warden-games §15): the lobby's match_opened and match_paired, the
// stakes, every engine event through feed.Mapper, the settlement's match_finished (with the §2.2
// figures and the §15.5 log hash), payouts, match_settled and messages_published. With it, it
// lists every secret the engine held and the feed event from which each may be public, and the
// engine's public view after each step, so tests can scan every public output for secrets
// (§15.4).
//
// A Script's public decisions (who acts or times out, message lengths, claims) come from one
// seed and its secret inputs (asks, escalations, Game II choices, message texts) from others, so
// two plays that differ only in secrets from some round on must publish the same until that
// round's reveal: the differential half of the secrecy scan. Pure: time enters as values.
package feedtest

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"strconv"
	"time"

	"arena/games"
	"arena/games/warden/claims"
	"arena/games/warden/dilemma"
	"arena/games/warden/feed"
	"arena/games/warden/internal/duel"
)

// Script says how one match is played.
type Script struct {
	Game    string   // claims.GameID or dilemma.GameID
	MatchID string   // wm_<16 hex>
	Stake   int64    // atomic units, a multiple of claims.StakeFactor
	Seed    [32]byte // the match seed: valuations and salts
	Public  uint64   // seed of the public decisions
	Secret  uint64   // seed of the sealed inputs (asks, escalations, choices)
	// From is the first round whose sealed inputs come from Secret^Vary (0: none): a variant
	// of a play that keeps every earlier round the same.
	From int
	Vary uint64
	// Texts seeds the private messages' texts (same lengths whatever it is).
	Texts uint64
	// Start is the match's first instant (zero: 2026-11-30T03:10:00Z).
	Start time.Time
	// Ledger is the seq of the Ledger row before this match's two (its rows are Ledger+1, +2).
	Ledger uint64
	// A and B are the seats' profiles (zero: made up from the seed).
	A, B feed.Profile
}

// Secret is a value the engine held that no public output may show before its moment: Until is
// the index in Played.Feed of the event that publishes it (len(Feed): never).
type Secret struct {
	What  string // "message", "seed", "salt"
	Text  string
	Until int
}

// View is the engine's public view (viewer 0) after one engine call, when the feed held its
// first Feed events.
type View struct {
	Feed int
	Doc  []byte
}

// Played is one played match.
type Played struct {
	Script  Script
	Feed    []feed.Event
	Views   []View
	Secrets []Secret
	// Reveals maps "claims_published/<round>", "round_revealed/<round>", "choices_revealed/1",
	// "match_finished", "messages_published" to the index of that event in Feed.
	Reveals map[string]int
	Gross   [2]int64 // the engine's gross returns
	House   int64    // the engine's house share (before rake)
}

// Envelopes is the match's feed as the match feed numbers it (seq from 0).
func (p *Played) Envelopes() ([]feed.Envelope, error) {
	out := make([]feed.Envelope, 0, len(p.Feed))
	for i, e := range p.Feed {
		env, err := e.Envelope(uint64(i))
		if err != nil {
			return nil, fmt.Errorf("feedtest: event %d: %w", i, err)
		}
		out = append(out, env)
	}
	return out, nil
}

// Play plays s to the end. It fails only on a bug: an engine refusing an answer built legal, a
// match that does not end, an event the feed refuses.
func Play(s Script) (*Played, error) {
	if s.Start.IsZero() {
		s.Start = time.Date(2026, 11, 30, 3, 10, 0, 0, time.UTC)
	}
	var eng games.Engine
	rake := int64(0)
	switch s.Game {
	case claims.GameID:
		eng, rake = claims.Engine{}, claims.RakeBps
	case dilemma.GameID:
		eng = dilemma.Engine{}
	default:
		return nil, fmt.Errorf("feedtest: game %q", s.Game)
	}
	if s.A.ContenderID == "" {
		s.A = profile(s.Seed, 0)
	}
	if s.B.ContenderID == "" {
		s.B = profile(s.Seed, 1)
	}
	setup := games.Setup{Game: s.Game, Round: s.MatchID, Seed: s.Seed, Start: s.Start.Add(5 * time.Second),
		Seats: []games.Seat{{Seat: 1, Agent: s.A.ContenderID, Name: s.A.Name, Entry: s.Stake},
			{Seat: 2, Agent: s.B.ContenderID, Name: s.B.Name, Entry: s.Stake}}}
	m, err := eng.New(setup, nil)
	if err != nil {
		return nil, err
	}
	p := &Played{Script: s, Reveals: map[string]int{}}
	h := func(at time.Time) feed.Head { return feed.Head{At: at, MatchID: s.MatchID, Game: s.Game} }
	add := func(e feed.Event) error {
		if err := e.Err(); err != nil {
			return fmt.Errorf("feedtest: %s: %w", s.MatchID, err)
		}
		p.Feed = append(p.Feed, e)
		return nil
	}
	if err := add(feed.MatchOpened{Stake: s.Stake, OpenUntil: s.Start.Add(10 * time.Minute), A: s.A}.Event(h(s.Start))); err != nil {
		return nil, err
	}
	if err := add(feed.MatchPaired{B: s.B, StakeDeadline: s.Start.Add(2 * time.Minute)}.Event(h(s.Start.Add(time.Second)))); err != nil {
		return nil, err
	}
	for i, seat := range []string{"A", "B"} {
		ref := "0x" + hexOf(s.Seed, "stake"+seat)
		if err := add(feed.StakeCleared{Seat: seat, Amount: s.Stake, Rail: "dev-exact", Network: "eip155:1337", Ref: ref}.Event(h(s.Start.Add(time.Duration(2+i) * time.Second)))); err != nil {
			return nil, err
		}
	}
	mapper := feed.NewMapper(s.MatchID, s.Game)
	pub := rand.New(rand.NewPCG(s.Public, 1))
	texts := rand.New(rand.NewPCG(s.Texts, 2))
	var messages []feed.Message
	var seedHex string
	take := func(st games.Step) error {
		for _, ev := range st.Events {
			switch ev.Type {
			case "message_recorded":
				var q struct {
					Round int
					Seat  string
					Text  string
				}
				_ = json.Unmarshal(ev.Payload, &q)
				to := map[string]string{"A": "B", "B": "A"}[q.Seat]
				messages = append(messages, feed.Message{Round: q.Round, From: q.Seat, To: to, Text: q.Text})
				p.Secrets = append(p.Secrets, Secret{What: "message", Text: q.Text, Until: -1})
			case "match_finished":
				var q struct{ Seed string }
				_ = json.Unmarshal(ev.Payload, &q)
				seedHex = q.Seed
			}
			for _, fe := range mapper.Map(ev) {
				if err := add(fe); err != nil {
					return err
				}
				env, _ := fe.Envelope(0)
				switch fe.Type() {
				case feed.TypeClaimsPublished, feed.TypeRoundRevealed, feed.TypeChoicesRevealed:
					p.Reveals[fe.Type()+"/"+strconv.Itoa(env.Round)] = len(p.Feed) - 1
				}
			}
		}
		p.Views = append(p.Views, View{Feed: len(p.Feed), Doc: m.View(0).Bytes()})
		return nil
	}
	now := setup.Start
	for n := 0; ; n++ {
		if n > 1000 {
			return nil, fmt.Errorf("feedtest: %s does not end", s.MatchID)
		}
		d, ok := m.Deadline()
		if !ok {
			break
		}
		prompts := m.Prompts()
		acted := false
		for _, pr := range prompts {
			if pub.IntN(5) == 0 { // this seat lets the step time out
				continue
			}
			body := answer(s, pr, pub, texts)
			now = d.Add(-time.Duration(1+pub.IntN(1000)) * time.Millisecond)
			st, err := m.Act(now, games.Input{Seat: pr.Seat, Kind: "answer", Move: pr.Move, Body: body})
			if err != nil {
				return nil, fmt.Errorf("feedtest: %s: answer %s refused: %w", s.MatchID, body, err)
			}
			acted = true
			if err := take(st); err != nil {
				return nil, err
			}
			break // one answer per turn of the loop: the prompts change
		}
		if acted {
			continue
		}
		now = d
		if err := take(m.Advance(d)); err != nil {
			return nil, err
		}
	}
	res, ok := m.Result()
	if !ok {
		return nil, fmt.Errorf("feedtest: %s: no result", s.MatchID)
	}
	p.Gross, p.House = [2]int64{res.Payouts[1], res.Payouts[2]}, res.House
	envs, err := p.Envelopes()
	if err != nil {
		return nil, err
	}
	logHash, err := feed.LogHash(envs)
	if err != nil {
		return nil, err
	}
	fin := feed.MatchFinished{Seed: seedHex, LogHash: logHash, House: res.House}
	var seats [2]feed.SeatResult
	for i := range 2 {
		g := p.Gross[i]
		r := max(0, g-s.Stake) * rake / 10000
		seats[i] = feed.SeatResult{GrossReturn: g, Rake: r, PaidOut: g - r, Net: g - r - s.Stake}
		fin.House += r
	}
	for i := range 2 {
		switch {
		case seats[i].Net > seats[1-i].Net:
			seats[i].Result = "win"
		case seats[i].Net < seats[1-i].Net:
			seats[i].Result = "loss"
		default:
			seats[i].Result = "draw"
		}
	}
	fin.Seats = feed.Pair[feed.SeatResult]{A: seats[0], B: seats[1]}
	at := now.Add(time.Second)
	if err := add(fin.Event(h(at))); err != nil {
		return nil, err
	}
	p.Reveals["match_finished"] = len(p.Feed) - 1
	p.Secrets = append(p.Secrets, Secret{What: "seed", Text: seedHex, Until: len(p.Feed) - 1})
	for i, seat := range []string{"A", "B"} {
		if seats[i].PaidOut == 0 {
			continue
		}
		tx := "0x" + hexOf(s.Seed, "payout"+seat)
		if err := add(feed.Payout{Seat: seat, Amount: seats[i].PaidOut, Tx: tx}.Sent(h(at.Add(time.Second)))); err != nil {
			return nil, err
		}
		if err := add(feed.Payout{Seat: seat, Amount: seats[i].PaidOut, Tx: tx}.Confirmed(h(at.Add(2 * time.Second)))); err != nil {
			return nil, err
		}
	}
	after := func(pr feed.Profile, sr feed.SeatResult) feed.Standing {
		st := pr.Standing
		st.Matches++
		st.NetTotal += sr.Net
		wins := st.WinRateBps * (st.Matches - 1) / 10000
		if sr.Result == "win" {
			wins++
		}
		st.WinRateBps = wins * 10000 / st.Matches
		switch {
		case wins*100 >= 60*st.Matches && st.NetTotal > 0:
			st.Tier = "ELITE"
		case st.NetTotal >= 0:
			st.Tier = "SOLVENT"
		default:
			st.Tier = "UNDERWATER"
		}
		return st
	}
	settled := feed.MatchSettled{LedgerRows: [2]uint64{s.Ledger + 1, s.Ledger + 2},
		LedgerHead:    feed.LedgerHead{Seq: s.Ledger + 2, RowHash: "sha256:" + hexOf(s.Seed, "row")},
		StandingAfter: feed.Pair[feed.Standing]{A: after(s.A, seats[0]), B: after(s.B, seats[1])}}
	if err := add(settled.Event(h(at.Add(3 * time.Second)))); err != nil {
		return nil, err
	}
	until := len(p.Feed)
	if s.Game == claims.GameID {
		if err := add(feed.MessagesPublished{Messages: messages}.Event(h(at.Add(3 * time.Second)))); err != nil {
			return nil, err
		}
		p.Reveals["messages_published"] = until
	}
	for i := range p.Secrets {
		if p.Secrets[i].What == "message" {
			p.Secrets[i].Until = until
		}
	}
	// The salts, fixed by the seed, public from their round's reveal.
	if s.Game == claims.GameID {
		for r := 1; r <= 5; r++ {
			for i := range 2 {
				for _, a := range []string{claims.ActionClaim, claims.ActionOffer} {
					p.Secrets = append(p.Secrets, Secret{What: "salt", Text: duel.Salt(s.Seed, s.MatchID, r, i, a), Until: p.Reveals["round_revealed/"+strconv.Itoa(r)]})
				}
			}
		}
	} else {
		for i := range 2 {
			p.Secrets = append(p.Secrets, Secret{What: "salt", Text: duel.Salt(s.Seed, s.MatchID, 1, i, "commit"), Until: p.Reveals["choices_revealed/1"]})
		}
	}
	return p, nil
}

// answer is a legal answer to prompt pr: public decisions from pub, message texts from texts,
// sealed values from the round's secret stream.
func answer(s Script, pr games.Prompt, pub, texts *rand.Rand) json.RawMessage {
	sec := s.Secret
	if s.From > 0 && pr.Move.Turn >= s.From {
		sec ^= s.Vary
	}
	secret := rand.New(rand.NewPCG(sec, uint64(pr.Move.Turn)<<8|uint64(pr.Seat)))
	switch pr.Move.Phase {
	case "message":
		if pub.IntN(3) == 0 {
			return json.RawMessage(`{"action":"pass"}`)
		}
		n := 16 + pub.IntN(24)
		b := make([]byte, n)
		for i := range b {
			b[i] = "abcdefghijklmnopqrstuvwxyz"[texts.IntN(26)]
		}
		return json.RawMessage(`{"action":"message","text":"` + string(b) + `"}`)
	case "claim":
		return json.RawMessage(`{"action":"claim","claim_bps":` + strconv.Itoa(pub.IntN(10001)) + `}`)
	case "offer":
		var st struct {
			Valuation int64 `json:"valuation_bps"`
		}
		_ = json.Unmarshal(pr.State.Bytes(), &st)
		return json.RawMessage(`{"action":"offer","ask_bps":` + strconv.FormatInt(secret.Int64N(st.Valuation+1), 10) +
			`,"escalate":` + strconv.Itoa(secret.IntN(claims.MaxSteps+1)) + `}`)
	}
	return json.RawMessage(`{"action":"` + []string{"cooperate", "defect"}[secret.IntN(2)] + `"}`)
}

// profile is a made-up Contender for seat i of a match on seed.
func profile(seed [32]byte, i int) feed.Profile {
	names := []string{"Quill", "Vesper", "Marlow", "Juno", "Ash", "Tamsin", "Orrin", "Pike"}
	temps := []string{"steadfast", "gambler", "shark", "diplomat", "mirror", "wildcard"}
	h := sha256.Sum256(append(seed[:], byte(i)))
	return feed.Profile{ContenderID: "0x" + hex.EncodeToString(h[:20]), Name: names[int(h[20])%len(names)],
		Temperament: temps[int(h[21])%len(temps)], Standing: feed.Standing{Tier: "UNPROVEN"}}
}

// hexOf is 64 hex digits derived from seed and label (made-up transaction hashes).
func hexOf(seed [32]byte, label string) string {
	h := sha256.Sum256(append(seed[:], label...))
	return hex.EncodeToString(h[:])
}
