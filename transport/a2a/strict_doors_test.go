package a2a

import (
	"bytes"
	"context"
	"crypto/ed25519"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	"arena/actors"
	"arena/actors/dotdotdot"
	"arena/games"
	"arena/games/blitz"
	"arena/games/canon"
	"arena/storage"
	"arena/storage/storagetest"
	dotsite "arena/transport/dotdotdot/site"
)

// strictCase is one hostile piece of an answer, as each door's sender writes it: a walk-in's
// intent or line over POST /v1/walkin/answer, a BYO agent's signed commitment or line in its
// A2A data part. want is what both doors must make of it: "answer:<code>" for the whole answer
// refused, "item:<code>" for the piece refused and the rest taken.
type strictCase struct {
	name   string
	phase  string // "talk" (exchange 1 of turn 1) or "commit" (turn 1)
	walkin string // the piece in the walk-in's answer: a message or an intent
	a2a    func(c commitFields) string
	want   string
}

// commitFields are what a BYO agent's commitment names.
type commitFields struct {
	round, payer, payee string
	sign                func(unsigned []byte) string
}

// signedWith is a §7.1 commitment from raw members (no sig), signed over the JCS of the bytes
// as written (what the arena's old path, which re-encoded the data part, would have checked);
// members JCS refuses get a signature of zeros.
func (c commitFields) signedWith(members string) string {
	raw := "{" + members + "}"
	unsigned, err := canon.CanonicalWithout([]byte(raw), "sig")
	sig := "ed25519:" + strings.Repeat("00", 64)
	if err == nil {
		sig = c.sign(unsigned)
	}
	return "{" + members + `,"sig":"` + sig + `"}`
}

func (c commitFields) base(amount string) string {
	return fmt.Sprintf(`"v":1,"round":%q,"turn":1,"seq":1,"payer":%q,"payee":%q,"amount":%s,"condition":{"always":true},"due":1`, c.round, c.payer, c.payee, amount)
}

var strictCases = []strictCase{
	{name: "amount in exponent form", phase: "commit",
		walkin: `{"payee":2,"amount":1e6,"due":1,"condition":{"always":true}}`,
		a2a:    func(c commitFields) string { return c.signedWith(c.base("1e6")) },
		want:   "item:bad_commitment"},
	{name: "amount with a fraction", phase: "commit",
		walkin: `{"payee":2,"amount":2000000.0,"due":1,"condition":{"always":true}}`,
		a2a:    func(c commitFields) string { return c.signedWith(c.base("2000000.0")) },
		want:   "item:bad_commitment"},
	{name: "amount given twice", phase: "commit",
		walkin: `{"payee":2,"amount":1000000,"amount":90000000,"due":1,"condition":{"always":true}}`,
		a2a:    func(c commitFields) string { return c.signedWith(`"amount":1000000,` + c.base("90000000")) },
		want:   "answer:bad_request"},
	{name: "lone surrogate in a line", phase: "talk",
		walkin: `{"type":"public","text":"hi \ud800"}`,
		a2a:    func(commitFields) string { return `{"type":"public","text":"hi \ud800"}` },
		want:   "answer:bad_request"},
	{name: "invalid UTF-8 in a line", phase: "talk",
		walkin: "{\"type\":\"public\",\"text\":\"hi \xff\"}",
		a2a:    func(commitFields) string { return "{\"type\":\"public\",\"text\":\"hi \xff\"}" },
		want:   "answer:bad_request"},
	{name: "integer past 2 to the 53", phase: "commit",
		walkin: `{"payee":2,"amount":9007199254740993,"due":1,"condition":{"always":true}}`,
		a2a:    func(c commitFields) string { return c.signedWith(c.base("9007199254740993")) },
		want:   "answer:bad_request"},
	{name: "a sound line", phase: "talk",
		walkin: `{"type":"public","text":"hello table"}`,
		a2a:    func(commitFields) string { return `{"type":"public","text":"hello table"}` },
		want:   "taken"},
}

// One table of hostile answers, two doors: the walk-in door (POST /v1/walkin/answer) and the
// A2A door (the agent's data part, read from the HTTP body as sent, not as a2a-go re-encodes
// it) refuse the same pieces with the same code, the whole answer or the piece alone; the A2A
// agent hears it in its next envelope (answer.refused, commitment.rejected). Before the A2A
// door read the raw bytes, 1e6 and 2000000.0 were sealed as 1000000 and 2000000, the second of
// two amounts won, and a lone surrogate or invalid UTF-8 became U+FFFD.
func TestStrictAnswersOnBothDoors(t *testing.T) {
	for _, tc := range strictCases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			w := walkinOutcome(t, tc)
			a := a2aOutcome(t, tc)
			if w != tc.want || a != tc.want {
				t.Fatalf("walk-in door: %s; A2A door: %s; want %s on both", w, a, tc.want)
			}
		})
	}
}

