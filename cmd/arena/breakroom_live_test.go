package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"reflect"
	"strings"
	"testing"
	"time"

	"arena/transport/breakroom/live"
	"arena/transport/breakroom/openapi/openapitest"
)

// sseEvent is one Server-Sent Events block: its id, event name ("" is message) and data.
type sseEvent struct {
	ID, Event, Data string
}

// sseStream is an open SSE response read block by block.
type sseStream struct {
	resp *http.Response
	rd   *bufio.Reader
}

// openSSE opens GET path as an event stream; a refusal is returned with its status and JSON
// body (checked against the OpenAPI document), the stream nil.
func openSSE(t *testing.T, srv *httptest.Server, path string) (*sseStream, int, map[string]any) {
	t.Helper()
	req, _ := http.NewRequest("GET", srv.URL+path, nil)
	req.Header.Set("Accept", "text/event-stream")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	if resp.StatusCode != 200 {
		raw, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		openapitest.Check(t, req, resp.StatusCode, resp.Header, raw)
		var m map[string]any
		_ = json.Unmarshal(raw, &m)
		return nil, resp.StatusCode, m
	}
	if ct := resp.Header.Get("Content-Type"); ct != "text/event-stream" {
		t.Fatalf("GET %s: content type %q", path, ct)
	}
	openapitest.Check(t, req, resp.StatusCode, resp.Header, nil)
	s := &sseStream{resp: resp, rd: bufio.NewReader(resp.Body)}
	t.Cleanup(s.close)
	return s, 200, nil
}

func (s *sseStream) close() { s.resp.Body.Close() }

// next is the stream's next block (comments skipped); io.EOF once the server closed it.
func (s *sseStream) next() (sseEvent, error) {
	var ev sseEvent
	has := false
	for {
		line, err := s.rd.ReadString('\n')
		if err != nil {
			return ev, err
		}
		line = strings.TrimSuffix(line, "\n")
		switch {
		case line == "":
			if has {
				return ev, nil
			}
		case strings.HasPrefix(line, ":"):
		case strings.HasPrefix(line, "id: "):
			ev.ID, has = line[4:], true
		case strings.HasPrefix(line, "event: "):
			ev.Event, has = line[7:], true
		case strings.HasPrefix(line, "data: "):
			if ev.Data != "" {
				ev.Data += "\n"
			}
			ev.Data, has = ev.Data+line[6:], true
		}
	}
}

// follow reads a match stream to its close: its blocks in order, in a goroutine; the channel
// brings them all once the server closed the stream.
func follow(s *sseStream) <-chan []sseEvent {
	out := make(chan []sseEvent, 1)
	go func() {
		var evs []sseEvent
		for {
			ev, err := s.next()
			if err != nil {
				out <- evs
				return
			}
			evs = append(evs, ev)
		}
	}()
	return out
}

// withoutSeq is a log line's members but seq, and its seq.
func withoutSeq(t *testing.T, line string) (map[string]any, float64) {
	t.Helper()
	var m map[string]any
	if err := json.Unmarshal([]byte(line), &m); err != nil {
		t.Fatalf("line %q: %v", line, err)
	}
	seq, _ := m["seq"].(float64)
	delete(m, "seq")
	return m, seq
}

// liveFigures is GET /v0/live's body.
type liveFigures struct {
	V          int `json:"v"`
	Waiting    int `json:"waiting"`
	Playing    int `json:"playing"`
	House      int `json:"house"`
	Tables     int `json:"tables"`
	Games      []map[string]any
	LiveTables []struct {
		MatchID   string `json:"match_id"`
		Game      string `json:"game"`
		Tier      string `json:"tier"`
		Agents    int    `json:"agents"`
		House     int    `json:"house"`
		StartedAt string `json:"started_at"`
	} `json:"live_tables"`
}

