package feed

import (
	"encoding/hex"
	"fmt"
	"slices"
	"strings"
	"time"
)

// Event types (§15.3).
const (
	TypeMatchOpened       = "match_opened"
	TypeMatchPaired       = "match_paired"
	TypeStakeCleared      = "stake_cleared"
	TypeMatchCanceled     = "match_canceled"
	TypeRefundSent        = "refund_sent"
	TypeMatchStarted      = "match_started"
	TypeRoundStarted      = "round_started"
	TypeStepOpened        = "step_opened"
	TypeStepExtended      = "step_extended"
	TypeMessageSent       = "message_sent"
	TypeClaimSealed       = "claim_sealed"
	TypeOfferSealed       = "offer_sealed"
	TypeCommitSealed      = "commit_sealed"
	TypeTimeout           = "timeout"
	TypeClaimsPublished   = "claims_published"
	TypeRoundRevealed     = "round_revealed"
	TypeChoicesRevealed   = "choices_revealed"
	TypeMatchFinished     = "match_finished"
	TypePayoutSent        = "payout_sent"
	TypePayoutConfirmed   = "payout_confirmed"
	TypeMatchSettled      = "match_settled"
	TypeMatchVoided       = "match_voided"
	TypeMessagesPublished = "messages_published"
	TypeLobby             = "lobby"
)

// GlobalTypes are the types the global feed carries (§15.3, last paragraph); a match feed
// carries all of its match's.
var GlobalTypes = []string{TypeMatchOpened, TypeMatchPaired, TypeMatchStarted, TypeMatchFinished,
	TypeMatchSettled, TypeMatchCanceled, TypeLobby}

// Global reports whether the global feed carries events of type typ.
func Global(typ string) bool { return slices.Contains(GlobalTypes, typ) }

// Steps are the step names of step_opened, step_extended and timeout (§15.3).
const (
	StepMessage = "negotiate.message"
	StepClaim   = "negotiate.claim"
	StepOffer   = "offer"
	StepCommit  = "commit"
)

var steps = []string{StepMessage, StepClaim, StepOffer, StepCommit}

// Pair is a value per seat, {"A": …, "B": …}.
type Pair[T any] struct {
	A T `json:"A"`
	B T `json:"B"`
}

// Standing is a Contender's public standing as the feed shows it (§13.4).
type Standing struct {
	Tier       string `json:"tier"`
	Matches    int64  `json:"matches"`
	WinRateBps int64  `json:"win_rate_bps"`
	NetTotal   int64  `json:"net_total"` // atomic units, signed
}

// Profile is a seat's public profile: its Contender (wallet), display name, temperament and
// standing at the moment of the event.
type Profile struct {
	ContenderID string   `json:"contender_id"`
	Name        string   `json:"name"`
	Temperament string   `json:"temperament"`
	Standing    Standing `json:"standing"`
}

// Refund is one refund of a canceled or voided match: the seat, the amount (atomic units) and
// its status (queued, sent, confirmed).
type Refund struct {
	Seat   string `json:"seat"`
	Amount int64  `json:"amount"`
	Status string `json:"status"`
}

// MatchOpened is match_opened: the stake (atomic units), the open match's expiry and seat A.
type MatchOpened struct {
	Stake     int64
	OpenUntil time.Time
	A         Profile
}

// Event is the match_opened event.
func (d MatchOpened) Event(h Head) Event {
	return build(h, TypeMatchOpened, 0, struct {
		Stake     int64  `json:"stake"`
		OpenUntil string `json:"open_until"`
		Seats     struct {
			A Profile `json:"A"`
		} `json:"seats"`
	}{d.Stake, Stamp(d.OpenUntil), struct {
		A Profile `json:"A"`
	}{d.A}})
}

// MatchPaired is match_paired: seat B and the end of the stake window.
type MatchPaired struct {
	B             Profile
	StakeDeadline time.Time
}

// Event is the match_paired event.
func (d MatchPaired) Event(h Head) Event {
	return build(h, TypeMatchPaired, 0, struct {
		Seats struct {
			B Profile `json:"B"`
		} `json:"seats"`
		StakeDeadline string `json:"stake_deadline"`
	}{struct {
		B Profile `json:"B"`
	}{d.B}, Stamp(d.StakeDeadline)})
}

