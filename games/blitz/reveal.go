package blitz

import (
	"encoding/hex"
	"encoding/json"
	"fmt"
	"sort"
	"strings"

	"arena/games"
	"arena/games/canon"
)

// Reveal is round.revealed's payload and Result.Reveal (§11.4, §5.5): the draft in clear with
// every salt and the seed, so OpenAnchor recomputes the open-round anchor; the outcome.
type Reveal struct {
	V          int                        `json:"v"`
	Round      string                     `json:"round"`
	Arena      string                     `json:"arena"`
	Format     RevealFormat               `json:"format"`
	Seating    []string                   `json:"seating"`
	Seed       string                     `json:"seed"` // 64 hex
	Salts      Salts                      `json:"salts"`
	Mole       int                        `json:"mole"`
	Task       Task                       `json:"task"`
	Playbooks  map[string]json.RawMessage `json:"playbooks"`
	OpenAnchor string                     `json:"open_anchor"` // "sha256:" + hex SHA-256(JCS(open))
	Rungs      []int                      `json:"rungs"`
	Bells      []RungBell                 `json:"bells"`
	Standings  []Standing                 `json:"standings"`
	Moments    []Moment                   `json:"moments"`
}

// RevealFormat is the format as revealed.
type RevealFormat struct {
	Name      string `json:"name"`
	Seats     int    `json:"seats"`
	Turns     int    `json:"turns"`
	Exchanges int    `json:"exchanges"`
}

// RungBell is a reached rung with the moment its bell rang.
type RungBell struct {
	Rung     int    `json:"rung"`
	Turn     int    `json:"turn"`
	Phase    string `json:"phase"`
	Exchange int    `json:"exchange,omitempty"`
}

// Standing is one seat's result, best first. Net = payout − entry, microCCD.
type Standing struct {
	Rank   int    `json:"rank"`
	Seat   int    `json:"seat"`
	Agent  string `json:"agent"`
	Name   string `json:"name"`
	Payout int64  `json:"payout"`
	Net    int64  `json:"net"`
}

// Moment is one of the round's three decisive moments: the transcript event and a line.
type Moment struct {
	Seq  int64  `json:"seq"`
	Turn int    `json:"turn"`
	Type string `json:"type"`
	What string `json:"what"`
}

func hexOf(b []byte) string { return hex.EncodeToString(b) }

func hexBytes(s string) []byte {
	b, _ := hex.DecodeString(s)
	return b
}

// baseReveal is the draft half of the reveal (what OpenAnchor needs).
func (m *Match) baseReveal() Reveal {
	r := Reveal{V: 1, Round: m.setup.Round, Arena: m.setup.Arena,
		Format: RevealFormat{Name: m.format.Name, Seats: len(m.seats), Turns: m.format.Turns, Exchanges: m.format.Exchanges},
		Seed:   hexOf(m.setup.Seed[:]), Salts: m.salts, Mole: m.mole, Task: m.task, Playbooks: map[string]json.RawMessage{}}
	for _, s := range m.seats {
		r.Seating = append(r.Seating, s.Agent)
	}
	for k := range m.salts.Playbooks {
		if p, ok := m.opt.Playbooks[k]; ok {
			r.Playbooks[k] = p
		}
	}
	return r
}

// seasonPoolPart is the part of seat s's payout that goes to the season pool (§11.3: "Arena
// agents' collateral gains go to the season pool"): for an in-house seat (kind house or arena,
// §3: its Badge is the house's), its collateral's gain over its collateral at seating, once
// the round is settled (a bounty it won included); 0 for any other seat, or when the collateral
// did not grow. The gain is the collateral's alone, as §11.3 says: what the seat paid into the
// bounty at seating and its unused budget are not in it, and its payout less the gain goes back
// to the house, which staked it.
func seasonPoolPart(s *seatState) int64 {
	if s.Kind != "house" && s.Kind != "arena" {
		return 0
	}
	return max(0, s.collateral-s.initial)
}