func blitzArena(t *testing.T, agents dotdotdot.AgentCaller, keys dotdotdot.KeyResolver, done chan<- string) *dotdotdot.Arena {
	t.Helper()
	st, err := storage.Open(storagetest.Path(t), storage.Options{NoSync: true})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	br, err := games.NewBracket(blitz.NewEngine(blitz.DefaultFees()))
	if err != nil {
		t.Fatal(err)
	}
	a, err := dotdotdot.Start(actors.Options{DB: st, Bracket: br, InstanceKey: ed25519.NewKeyFromSeed(make([]byte, 32)),
		InstanceAgent: "ccd:4221332d34e1694168c2a0c0b3fd0f27/cis-2:ArenaInstance",
		OnStatus: func(_, s string) {
			if done != nil && (s == actors.StatusFinished || s == actors.StatusFailed) {
				done <- s
			}
		}}, dotdotdot.Options{Agents: agents, Resolver: keys})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { a.Shutdown(context.Background()) })
	return a
}

// walkinOutcome plays a walk-in at a Short Practice table over the HTTP door to the case's
// move and posts the piece there.
func walkinOutcome(t *testing.T, tc strictCase) string {
	t.Helper()
	a := blitzArena(t, nil, nil, nil)
	e, err := dotsite.New(dotsite.Options{Desk: a})
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(e)
	t.Cleanup(srv.Close)
	do := func(method, path, tok, body string) (int, map[string]any, []byte) {
		req, _ := http.NewRequest(method, srv.URL+path, strings.NewReader(body))
		req.Header.Set("Content-Type", "application/json")
		if tok != "" {
			req.Header.Set("X-Walkin", tok)
		}
		resp, err := srv.Client().Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		raw, _ := io.ReadAll(resp.Body)
		var m map[string]any
		_ = json.Unmarshal(raw, &m)
		return resp.StatusCode, m, raw
	}
	_, reg, _ := do("POST", "/v1/walkin", "", `{"name":"Strict Walker"}`)
	tok, _ := reg["token"].(string)
	if st, _, raw := do("POST", "/v1/walkin/join", tok, `{"table":"practice","format":"short"}`); st != 200 {
		t.Fatalf("join: %d %s", st, raw)
	}
	for range 40 {
		_, nx, raw := do("GET", "/v1/walkin/next?wait=10", tok, "")
		phase, _ := nx["phase"].(string)
		if phase == "" {
			continue
		}
		echo := fmt.Sprintf(`"round":%q,"turn":%v,"phase":%q`, nx["round"], nx["turn"], phase)
		if x, ok := nx["exchange"]; ok {
			echo += fmt.Sprintf(`,"exchange":%v`, x)
		}
		if phase != tc.phase {
			if st, _, r := do("POST", "/v1/walkin/answer", tok, "{"+echo+"}"); st != 200 {
				t.Fatalf("pass %s: %d %s (envelope %s)", phase, st, r, raw)
			}
			continue
		}
		member := "messages"
		if phase == "commit" {
			member = "commitments"
		}
		st, body, r := do("POST", "/v1/walkin/answer", tok, "{"+echo+`,"`+member+`":[`+tc.walkin+`]}`)
		if st != 200 {
			return fmt.Sprintf("answer:%v", body["code"])
		}
		var rep struct {
			Dropped []struct{ Code string }
		}
		_ = json.Unmarshal(r, &rep)
		if len(rep.Dropped) == 0 {
			return "taken"
		}
		return "item:" + rep.Dropped[0].Code
	}
	t.Fatal("the walk-in never reached the move")
	return ""
}

// rawAgent is an A2A agent that writes its JSON-RPC responses byte by byte: an echo on every
// move but the case's, where its data part carries the case's piece. It keeps every envelope.
type rawAgent struct {
	t    *testing.T
	tc   strictCase
	key  ed25519.PrivateKey
	me   string
	mu   sync.Mutex
	envs []map[string]any
	sent bool
}

