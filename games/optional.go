package games

import "encoding/json"

// Briefer is implemented by engines that can put a prompt in words for an assistant (Blitz
// §4.4 format=brief and the MCP next_move tool). Answer is the body to post for the move, filled
// in but for the line or the promise.
type Briefer interface {
	Brief(p Prompt) (brief string, answer json.RawMessage)
}

// HousePlayer is implemented by engines that ship a scripted house policy: a legal answer for
// the prompt, chosen with the given seed (so house play is reproducible).
type HousePlayer interface {
	HouseAnswer(p Prompt, seed uint64) json.RawMessage
}
