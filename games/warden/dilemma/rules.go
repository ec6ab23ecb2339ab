package dilemma

// Choices (warden-games §4.1) and the legal action names of a prompt (Break Room convention).
const (
	Cooperate = "COOPERATE"
	Defect    = "DEFECT"

	ActionCooperate = "cooperate"
	ActionDefect    = "defect"
)

// Outcomes (warden-games §0.1: the rulebook lost the names; these are the project's).
const (
	Accord   = "ACCORD"   // both cooperate
	Betrayal = "BETRAYAL" // exactly one defects
	Deadlock = "DEADLOCK" // both defect
)

// Share is one row of the outcome table: basis points of the pot for seats A and B.
type Share struct{ A, B int64 }

// sharesBps is the outcome table of warden-games §4.2, indexed [A defects][B defects].
var sharesBps = [2][2]Share{
	{{4500, 4500}, {1500, 6500}},
	{{6500, 1500}, {3000, 3000}},
}

// Figures is the settlement of one match as the rules give it (warden-games §2.2): gross
// returns G per seat and the house's remainder H, with G_A + G_B + H = pot.
type Figures struct {
	Outcome string
	Shares  Share // bps of the pot
	GrossA  int64 // micro-units
	GrossB  int64
	House   int64
}

// Outcome settles choices a and b (Cooperate or Defect) on pot (micro-units, both stakes):
// G = floor(share × pot / 10000), H = pot − G_A − G_B. Rake is settlement's, not the rules'.
func Outcome(a, b string, pot int64) Figures {
	da, db := a == Defect, b == Defect
	s := sharesBps[b2i(da)][b2i(db)]
	f := Figures{Shares: s, GrossA: bps(pot, s.A), GrossB: bps(pot, s.B)}
	f.House = pot - f.GrossA - f.GrossB
	switch {
	case da && db:
		f.Outcome = Deadlock
	case da || db:
		f.Outcome = Betrayal
	default:
		f.Outcome = Accord
	}
	return f
}

// bps is floor(b × amount / 10000) without overflow for amount < 2^53 (b ≤ 10000).
func bps(amount, b int64) int64 {
	return amount/10000*b + amount%10000*b/10000
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}
