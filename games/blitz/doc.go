// Package blitz is the DOTDOTDOT Blitz round engine (dotdotdot-protocol-v1 §5–§16): pure rules,
// exact to the microCCD. It implements games.Engine, games.Match, games.Briefer and
// games.HousePlayer. Nothing here reads a clock, does I/O or draws randomness except from
// Setup.Seed; the same Setup and the same inputs at the same instants give byte-identical
// events.
//
// # API summary (stable; engineer C's script runner and the actors build on it)
//
//	const ID = "blitz"                                  // Manifest ID; formats "blitz" (default), "short"
//	func NewEngine(f Fees) *Engine                     // f: house fees in microCCD; DefaultFees() = §14
//	func DefaultFees() Fees                             // Action 5 CCD, Table 20 CCD, Inference 30 CCD
//	func (*Engine) Manifest() games.Manifest
//	func (*Engine) New(s games.Setup, k games.Keyring) (games.Match, error)    // returns *Match
//	func (*Engine) Restore(snap []byte, k games.Keyring) (games.Match, error) // returns *Match
//	func (*Engine) Brief(p games.Prompt) (string, json.RawMessage)           // games.Briefer
//	func (*Engine) HouseAnswer(p games.Prompt, seed uint64) json.RawMessage  // games.HousePlayer
//
//	type Options struct {                // games.Setup.Options (JSON), all optional
//	    Mole      int                    `json:"mole"`      // fix the mole's seat (Practice, scripts)
//	    Task      *TaskChoice            `json:"task"`      // fix {kind, named[]} (seat numbers)
//	    Playbooks map[string]json.RawMessage `json:"playbooks"` // by seat ("3"): ots playbooks+dials
//	}
//
// Driving a match (what the actors and the runner do):
//
//	m.Deadline()                 // next instant to call Advance; the first is Setup.Start
//	m.Advance(now)               // closes every phase due at or before now, opens the next
//	m.Act(now, games.Input{...}) // Kind "answer" (Move = the open move), "call", "veto",
//	                             // "accuse", "anchored"; refusals are *games.Error (§12, §13)
//	m.Prompts()                  // open moves; Prompt.State is the §5.4 state object (JSON)
//
// Answer bodies (§4.4, §6, §7): {"messages":[...], "accusation":seat} on talk,
// {"commitments":[...], "accusation":seat} on commit. A Walkin seat sends intents
// ({"ref","payee": seat|agent id,"amount"|"chips","condition","due","pair"}); the engine fills
// v, round, turn, seq, payer and signs with Keyring.Sign. Conditions may name agents by seat
// number; {"honoured":"ref:a"} names a commitment by its walk-in ref. Lever bodies: call
// {"text"}, veto {"pending_id"} or {"ref"}, accuse {"seat"}. Step.Reply on an answer is
// {"dropped":[{"index","ref","code","msg"}]} naming what was not taken.
//
// Inspection (read-only, for the runner, tests and the doors):
//
//	func (*Match) Events() []games.Event        // the transcript so far (§15), in order
//	func (*Match) Accounts() []Account          // per seat: collateral, locks, unlocked, budget, alive, dark
//	func (*Match) Commitments() []Record        // every sealed commitment, sealed order, with outcome
//	func (*Match) Rejections() []Rejection      // every refused submission with its §13 code
//	func (*Match) Accusations() []Accusation    // resolved accusations (after round settlement)
//	func (*Match) Bounty() BountyPaid           // the §11.2 split (after round settlement)
//	func (*Match) Mole() int; Task() Task; Rungs() []int
//	func (*Match) Phase() games.Move            // the open move (Phase "seating","revealed" at the ends)
//	func (*Match) House() int64                 // microCCD taken by the house so far
//	func (*Match) CheckInvariant() error        // §8.3 + money conservation; nil when it holds
//	func View(events []games.Event, seat int) []games.Event // a seat's view (public + private:<seat>)
//	func PatternOf(publicLog []games.Event) []Pattern        // §5.4 pattern[] from public events
//	func TranscriptHash(events []games.Event) (string, error) // "sha256:"+hex SHA-256(JCS(events))
//	func OpenAnchor(r Reveal) (open json.RawMessage, anchor [32]byte, err error) // §5.5 recompute
//
// Result.Reveal is a Reveal (JSON): mole, task, named, rungs, standings, moments, seed, salts,
// and the open object in clear.
//
// Money: microCCD everywhere (1 CCD = 1_000_000). Bounty = floor(5% × entry); action budget =
// entry − bounty − collateral; the sum of payouts and House equals the sum of entries.
//
// Decisions where the spec is silent are written in docs/protocol-notes.md, "games/blitz".
package blitz
