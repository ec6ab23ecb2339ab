package games

import (
	"crypto/ed25519"
	"encoding/json"
)

// Briefer is implemented by engines that can put a prompt in words for an assistant (Blitz
// §4.4 format=brief and the MCP next_move tool). Answer is the body to post for the move, filled
// in but for the line or the promise.
type Briefer interface {
	Brief(p Prompt) (brief string, answer json.RawMessage)
}

// HousePlayer is implemented by engines that ship a scripted house policy: a legal answer for
// the prompt, chosen with the given seed (so house play is reproducible). The prompt's View, when
// the game set one, is the state already read; a prompt without one must answer the same.
type HousePlayer interface {
	HouseAnswer(p Prompt, seed uint64) json.RawMessage
}

// AnchorKeeper is a Match that can say which of its anchor requests (Step.Anchors) it has not yet
// recorded as anchored. A table re-sends them when it starts, so a reply the chain actor sent
// while the table was down or restarting is asked for again (the chain actor answers a request it
// already holds with the transaction it has) and still reaches the transcript.
type AnchorKeeper interface {
	PendingAnchors() []AnchorRequest // in request order (Seq)
}

// Opener is an Engine whose transcript opens, once revealed, a commitment the match announced
// before play (Blitz's open-round anchor, §5.5, §11.4): Open recomputes it from the transcript's
// events alone, so a verifier (chain/verify) checks any game's reveal without knowing the game.
type Opener interface {
	Open(events []Event) (Opening, error)
}

// Opening is what Open recomputed. At is the index of the reveal event in the events (len(events)
// and Found false when there is none); Round the round the reveal names; Hash the commitment
// recomputed and Stated the one the reveal itself states ("sha256:<hex>"); Announced the one
// announced before play ("" when the transcript holds none). The words name them for a report:
// RevealType the reveal's event type, AnnouncedIn the announcing event's, Source what the
// recomputation reads ("the revealed salts"), From what it read in full. An error from Open is
// a sentence naming what failed (the reveal's payload, the recomputation), with At set.
type Opening struct {
	Found       bool
	At          int
	Round       string
	Hash        [32]byte
	Stated      string
	Announced   string
	RevealType  string
	AnnouncedIn string
	Source      string
	From        string
}

// AnchorPlanner is an Engine that says, from a round's public transcript alone, every anchor its
// match had to request (§5.5), in request order (the plan's first entry has seq 1), so a verifier
// (chain/verify) rebuilds and checks any game's anchors without knowing its event types. The
// verifier hashes the events itself (SHA-256 of JCS of the list, §11.5); the plan says which.
type AnchorPlanner interface {
	AnchorPlan(events []Event) []PlannedAnchor
}

// PlannedAnchor is one anchor request a transcript implies. Kind is its §5.5 kind ("exchange",
// "commitment", "turn", "opened", "transcript"). The hash it must carry is, by the first that
// applies:
//   - Opened: the commitment the reveal opens (Opener.Open's Hash);
//   - ID != "" or Kind "commitment": the id an event stated ("sha256:<64 hex>"), at event Pos;
//   - Prefix: the hash of events[0..n] for any n in From..To (a request made at a moment inside
//     that span, which other events may interleave with);
//   - otherwise: the hash of events[From..To] (an exchange's window; From 0 for a transcript).
//
// Pos is the index of the last event the anchor covers (where a report prints it); What says
// which events, in words; Within, for a Prefix anchor, says where n lies ("in the settle of turn
// 3"). From and To are indices into the events, inclusive.
type PlannedAnchor struct {
	Kind     string
	Pos      int
	What     string
	Opened   bool
	ID       string
	Prefix   bool
	From, To int
	Within   string
}

