package feed

import (
	"encoding/json"
	"slices"
	"time"
	"unicode/utf8"

	"arena/games"
)

// Mapper turns one match's engine transcript (games.Event, as games/warden/claims and
// games/warden/dilemma emit them) into Gallery events, field by field: what an engine event holds
// beyond its §15.3 type's fields never reaches the feed. It keeps the little it needs across
// events (which seats defaulted a round's claim or offer), so a match's events go through one
// Mapper in transcript order; after a restart, mapping the transcript again from its first event
// rebuilds it. Not safe for concurrent use.
//
// What maps to what:
//
//	match_started       → match_started (params and step lengths; the seats are match_opened's)
//	round_started       → round_started
//	step_opened         → step_opened (message → negotiate.message, claim → negotiate.claim)
//	message_recorded    → message_sent with the message's length only (private in the engine)
//	claim_sealed, offer_sealed, commit_sealed → the same, commitment only
//	timeout             → timeout
//	claims_revealed     → claims_published (defaulted from the round's claim timeouts)
//	round_revealed      → round_revealed (contributions pot/2 each, zeroed by §3.6's deviations,
//	                      defaulted from the round's offer timeouts)
//	choices_revealed    → choices_revealed
//
// Every other event maps to nothing: the engines' private events (valuations dealt, messages
// delivered, claims, offers and choices recorded), their per-seat step notices, and the two ends,
// match_finished and match_abandoned, which the Warden publishes itself with the settlement
// figures and log hash (MatchFinished) or as a cancellation (MatchCanceled, MatchVoided). An event
// of a type this Mapper does not know (another game's) maps to nothing either.
type Mapper struct {
	matchID, game string
	claimDef      map[int]*Pair[bool]
	offerDef      map[int]*Pair[bool]
}

// NewMapper is the Mapper of one match of game.
func NewMapper(matchID, game string) *Mapper {
	return &Mapper{matchID: matchID, game: game, claimDef: map[int]*Pair[bool]{}, offerDef: map[int]*Pair[bool]{}}
}

// Map is ev's Gallery events (none or one). An engine event whose payload does not decode as its
// type's, or whose fields a constructor refuses, maps to an empty Event carrying the error, which
// the store refuses: the caller sees it and nothing reaches the feed.
func (m *Mapper) Map(ev games.Event) []Event {
	at, err := time.Parse(time.RFC3339Nano, ev.At)
	if err != nil {
		return []Event{{err: err}}
	}
	h := Head{At: at, MatchID: m.matchID, Game: m.game}
	one := func(e Event) []Event { return []Event{e} }
	public := ev.Visibility == games.Public
	switch {
	case ev.Type == "message_recorded" && !public:
	case !public || !slices.Contains(mapped, ev.Type):
		return nil
	}
	var p enginePayload
	if err := json.Unmarshal(ev.Payload, &p); err != nil {
		return one(Event{err: err})
	}
	switch ev.Type {
	case "message_recorded":
		return one(MessageSent{Round: p.Round, From: p.Seat, To: other(p.Seat), Length: utf8.RuneCountInString(p.Text)}.Event(h))
	case "match_started":
		return one(m.started(h, p))
	case "round_started":
		return one(RoundStarted{Round: p.Round, Pot: Pot{p.BasePot, p.PotStep, p.PotCap}, Balances: p.Balances}.Event(h))
	case "step_opened":
		d, err := time.Parse(time.RFC3339Nano, p.Deadline)
		if err != nil {
			return one(Event{err: err})
		}
		return one(StepOpened{Round: p.Round, Step: stepName(p.Step), Deadline: d}.Event(h))
	case "claim_sealed":
		return one(Sealed{Round: p.Round, Seat: p.Seat, Commitment: p.Commitment}.Claim(h))
	case "offer_sealed":
		return one(Sealed{Round: p.Round, Seat: p.Seat, Commitment: p.Commitment}.Offer(h))
	case "commit_sealed":
		return one(Sealed{Round: p.Round, Seat: p.Seat, Commitment: p.Commitment}.Commit(h))
	case "timeout":
		step := stepName(p.Step)
		switch step {
		case StepClaim:
			set(m.def(m.claimDef, p.Round), p.Seat)
		case StepOffer:
			set(m.def(m.offerDef, p.Round), p.Seat)
		}
		return one(Timeout{Round: p.Round, Step: step, Seat: p.Seat, DefaultApplied: p.DefaultApplied}.Event(h))
	case "claims_revealed":
		return one(ClaimsPublished{Round: p.Round, Claims: p.Claims, Defaulted: *m.def(m.claimDef, p.Round)}.Event(h))
	case "round_revealed":
		var z string
		switch {
		case !p.Overshoot:
		case p.Deviations.A > p.Deviations.B:
			z = "A"
		case p.Deviations.B > p.Deviations.A:
			z = "B"
		default:
			z = "both"
		}
		d := RoundRevealed{Round: p.Round, Valuations: p.Valuations, Claims: p.Claims, Asks: p.Asks, Escalate: p.Escalate,
			Pot: p.Pot, Contributions: Pair[int64]{p.Pot / 2, p.Pot / 2}, AskSum: p.AskSum, Overshoot: p.Overshoot,
			Deviations: p.Deviations, Payouts: p.Pay, Spill: p.Spill, Balances: p.Balances,
			ClaimKind: Pair[string]{kindName(p.ClaimKind.A), kindName(p.ClaimKind.B)},
			Defaulted: *m.def(m.offerDef, p.Round)}
		if z != "" {
			d.Zeroed = &z
		}
		if err := json.Unmarshal(p.Salts, &d.Salts); err != nil {
			return one(Event{err: err})
		}
		return one(d.Event(h))
	case "choices_revealed":
		d := ChoicesRevealed{Round: p.Round, Choices: p.Choices, Defaulted: p.Defaulted, Outcome: p.Outcome,
			SharesBps: p.SharesBps, Gross: p.Gross, House: p.House}
		if err := json.Unmarshal(p.Salts, &d.Salts); err != nil {
			return one(Event{err: err})
		}
		return one(d.Event(h))
	}
	return nil
}