// StakeCleared is stake_cleared: a seat's stake settled on a rail; Ref is the escrow transaction
// hash (exact) or the Gateway transfer id.
type StakeCleared struct {
	Seat    string `json:"seat"`
	Amount  int64  `json:"amount"`
	Rail    string `json:"rail"`
	Network string `json:"network"`
	Ref     string `json:"ref"`
}

// Event is the stake_cleared event.
func (d StakeCleared) Event(h Head) Event {
	return check(build(h, TypeStakeCleared, 0, d), seat(d.Seat), ref("ref", d.Ref))
}

// MatchCanceled is match_canceled: why (stake_timeout, expired or voided) and the refunds.
type MatchCanceled struct {
	Reason  string   `json:"reason"`
	Refunds []Refund `json:"refunds"`
}

// Event is the match_canceled event.
func (d MatchCanceled) Event(h Head) Event {
	if d.Refunds == nil {
		d.Refunds = []Refund{}
	}
	return check(build(h, TypeMatchCanceled, 0, d), oneOf("reason", d.Reason, "stake_timeout", "expired", "voided"), refunds(d.Refunds))
}

// RefundSent is refund_sent: a seat's refund transaction.
type RefundSent struct {
	Seat   string `json:"seat"`
	Amount int64  `json:"amount"`
	Tx     string `json:"tx"`
}

// Event is the refund_sent event.
func (d RefundSent) Event(h Head) Event {
	return check(build(h, TypeRefundSent, 0, d), seat(d.Seat), ref("tx", d.Tx))
}

// Range is a valuation range in bps.
type Range struct {
	Min  int64 `json:"min"`
	Max  int64 `json:"max"`
	Step int64 `json:"step"`
}

// PotParams are Game I's pot parameters in bps of one stake (§3.1).
type PotParams struct {
	BaseBps  int64 `json:"base_bps"`
	StepBps  int64 `json:"step_bps"`
	CapBps   int64 `json:"cap_bps"`
	MaxSteps int64 `json:"max_steps"`
}

// Params are a match's public rule parameters (§16.1 params): Game I's rounds, valuation range,
// pot, ask ceiling and message length; Game II's outcome shares (outcome → role or seat → bps) and
// default choice; every game's rake. A game leaves out what it does not have.
type Params struct {
	Rounds          int                         `json:"rounds"`
	Valuation       *Range                      `json:"valuation,omitempty"`
	Pot             *PotParams                  `json:"pot,omitempty"`
	AskCeiling      string                      `json:"ask_ceiling,omitempty"`
	MessageMaxChars int                         `json:"message_max_chars,omitempty"`
	SharesBps       map[string]map[string]int64 `json:"shares_bps,omitempty"`
	DefaultChoice   string                      `json:"default_choice,omitempty"`
	RakeBps         int64                       `json:"rake_bps"`
}

// MatchStarted is match_started: the rules version, the seed's commitment, the parameters and
// each step's length in milliseconds by step name ("reveal" for the reveal pause).
type MatchStarted struct {
	RulesVersion string           `json:"rules_version"`
	SeedHash     string           `json:"seed_hash"`
	Params       Params           `json:"params"`
	Deadlines    map[string]int64 `json:"deadlines"`
}

// Event is the match_started event.
func (d MatchStarted) Event(h Head) Event {
	if d.Deadlines == nil {
		d.Deadlines = map[string]int64{}
	}
	return check(build(h, TypeMatchStarted, 0, d), hash("seed_hash", d.SeedHash))
}

// Pot is a round's pot parameters in atomic units (§3.4).
type Pot struct {
	Base int64 `json:"base"`
	Step int64 `json:"step"`
	Cap  int64 `json:"cap"`
}

// RoundStarted is round_started: the round, its pot parameters and the balances at its start.
type RoundStarted struct {
	Round    int         `json:"round"`
	Pot      Pot         `json:"pot"`
	Balances Pair[int64] `json:"balances"`
}

// Event is the round_started event.
func (d RoundStarted) Event(h Head) Event { return build(h, TypeRoundStarted, d.Round, d) }

// StepOpened is step_opened: a step of a round opened with its deadline.
type StepOpened struct {
	Round    int
	Step     string
	Deadline time.Time
}

type stepData struct {
	Round    int    `json:"round"`
	Step     string `json:"step"`
	Deadline string `json:"deadline"`
	Reason   string `json:"reason,omitempty"`
}

