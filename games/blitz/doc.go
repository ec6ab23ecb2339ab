// Package blitz is the DOTDOTDOT Blitz round engine (dotdotdot-protocol-v1 §5–§16): pure rules,
// exact to the microCCD. It implements games.Engine, games.Match, games.Briefer,
// games.HousePlayer, and puts itself in words for doors as games.Narrator and games.Describer.
// Nothing here reads a clock, does I/O or draws randomness except from Setup.Seed; the same Setup
// and the same inputs at the same instants give byte-identical events. Commitments and conditions
// are parsed, verified and filled by games/blitz/commitment; canonical bytes come from games/canon.
//
// # API summary (stable; the script runner and the actors build on it)
//
//	const ID = "blitz"                                  // Manifest ID; formats "blitz" (default), "short"
//	func NewEngine(f Fees) *Engine                     // f: house fees in microCCD
//	func DefaultFees() Fees                             // §14: Action 5 CCD, Table 20 CCD, Inference 30 CCD
//	func (*Engine) Manifest() games.Manifest
//	func (*Engine) New(s games.Setup, k games.Keyring) (games.Match, error)    // a *Match
//	func (*Engine) Restore(snap []byte, k games.Keyring) (games.Match, error) // a *Match
//	func (*Engine) Brief(p games.Prompt) (string, json.RawMessage)           // games.Briefer
//	func (*Engine) HouseAnswer(p games.Prompt, seed uint64) json.RawMessage  // games.HousePlayer
//
//	type Options struct {                 // games.Setup.Options (JSON, exact-case), all optional
//	    Mole      int                        `json:"mole"`      // fix the mole's seat (Practice, scripts)
//	    Task      *TaskChoice                `json:"task"`      // fix {kind, named[]} (seat numbers; needs mole)
//	    Playbooks map[string]json.RawMessage `json:"playbooks"` // by seat ("3"): ots playbooks and dials
//	    Notice    *Notice                    `json:"notice"`    // the scouting notice {text, link}
//	}
//
// Driving a match (what the actors and the runner do):
//
//	m.Deadline()                 // next instant to call Advance; the first is Setup.Start
//	m.Advance(now)               // closes every phase due at or before now, opens the next
//	m.Act(now, games.Input{...}) // Kind "answer" (Move = the open move), "call", "veto",
//	                             // "accuse", "anchored", "scripted"; refusals are *games.Error
//	m.Prompts()                  // open moves not yet answered; State is the §5.4 object (JSON)
//
// Answer bodies (§4.4, §6, §7): {"messages":[...], "accusation":seat} on talk,
// {"commitments":[...], "accusation":seat} on commit, optionally echoing v, round, turn, phase,
// exchange, seat. Walkin seats send intents ({"ref","payee": seat|agent id,"amount"|"chips",
// "condition","due","pair"}); the engine fills v, round, turn, seq, payer and signs through
// Keyring.Sign. Other seats send signed §7.1 objects, verified with Keyring.PublicKey. Lever
// bodies: call {"text"}, veto {"pending_id"} or {"ref"}, accuse {"seat"}; anchored is a
// games.AnchoredBody. Step.Reply on an answer is {"dropped":[{"field","index","ref","code",
// "msg"}]} naming every part not taken (the rest goes through).
//
// Inspection (read-only, for the runner, tests and the doors):
//
//	func (*Match) Events() []games.Event        // the transcript so far (§15), in order
//	func (*Match) Accounts() []Account          // per seat: collateral, locks, unlocked, budget, alive, dark
//	func (*Match) Commitments() []Record        // every sealed commitment, sealed order, with outcome
//	func (*Match) Rejections() []Rejection      // every refused submission with its code
//	func (*Match) Accusations() []Accusation    // resolved accusations (after round settlement)
//	func (*Match) Bounty() BountyPaid           // the §11.2 split (after round settlement)
//	func (*Match) Mole() int; Task() Task; Rungs() []int; Round() string
//	func (*Match) Phase() games.Move            // the open move ("seating" before, "revealed" after)
//	func (*Match) House() int64                 // microCCD taken by the house so far
//	func (*Match) CheckInvariant() error        // §8.3 + money conservation; nil when it holds
//	func View(events []games.Event, seat int) []games.Event // a seat's view (public + private:<seat>)
//	func PatternOf(publicLog []games.Event) []Pattern        // §5.4 pattern[] from public events
//	func TranscriptHash(events []games.Event) (string, error) // "sha256:"+hex SHA-256(JCS(events))
//	func OpenAnchor(r Reveal) (open json.RawMessage, anchor [32]byte, err error) // §5.5 recompute
//
// Result.Reveal is a Reveal (JSON): the open object's inputs in clear (seed, salts, mole, task,
// playbooks, seating), the open anchor, rungs and bells, standings and three decisive moments.
// *Match also answers commitment.Facts (Backed, Alive, Honoured) for condition evaluation.
//
// Money: microCCD everywhere (1 CCD = 1_000_000). Bounty = ⌊5% × entry⌋; action budget =
// entry − bounty − collateral; the sum of payouts and House equals the sum of entries.
//
// Decisions where the spec is silent are written in docs/protocol-notes.md, "games/blitz".
package blitz