// Verifier is an Engine with checks of its own on a revealed transcript beyond its anchors and its
// reveal (Blitz: every sealed commitment's id, terms and signature, §7, §11.4). Verify reads the
// events of round alone; keys are signing keys by agent id (§7.3), and a game may read others its
// transcript publishes. One Finding per thing checked, in transcript order; a malformed transcript
// yields failing findings, never a panic.
type Verifier interface {
	Verify(round string, events []Event, keys map[string]ed25519.PublicKey) []Finding
}

// Finding is one check a Verifier made: at event index Pos, OK or not, its name ("commitment
// 1a2b…") and what was compared, in words.
type Finding struct {
	Pos   int
	OK    bool
	Check string
	What  string
}

// Narrator is an engine that puts its public events in words, so a door (the round page's feed,
// a replay) shows any game's transcript without knowing its event types. Names reads the seats'
// display names from public events; Narrate is one public event in words (an event it does not
// know as its type alone: a payload it does not understand is not echoed); Final says whether the
// event closes the public transcript and how: EndRevealed for the event that ends a match played
// out (Blitz's round.revealed), EndAbandoned for the one Abandon writes (Blitz's round.abandoned),
// "" for any other. A live feed ends at the first event Final names, saying which end it was.
// RevealPanel lays out the reveal of a public transcript that holds its Final event (the round
// page's reveal card, §11.4), from the public events alone and with the names Names read; false
// before the reveal or when the reveal cannot be read.
type Narrator interface {
	Names(events []Event) map[int]string
	Narrate(e Event, names map[int]string) string
	Final(e Event) string
	RevealPanel(events []Event, names map[int]string) (Panel, bool)
}

// The ends of a public transcript, as Narrator.Final names them (and a live feed's end event
// carries them as its reason).
const (
	EndRevealed  = "revealed"  // the match was played out and its reveal published
	EndAbandoned = "abandoned" // the match was ended early (Match.Abandon): stakes back
)

// Panel is a finished match's reveal laid out for a page, in the game's words and free of markup
// (a door escapes every string): a lead paragraph of runs, Strong ones emphasised; a table,
// when Rows is not empty, of Head cells and Rows of cells; a list, when List is not empty, under
// ListTitle. Amounts are already words ("231.5").
type Panel struct {
	Lead      []Run
	Head      []string
	Rows      [][]string
	ListTitle string
	List      []string
}

// Run is a stretch of a Panel's lead paragraph.
type Run struct {
	Text   string
	Strong bool
}

// Describer is an engine that puts a seat's move and a finished match in words for an assistant
// (the DOTDOTDOT chat seat, §4.5), so the door writes only its own parts (the head line, the
// token and the round and turn it echoes, its closing lines). DescribeState is a line about the
// table from a prompt's state (seat is the prompt's); "" when there is nothing to say.
// DescribeAnswers lists the ways to answer prompt p (its Move as the door read it from the move
// it delivered); empty when the game has none to list. DescribeResult is a finished match in
// words: payouts (in the game's unit, with places when the game publishes them) and the reveal;
// "" when there is nothing to say.
type Describer interface {
	DescribeState(state Doc, seat int) string
	DescribeAnswers(p Prompt) []AnswerForm
	DescribeResult(r Result) string
}

// AnswerForm is one way to answer a move, as a door lists it: Name is the call (the chat seat's
// tool: "talk", "commit", "pass"); Fields the game's members of its arguments in the door's
// template notation, JSON with <placeholders> in words, without braces (`"phase": "talk",
// "exchange": 2`), written after the door's own token and round/turn echo; Note what the answer
// does, appended as it is (" to say nothing"; "" for none).
type AnswerForm struct {
	Name   string
	Fields string
	Note   string
}

// Statser is an engine that reads a finished match's per-seat statistics, for records and
// reputations (Break Room bluff_rate, caught; DOTDOTDOT's role, rungs, accusations): from the
// Result and the match's public events, a map per seat of named figures. A figure a game does
// not have is absent, not zero.
type Statser interface {
	Stats(r Result, events []Event) map[int]map[string]float64
}