func (g *rawAgent) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	var req struct {
		ID     json.RawMessage `json:"id"`
		Params struct {
			Message struct {
				Parts []struct {
					Data json.RawMessage `json:"data"`
				} `json:"parts"`
			} `json:"message"`
		} `json:"params"`
	}
	if err := json.NewDecoder(r.Body).Decode(&req); err != nil || len(req.Params.Message.Parts) != 1 {
		http.Error(w, "bad request", 400)
		return
	}
	var env map[string]any
	_ = json.Unmarshal(req.Params.Message.Parts[0].Data, &env)
	g.mu.Lock()
	g.envs = append(g.envs, env)
	hostile := !g.sent && env["phase"] == g.tc.phase && env["turn"] == float64(1) && (g.tc.phase != "talk" || env["exchange"] == float64(1))
	g.sent = g.sent || hostile
	g.mu.Unlock()
	echo := fmt.Sprintf(`"round":%q,"turn":%v,"phase":%q,"seat":%v`, env["round"], env["turn"], env["phase"], env["seat"])
	if x, ok := env["exchange"]; ok {
		echo += fmt.Sprintf(`,"exchange":%v`, x)
	}
	data := "{" + echo + "}"
	if hostile {
		payee := ""
		state, _ := env["state"].(map[string]any)
		agents, _ := state["agents"].([]any)
		for _, ag := range agents {
			if m, _ := ag.(map[string]any); m["seat"] == float64(2) {
				payee, _ = m["agent"].(string)
			}
		}
		c := commitFields{round: env["round"].(string), payer: g.me, payee: payee, sign: func(u []byte) string {
			d := canon.Digest(u)
			return canon.FormatSig(ed25519.Sign(g.key, d[:]))
		}}
		member := "messages"
		if g.tc.phase == "commit" {
			member = "commitments"
		}
		data = "{" + echo + `,"` + member + `":[` + g.tc.a2a(c) + "]}"
	}
	w.Header().Set("Content-Type", "application/json")
	io.WriteString(w, `{"jsonrpc":"2.0","id":`+string(req.ID)+`,"result":{"kind":"message","messageId":"m1","role":"agent","parts":[{"kind":"data","data":`+data+`}]}}`)
}

// a2aOutcome seats the raw agent beside two house seats at a Short table, lets it send the
// piece on the case's move, and reads what its later envelopes tell it.
func a2aOutcome(t *testing.T, tc strictCase) string {
	t.Helper()
	key := ed25519.NewKeyFromSeed(bytes.Repeat([]byte{5}, 32))
	g := &rawAgent{t: t, tc: tc, key: key, me: testAgentID}
	srv := httptest.NewServer(g)
	t.Cleanup(srv.Close)
	done := make(chan string, 4)
	a := blitzArena(t, New(Options{PollInterval: 20 * time.Millisecond}), staticKeys{testAgentID: key.Public().(ed25519.PublicKey)}, done)
	seats := []actors.SeatSpec{{Seat: games.Seat{Seat: 1, Agent: testAgentID, Name: "Ada", Entry: 100_000_000,
		Options: blitz.SeatOptions{Kind: "byo", Collateral: 60_000_000}.JSON()}, Kind: "byo", Channel: dotdotdot.ChannelA2A, Endpoint: srv.URL}}
	for i := 2; i <= 3; i++ {
		seats = append(seats, actors.SeatSpec{Seat: games.Seat{Seat: i, Name: fmt.Sprintf("House %d", i), Entry: 100_000_000,
			Options: blitz.SeatOptions{Kind: "house", Collateral: 60_000_000}.JSON()}, Kind: "house", Channel: actors.ChannelHouse})
	}
	pace := games.Pace{Name: "test", CloseEarly: true, Steps: map[string]time.Duration{"scouting": 3 * time.Second, "talk": 3 * time.Second, "commit": 3 * time.Second, "settle": 50 * time.Millisecond}}
	round, err := a.OpenTable(context.Background(), actors.TableSpec{ID: "strict-" + strings.ReplaceAll(tc.name, " ", "-"), Game: blitz.ID, Format: "short",
		Kind: "practice", Seats: seats, Pace: pace})
	if err != nil {
		t.Fatal(err)
	}
	select {
	case s := <-done:
		if s != actors.StatusFinished {
			t.Fatalf("table %s", s)
		}
	case <-time.After(60 * time.Second):
		t.Fatal("round not finished")
	}
	g.mu.Lock()
	defer g.mu.Unlock()
	if !g.sent {
		t.Fatal("the agent never reached the move")
	}
	var heard []string
	for _, env := range g.envs {
		inbox, _ := env["inbox"].([]any)
		for _, it := range inbox {
			m, _ := it.(map[string]any)
			switch m["type"] {
			case "answer.refused":
				heard = append(heard, fmt.Sprintf("answer:%v", m["code"]))
			case "commitment.rejected":
				if _, atSubmission := m["index"]; atSubmission {
					heard = append(heard, fmt.Sprintf("item:%v", m["code"]))
				}
			}
		}
	}
	sort.Strings(heard)
	if len(heard) > 1 {
		t.Fatalf("the agent heard %v", heard)
	}
	evs, _, _ := a.Transcript(context.Background(), round)
	for _, e := range evs {
		if e.Type == "commitment.sealed" && len(heard) > 0 {
			t.Fatalf("a refused commitment sealed: %s", e.Payload)
		}
		if e.Type == "message.public" && (bytes.Contains(e.Payload, []byte(`\ufffd`)) || bytes.Contains(e.Payload, []byte("\uFFFD"))) {
			t.Fatalf("a line was taken with its bad bytes replaced: %s", e.Payload)
		}
	}
	if len(heard) == 0 {
		return "taken"
	}
	return heard[0]
}
