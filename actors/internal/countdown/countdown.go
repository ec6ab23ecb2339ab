// Package countdown is a small, real implementation of the games contract used to exercise the
// table actor in tests and benchmarks while the real games are written: each seat names a number
// 0..9 once per turn; a turn closes at its deadline or, with Pace.CloseEarly, when every seat has
// answered; after the last turn the seat with the highest total wins. It is pure and
// deterministic, like every game.
//
// Hook, when set on the Engine, is called at the top of every Act and Advance with the round and
// the turn about to be played: tests make it panic to exercise the table's isolation rule.
package countdown

import (
	"crypto/ed25519"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"time"

	"arena/games"
)

// ID is the game id in a Bracket.
const ID = "countdown"

// Engine makes countdown matches. Hook may be nil.
type Engine struct {
	Hook func(round string, turn int, op string)
}

var (
	_ games.Engine      = (*Engine)(nil)
	_ games.HousePlayer = (*Engine)(nil)
)

// Manifest: one format "short" of 2..6 seats and 3 turns.
func (e *Engine) Manifest() games.Manifest {
	return games.Manifest{ID: ID, Name: "Countdown", Version: 1,
		Formats: []games.Format{{Name: "short", MinSeats: 2, MaxSeats: 6, Turns: 3}}}
}

type state struct {
	Round     string         `json:"round"`
	Seed      string         `json:"seed"`
	Seats     int            `json:"seats"`
	Turns     int            `json:"turns"`
	Turn      int            `json:"turn"` // 0 before the first opens; Turns+1 when done
	Deadline  time.Time      `json:"deadline"`
	Move      time.Duration  `json:"move"`
	Early     bool           `json:"early"`
	Answers   map[int]int    `json:"answers"`
	Totals    map[int]int    `json:"totals"`
	Seq       int64          `json:"seq"`
	Done      bool           `json:"done"`
	Pending   []games.Prompt `json:"pending,omitempty"`
	Abandoned string         `json:"abandoned,omitempty"`
	Keys      map[int]string `json:"keys,omitempty"` // hex public keys at seating
}

type match struct {
	e  *Engine
	st state
}

// New seats the players; the first turn opens at s.Start (Advance(s.Start) opens it).
func (e *Engine) New(s games.Setup, keys games.Keyring) (games.Match, error) {
	f, ok := games.FormatOf(e.Manifest(), s.Format)
	if !ok {
		return nil, games.Errorf(games.CodeBadRequest, "unknown format %q", s.Format)
	}
	if len(s.Seats) < f.MinSeats || len(s.Seats) > f.MaxSeats {
		return nil, games.Errorf(games.CodeBadRequest, "%d seats, want %d..%d", len(s.Seats), f.MinSeats, f.MaxSeats)
	}
	move := s.Pace.Step("commit")
	if move <= 0 {
		move = 20 * time.Second
	}
	st := state{Round: s.Round, Seed: hex.EncodeToString(s.Seed[:]), Seats: len(s.Seats), Turns: f.Turns,
		Deadline: s.Start, Move: move, Early: s.Pace.CloseEarly, Answers: map[int]int{}, Totals: map[int]int{},
		Keys: map[int]string{}}
	for _, seat := range s.Seats {
		if pk, ok := keys.PublicKey(seat.Seat); ok {
			st.Keys[seat.Seat] = hex.EncodeToString(pk)
		}
	}
	return &match{e: e, st: st}, nil
}

// HouseAnswer names seed mod 10.
func (e *Engine) HouseAnswer(p games.Prompt, seed uint64) json.RawMessage {
	return json.RawMessage(fmt.Sprintf(`{"n":%d}`, seed%10))
}

func (m *match) event(now time.Time, typ string, vis games.Visibility, payload any) games.Event {
	m.st.Seq++
	b, _ := json.Marshal(payload)
	return games.Event{Seq: m.st.Seq, Round: m.st.Round, Turn: m.st.Turn, Phase: "move",
		At: now.UTC().Format("2006-01-02T15:04:05.000Z"), Type: typ, Visibility: vis, Payload: b}
}

func (m *match) hook(turn int, op string) {
	if m.e.Hook != nil {
		m.e.Hook(m.st.Round, turn, op)
	}
}

func (m *match) Act(now time.Time, in games.Input) (games.Step, error) {
	m.hook(m.st.Turn, "act")
	if in.Kind == "anchored" { // §5.5: the chain actor's answer, recorded even after the end
		var b games.AnchoredBody
		if err := json.Unmarshal(in.Body, &b); err != nil || b.Tx == "" {
			return games.Step{}, games.Errorf(games.CodeBadRequest, "anchored body")
		}
		return games.Step{Events: []games.Event{m.event(now, "anchor."+b.Kind, games.Public, b)}}, nil
	}
	if m.st.Done {
		return games.Step{}, games.Errorf(games.CodeRoundOver, "round %s is over", m.st.Round)
	}
	if in.Seat < 1 || in.Seat > m.st.Seats {
		return games.Step{}, games.Errorf(games.CodeNotSeated, "no seat %d", in.Seat)
	}
	if in.Kind != "answer" || m.st.Turn == 0 || in.Move.Turn != m.st.Turn || in.Move.Phase != "move" ||
		now.After(m.st.Deadline) {
		return games.Step{}, games.Errorf(games.CodeStale, "no move %d/%s open", in.Move.Turn, in.Move.Phase)
	}
	if _, dup := m.st.Answers[in.Seat]; dup {
		return games.Step{}, games.Errorf(games.CodeStale, "seat %d already answered turn %d", in.Seat, m.st.Turn)
	}
	var body struct {
		N *int `json:"n"`
	}
	if err := json.Unmarshal(in.Body, &body); err != nil || body.N == nil || *body.N < 0 || *body.N > 9 {
		return games.Step{}, games.Errorf(games.CodeBadRequest, "body must be {\"n\":0..9}")
	}
	m.st.Answers[in.Seat] = *body.N
	m.st.Pending = removeSeat(m.st.Pending, in.Seat)
	step := games.Step{Events: []games.Event{m.event(now, "answer", games.Private(in.Seat),
		map[string]int{"seat": in.Seat, "n": *body.N})}, Reply: json.RawMessage(`{"dropped":[]}`)}
	if m.st.Early && len(m.st.Answers) == m.st.Seats {
		next := m.closeTurn(now)
		step.Events = append(step.Events, next.Events...)
		step.Prompts = next.Prompts
		step.Anchors = next.Anchors
	}
	return step, nil
}