// Event is the step_opened event.
func (d StepOpened) Event(h Head) Event {
	return check(build(h, TypeStepOpened, d.Round, stepData{d.Round, d.Step, Stamp(d.Deadline), ""}), step(d.Step))
}

// StepExtended is step_extended: a step re-opened with a fresh deadline, and why
// (server_restart, §5.3).
type StepExtended struct {
	Round    int
	Step     string
	Deadline time.Time
	Reason   string
}

// Event is the step_extended event.
func (d StepExtended) Event(h Head) Event {
	return check(build(h, TypeStepExtended, d.Round, stepData{d.Round, d.Step, Stamp(d.Deadline), d.Reason}),
		step(d.Step), oneOf("reason", d.Reason, "server_restart"))
}

// MessageSent is message_sent: a private message went from one seat to the other, and its
// length in characters. It has no member for the text (§3.3 step 2).
type MessageSent struct {
	Round  int    `json:"round"`
	From   string `json:"from"`
	To     string `json:"to"`
	Length int    `json:"length"`
}

// Event is the message_sent event.
func (d MessageSent) Event(h Head) Event {
	return check(build(h, TypeMessageSent, d.Round, d), seat(d.From), seat(d.To))
}

// Sealed is a sealed submission's commitment (§15.4): claim_sealed, offer_sealed or
// commit_sealed by the constructor used. It holds no member for the submission.
type Sealed struct {
	Round      int    `json:"round"`
	Seat       string `json:"seat"`
	Commitment string `json:"commitment"`
}

// Claim is the claim_sealed event.
func (d Sealed) Claim(h Head) Event { return d.event(h, TypeClaimSealed) }

// Offer is the offer_sealed event.
func (d Sealed) Offer(h Head) Event { return d.event(h, TypeOfferSealed) }

// Commit is the commit_sealed event.
func (d Sealed) Commit(h Head) Event { return d.event(h, TypeCommitSealed) }

func (d Sealed) event(h Head, typ string) Event {
	return check(build(h, typ, d.Round, d), seat(d.Seat), hash("commitment", d.Commitment))
}

// Timeout is timeout: a seat missed a step's deadline and its default was applied (none,
// no_claim, ask0, COOPERATE; §5.2).
type Timeout struct {
	Round          int    `json:"round"`
	Step           string `json:"step"`
	Seat           string `json:"seat"`
	DefaultApplied string `json:"default_applied"`
}

// Event is the timeout event.
func (d Timeout) Event(h Head) Event {
	return check(build(h, TypeTimeout, d.Round, d), step(d.Step), seat(d.Seat),
		oneOf("default_applied", d.DefaultApplied, "none", "no_claim", "ask0", "COOPERATE"))
}

// ClaimsPublished is claims_published: both claims of a round (nil: no claim), which were
// defaulted, and the claims' salts when known then (nil: published with the round's reveal).
type ClaimsPublished struct {
	Round     int           `json:"round"`
	Claims    Pair[*int64]  `json:"claims"`
	Defaulted Pair[bool]    `json:"defaulted"`
	Salts     *Pair[string] `json:"salts"`
}

// Event is the claims_published event.
func (d ClaimsPublished) Event(h Head) Event {
	e := build(h, TypeClaimsPublished, d.Round, d)
	if d.Salts != nil {
		e = check(e, hexN("salt", d.Salts.A, 64), hexN("salt", d.Salts.B, 64))
	}
	return e
}

// Salts are one seat's salts of a round's claim and offer (§15.4).
type Salts struct {
	Claim string `json:"claim"`
	Offer string `json:"offer"`
}

// RoundRevealed is round_revealed (§3.6): everything sealed in the round, its resolution and the
// balances after it. Zeroed is "A", "B", "both" or nil; ClaimKind per seat is truthful, bluff,
// understated or none.
type RoundRevealed struct {
	Round         int          `json:"round"`
	Valuations    Pair[int64]  `json:"valuations"`
	Claims        Pair[*int64] `json:"claims"`
	Asks          Pair[int64]  `json:"asks"`
	Escalate      Pair[int64]  `json:"escalate"`
	Pot           int64        `json:"pot"`
	Contributions Pair[int64]  `json:"contributions"`
	AskSum        int64        `json:"ask_sum"`
	Overshoot     bool         `json:"overshoot"`
	Deviations    Pair[int64]  `json:"deviations"`
	Zeroed        *string      `json:"zeroed"`
	Payouts       Pair[int64]  `json:"payouts"`
	Spill         int64        `json:"spill"`
	Balances      Pair[int64]  `json:"balances"`
	ClaimKind     Pair[string] `json:"claim_kind"`
	Defaulted     Pair[bool]   `json:"defaulted"`
	Salts         Pair[Salts]  `json:"salts"`
}

