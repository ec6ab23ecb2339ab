package blitz

import (
	"crypto/sha256"
	"encoding/json"
	"strings"

	"arena/games"
	"arena/games/canon"
)

// hashEvents is SHA-256 over JCS of the ordered event list (§11.5, §5.5).
func hashEvents(evs []games.Event) ([32]byte, error) {
	if evs == nil {
		evs = []games.Event{}
	}
	b, err := canon.Marshal(evs)
	if err != nil {
		return [32]byte{}, err
	}
	return sha256.Sum256(b), nil
}

// TranscriptHash is "sha256:" + hex SHA-256(JCS(events)) (§11.5): the hash anchored at
// settle, over the ordered event list as games.Event JSON.
func TranscriptHash(events []games.Event) (string, error) {
	h, err := hashEvents(events)
	if err != nil {
		return "", err
	}
	return canon.IDOf(h), nil
}

// View is one seat's view of the transcript (§15): games.Redact with the round ended once
// round.revealed is in the list. Public events and the seat's own private ones; sealed events
// and other seats' private events stay hidden until the reveal, after which every event is
// shown (§11.4: the full transcript is published). Seat 0 is a spectator: public events only
// until the reveal.
func View(events []games.Event, seat int) []games.Event {
	return games.Redact(events, seat, Revealed(events))
}

// Revealed says events hold round.revealed: the round has ended and its transcript is public
// (§11.4), the ended argument of games.Redact.
func Revealed(events []games.Event) bool {
	for i := len(events) - 1; i >= 0; i-- {
		if events[i].Type == "round.revealed" {
			return true
		}
	}
	return false
}

// requestAnchor numbers an anchor request (§5.5: the round's anchors from 1) and puts it in
// the current step; a round that anchors its opening alone (Options.Anchors) asks for no other.
func (m *Match) requestAnchor(kind string, h [32]byte) {
	if m.opt.Anchors == AnchorsOpened && kind != "opened" {
		return // §5.5: Free play anchors its opening and nothing more
	}
	r := m.anchors.add(kind, h, m.sealed, anchorHashRoom(m.format))
	if m.step != nil {
		m.step.Anchors = append(m.step.Anchors, r)
	}
}

// anchoredInput records an anchor's transaction: it must match a request made and not yet
// recorded; it appends anchor.<kind> (transcript.anchored for the final hash), public.
func (m *Match) anchoredInput(body json.RawMessage) error {
	var b games.AnchoredBody
	if err := canon.Decode(body, &b); err != nil {
		return refuse(games.CodeBadRequest, "anchored body: %s", canon.Reason(err))
	}
	r, ok := m.anchors.at(b.Seq, m.sealed)
	if !ok || r.Kind != b.Kind || b.Hash != hexOf(r.Hash[:]) {
		return refuse(games.CodeBadRequest, "no anchor request %s #%d with that hash", b.Kind, b.Seq)
	}
	if m.anchors.recorded(b.Seq) {
		return refuse(games.CodeBadRequest, "anchor #%d already recorded", b.Seq)
	}
	if len(b.Tx) == 0 || len(b.Tx) > 128 || strings.Trim(b.Tx, "0123456789abcdef") != "" {
		return refuse(games.CodeBadRequest, "tx must be lowercase hex")
	}
	m.anchors.record(b.Seq)
	typ := "anchor." + b.Kind
	if b.Kind == "transcript" {
		typ = "transcript.anchored"
	}
	m.emit(typ, visPublic, map[string]any{"kind": b.Kind, "seq": b.Seq, "hash": b.Hash, "tx": b.Tx})
	return nil
}
