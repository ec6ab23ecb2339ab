package blitz

import (
	"bytes"
	"encoding/json"
	"testing"

	"arena/games"
	"arena/games/gametest"
)

// conformance is a Short round of walk-in seats under the conformance suite, every seat played
// by the house policy (the arena signs their commitments, §4.4). Its secrets until
// round.revealed: the mole's role, and each private line's text with its recipient.
func conformance() gametest.Case {
	return gametest.Case{
		Engine:  NewEngine(DefaultFees()),
		Setup:   testSetup("short", 3, `{}`),
		Keys:    newTestKeys(3),
		Secrets: blitzSecrets,
		Relayed: blitzRelayed,
		Reveal:  "round.revealed",
		Stakes:  true,
	}
}

// blitzSecrets: role.assigned of the mole ("role":"mole","seat":n) and message.private's
// "text":…,"to":n, which no public line writes (message.public has no "to", talking no text).
func blitzSecrets(e games.Event) []string {
	switch e.Type {
	case "role.assigned":
		if bytes.Contains(e.Payload, []byte(`"role":"mole"`)) {
			var p struct{ Seat int }
			_ = json.Unmarshal(e.Payload, &p)
			return []string{`"role":"mole","seat":` + itoa(p.Seat)}
		}
	case "message.private":
		var p struct {
			Text string `json:"text"`
			To   int    `json:"to"`
		}
		if json.Unmarshal(e.Payload, &p) == nil {
			return []string{string(appendJCSString([]byte(`"text":`), p.Text)) + `,"to":` + itoa(p.To)}
		}
	}
	return nil
}

// blitzRelayed: a private message, sealed in the transcript (§15), is relayed to its sender and
// its addressee (§6); every other secret reaches only the seats its visibility names.
func blitzRelayed(e games.Event) []int {
	if e.Type != "message.private" {
		return nil
	}
	var p struct{ From, To int }
	_ = json.Unmarshal(e.Payload, &p)
	return []int{p.From, p.To}
}

func TestConformance(t *testing.T) { gametest.Run(t, conformance()) }

// TestConformanceBlitz6 runs the suite on the six-seat Blitz format.
func TestConformanceBlitz6(t *testing.T) {
	c := conformance()
	c.Setup, c.Keys = testSetup("blitz", 6, `{}`), newTestKeys(6)
	gametest.Run(t, c)
}

// TestConformanceBlitz7 and TestConformanceBlitz8 run the suite on the seat counts the manifest
// allows beyond six (§5.6: Blitz 6 to 8).
func TestConformanceBlitz7(t *testing.T) {
	c := conformance()
	c.Setup, c.Keys = testSetup("blitz", 7, `{}`), newTestKeys(7)
	gametest.Run(t, c)
}

func TestConformanceBlitz8(t *testing.T) {
	c := conformance()
	c.Setup, c.Keys = testSetup("blitz", 8, `{}`), newTestKeys(8)
	gametest.Run(t, c)
}

func FuzzConformance(f *testing.F) { gametest.Fuzz(f, conformance()) }
