package pages

import (
	"encoding/json"
	"fmt"
	"net/http"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/labstack/echo/v4"

	"arena/games"
	"arena/transport/door"
)

// The public event feed of a round (§15) as Server-Sent Events, and the words each event is
// shown in. Only events whose visibility is "public" ever leave here: sealed events (private
// lines, sealed amounts, the mole's seat and task) stay out even after the reveal, whose own
// public event (round.revealed) then carries what is revealed.
//
// The feed reads the round's committed transcript every Options.Poll: the transcript is the
// order of record, so the page shows events exactly as committed, and a reconnect resumes from
// Last-Event-ID (the seq of the last event received) with nothing lost or repeated.
//
//	id: <seq>
//	event: ev
//	data: {"seq","turn","phase","at","type","text"}      one per public event, text in words
//
//	event: end
//	data: {"reason":"revealed"|"later"}                   the round was revealed / reconnect later

// feedLine is one public event as the feed and the page show it.
type feedLine struct {
	Seq   int64  `json:"seq"`
	Turn  int    `json:"turn"`
	Phase string `json:"phase"`
	At    string `json:"at"`
	Type  string `json:"type"`
	Text  string `json:"text"`
}

func publicOnly(evs []games.Event) []games.Event {
	out := make([]games.Event, 0, len(evs))
	for _, e := range evs {
		if e.Visibility == "public" {
			out = append(out, e)
		}
	}
	return out
}

// seatNames reads the display names from the public seat.taken events.
func seatNames(evs []games.Event) map[int]string {
	names := map[int]string{}
	for _, e := range evs {
		if e.Type != "seat.taken" {
			continue
		}
		var p struct {
			Seat int    `json:"seat"`
			Name string `json:"name"`
		}
		if json.Unmarshal(e.Payload, &p) == nil && p.Seat > 0 {
			names[p.Seat] = p.Name
		}
	}
	return names
}

func who(names map[int]string, seat int) string {
	if n := names[seat]; n != "" {
		return fmt.Sprintf("seat %d (%s)", seat, n)
	}
	return fmt.Sprintf("seat %d", seat)
}

// describe puts one public event in words. Unknown types show their type alone: a payload the
// page does not know is not echoed (it shows only what it understands).
func describe(e games.Event, names map[int]string) string {
	var p map[string]json.RawMessage
	_ = json.Unmarshal(e.Payload, &p)
	num := func(k string) int {
		var n int
		_ = json.Unmarshal(p[k], &n)
		return n
	}
	str := func(k string) string {
		var s string
		_ = json.Unmarshal(p[k], &s)
		return s
	}
	switch e.Type {
	case "round.created":
		var f struct {
			Name  string `json:"name"`
			Seats int    `json:"seats"`
			Turns int    `json:"turns"`
		}
		_ = json.Unmarshal(p["format"], &f)
		return fmt.Sprintf("Round %s opened: %s, %d seats, %d turns.", e.Round, f.Name, f.Seats, f.Turns)
	case "seat.taken":
		kind := str("kind")
		if kind == "house" {
			kind = "house agent"
		}
		return fmt.Sprintf("%s took seat %d (%s).", str("name"), num("seat"), kind)
	case "scouting.started":
		return fmt.Sprintf("Scouting. The mole's task this round is of the %q kind.", str("task_category"))
	case "turn.started":
		return fmt.Sprintf("Turn %d of %d.", num("turn"), num("of"))
	case "phase.started":
		return fmt.Sprintf("Phase: %s.", str("phase"))
	case "exchange.started":
		return fmt.Sprintf("Talk, exchange %d of %d.", num("exchange"), num("of"))
	case "message.public":
		return fmt.Sprintf("%s says: %s", who(names, num("from")), str("text"))
	case "talking":
		var parties []int
		_ = json.Unmarshal(p["parties"], &parties)
		if len(parties) == 2 {
			return fmt.Sprintf("%s and %s talk in private.", who(names, parties[0]), who(names, parties[1]))
		}
		if from, to := num("from"), num("to"); from > 0 && to > 0 {
			return fmt.Sprintf("%s and %s talk in private.", who(names, from), who(names, to))
		}
		return "Two seats talk in private."
	case "commitment.sealed":
		// The public half: parties and due turn; amount and condition stay sealed (§15).
		return fmt.Sprintf("%s sealed a promise to %s, due turn %d.", who(names, num("payer")), who(names, num("payee")), num("due"))
	case "commitment.settled":
		return fmt.Sprintf("A promise was settled: %s.", str("outcome"))
	case "mole.rung":
		return fmt.Sprintf("A bell: the mole reached rung %d.", num("rung"))
	case "agent.eliminated":
		return fmt.Sprintf("%s is out.", who(names, num("seat")))
	case "agent.dark":
		var dark bool
		_ = json.Unmarshal(p["dark"], &dark)
		if dark {
			return fmt.Sprintf("%s went dark.", who(names, num("seat")))
		}
		return fmt.Sprintf("%s is back.", who(names, num("seat")))
	case "agent.scripted":
		return fmt.Sprintf("%s answered from its fallback policy.", who(names, num("seat")))
	case "accusation.resolved":
		var ok bool
		_ = json.Unmarshal(p["correct"], &ok)
		verdict := "wrong"
		if ok {
			verdict = "right"
		}
		return fmt.Sprintf("%s accused %s: %s.", who(names, num("seat")), who(names, num("on")), verdict)
	case "bounty.paid":
		return "The bounty was paid."
	case "round.settled":
		return "The round is settled."
	case "round.revealed":
		return "The round is revealed."
	}
	if strings.HasPrefix(e.Type, "anchor.") || e.Type == "transcript.anchored" {
		return "Anchored on chain (" + e.Type + ")."
	}
	return e.Type
}