// TestBreakroomLiveFollowsTheMatch: on the real product, three agents play a Dilemma match over
// HTTP while spectators watch. /v0/live/stream opens with the figures and pushes a new snapshot
// when the agents queue and when their table opens (live_tables names it: game, tier, 3 agents,
// no house seat, started_at). While it runs, 50 streams of /r/{id}/live from one address are
// open and the 51st is 429 rate_limited; a plain stream, a narrated one (?narrate=1) and one
// whose reader never reads follow the match. The plain stream's lines are the public log
// (/r/{id}.jsonl without the private lines the end reveals), seq renumbered 0, 1, 2, … over the
// public lines, then event end; the narrated stream carries the same lines with the game's
// words; the stalled stream does not hold the match up (it is played out) and is closed by the
// end; no stream carries a private line, a chosen action or the seed before match_end. After
// the end the match is 404 not_live, an unknown match 404 unknown_match, and no stream is open.
func TestBreakroomLiveFollowsTheMatch(t *testing.T) {
	srv, _, lv := liveSite(t)

	// The figures' stream: the first snapshot at once.
	ls, st, _ := openSSE(t, srv, "/v0/live/stream")
	if st != 200 {
		t.Fatalf("/v0/live/stream: %d", st)
	}
	readFig := func() liveFigures {
		t.Helper()
		ev, err := ls.next()
		if err != nil || ev.Event != "live" {
			t.Fatalf("/v0/live/stream: %+v %v", ev, err)
		}
		var f liveFigures
		if err := json.Unmarshal([]byte(ev.Data), &f); err != nil {
			t.Fatal(err)
		}
		return f
	}
	if f := readFig(); f.Waiting != 0 || f.Tables != 0 || len(f.LiveTables) != 0 || len(f.Games) != 1 || f.Games[0]["id"] != "dilemma" {
		t.Fatalf("the first snapshot: %+v", f)
	}
	_, lj := brHTTP(t, srv, "GET", "/v0/live", "", "")
	if lj["v"] != 0.0 || lj["tables"] != 0.0 {
		t.Fatalf("/v0/live: %v", lj)
	}

	keys := []brKey{newBrKey(31), newBrKey(32), newBrKey(33)}
	tokens := make([]string, 3)
	for i, k := range keys {
		_, ch := brHTTP(t, srv, "GET", "/v0/challenge", "", "")
		nonce, _ := ch["nonce"].(string)
		body, _ := json.Marshal(map[string]any{"game": "dilemma", "author_pubkey": k.pub, "nonce": nonce, "sig": k.sign(nonce),
			"agent_name": fmt.Sprintf("Watched%d", i)})
		st, q := brHTTP(t, srv, "POST", "/v0/join", "", string(body))
		if st != 200 || q["type"] != "queued" {
			t.Fatalf("join %d: %d %v", i, st, q)
		}
		tokens[i] = q["token"].(string)
		if i == 0 {
			// Pushed: the agent waiting (read until the snapshot has it).
			for f := readFig(); f.Waiting != 1; f = readFig() {
			}
		}
	}
	match := ""
	for _, tok := range tokens {
		for match == "" {
			_, m := brHTTP(t, srv, "GET", "/v0/join/"+tok+"?wait=2000", "", "")
			if m["type"] == "seated" {
				match = m["match_id"].(string)
			}
		}
	}
	// Pushed: the table (each change is a new snapshot; read until the table is there).
	for {
		f := readFig()
		if f.Tables == 1 {
			lt := f.LiveTables
			if len(lt) != 1 || lt[0].MatchID != match || lt[0].Game != "dilemma" || lt[0].Tier == "" || lt[0].Agents != 3 ||
				lt[0].House != 0 || f.Playing != 3 || f.House != 0 || f.Waiting != 0 {
				t.Fatalf("the snapshot with the table: %+v", f)
			}
			if _, err := time.Parse(time.RFC3339Nano, lt[0].StartedAt); err != nil {
				t.Fatalf("started_at %q", lt[0].StartedAt)
			}
			break
		}
	}
	ls.close()

	// 50 streams from this address, then the 51st is refused.
	var many []*sseStream
	for i := range live.MaxPerAddr - 1 {
		s, st, body := openSSE(t, srv, "/r/"+match+"/live")
		if st != 200 {
			t.Fatalf("stream %d: %d %v", i+1, st, body)
		}
		many = append(many, s)
	}
	plain, _, _ := openSSE(t, srv, "/r/"+match+"/live")
	if _, st, body := openSSE(t, srv, "/r/"+match+"/live"); st != 429 || body["code"] != "rate_limited" {
		t.Fatalf("the 51st stream: %d %v", st, body)
	}
	for _, s := range many {
		s.close()
	}
	// Room again: the narrated stream, and one that is never read (a raw connection).
	var narrated *sseStream
	for narrated == nil {
		s, st, _ := openSSE(t, srv, "/r/"+match+"/live?narrate=1")
		if st == 200 {
			narrated = s
		} else if st != 429 {
			t.Fatalf("the narrated stream: %d", st)
		}
	}
	stalled, err := net.Dial("tcp", srv.Listener.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	defer stalled.Close()
	fmt.Fprintf(stalled, "GET /r/%s/live HTTP/1.1\r\nHost: x\r\nAccept: text/event-stream\r\n\r\n", match)
	plainAll, narrAll := follow(plain), follow(narrated)

	ended, moves := 0, 0
	deadline := time.Now().Add(90 * time.Second)
	for ended < 3 {
		if time.Now().After(deadline) {
			t.Fatal("the match did not end")
		}
		ended = 0
		for i, tok := range tokens {
			_, s := brHTTP(t, srv, "GET", "/v0/matches/"+match+"/state", tok, "")
			switch s["status"] {
			case "ended":
				ended++
			case "your_turn":
				action := []string{"cooperate", "defect"}[(i+moves)%2]
				mv, _ := json.Marshal(map[string]any{"round": s["round"], "turn": s["turn"], "action": action, "message": "hi " + action})
				if st, r := brHTTP(t, srv, "POST", "/v0/matches/"+match+"/move", tok, string(mv)); st != 200 {
					t.Fatalf("move: %d %v", st, r)
				}
				moves++
			}
		}
	}
	var pl, nl []sseEvent
	select {
	case pl = <-plainAll:
	case <-time.After(30 * time.Second):
		t.Fatal("the plain stream did not close after the end")
	}
	select {
	case nl = <-narrAll:
	case <-time.After(30 * time.Second):
		t.Fatal("the narrated stream did not close after the end")
	}

	// The public log, without the private lines revealed at the end.
	_, _, log := getRaw(t, srv, "/r/"+match+".jsonl", "")
	var pub []string
	var seed string
	for _, l := range strings.Split(strings.TrimSpace(log), "\n") {
		var m struct{ Type, Seed string }
		_ = json.Unmarshal([]byte(l), &m)
		if m.Type == "match_end" {
			seed = m.Seed
		}
		if !strings.HasSuffix(m.Type, "_private") {
			pub = append(pub, l)
		}
	}
	if len(seed) < 16 || len(pub) < 5 {
		t.Fatalf("the log: seed %q, %d public lines", seed, len(pub))
	}
	if len(pl) != len(pub)+1 || pl[len(pl)-1].Event != "end" || len(nl) != len(pl) || nl[len(nl)-1].Event != "end" {
		t.Fatalf("%d public lines; the plain stream %d blocks (last %+v), the narrated %d", len(pub), len(pl), pl[len(pl)-1], len(nl))
	}
	var end struct{ MatchID, Type string }
	if err := json.Unmarshal([]byte(pl[len(pl)-1].Data), &end); err != nil || end.Type != "match_end" ||
		!strings.Contains(pl[len(pl)-1].Data, `"match_id":"`+match+`"`) {
		t.Fatalf("event end: %q", pl[len(pl)-1].Data)
	}
	for i, want := range pub {
		w, _ := withoutSeq(t, want)
		got, seq := withoutSeq(t, pl[i].Data)
		if pl[i].Event != "" || seq != float64(i) || pl[i].ID != fmt.Sprint(i) || !reflect.DeepEqual(got, w) {
			t.Fatalf("stream line %d (event %q, id %q): %s\nthe log's public line: %s", i, pl[i].Event, pl[i].ID, pl[i].Data, want)
		}
		var n struct {
			E json.RawMessage `json:"e"`
			N []string        `json:"n"`
		}
		if nl[i].Event != "line" || json.Unmarshal([]byte(nl[i].Data), &n) != nil || string(n.E) != pl[i].Data ||
			n.N == nil || len(n.N) > 1 || len(n.N) == 1 && n.N[0] == "" {
			t.Fatalf("narrated line %d: %+v", i, nl[i])
		}
		if i == 0 && (len(n.N) != 1 || !strings.Contains(n.N[0], "The Dilemma begins with 3 players: Watched")) {
			t.Fatalf("match_start in words: %q", n.N[0])
		}
	}
	for _, blocks := range [][]sseEvent{pl, nl} {
		for _, b := range blocks {
			if strings.Contains(b.Data, `"type":"match_end"`) {
				break
			}
			for _, secret := range []string{seed, `"action_private"`, `"iteration_private"`, `"timeout_private"`, " chose to ", `"ranking"`,
				"The match is over"} {
				if strings.Contains(b.Data, secret) {
					t.Fatalf("a stream held %q before match_end: %s", secret, b.Data)
				}
			}
		}
	}
	// The stalled stream did not hold the match up; it is closed with the end.
	for lv.Open() != 0 {
		if time.Now().After(deadline) {
			t.Fatalf("%d streams still open after the end", lv.Open())
		}
		time.Sleep(10 * time.Millisecond)
	}
	if _, st, body := openSSE(t, srv, "/r/"+match+"/live"); st != 404 || body["code"] != "not_live" {
		t.Fatalf("the ended match's stream: %d %v", st, body)
	}
	if _, st, body := openSSE(t, srv, "/r/m_nosuchmatch/live"); st != 404 || body["code"] != "unknown_match" {
		t.Fatalf("an unknown match's stream: %d %v", st, body)
	}
	_, lj = brHTTP(t, srv, "GET", "/v0/live", "", "")
	if lj["tables"] != 0.0 || lj["playing"] != 0.0 {
		t.Fatalf("/v0/live after the end: %v", lj)
	}
}