func (m *match) Advance(now time.Time) games.Step {
	if m.st.Done || now.Before(m.st.Deadline) {
		return games.Step{}
	}
	m.hook(m.st.Turn, "advance")
	return m.closeTurn(now)
}

// closeTurn closes the open turn (if any) and opens the next or finishes.
func (m *match) closeTurn(now time.Time) games.Step {
	var step games.Step
	if m.st.Turn > 0 {
		for s, n := range m.st.Answers {
			m.st.Totals[s] += n
		}
		step.Events = append(step.Events, m.event(now, "turn.closed", games.Public,
			map[string]any{"answered": len(m.st.Answers)}))
		step.Anchors = append(step.Anchors, games.AnchorRequest{Kind: "turn", Seq: uint32(m.st.Turn),
			Hash: sha256.Sum256([]byte(fmt.Sprintf("%s/%d", m.st.Round, m.st.Turn)))})
	}
	m.st.Answers = map[int]int{}
	m.st.Pending = nil
	if m.st.Turn >= m.st.Turns {
		m.st.Turn = m.st.Turns + 1
		m.st.Done = true
		step.Events = append(step.Events, m.event(now, "round.revealed", games.Public, m.st.Totals))
		return step
	}
	m.st.Turn++
	m.st.Deadline = now.Add(m.st.Move)
	step.Events = append(step.Events, m.event(now, "turn.started", games.Public, map[string]int{"turn": m.st.Turn}))
	for s := 1; s <= m.st.Seats; s++ {
		p := games.Prompt{Seat: s, Move: games.Move{Turn: m.st.Turn, Phase: "move"}, Deadline: m.st.Deadline,
			Legal: games.Actions("answer"), State: games.RawDoc(fmt.Appendf(nil, `{"turn":%d,"total":%d}`, m.st.Turn, m.st.Totals[s])),
			Inbox: []json.RawMessage{}}
		m.st.Pending = append(m.st.Pending, p)
	}
	step.Prompts = append([]games.Prompt(nil), m.st.Pending...)
	return step
}

func (m *match) Deadline() (time.Time, bool) { return m.st.Deadline, !m.st.Done }

func (m *match) Prompts() []games.Prompt { return append([]games.Prompt(nil), m.st.Pending...) }

func (m *match) SeedHash() string {
	seed, _ := hex.DecodeString(m.st.Seed)
	sum := sha256.Sum256(seed)
	return "sha256:" + hex.EncodeToString(sum[:])
}

func (m *match) Result() (games.Result, bool) {
	if !m.st.Done {
		return games.Result{}, false
	}
	score := map[int]float64{}
	for s := 1; s <= m.st.Seats; s++ {
		score[s] = float64(m.st.Totals[s])
	}
	return games.Result{Standings: games.Rank(score), Unit: "points", SeedHash: m.SeedHash(), Seed: m.st.Seed,
		Abandoned: m.st.Abandoned}, true
}

// View is a seat's open prompt state, or {"turn","done"} for a spectator and a seat with none.
func (m *match) View(viewer int) games.Doc {
	for _, p := range m.st.Pending {
		if p.Seat == viewer {
			return p.State
		}
	}
	return games.RawDoc(fmt.Appendf(nil, `{"turn":%d,"done":%t}`, m.st.Turn, m.st.Done))
}

// Abandon ends the round at now with round.abandoned {reason} (public).
func (m *match) Abandon(now time.Time, reason string) games.Step {
	if m.st.Done {
		return games.Step{}
	}
	m.st.Done, m.st.Abandoned, m.st.Pending = true, reason, nil
	return games.Step{Events: []games.Event{m.event(now, "round.abandoned", games.Public, map[string]string{"reason": reason})}}
}

func removeSeat(ps []games.Prompt, seat int) []games.Prompt {
	out := ps[:0:0]
	for _, p := range ps {
		if p.Seat != seat {
			out = append(out, p)
		}
	}
	return out
}

// Verify checks sig over msg with a seat's public key recorded at seating (tests of the keyring).
func (m *match) Verify(seat int, msg, sig []byte) bool {
	k, err := hex.DecodeString(m.st.Keys[seat])
	return err == nil && len(k) == ed25519.PublicKeySize && ed25519.Verify(k, msg, sig)
}
