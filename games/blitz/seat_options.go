package blitz

import (
	"bytes"
	"encoding/json"

	"arena/games"
	"arena/games/canon"
)

// SeatOptions is games.Seat.Options for Blitz: what a Blitz seat is beyond the seat every game
// has. Every field is optional; the zero SeatOptions is a BYO agent's seat with no collateral
// (which New refuses, §14).
type SeatOptions struct {
	Kind   string `json:"kind,omitempty"`   // "byo" (or empty), "ots", "arena", "house", "walkin"
	Human  bool   `json:"human,omitempty"`  // a human sits behind the seat: it pays the table fee (§14)
	Walkin bool   `json:"walkin,omitempty"` // answers arrive as walk-in bodies; the arena signs (§4.4)
	// Levers is who holds the seat's levers (§12): LeversOwn, LeversHuman, LeversAgent or
	// LeversNone, set by the product from the table's kind (levers.go). Empty is a seat written
	// before the member existed: its levers are held as they then were, by any Human or Walkin
	// seat, over lever inputs and in its answers alike.
	Levers     string `json:"levers,omitempty"`
	Collateral int64  `json:"collateral,omitempty"` // microCCD (or micro-chips), 40–80% of the seat's Entry (§14)
	Rating     int    `json:"rating,omitempty"`     // shown to every seat (§5.4 agents[].rating)
}

// JSON is o as a seat's games.Seat.Options.
func (o SeatOptions) JSON() json.RawMessage {
	b, _ := json.Marshal(o) // plain data: cannot fail
	return b
}

// SeatOptionsOf decodes a seat's Options strictly (canon.Decode, as Setup.Options): empty or
// null is the zero SeatOptions. Errors: Options that are not a JSON object of SeatOptions'
// members (an unknown member, a repeated one, a value of the wrong type).
func SeatOptionsOf(s games.Seat) (SeatOptions, error) {
	var o SeatOptions
	if b := bytes.TrimSpace(s.Options); len(b) == 0 || string(b) == "null" {
		return o, nil
	}
	if err := canon.Decode(s.Options, &o); err != nil {
		return SeatOptions{}, err
	}
	return o, nil
}