// revealRound emits round.revealed, fixes the Result (Pool: seasonPoolPart) and asks for the
// transcript anchor.
func (m *Match) revealRound() {
	r := m.baseReveal()
	r.OpenAnchor = "sha256:" + hexOf(m.openH[:])
	r.Rungs = m.rungsReached()
	r.Bells = []RungBell{}
	for i, g := range m.rungs {
		if g != nil {
			r.Bells = append(r.Bells, RungBell{Rung: i + 1, Turn: g.Turn, Phase: g.Phase, Exchange: g.Exchange})
		}
	}
	res := games.Result{Unit: Unit, Payouts: map[int]int64{}}
	scores := map[int]float64{}
	for _, s := range m.seats {
		p := s.collateral + s.budget
		res.Payouts[s.Seat.Seat] = p
		if g := seasonPoolPart(s); g > 0 {
			if res.Pool == nil {
				res.Pool = map[int]int64{}
			}
			res.Pool[s.Seat.Seat] = g
		}
		scores[s.Seat.Seat] = float64(p - s.Entry) // net microCCD (games.Result)
		r.Standings = append(r.Standings, Standing{Seat: s.Seat.Seat, Agent: s.Agent, Name: s.Name, Payout: p, Net: p - s.Entry})
	}
	sort.SliceStable(r.Standings, func(i, j int) bool { return r.Standings[i].Payout > r.Standings[j].Payout })
	for i := range r.Standings {
		r.Standings[i].Rank = i + 1 // the reveal's own ranking (§11.4): seat order on equal payouts
	}
	res.Standings = games.Rank(scores)
	r.Moments = m.moments()
	m.stage = stRevealed
	// One encoding serves both: Result.Reveal is json.Marshal's bytes, and the payload their
	// JCS form (canon reads the HTML escapes json.Marshal writes back to the characters, so
	// this is payloadJCS's result for r); payloadJCS itself when canon refuses them.
	raw, _ := json.Marshal(r)
	payload, err := canon.Canonical(raw)
	if err != nil {
		payload = payloadJCS(r)
	}
	m.emitRaw("round.revealed", visPublic, payload, nil)
	m.reveal = &r
	th := canon.IDOf(m.transcript.sum())
	res.House = m.house
	res.SeedHash = m.SeedHash()
	res.Seed = r.Seed
	res.TranscriptHash = th
	res.Reveal = raw
	m.result = &res
	m.requestAnchor("transcript", m.transcript.sum())
	m.current = nil
}

// moments picks the round's three decisive moments (protocol-notes "games/blitz"): from these
// candidates in priority order, the first three that exist, then ordered by seq:
// the largest breach (by amount, earliest on ties); the first elimination; the seal of the
// round's largest commitment; the first bell; the last accusation placed or moved; the largest
// honoured commitment; the first commitment sealed.
func (m *Match) moments() []Moment {
	firstElim, firstBell, lastAcc := m.marks.firstElim, m.marks.firstBell, m.marks.lastAcc
	// eventOf is the last public event of type typ about commitment c (the zero Event when there
	// is none).
	eventOf := func(typ string, c *promise) games.Event { return m.marks.markOf(typ, c) }
	largest := func(pred func(*promise) bool) *promise {
		var best *promise
		for _, c := range m.sealed {
			if pred(c) && (best == nil || c.amount > best.amount) {
				best = c
			}
		}
		return best
	}
	var out []Moment
	seen := map[int64]bool{}
	add := func(e games.Event, what string) {
		if len(out) < 3 && !seen[e.Seq] {
			seen[e.Seq] = true
			out = append(out, Moment{Seq: e.Seq, Turn: e.Turn, Type: e.Type, What: what})
		}
	}
	if c := largest(func(c *promise) bool { return c.outcome == outcomeBreached }); c != nil {
		add(eventOf("commitment.settled", c), fmt.Sprintf("seat %d breached %s to seat %d (paid %s, penalty %s)", c.payer, money(c.amount), c.payee, money(c.paid), money(c.penalty)))
	}
	if firstElim != nil {
		var p struct{ Seat int }
		_ = json.Unmarshal(firstElim.Payload, &p)
		add(*firstElim, fmt.Sprintf("seat %d was eliminated", p.Seat))
	}
	if c := largest(func(*promise) bool { return true }); c != nil {
		add(eventOf("commitment.sealed", c), fmt.Sprintf("seat %d sealed the round's largest commitment, %s to seat %d", c.payer, money(c.amount), c.payee))
	}
	if firstBell != nil {
		add(*firstBell, "the mole's first rung rang")
	}
	if lastAcc != nil {
		var p struct{ Seat, On int }
		_ = json.Unmarshal(lastAcc.Payload, &p)
		add(*lastAcc, fmt.Sprintf("seat %d's accusation settled on seat %d", p.Seat, p.On))
	}
	if c := largest(func(c *promise) bool { return c.outcome == outcomeHonoured }); c != nil {
		add(eventOf("commitment.settled", c), fmt.Sprintf("seat %d honoured %s to seat %d", c.payer, money(c.amount), c.payee))
	}
	if len(m.sealed) > 0 {
		c := m.sealed[0]
		add(eventOf("commitment.sealed", c), fmt.Sprintf("the first commitment: seat %d to seat %d", c.payer, c.payee))
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Seq < out[j].Seq })
	if out == nil {
		out = []Moment{}
	}
	return out
}

// money writes microCCD as CCD with up to six decimals ("40 CCD", "12.5 CCD").
func money(v int64) string {
	s := fmt.Sprintf("%d", v/ccd)
	if f := v % ccd; f != 0 {
		s += strings.TrimRight(fmt.Sprintf(".%06d", f), "0")
	}
	return s + " CCD"
}
