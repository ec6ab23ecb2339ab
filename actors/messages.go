// Package actors runs games on a protoactor-go supervision tree: the arena root, one table actor
// per table (the unit of failure and of snapshot), round and seat actors under it, and the chain
// actor's client side. Actors own time (one-shot timers carrying a generation) and persistence
// (write before you speak); the rules live in games/. A protocol's product (the DOTDOTDOT walk-in
// desk, its walk-ins and mailboxes: actors/dotdotdot) opens tables on this tree and reads what
// its seats deliver.
package actors

import (
	"encoding/json"
	"time"

	"arena/games"
)

// Messages between actors are plain data (no pointers into another actor's state) so they can be
// moved to protobuf when tables are spread across a cluster.

// SeatSpec is one seat of a table being opened. Channel says how the seat is reached: "house"
// (ChannelHouse: the game's house policy answers in the seat actor) or the name of a channel
// whose actor the seat actor sends each prompt to as *DeliverPrompt (channels.go).
type SeatSpec struct {
	Seat games.Seat
	// Kind is the seat's kind as its protocol names it, shown in TableInfo (DOTDOTDOT: "byo",
	// "ots", "house", "walkin"); the runtime reads nothing else into it.
	Kind string
	// Lent says the arena holds the seat's key and signs for it (a lent house Badge: a house seat,
	// a DOTDOTDOT walk-in, §4.4); a ChannelHouse seat is lent whatever it says (keys.go).
	Lent    bool
	Channel string
	// Actor is the actor id (PID Id) of the seat's own channel actor (a walk-in's mailbox,
	// actors/dotdotdot); it is also told *RoundEnded and *TableStopped. Empty: the channel's
	// actor (Options.Channels) serves the seat. Stored as "Mailbox", its first channel's name.
	Actor string `json:"Mailbox"`
	// Endpoint is the seat's address on its channel (an agent's A2A URL), passed on in
	// DeliverPrompt.
	Endpoint string
	// Pause, for a ChannelHouse seat, is how long its house answer waits before it reaches the
	// table (Break Room's house bots play "with a short pause per move"); zero answers at once.
	// The answer is stamped when the table takes it, so a replay of the input log is unchanged.
	Pause time.Duration `json:",omitempty"`
	// OTSGrant, on a DOTDOTDOT off-the-shelf seat, is the grant its held key was issued with
	// (dotdotdot.OTSKey): the arena signs the seat's commitments with that key. "" elsewhere.
	OTSGrant string `json:",omitempty"`
}

// UnmarshalJSON reads the form above and the one table records written before SeatSpec carried
// Kind and Lent: there the seat's kind and walk-in flag were members of the games.Seat, and the
// arena held the key of a walk-in seat and of one whose kind was "house" or "walkin".
func (s *SeatSpec) UnmarshalJSON(b []byte) error {
	type plain SeatSpec
	if err := json.Unmarshal(b, (*plain)(s)); err != nil {
		return err
	}
	var old struct {
		Seat struct {
			Kind   *string `json:"kind"`
			Walkin bool    `json:"walkin"`
		}
	}
	if err := json.Unmarshal(b, &old); err != nil {
		return err
	}
	if k := old.Seat.Kind; k != nil && s.Kind == "" {
		s.Kind = *k
		s.Lent = s.Lent || old.Seat.Walkin || *k == "house" || *k == "walkin"
	}
	return nil
}

// TableSpec is everything needed to open a table and play one round on it.
type TableSpec struct {
	ID      string // table id; also names the actor "arena/tables/table-<ID>"
	Game    string // games.Manifest ID
	Format  string
	Kind    string // "practice", "walkin", "hosted", "open", ...
	Seats   []SeatSpec
	Pace    games.Pace
	Options json.RawMessage
	// Seed, when 32 bytes, is the round's seed instead of a fresh random one: replays, `arena
	// sim`, and tests that compare a crashed run with a clean one. Empty draws a seed.
	Seed []byte
	// Round, when set, is the round's id instead of the house's "T-<n>" (a protocol that writes
	// match ids of its own: Break Room's "m_…"); the same characters as a table id, and not
	// the id of a round the store has (ErrTableExists). Empty: "T-<n>".
	Round string `json:",omitempty"`
}

// DeliverPrompt is sent by a seat actor to its channel's actor (SeatSpec): one move to deliver.
// The channel encodes it as its protocol says (DOTDOTDOT signs the §4 envelope) and answers
// with *SeatAnswer to the table (Arena.TablePID), or through Arena.Submit when the answer
// needs a reply. A prompt may come again (a table restart redelivers its open moves).
type DeliverPrompt struct {
	Table    string
	Round    string
	Seat     int
	Prompt   games.Prompt
	Endpoint string // SeatSpec.Endpoint
}

// SeatAnswer is a channel's answer to a prompt, sent to the table with no reply: the table acts
// on it if it is for the table's round (a refusal by the game is only logged). From names the
// channel, for the log.
type SeatAnswer struct {
	Round string
	Input games.Input
	From  string
}

// SubmitAnswer is a seat's input for a table (a walk-in answer, a lever). The table replies with
// *SubmitAnswerReply.
type SubmitAnswer struct {
	Table string
	Round string
	Input games.Input
	At    time.Time // arrival instant, as the door saw it
}

// SubmitAnswerReply carries the game's reply (e.g. {"dropped":[...]}) or a refusal code.
type SubmitAnswerReply struct {
	Reply json.RawMessage
	Code  string // "" on success; else the protocol's code (games.Error.Code)
	Msg   string
	Retry bool
}

// RoundEnded tells a seat's mailbox (and the walk-in behind it) that the round is over. View is
// the seat's view of the finished match (games.Match.View: its final state, nil when the table
// has no match to ask).
type RoundEnded struct {
	Table  string
	Round  string
	Seat   int
	Result games.Result
	View   json.RawMessage
}

// TableStopped tells a seat's mailbox that its table is no longer running: stopped by an
// operator (Status "stopped") or parked after a repeated panic (Status "failed"). Its open moves
// cannot be answered; an ops restart brings the table back, and it then redelivers them.
type TableStopped struct {
	Table  string
	Round  string
	Seat   int
	Status string
}

// ViewTable asks a live table for its match's view (games.Match.View) for Viewer (a seat ≥ 1,
// or 0 for a spectator) and its open prompts: Break Room's state reply outside a seat's turn. The
// reply is *ViewReply.
type ViewTable struct {
	Viewer int
}

// ViewReply answers ViewTable: the table's Round, the view's bytes (a JSON object) and the open
// prompts, or Code "unavailable" when the table is restarting or the commit the view rests on
// failed (ask again).
type ViewReply struct {
	Round   string
	State   []byte
	Prompts []games.Prompt
	Code    string
}
