package blitz

import "arena/games"

// Protocol error codes (§12 levers, §13 commitments and answers). Refusals are *games.Error
// with one of these as Code; commitment.rejected events carry them in the payload.
const (
	CodeInvalidSignature     = "invalid_signature"
	CodeBadSeq               = "bad_seq"
	CodeInsufficientUnlocked = "insufficient_unlocked"
	CodeInsufficientBudget   = "insufficient_budget"
	CodeTooManyOpen          = "too_many_open"
	CodePairUnmatched        = "pair_unmatched"
	CodeBadCondition         = "bad_condition"
	CodePayeeNotAlive        = "payee_not_alive"
	CodeLeverSpent           = "lever_spent"
	CodeStale                = games.CodeStale
	CodeIsMole               = "is_mole"
	CodeRoundOver            = games.CodeRoundOver
	CodeBadTarget            = "bad_target"
	CodeNotNow               = "not_now"
	CodeRefused              = "refused"
	// CodeAISpeed refuses a human's accusation where its agent holds it (§12 "the agent holds
	// the levers at this pace": a one-human table at AI speed, an in-house seat at a Showcase).
	CodeAISpeed = "ai_speed"
	// CodeBadCommitment is a submission whose shape breaks §7.1 (missing or wrong member, v ≠ 1,
	// round or turn not this one, due out of range, amount < 1 CCD, payer not the sender,
	// a member spelled twice or by case). The §13 list has no code for it; see protocol-notes.
	CodeBadCommitment = "bad_commitment"
	// CodeTooManySubmissions: a commit answer carried more than 4 submissions (§5.3); the
	// fifth and later are dropped.
	CodeTooManySubmissions = "too_many_submissions"
	// CodeBadMessage: a message that breaks §6 (type, to, tone, 600 chars, 8+8 per exchange).
	CodeBadMessage = "bad_message"
)

func refuse(code, format string, args ...any) *games.Error {
	return games.Errorf(code, format, args...)
}

func retryLater(code, format string, args ...any) *games.Error {
	e := games.Errorf(code, format, args...)
	e.Retry = true
	return e
}