// Event is the round_revealed event.
func (d RoundRevealed) Event(h Head) Event {
	kinds := []string{"truthful", "bluff", "understated", "none"}
	var z error
	if d.Zeroed != nil {
		z = oneOf("zeroed", *d.Zeroed, "A", "B", "both")
	}
	return check(build(h, TypeRoundRevealed, d.Round, d), z,
		oneOf("claim_kind", d.ClaimKind.A, kinds...), oneOf("claim_kind", d.ClaimKind.B, kinds...),
		hexN("salt", d.Salts.A.Claim, 64), hexN("salt", d.Salts.A.Offer, 64),
		hexN("salt", d.Salts.B.Claim, 64), hexN("salt", d.Salts.B.Offer, 64))
}

// ChoicesRevealed is Game II's choices_revealed (§4.2).
type ChoicesRevealed struct {
	Round     int          `json:"round"`
	Choices   Pair[string] `json:"choices"`
	Defaulted Pair[bool]   `json:"defaulted"`
	Outcome   string       `json:"outcome"`
	SharesBps Pair[int64]  `json:"shares_bps"`
	Gross     Pair[int64]  `json:"gross"`
	House     int64        `json:"house"`
	Salts     Pair[string] `json:"salts"`
}

// Event is the choices_revealed event.
func (d ChoicesRevealed) Event(h Head) Event {
	c := []string{"COOPERATE", "DEFECT"}
	return check(build(h, TypeChoicesRevealed, d.Round, d),
		oneOf("choice", d.Choices.A, c...), oneOf("choice", d.Choices.B, c...),
		oneOf("outcome", d.Outcome, "ACCORD", "BETRAYAL", "DEADLOCK"),
		hexN("salt", d.Salts.A, 64), hexN("salt", d.Salts.B, 64))
}

// SeatResult is a seat's settlement figures (§2.2), atomic units; Result is win, draw or loss.
type SeatResult struct {
	GrossReturn int64  `json:"gross_return"`
	Rake        int64  `json:"rake"`
	PaidOut     int64  `json:"paid_out"`
	Net         int64  `json:"net"`
	Result      string `json:"result"`
}

// MatchFinished is match_finished: each seat's settlement figures, the house's total, the seed
// (hex, revealed now) and the public log hash (§15.5).
type MatchFinished struct {
	Seats   Pair[SeatResult] `json:"seats"`
	House   int64            `json:"house"`
	Seed    string           `json:"seed"`
	LogHash string           `json:"log_hash"`
}

// Event is the match_finished event.
func (d MatchFinished) Event(h Head) Event {
	r := []string{"win", "draw", "loss"}
	return check(build(h, TypeMatchFinished, 0, d), hexN("seed", d.Seed, 64), hash("log_hash", d.LogHash),
		oneOf("result", d.Seats.A.Result, r...), oneOf("result", d.Seats.B.Result, r...))
}

// Payout is a payout transaction of a seat: payout_sent or payout_confirmed by the
// constructor used.
type Payout struct {
	Seat   string `json:"seat"`
	Amount int64  `json:"amount"`
	Tx     string `json:"tx"`
}

// Sent is the payout_sent event.
func (d Payout) Sent(h Head) Event { return d.event(h, TypePayoutSent) }

// Confirmed is the payout_confirmed event.
func (d Payout) Confirmed(h Head) Event { return d.event(h, TypePayoutConfirmed) }

func (d Payout) event(h Head, typ string) Event {
	return check(build(h, typ, 0, d), seat(d.Seat), ref("tx", d.Tx))
}

// LedgerHead is the Ledger's head after a write (§12.3).
type LedgerHead struct {
	Seq     uint64 `json:"seq"`
	RowHash string `json:"row_hash"`
}

// MatchSettled is match_settled: the match's two Ledger rows (seat A's, then B's), the Ledger
// head after them, and both seats' standing after the match.
type MatchSettled struct {
	LedgerRows    [2]uint64      `json:"ledger_rows"`
	LedgerHead    LedgerHead     `json:"ledger_head"`
	StandingAfter Pair[Standing] `json:"standing_after"`
}

