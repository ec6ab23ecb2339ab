package games

import "encoding/json"

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
