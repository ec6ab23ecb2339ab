package commitment

import "arena/games"

// Codes this package refuses with (§13; bad_commitment is the project's, docs/protocol-notes.md).
const (
	CodeBadCommitment    = "bad_commitment"    // malformed object: raw checks, unknown member, schema
	CodeBadCondition     = "bad_condition"     // §10: outside the closed vocabulary
	CodeInvalidSignature = "invalid_signature" // §7.3: missing, malformed or not verifying
)

func badCommitment(format string, args ...any) *games.Error {
	return games.Errorf(CodeBadCommitment, format, args...)
}

func badCondition(format string, args ...any) *games.Error {
	return games.Errorf(CodeBadCondition, format, args...)
}
