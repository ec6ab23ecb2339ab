package blitz

import (
	"encoding/json"
	"fmt"
	"regexp"
	"strings"
	"unicode/utf8"

	"arena/games"
	"arena/games/canon"
)

func sprintf(f string, a ...any) string { return fmt.Sprintf(f, a...) }

// holdsLevers: levers are the human's (§12); a walk-in holds its own, and the agent of a human
// seat may carry its human's accusation in an answer.
func (s *seatState) holdsLevers() bool { return s.Human || s.Walkin }

// roundLive is true from scouting until round settlement.
func (m *Match) roundLive() bool { return m.stage >= stScouting && m.stage < stSettled }

// callLever: {"text"} ≤ 200 characters, 2 per round, accepted at any time in the round, and
// delivered in the seat's next envelope as {"type":"call","text"} (§12).
func (m *Match) callLever(seat int, body json.RawMessage) error {
	s := m.seat(seat)
	var b struct {
		Text string `json:"text"`
	}
	switch {
	case m.stage >= stSettled:
		return refuse(CodeRoundOver, "the round is over")
	case m.stage == stSeating:
		return retryLater(CodeNotNow, "the round has not opened")
	case !s.holdsLevers():
		return refuse(CodeRefused, "seat %d has no human levers", seat)
	case s.callsUsed >= 2:
		return refuse(CodeLeverSpent, "2 calls a round")
	}
	if err := canon.Decode(body, &b); err != nil {
		return refuse(CodeRefused, "call body: %s", canon.Reason(err))
	}
	if n := utf8.RuneCountInString(b.Text); n == 0 || n > 200 {
		return refuse(CodeRefused, "a call is 1–200 characters, got %d", n)
	}
	s.callsUsed++
	s.callsQueue = append(s.callsQueue, b.Text)
	return nil
}

// deliverCalls hands queued calls to their seats as a phase opens: call.delivered (private),
// the inbox item, and the veto task's rung 2 when a call names the mole (§9).
func (m *Match) deliverCalls() {
	for _, s := range m.seats {
		for _, text := range s.callsQueue {
			m.emit("call.delivered", visPrivate(s.Seat.Seat), map[string]any{"text": text})
			item, _ := json.Marshal(map[string]any{"type": "call", "text": text})
			s.inbox = append(s.inbox, item)
			s.calls = append(s.calls, text)
			if m.task.Kind == "veto" && s.Seat.Seat != m.mole && m.names(text, m.mole) {
				m.bell(2, stageName[m.stage], m.exchange)
			}
		}
		s.callsQueue = nil
	}
}

// names: a call names a seat when its text contains "seat <n>" (n not followed by a digit) or
// the seat's display name, case-insensitively (§9).
func (m *Match) names(text string, seat int) bool {
	t := strings.ToLower(text)
	re := regexp.MustCompile(`seat\s*` + itoa(seat) + `([^0-9]|$)`)
	if re.MatchString(t) {
		return true
	}
	name := strings.ToLower(strings.TrimSpace(m.seat(seat).Name))
	return name != "" && strings.Contains(t, name)
}

// vetoLever: {"pending_id"} or {"ref"}: once per round, only during commit, only on the seat's
// own pending commitment (§7.4, §12). The vetoed commitment is discarded: no lock, no fee.
func (m *Match) vetoLever(seat int, body json.RawMessage) error {
	s := m.seat(seat)
	var b struct {
		PendingID string `json:"pending_id"`
		Ref       string `json:"ref"`
	}
	switch {
	case m.stage >= stSettled:
		return refuse(CodeRoundOver, "the round is over")
	case !s.holdsLevers():
		return refuse(CodeRefused, "seat %d has no human levers", seat)
	case s.vetoUsed:
		return refuse(CodeLeverSpent, "one veto a round")
	case m.stage != stCommit:
		return retryLater(CodeNotNow, "a veto is only during commit")
	}
	if err := canon.Decode(body, &b); err != nil {
		return refuse(CodeBadTarget, "veto body: %s", canon.Reason(err))
	}
	var target *promise
	for _, c := range m.pending {
		if c.payer == seat && !c.vetoed && ((b.PendingID != "" && c.id == b.PendingID) || (b.Ref != "" && c.ref == b.Ref)) {
			target = c
			break
		}
	}
	if target == nil {
		return refuse(CodeBadTarget, "no pending commitment of seat %d matches", seat)
	}
	s.vetoUsed = true
	target.vetoed = true
	m.emit("commitment.vetoed", visPrivate(seat), map[string]any{"id": target.id, "ref": target.ref})
	if m.task.Kind == "veto" && target.payee == m.mole {
		m.bell(1, "commit", 0)
	}
	m.closeIfAllAnswered() // the veto spent, the phase need not wait on this seat's window
	return nil
}

// accuse places (then moves, once) the seat's sealed accusation (§12): from turn 1 talk to the
// last turn's commit; refused for the mole (is_mole), on oneself or a seat not at the table
// (bad_target), a third time (lever_spent). lever says whether it came as a lever (a seat
// without levers is refused) or inside an answer (the caller checked).
func (m *Match) accuse(seat, on int, lever bool) error {
	s := m.seat(seat)
	switch {
	case m.stage >= stSettled:
		return refuse(CodeRoundOver, "the round is over")
	case lever && !s.holdsLevers():
		return refuse(CodeRefused, "seat %d has no human levers", seat)
	case seat == m.mole:
		return refuse(CodeIsMole, "the mole has no accusation")
	case s.accuseUsed >= 2:
		return refuse(CodeLeverSpent, "an accusation is placed once and moved once")
	case m.stage < stTalk:
		return retryLater(CodeNotNow, "accusations open at turn 1 talk")
	case m.stage == stSettle && m.turn == m.format.Turns:
		return refuse(CodeNotNow, "accusations closed with the last commit")
	case on < 1 || on > len(m.seats) || on == seat:
		return refuse(CodeBadTarget, "seat %d cannot be accused by seat %d", on, seat)
	case on == s.accusation:
		return refuse(CodeBadTarget, "the accusation already stands on seat %d", on)
	}
	s.accuseUsed++
	from := s.accusation
	s.accusation = on
	if s.accuseUsed == 1 {
		m.emit("accusation.sealed", visPrivate(seat), map[string]any{"seat": seat, "on": on})
	} else {
		m.emit("accusation.moved", visPrivate(seat), map[string]any{"seat": seat, "on": on, "from": from})
	}
	return nil
}

var _ = games.Error{}