// Event is the match_settled event.
func (d MatchSettled) Event(h Head) Event {
	return check(build(h, TypeMatchSettled, 0, d), hash("row_hash", d.LedgerHead.RowHash))
}

// MatchVoided is match_voided: an operator voided a failed match (§5.6); every stake refunded.
type MatchVoided struct {
	Reason  string   `json:"reason"`
	Refunds []Refund `json:"refunds"`
}

// Event is the match_voided event.
func (d MatchVoided) Event(h Head) Event {
	if d.Refunds == nil {
		d.Refunds = []Refund{}
	}
	return check(build(h, TypeMatchVoided, 0, d), refunds(d.Refunds))
}

// Message is a private message as messages_published reveals it after settlement.
type Message struct {
	Round int    `json:"round"`
	From  string `json:"from"`
	To    string `json:"to"`
	Text  string `json:"text"`
}

// MessagesPublished is messages_published: every private message of a settled match, when the
// game publishes them after settlement ([JC-38]). It is the only event with a message's text;
// the feed's store refuses it for a match whose match_settled it does not hold.
type MessagesPublished struct {
	Messages []Message `json:"messages"`
}

// Event is the messages_published event.
func (d MessagesPublished) Event(h Head) Event {
	if d.Messages == nil {
		d.Messages = []Message{}
	}
	var errs []error
	for _, m := range d.Messages {
		errs = append(errs, seat(m.From), seat(m.To))
	}
	return check(build(h, TypeMessagesPublished, 0, d), errs...)
}

// Queue is one matchmaking queue's length.
type Queue struct {
	Game    string `json:"game"`
	Stake   int64  `json:"stake"`
	Waiting int    `json:"waiting"`
}

// Lobby is the global feed's periodic lobby event: the queues and how many matches are live.
type Lobby struct {
	Queues      []Queue `json:"queues"`
	LiveMatches int     `json:"live_matches"`
}

// Event is the lobby event at instant at (no match).
func (d Lobby) Event(at time.Time) Event {
	if d.Queues == nil {
		d.Queues = []Queue{}
	}
	return build(Head{At: at}, TypeLobby, 0, d)
}

// check returns e unless one of errs is not nil: then the zero Event carrying that error.
func check(e Event, errs ...error) Event {
	for _, err := range errs {
		if err != nil {
			return Event{typ: "", err: fmt.Errorf("feed: %s: %w", e.typ, err)}
		}
	}
	return e
}

func oneOf(name, v string, words ...string) error {
	if !slices.Contains(words, v) {
		return fmt.Errorf("%s %q is not one of %s", name, v, strings.Join(words, ", "))
	}
	return nil
}

func seat(s string) error { return oneOf("seat", s, "A", "B") }

func step(s string) error { return oneOf("step", s, steps...) }

// hash checks a "sha256:<64 lowercase hex>" value.
func hash(name, v string) error {
	h, ok := strings.CutPrefix(v, "sha256:")
	if !ok {
		return fmt.Errorf("%s %q is not sha256:<hex>", name, v)
	}
	return hexN(name, h, 64)
}

// hexN checks n lowercase hex digits.
func hexN(name, v string, n int) error {
	if _, err := hex.DecodeString(v); err != nil || len(v) != n || strings.ToLower(v) != v {
		return fmt.Errorf("%s %q is not %d lowercase hex digits", name, v, n)
	}
	return nil
}

// ref checks a transaction reference: 0x and 64 hex digits (a transaction hash) or an opaque
// transfer id of at most 128 printable ASCII characters.
func ref(name, v string) error {
	if len(v) == 0 || len(v) > 128 {
		return fmt.Errorf("%s of %d bytes: 1..128", name, len(v))
	}
	for _, c := range []byte(v) {
		if c < 0x21 || c > 0x7e {
			return fmt.Errorf("%s %q is not printable ASCII", name, v)
		}
	}
	return nil
}

func refunds(rs []Refund) error {
	for _, r := range rs {
		if err := seat(r.Seat); err != nil {
			return err
		}
		if err := oneOf("status", r.Status, "queued", "sent", "confirmed", "failed"); err != nil {
			return err
		}
	}
	return nil
}