// mapped are the public engine events Map turns into feed events.
var mapped = []string{"match_started", "round_started", "step_opened", "claim_sealed", "offer_sealed", "commit_sealed",
	"timeout", "claims_revealed", "round_revealed", "choices_revealed"}

// started is match_started from either engine's params.
func (m *Mapper) started(h Head, p enginePayload) Event {
	var q struct {
		Rounds          int                         `json:"rounds"`
		Valuation       *Range                      `json:"valuation"`
		Pot             *PotParams                  `json:"pot"`
		AskCeiling      string                      `json:"ask_ceiling"`
		MessageMaxChars int                         `json:"message_max_chars"`
		RakeBps         int64                       `json:"rake_bps"`
		SharesBps       map[string]map[string]int64 `json:"shares_bps"`
		DefaultChoice   string                      `json:"default_choice"`
		MessageMs       *int64                      `json:"message_ms"`
		ClaimMs         *int64                      `json:"claim_ms"`
		OfferMs         *int64                      `json:"offer_ms"`
		CommitMs        *int64                      `json:"commit_ms"`
		RevealMs        *int64                      `json:"reveal_ms"`
	}
	if len(p.Params) > 0 {
		if err := json.Unmarshal(p.Params, &q); err != nil {
			return Event{err: err}
		}
	}
	if q.Rounds == 0 {
		q.Rounds = 1
	}
	dl := map[string]int64{}
	for name, v := range map[string]*int64{StepMessage: q.MessageMs, StepClaim: q.ClaimMs, StepOffer: q.OfferMs, StepCommit: q.CommitMs, "reveal": q.RevealMs} {
		if v != nil {
			dl[name] = *v
		}
	}
	return MatchStarted{RulesVersion: p.RulesVersion, SeedHash: p.SeedHash, Deadlines: dl,
		Params: Params{Rounds: q.Rounds, Valuation: q.Valuation, Pot: q.Pot, AskCeiling: q.AskCeiling,
			MessageMaxChars: q.MessageMaxChars, SharesBps: q.SharesBps, DefaultChoice: q.DefaultChoice, RakeBps: q.RakeBps}}.Event(h)
}

// enginePayload is every member the Mapper reads from an engine event; the rest is ignored.
type enginePayload struct {
	Round          int             `json:"round"`
	Seat           string          `json:"seat"`
	Text           string          `json:"text"` // message_recorded only: its length is published
	Step           string          `json:"step"`
	Deadline       string          `json:"deadline"`
	Commitment     string          `json:"commitment"`
	DefaultApplied string          `json:"default_applied"`
	RulesVersion   string          `json:"rules_version"`
	SeedHash       string          `json:"seed_hash"`
	Params         json.RawMessage `json:"params"`
	BasePot        int64           `json:"base_pot"`
	PotStep        int64           `json:"pot_step"`
	PotCap         int64           `json:"pot_cap"`
	Balances       Pair[int64]     `json:"balances"`
	Claims         Pair[*int64]    `json:"claims"`
	Valuations     Pair[int64]     `json:"valuations"`
	Asks           Pair[int64]     `json:"asks"`
	Escalate       Pair[int64]     `json:"escalate"`
	Pot            int64           `json:"pot"`
	AskSum         int64           `json:"ask_sum"`
	Overshoot      bool            `json:"overshoot"`
	Deviations     Pair[int64]     `json:"deviations"`
	Pay            Pair[int64]     `json:"pay"`
	Spill          int64           `json:"spill"`
	ClaimKind      Pair[string]    `json:"claim_kind"`
	Salts          json.RawMessage `json:"salts"`
	Choices        Pair[string]    `json:"choices"`
	Defaulted      Pair[bool]      `json:"defaulted"`
	Outcome        string          `json:"outcome"`
	SharesBps      Pair[int64]     `json:"shares_bps"`
	Gross          Pair[int64]     `json:"gross"`
	House          int64           `json:"house"`
}

func (m *Mapper) def(by map[int]*Pair[bool], round int) *Pair[bool] {
	if by[round] == nil {
		by[round] = &Pair[bool]{}
	}
	return by[round]
}

func set(p *Pair[bool], seat string) {
	switch seat {
	case "A":
		p.A = true
	case "B":
		p.B = true
	}
}

func other(seat string) string {
	switch seat {
	case "A":
		return "B"
	case "B":
		return "A"
	}
	return ""
}

// stepName is the §15.3 step name of an engine phase.
func stepName(phase string) string {
	switch phase {
	case "message":
		return StepMessage
	case "claim":
		return StepClaim
	}
	return phase // offer, commit
}

// kindName is the §15.3 claim kind of the engine's (no_claim → none).
func kindName(k string) string {
	if k == "no_claim" {
		return "none"
	}
	return k
}