func lineOf(e games.Event, names map[int]string) feedLine {
	return feedLine{Seq: e.Seq, Turn: e.Turn, Phase: e.Phase, At: e.At, Type: e.Type, Text: describe(e, names)}
}

// roundView is what the round page renders: the public lines so far and, once revealed, the
// reveal (§11.4) as its public event carries it.
type roundView struct {
	Round    string
	Lines    []feedLine
	Seats    []seatLine
	LastSeq  int64
	Revealed bool
	Reveal   *revealView
}

type seatLine struct {
	Seat int
	Name string
}

type revealView struct {
	Mole     int    `json:"mole"`
	MoleName string `json:"-"`
	Task     struct {
		Kind     string `json:"kind"`
		Category string `json:"category"`
		Named    []int  `json:"named"`
	} `json:"task"`
	Rungs     []int `json:"rungs"`
	Standings []struct {
		Rank   int    `json:"rank"`
		Seat   int    `json:"seat"`
		Name   string `json:"name"`
		Payout int64  `json:"payout"`
		Net    int64  `json:"net"`
	} `json:"standings"`
	Moments []struct {
		Turn int    `json:"turn"`
		What string `json:"what"`
	} `json:"moments"`
}

func newRoundView(round string, pub []games.Event) roundView {
	names := seatNames(pub)
	v := roundView{Round: round, Lines: make([]feedLine, 0, len(pub))}
	for _, e := range pub {
		v.Lines = append(v.Lines, lineOf(e, names))
		v.LastSeq = e.Seq
		if e.Type == "round.revealed" {
			var r revealView
			if json.Unmarshal(e.Payload, &r) == nil {
				r.MoleName = names[r.Mole]
				v.Reveal = &r
			}
			v.Revealed = true
		}
	}
	for s, n := range names {
		v.Seats = append(v.Seats, seatLine{Seat: s, Name: n})
	}
	sort.Slice(v.Seats, func(i, j int) bool { return v.Seats[i].Seat < v.Seats[j].Seat })
	return v
}

// feed serves GET /v1/rounds/{round}/events.
func (p *pages) feed(c echo.Context) error {
	round := c.Param("round")
	if !roundShape.MatchString(round) {
		return door.Refuse(door.CodeBadRequest, "round must be T-<n>")
	}
	for k := range c.QueryParams() {
		if k != "after" {
			return door.Refuse(door.CodeBadRequest, "unknown query parameter "+strconv.Quote(k))
		}
	}
	var after int64
	if s := c.Request().Header.Get("Last-Event-ID"); s != "" {
		after, _ = strconv.ParseInt(s, 10, 64)
	} else if s := c.QueryParam("after"); s != "" {
		n, err := strconv.ParseInt(s, 10, 64)
		if err != nil || n < 0 {
			return door.Refuse(door.CodeBadRequest, "after must be a seq (an integer ≥ 0)")
		}
		after = n
	}
	read := func() ([]games.Event, error) {
		ctx, cancel := p.ctx(c)
		defer cancel()
		return p.cache.public(ctx, p.o.Source, round, p.o.Poll) // feed_cache.go: shared by every viewer
	}
	evs, err := read()
	if err != nil {
		return err // unknown_round (404) and the rest, as JSON, before the stream starts
	}

	w := c.Response()
	h := w.Header()
	h.Set("Content-Type", "text/event-stream; charset=utf-8")
	h.Set("Cache-Control", "no-store")
	h.Set("X-Accel-Buffering", "no")
	w.WriteHeader(http.StatusOK)
	rc := http.NewResponseController(w)
	write := func(s string) error {
		// Each write has its own deadline: the server's WriteTimeout would cut a long feed.
		_ = rc.SetWriteDeadline(time.Now().Add(30 * time.Second))
		if _, err := w.Write([]byte(s)); err != nil {
			return err
		}
		return rc.Flush()
	}
	if err := write("retry: 2000\n\n"); err != nil {
		return nil
	}
	reqCtx := c.Request().Context()
	poll := time.NewTicker(p.o.Poll)
	defer poll.Stop()
	beat := time.NewTicker(p.o.Heartbeat)
	defer beat.Stop()
	end := time.NewTimer(p.o.MaxFeed)
	defer end.Stop()
	for {
		names := seatNames(evs)
		for _, e := range evs {
			if e.Seq <= after {
				continue
			}
			b, _ := json.Marshal(lineOf(e, names)) // strings and ints: cannot fail
			if err := write("id: " + strconv.FormatInt(e.Seq, 10) + "\nevent: ev\ndata: " + string(b) + "\n\n"); err != nil {
				return nil
			}
			after = e.Seq
			if e.Type == "round.revealed" {
				_ = write("event: end\ndata: {\"reason\":\"revealed\"}\n\n")
				return nil
			}
		}
		select {
		case <-reqCtx.Done():
			return nil
		case <-p.o.Drain:
			_ = write("event: end\ndata: {\"reason\":\"later\"}\n\n")
			return nil
		case <-end.C:
			_ = write("event: end\ndata: {\"reason\":\"later\"}\n\n")
			return nil
		case <-beat.C:
			if err := write(": beat\n\n"); err != nil {
				return nil
			}
		case <-poll.C:
			if evs, err = read(); err != nil {
				p.o.Logger.Warn("feed: transcript unreadable", "round", round, "err", err)
				evs = nil
			}
		}
	}
}
