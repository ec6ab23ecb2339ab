package breakroom

import (
	"crypto/sha256"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"regexp"
	"strings"
	"unicode/utf8"

	"arena/actors"
	"arena/games"
)

// The bartender (protocol "Staff"): the house's own player, seated by the lobby when someone has
// waited alone. It plays the game's house policy with the house bots' pause, and it talks: its
// first move greets the table, and a question put to it in table talk (a message naming it, or
// ending in "?") gets the paragraph of the game's rules text (Game.Rules) that shares the most
// words with the question, on its next move that may carry a message. The room plays it: its seat
// is on the room's channel, so the room sees its prompts and the table's talk.

// staffGreeting is the bartender's first line.
const staffGreeting = "Evening, all. I'm the bartender: ask me about the rules in table talk (name me, or end a question with ?)."

// staffSay is what the bartender has to say at a match: the greeting until it is said, then the
// answers to the questions put to it, oldest first.
type staffSay struct {
	greeted bool
	queue   []string
}

// staffMove answers a prompt for the bartender's seat: the house policy's move, with the next
// thing it has to say when the move may carry a message; sent to the table after the pause.
func (st *state) staffMove(m *match, d *actors.DeliverPrompt) {
	eng, ok := st.r.arena.Bracket().Engine(m.Game)
	hp, isHouse := eng.(games.HousePlayer)
	if !ok || !isHouse {
		return
	}
	mv := d.Prompt.Move
	h := sha256.Sum256(fmt.Appendf(nil, "%s|staff|%d|%s|%d", m.Table, mv.Turn, mv.Phase, mv.StateID))
	body := hp.HouseAnswer(d.Prompt, binary.BigEndian.Uint64(h[:8]))
	if body == nil {
		return
	}
	if limit := messageLimit(d.Prompt.Legal, body); limit > 0 {
		if say := m.staff.next(); say != "" {
			var obj map[string]json.RawMessage
			if json.Unmarshal(body, &obj) == nil {
				obj["message"], _ = json.Marshal(clipText(say, limit))
				if b, err := json.Marshal(obj); err == nil {
					body = b
				}
			}
		}
	}
	ans := &actors.SeatAnswer{Round: d.Round, From: "breakroom-staff",
		Input: games.Input{Seat: d.Seat, Kind: "answer", Move: d.Prompt.Move, Body: body, House: true}}
	root, table := st.r.arena.System().Root, st.r.arena.TablePID(d.Table)
	// On the tables' clock, as the house seats' pause (actors.SeatSpec.Pause).
	st.r.arena.Clock().AfterFunc(max(st.r.opts.HousePause, 0), func() { root.Send(table, ans) })
}

// next is what the bartender says now ("" for nothing): the greeting first, then an answer.
func (s *staffSay) next() string {
	if !s.greeted {
		s.greeted = true
		return staffGreeting
	}
	if len(s.queue) == 0 {
		return ""
	}
	say := s.queue[0]
	s.queue = s.queue[1:]
	return say
}

// messageLimit is the max_message_chars of the legal action body plays, 0 when it may carry none.
func messageLimit(legal []games.Action, body json.RawMessage) int {
	var b struct {
		Action string `json:"action"`
	}
	if json.Unmarshal(body, &b) != nil {
		return 0
	}
	for _, a := range legal {
		if a.Name != b.Action || len(a.Bounds) == 0 {
			continue
		}
		var bounds struct {
			Max int `json:"max_message_chars"`
		}
		if json.Unmarshal(a.Bounds, &bounds) == nil {
			return bounds.Max
		}
	}
	return 0
}

// heard takes a public message line: a question to the bartender is queued with its answer.
func (st *state) heard(m *match, ev games.Event) {
	if ev.Type != "message" || !m.hasStaff() {
		return
	}
	var l struct {
		Seat int    `json:"seat"`
		Text string `json:"text"`
	}
	if json.Unmarshal(ev.Payload, &l) != nil || l.Seat < 0 || l.Seat >= len(m.Seats) || m.Seats[l.Seat].Staff {
		return
	}
	text := strings.TrimSpace(l.Text)
	if !strings.HasSuffix(text, "?") && !strings.Contains(strings.ToLower(text), strings.ToLower(staffName)) {
		return
	}
	if len(m.staff.queue) >= 3 {
		return // a bartender answers a few at a time
	}
	who := ""
	if l.Seat < len(m.players) {
		who = m.players[l.Seat].DisplayName + ": "
	}
	m.staff.queue = append(m.staff.queue, who+answerFrom(st.r.games[m.Game], text))
}

func (m *match) hasStaff() bool {
	for _, s := range m.Seats {
		if s.Staff {
			return true
		}
	}
	return false
}

// Answer is what the bartender says to question about game in table talk: the paragraph of the
// game's rules text (Game.Rules) sharing the most words with it, or where the rules are when none
// does ("" for a game the room does not play). It is the same answer a table hears, before the
// cut to the move's message limit.
func (r *Room) Answer(game, question string) string {
	g, ok := r.games[game]
	if !ok {
		return ""
	}
	return answerFrom(g, question)
}

var wordRE = regexp.MustCompile(`[\p{L}\p{N}_]+`)

// answerFrom is the paragraph of the game's rules text sharing the most words (of four letters
// or more) with the question, a heading's words counting for the paragraph under it; with none in
// common, where the rules are.
func answerFrom(g Game, question string) string {
	asked := map[string]bool{}
	for _, w := range wordRE.FindAllString(strings.ToLower(question), -1) {
		if utf8.RuneCountInString(w) >= 4 && w != strings.ToLower(staffName) {
			asked[w] = true
		}
	}
	best, score, heading := "", 0, ""
	for _, para := range strings.Split(g.Rules, "\n\n") {
		para = strings.TrimSpace(para)
		if strings.HasPrefix(para, "#") && !strings.Contains(para, "\n") {
			heading = strings.TrimLeft(para, "# ") // a heading counts for the paragraph under it
			continue
		}
		para = strings.Join(strings.Fields(strings.TrimLeft(para, "*- ")), " ")
		n := 0
		seen := map[string]bool{}
		words := wordRE.FindAllString(strings.ToLower(heading+" "+para), -1)
		heading = ""
		for _, w := range words {
			if asked[w] && !seen[w] {
				seen[w] = true
				n++
			}
		}
		if n > score {
			best, score = para, n
		}
	}
	if best == "" {
		name := g.Name
		if name == "" {
			name = g.ID
		}
		return "that one is not in the rules of " + name + "; they are at /rules/" + g.ID + "."
	}
	return best
}

// clipText cuts s to at most limit code points, at a word where it can, with "…" when cut.
func clipText(s string, limit int) string {
	if utf8.RuneCountInString(s) <= limit {
		return s
	}
	r := []rune(s)[:limit-1]
	cut := string(r)
	if i := strings.LastIndexByte(cut, ' '); i > len(cut)/2 {
		cut = cut[:i]
	}
	return cut + "…"
}
