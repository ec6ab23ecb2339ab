package script

import (
	"arena/games"
	"arena/games/blitz"
)

// Output is a played round as `arena sim` prints it (round-script.md "Output"). Money is
// microCCD; seats are numbers (map keys are their decimal strings).
type Output struct {
	Round       string             `json:"round"`
	Mole        int                `json:"mole"`
	Task        OutputTask         `json:"task"`
	Rungs       []int              `json:"rungs"`   // rungs the mole reached (§9)
	Payouts     map[string]int64   `json:"payouts"` // final collateral + unused budget, less house fees (§11.3)
	House       int64              `json:"house"`   // action, table and inference fees (§14)
	Commitments []OutputCommitment `json:"commitments"`
	// Rejected lists every refused submission in the order it was refused: commitments at
	// submission or at seal, parts of answers dropped, answers and levers refused (§12, §13).
	Rejected    []Rejected         `json:"rejected"`
	Eliminated  []Eliminated       `json:"eliminated"`  // in order of elimination
	Accusations []blitz.Accusation `json:"accusations"` // resolved at round settlement (§11.1), by seat
	Bounty      OutputBounty       `json:"bounty"`
	// TranscriptHash is "sha256:" + hex SHA-256(JCS(events)) as the engine anchors it (§11.5).
	TranscriptHash string        `json:"transcript_hash"`
	Events         []games.Event `json:"events"` // the full transcript (§15), private and sealed included
}

// OutputTask is the mole's task as revealed (§9).
type OutputTask struct {
	Kind     string `json:"kind"`
	Category string `json:"category"`
	Named    []int  `json:"named"`
}

// OutputCommitment is one sealed commitment in sealed order. Outcome is honoured, void,
// breached, or open for one still open at the end; Paid and Penalty are microCCD moved to the
// payee (§8.2).
type OutputCommitment struct {
	Ref        string `json:"ref,omitempty"`
	ID         string `json:"id"`
	Payer      int    `json:"payer"`
	Payee      int    `json:"payee"`
	Amount     int64  `json:"amount"`
	SealedTurn int    `json:"sealed_turn"`
	Due        int    `json:"due"`
	Outcome    string `json:"outcome"`
	Paid       int64  `json:"paid"`
	Penalty    int64  `json:"penalty"`
}

// Rejected is one refusal: the seat, the turn it happened in, the script ref of the commitment
// (or of the commitment a veto named) and the protocol's code (§13, §12).
type Rejected struct {
	Seat int    `json:"seat"`
	Turn int    `json:"turn"`
	Ref  string `json:"ref,omitempty"`
	Code string `json:"code"`
}

// Eliminated is a seat eliminated at the settle of Turn (§8.2 step 2).
type Eliminated struct {
	Seat int `json:"seat"`
	Turn int `json:"turn"`
}

// OutputBounty is §11.2's split: ToAccusers by seat.
type OutputBounty struct {
	Pot        int64            `json:"pot"`
	ToMole     int64            `json:"to_mole"`
	ToAccusers map[string]int64 `json:"to_accusers"`
}
