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

// Who holds a seat's levers (§12), SeatOptions.Levers. The product sets it from the table's
// kind (actors/dotdotdot, levers.go); the rules below check it, so every door refuses alike.
const (
	// LeversOwn: a walk-in, its own human (§4.4). Its levers come over its token and an
	// accusation in its answers goes through the same lever (§12 "every walk-in").
	LeversOwn = "own"
	// LeversHuman: a human beside the agent holds the levers over its session; an accusation
	// in the agent's answers is ignored (§12 "anywhere else the field is ignored").
	LeversHuman = "human"
	// LeversAgent: the agent holds its human's accusation (§12: a one-human table at AI
	// speed, an in-house seat at a Showcase) and carries it in its answers; the human's own
	// accuse is refused ai_speed. Call and veto have no answer form and stay the human's.
	LeversAgent = "agent"
	// LeversNone: no levers (a house seat outside a Showcase): lever inputs are refused and an
	// accusation in its answers is ignored.
	LeversNone = "none"
)

// validLevers reports whether v is a SeatOptions.Levers value ("" included: a seat written
// before the member existed).
func validLevers(v string) bool {
	switch v {
	case "", LeversOwn, LeversHuman, LeversAgent, LeversNone:
		return true
	}
	return false
}

// leverRefusal is the refusal of lever kind ("call", "veto", "accuse") sent as a lever input
// for seat s, nil when its human may pull it (§12): refused for a seat without levers,
// ai_speed for the accusation of a seat whose agent holds it. A seat of the earlier form
// (Levers "") holds them when it is Human or Walkin.
func (s *seatState) leverRefusal(kind string) *games.Error {
	switch s.Levers {
	case LeversOwn, LeversHuman:
		return nil
	case LeversAgent:
		if kind == "accuse" {
			return refuse(CodeAISpeed, "seat %d's agent holds its accusation at this pace and places it in its answers (§12)", s.Seat.Seat)
		}
		return nil
	case "":
		if s.Human || s.Walkin {
			return nil
		}
	}
	return refuse(CodeRefused, "seat %d has no human levers", s.Seat.Seat)
}

// answerAccuses reports whether an accusation in seat s's answers is applied (§12: a walk-in,
// or an agent holding its human's lever); elsewhere the field is ignored. A seat of the
// earlier form (Levers "") accuses in its answers when it is Human or Walkin.
func (s *seatState) answerAccuses() bool {
	switch s.Levers {
	case LeversOwn, LeversAgent:
		return true
	case "":
		return s.Human || s.Walkin
	}
	return false
}

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
	case s.leverRefusal("call") != nil:
		return s.leverRefusal("call")
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
// Outside commit the refusal is not_now, with retry true only while the same request could
// still succeed in a later commit phase of this round: not when the commitment it names was
// submitted in a phase that has closed (sealed or refused since, so never pending again; on the
// chat clock a walk-in's own commit answer closes the phase when it is the last to answer, so
// its veto of what it just sent always comes too late). (The last turn's settle is never an
// open phase: the round is over, round_over, once its commit closes.)
func (m *Match) vetoLever(seat int, body json.RawMessage) error {
	s := m.seat(seat)
	var b struct {
		PendingID string `json:"pending_id"`
		Ref       string `json:"ref"`
	}
	switch {
	case m.stage >= stSettled:
		return refuse(CodeRoundOver, "the round is over")
	case s.leverRefusal("veto") != nil:
		return s.leverRefusal("veto")
	case s.vetoUsed:
		return refuse(CodeLeverSpent, "one veto a round")
	}
	if err := canon.Decode(body, &b); err != nil {
		return refuse(CodeBadTarget, "veto body: %s", canon.Reason(err))
	}
	if m.stage != stCommit {
		if m.vetoTooLate(seat, b.PendingID, b.Ref) {
			return refuse(CodeNotNow, "that commitment is no longer pending: the commit phase it was sent in has closed, and a veto is only during commit (§7.4)")
		}
		return retryLater(CodeNotNow, "a veto is only during commit")
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

// vetoTooLate reports whether the commitment a veto names (by id or by ref) was submitted in a
// commit phase that has closed: sealed, or refused at submission or at its seal. Such a
// commitment is never pending again, so no later veto of it can succeed.
func (m *Match) vetoTooLate(seat int, id, ref string) bool {
	if ref != "" {
		if _, used := m.refs[ref]; used {
			return true
		}
	}
	if id != "" {
		if _, sealed := m.byID[id]; sealed {
			return true
		}
	}
	for _, r := range m.rejections {
		if r.Seat == seat && ((ref != "" && r.Ref == ref) || (id != "" && r.ID == id)) {
			return true
		}
	}
	return false
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
	case lever && s.leverRefusal("accuse") != nil:
		return s.leverRefusal("accuse")
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
