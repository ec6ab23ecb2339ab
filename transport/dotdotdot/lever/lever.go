// Package lever reads the bodies of the levers of dotdotdot-protocol-v1.md §12 for every
// DOTDOTDOT door that takes them: the walk-in desk (over x-walkin) and the join door (over an
// owner's session). One parser, so every door refuses the same bytes the same way. It checks
// shape only: the game decides every rule (a call's length, a veto's window, an accusation's
// target).
package lever

import (
	"arena/transport/door"
)

// Kinds are §12's levers, each routed as POST /v1/rounds/{round}/{kind}.
var Kinds = []string{"call", "veto", "accuse"}

// Lever bodies (§12). A veto names its pending commitment by pending_id (§12) or by the ref its
// seat gave it in an answer (docs/protocol-notes.md, "Levers"), exactly one of the two.
type (
	callBody struct {
		Text string `json:"text"`
	}
	vetoBody struct {
		PendingID string `json:"pending_id"`
		Ref       string `json:"ref"`
	}
	accuseBody struct {
		Seat int `json:"seat"`
	}
)

// Check reads raw as the body of lever kind: strict JSON (door.DecodeBytes: exact member names,
// no unknown member, so a "round" in a body never overrides the path); call {"text"}; veto
// exactly one of {"pending_id"} and {"ref"}, non-empty; accuse {"seat"} with seat ≥ 1. A refusal
// is a *door.Refusal with code bad_request (400), as is a kind that is not a lever.
func Check(kind string, raw []byte) error {
	switch kind {
	case "call":
		var b callBody
		return door.DecodeBytes(raw, &b)
	case "veto":
		var b vetoBody
		if err := door.DecodeBytes(raw, &b); err != nil {
			return err
		}
		if (b.PendingID == "") == (b.Ref == "") {
			return door.Refuse(door.CodeBadRequest, "give one of pending_id or ref")
		}
		return nil
	case "accuse":
		var b accuseBody
		if err := door.DecodeBytes(raw, &b); err != nil {
			return err
		}
		if b.Seat < 1 {
			return door.Refuse(door.CodeBadRequest, "seat must be a seat number, 1 or more")
		}
		return nil
	}
	return door.Refuse(door.CodeBadRequest, "no lever "+kind)
}
