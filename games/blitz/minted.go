package blitz

import (
	"encoding/json"
	"strings"

	"arena/games"
	"arena/games/canon"
)

// MintedBody is the body of a "minted" input (Input.Seat is the seat): the seat's lent Badge
// (§4.4) is registered in the instance's Badge registry by the final transaction Tx (hex), owned
// by Owner (a CAIP-10 account). The runtime sends it once the registration is final; the match
// appends badge.minted (§15, public: seat, agent, owner, tx).
type MintedBody struct {
	Agent string `json:"agent"`
	Owner string `json:"owner"`
	Tx    string `json:"tx"`
}

// maxOwner bounds a MintedBody's owner (a CAIP-10 account is under 100 bytes).
const maxOwner = 128

// mintedInput records a lent Badge's registration: the agent must be the seat's, the seat not
// yet minted, and the round not yet settled (a registration final after that is not in the
// transcript: CodeRoundOver). It appends badge.minted, public.
func (m *Match) mintedInput(seat int, body json.RawMessage) error {
	var b MintedBody
	if err := canon.Decode(body, &b); err != nil {
		return refuse(games.CodeBadRequest, "minted body: %s", canon.Reason(err))
	}
	s := m.seat(seat)
	switch {
	case m.stage >= stSettled:
		return refuse(games.CodeRoundOver, "the round is over: badge.minted is not recorded")
	case b.Agent == "" || b.Agent != s.Agent:
		return refuse(games.CodeBadRequest, "minted agent %q is not seat %d's", b.Agent, seat)
	case s.minted:
		return refuse(games.CodeBadRequest, "seat %d's Badge is already minted", seat)
	case b.Owner == "" || len(b.Owner) > maxOwner:
		return refuse(games.CodeBadRequest, "minted owner must be 1 to %d bytes", maxOwner)
	case len(b.Tx) == 0 || len(b.Tx) > 128 || strings.Trim(b.Tx, "0123456789abcdef") != "":
		return refuse(games.CodeBadRequest, "tx must be lowercase hex")
	}
	s.minted = true
	m.emit("badge.minted", visPublic, map[string]any{"seat": seat, "agent": b.Agent, "owner": b.Owner, "tx": b.Tx})
	return nil
}
