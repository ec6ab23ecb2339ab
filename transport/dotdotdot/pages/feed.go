package pages

import (
	"encoding/json"
	"net/http"
	"sort"
	"strconv"
	"time"

	"github.com/labstack/echo/v4"

	"arena/games"
	"arena/transport/door"
)

// The public event feed of a round (§15) as Server-Sent Events, each event in the game's words
// (games.Narrator). Only events whose visibility is "public" ever leave here: sealed events (private
// lines, sealed amounts, the mole's seat and task) stay out even after the reveal, whose own
// public event (the game's Final one: Blitz's round.revealed) then carries what is revealed.
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
//	data: {"reason":"revealed"|"abandoned"|"later"}       the round was revealed / abandoned (the
//	                                                      game's Final event, games.End*) / reconnect later

// feedLine is one public event as the feed and the page show it.
type feedLine struct {
	Seq   int64  `json:"seq"`
	Turn  int    `json:"turn"`
	Phase string `json:"phase"`
	At    string `json:"at"`
	Type  string `json:"type"`
	Text  string `json:"text"`
}

// publicOnly is what a spectator reads of a transcript before its end (games.Redact): the feed
// and the page show public lines only, even after the reveal.
func publicOnly(evs []games.Event) []games.Event { return games.Redact(evs, 0, false) }

// plainNarrator is the words of a game with no Narrator: each event as its type.
type plainNarrator struct{}

func (plainNarrator) Names([]games.Event) map[int]string             { return map[int]string{} }
func (plainNarrator) Narrate(e games.Event, _ map[int]string) string { return e.Type }
func (plainNarrator) Final(games.Event) string                       { return "" }
func (plainNarrator) RevealPanel([]games.Event, map[int]string) (games.Panel, bool) {
	return games.Panel{}, false
}

func lineOf(n games.Narrator, e games.Event, names map[int]string) feedLine {
	return feedLine{Seq: e.Seq, Turn: e.Turn, Phase: e.Phase, At: e.At, Type: e.Type, Text: n.Narrate(e, names)}
}

// roundView is what the round page renders: the public lines so far, how the round ended (End:
// games.EndRevealed or games.EndAbandoned, the game's Final event; "" while it is live) and, once
// ended, the reveal card (§11.4) in the game's words (games.Narrator.RevealPanel), when the game
// lays one out.
type roundView struct {
	Round   string
	Lines   []feedLine
	Seats   []seatLine
	LastSeq int64
	End     string
	Reveal  *games.Panel
}

type seatLine struct {
	Seat int
	Name string
}

func newRoundView(n games.Narrator, round string, pub []games.Event) roundView {
	names := n.Names(pub)
	v := roundView{Round: round, Lines: make([]feedLine, 0, len(pub))}
	for _, e := range pub {
		v.Lines = append(v.Lines, lineOf(n, e, names))
		v.LastSeq = e.Seq
		if end := n.Final(e); end != "" && v.End == "" {
			v.End = end
		}
	}
	if v.End != "" {
		if p, ok := n.RevealPanel(pub, names); ok {
			v.Reveal = &p
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
		names := p.o.Narrator.Names(evs)
		for _, e := range evs {
			if e.Seq <= after {
				continue
			}
			b, _ := json.Marshal(lineOf(p.o.Narrator, e, names)) // strings and ints: cannot fail
			if err := write("id: " + strconv.FormatInt(e.Seq, 10) + "\nevent: ev\ndata: " + string(b) + "\n\n"); err != nil {
				return nil
			}
			after = e.Seq
			if end := p.o.Narrator.Final(e); end != "" {
				b, _ := json.Marshal(map[string]string{"reason": end}) // a string: cannot fail
				_ = write("event: end\ndata: " + string(b) + "\n\n")
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
