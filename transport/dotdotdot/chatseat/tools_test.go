package chatseat

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"reflect"
	"sort"
	"strings"
	"testing"
	"time"

	"arena/actors/dotdotdot"
	"arena/games"
)

func TestInitializeAndToolsList(t *testing.T) {
	srv := seat(t, &fakeDesk{}, Options{})
	code, m := post(t, srv, `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}`)
	if code != 200 {
		t.Fatalf("initialize: %d %v", code, m)
	}
	res := m["result"].(map[string]any)
	mustContain(t, res["instructions"].(string), "The person you are talking with is the player", "two or three numbered moves", "pick marked", "Play on alone only when your human tells you to")
	code, m = post(t, srv, `{"jsonrpc":"2.0","id":2,"method":"tools/list","params":{}}`)
	if code != 200 {
		t.Fatalf("tools/list: %d %v", code, m)
	}
	var names []string
	for _, tl := range m["result"].(map[string]any)["tools"].([]any) {
		tm := tl.(map[string]any)
		names = append(names, tm["name"].(string))
		ann := tm["annotations"].(map[string]any)
		if title, _ := ann["title"].(string); title == "" || ann["readOnlyHint"] != (tm["name"] == "list_tables" || tm["name"] == "next_move" || tm["name"] == "my_record") || ann["destructiveHint"] != false {
			t.Fatalf("%s: annotations %v", tm["name"], ann)
		}
		schema := tm["inputSchema"].(map[string]any)
		if schema["type"] != "object" || schema["additionalProperties"] != false {
			t.Fatalf("%s: schema %v", tm["name"], schema)
		}
		// Every property says what it is (units and limits live in the descriptions).
		for p, v := range schema["properties"].(map[string]any) {
			if d, _ := v.(map[string]any)["description"].(string); d == "" {
				t.Fatalf("%s.%s has no description", tm["name"], p)
			}
		}
	}
	sort.Strings(names)
	want := []string{"commit", "feedback", "host_table", "join_table", "leave_table", "list_tables", "my_record", "next_move", "pass", "play_practice", "register", "start_table", "talk"}
	if !reflect.DeepEqual(names, want) {
		t.Fatalf("tools %v, want %v", names, want)
	}
}

func TestRegister(t *testing.T) {
	f := &fakeDesk{}
	srv := seat(t, f, Options{})
	out, isErr := call(t, srv, "register", `{"name":"Ada","model":"claude"}`)
	if isErr {
		t.Fatal(out)
	}
	mustContain(t, out, "w_"+strings.Repeat("A", 43), "never put it in a URL", "play_practice")
	if got := f.callList(); !reflect.DeepEqual(got, []string{"register:Ada:claude"}) {
		t.Fatalf("calls %v", got)
	}
	f.err = &games.Error{Code: "name_taken", Msg: "a walk-in is already called Ada"}
	out, isErr = call(t, srv, "register", `{"name":"Ada"}`)
	if !isErr {
		t.Fatal("a refusal must be a tool error")
	}
	mustContain(t, out, "Refused (name_taken)", "Pick another display name")
}

func TestArgumentsStrict(t *testing.T) {
	f := &fakeDesk{}
	srv := seat(t, f, Options{})
	for _, c := range []struct{ tool, args, want string }{
		{"register", `{"name":"Ada","nickname":"x"}`, "unknown member"},
		{"register", `{"name":7}`, "wrong value type"},
		{"play_practice", `{"format":"short"}`, "Refused (no_token)"},
		{"next_move", `{"token":"` + tok + `","wait":21}`, "wait is whole seconds, 0 to 20"},
		{"talk", `{"token":"` + tok + `","round":"T-7","messages":[]}`, "round, turn and exchange are required"},
		{"commit", `{"token":"` + tok + `","round":"T-7","turn":1,"commitments":[{"payee":2,"due":2,"condition":{"always":true}}]}`, "exactly one of chips"},
		{"commit", `{"token":"` + tok + `","round":"T-7","turn":1,"commitments":[{"payee":2,"chips":5,"due":2}]}`, `condition ({"always": true}`},
		{"join_table", `{"token":"` + tok + `","code":"AB12","table":"walkin"}`, "not both"},
		{"feedback", `{"text":"   "}`, "text is 1 to 2000 characters"},
	} {
		out, isErr := call(t, srv, c.tool, c.args)
		if !isErr || !strings.Contains(out, c.want) {
			t.Fatalf("%s %s: isError=%v %q, want %q", c.tool, c.args, isErr, out, c.want)
		}
	}
	if got := f.callList(); len(got) != 0 {
		t.Fatalf("bad arguments reached the desk: %v", got)
	}
}

func TestPlayPracticeAndWalkin(t *testing.T) {
	f := &fakeDesk{}
	srv := seat(t, f, Options{})
	out, isErr := call(t, srv, "play_practice", `{"token":"`+tok+`","format":"short","pace":"chat","mole":2}`)
	if isErr {
		t.Fatal(out)
	}
	mustContain(t, out, "round T-7, seat 1", "short practice", "three minutes a move")
	out, _ = call(t, srv, "join_table", `{"token":"`+tok+`","table":"walkin"}`)
	mustContain(t, out, "Waiting for the walk-in table to fill; house agents top it up two minutes")
	two := 2
	want := []dotdotdot.JoinRequest{{Table: "practice", Format: "short", Pace: "chat", Mole: &two}, {Table: "walkin"}}
	if !reflect.DeepEqual(f.joins, want) {
		t.Fatalf("joins %+v", f.joins)
	}
	f.err = errNotYet
	out, isErr = call(t, srv, "join_table", `{"token":"`+tok+`","table":"walkin"}`)
	if !isErr {
		t.Fatal(out)
	}
	mustContain(t, out, "Refused (not_yet): 1 of 3 Practice rounds finished.", "call play_practice")
}

// envelope is a Blitz-shaped envelope and prompt for the fake desk's next move.
func moveNext(phase string, exchange int, deadline time.Time) dotdotdot.Next {
	env, _ := json.Marshal(map[string]any{"round": "T-7", "turn": 2, "phase": phase, "exchange": exchange,
		"deadline": deadline.UTC().Format(time.RFC3339Nano), "sig": "ed25519:00"})
	state := json.RawMessage(`{"agents":[{"seat":1,"name":"Ada","alive":true,"collateral":100},{"seat":2,"name":"Bram","alive":true,"dark":true,"collateral":60},{"seat":3,"name":"Cleo","alive":false,"collateral":0}],"me":{"seat":1,"accusation":2,"open":[{"id":"sha256:aa","payer":1,"payee":2,"amount":10000000,"due":3,"lock":5000000},{"id":"sha256:bb","payer":3,"payee":1,"amount":2500000,"due":2,"lock":1250000}]}}`)
	return dotdotdot.Next{Round: "T-7", Status: "move", Envelope: env,
		Prompt: &games.Prompt{Seat: 1, Move: games.Move{Turn: 2, Phase: phase, Exchange: exchange}, Deadline: deadline, State: games.RawDoc(state)},
		Brief:  "You are seat 1, the mole. Your task is whisper (trust): rung 1 one seat whispers.\nSeat 2 said: hello"}
}

func TestNextMoveMove(t *testing.T) {
	now := time.Date(2026, 11, 30, 6, 0, 0, 0, time.UTC)
	f := &fakeDesk{next: moveNext("talk", 2, now.Add(150*time.Second))}
	srv := seat(t, f, Options{Now: func() time.Time { return now }})
	out, isErr := call(t, srv, "next_move", `{"token":"`+tok+`"}`)
	if isErr {
		t.Fatal(out)
	}
	mustContain(t, out, "Round T-7, turn 2, talk (exchange 2): 2m30s left (deadline 2026-11-30T06:02:30Z)",
		"the mole. Your task is whisper", "Seat 2 said: hello",
		"seat 1 Ada (you) ~100%; seat 2 Bram dark, ~60%; seat 3 Cleo eliminated",
		"Open promises: you owe seat 2 10 CCD due turn 3 (5 CCD locked); seat 3 owes you 2.5 CCD due turn 2.",
		"Your accusation stands on seat 2.",
		"two or three numbered moves", "pick marked",
		`talk {"token", "round": "T-7", "turn": 2, "exchange": 2,`,
		`pass {"token", "round": "T-7", "turn": 2, "phase": "talk", "exchange": 2}`)
	if f.waits[0] != MaxWait {
		t.Fatalf("default wait %v, want 20s", f.waits[0])
	}
	call(t, srv, "next_move", `{"token":"`+tok+`","wait":0}`)
	if f.waits[1] != 0 {
		t.Fatalf("wait 0 gave %v", f.waits[1])
	}
	f.next = moveNext("commit", 0, now.Add(-time.Second))
	out, _ = call(t, srv, "next_move", `{"token":"`+tok+`","wait":3}`)
	mustContain(t, out, "Round T-7, turn 2, commit: the deadline has passed", `commit {"token", "round": "T-7", "turn": 2, "commitments"`)
	if f.waits[2] != 3*time.Second {
		t.Fatalf("wait 3 gave %v", f.waits[2])
	}
}

func TestNextMoveWaitingAndResult(t *testing.T) {
	f := &fakeDesk{next: dotdotdot.Next{Waiting: true, Round: "T-7", Status: "playing", Brief: "Round T-7 is on and no move is waiting for you now."}}
	srv := seat(t, f, Options{})
	out, _ := call(t, srv, "next_move", `{"token":"`+tok+`","wait":1}`)
	mustContain(t, out, "Waiting (playing). Round T-7 is on", "Call next_move again.")
	reveal := `{"mole":3,"task":{"kind":"breach","category":"sabotage","named":[2]},"rungs":[1,2],"standings":[{"seat":3,"name":"Dara"}],"moments":[{"what":"seat 3 breached 161 CCD to seat 1"}],"salts":{"seed":"x"}}`
	f.next = dotdotdot.Next{Round: "T-7", Status: "revealed", Brief: "Round T-7 is over and revealed. You finished 1st of 3.",
		Result: &games.Result{Payouts: map[int]int64{1: 310_000_000, 2: 78_500_000, 3: 0}, Places: map[int]int{1: 1, 2: 2, 3: 3}, Reveal: json.RawMessage(reveal)}}
	out, isErr := call(t, srv, "next_move", `{"token":"`+tok+`"}`)
	if isErr {
		t.Fatal(out)
	}
	mustContain(t, out, "You finished 1st of 3.", "seat 1 310 CCD (place 1); seat 2 78.5 CCD (place 2); seat 3 0 CCD (place 3)",
		"the mole was seat 3 (Dara); its task was breach (sabotage) naming seat(s) [2]; rungs reached: [1 2].",
		"- seat 3 breached 161 CCD to seat 1")
	if !strings.HasSuffix(out, Closing) {
		t.Fatalf("the result must end with the closing lines:\n%s", out)
	}
	mustContain(t, Closing, "this was the slow version", "Claude Code, ChatGPT work mode", "full live Free play", "a seat of their own")
	if strings.Contains(out, "salts") {
		t.Fatalf("the summary copies the raw reveal: %s", out)
	}
}

func TestAnswerBodies(t *testing.T) {
	f := &fakeDesk{}
	srv := seat(t, f, Options{})
	out, isErr := call(t, srv, "talk", `{"token":"`+tok+`","round":"T-7","turn":2,"exchange":1,"accusation":3,"messages":[{"text":"hi all","tone":"offer"},{"text":"psst","to":2}]}`)
	if isErr {
		t.Fatal(out)
	}
	mustContain(t, out, "2 line(s) sent")
	call(t, srv, "commit", `{"token":"`+tok+`","round":"T-7","turn":2,"commitments":[{"payee":2,"chips":10,"due":3,"condition":{"backs":[2,1,1000000]},"pair":"deal:1"},{"payee":3,"amount":2500000,"due":2,"condition":{"always":true}}]}`)
	call(t, srv, "pass", `{"token":"`+tok+`","round":"T-7","turn":0,"phase":"scouting"}`)
	call(t, srv, "pass", `{"token":"`+tok+`","round":"T-7","turn":2,"phase":"talk","exchange":3}`)
	want := []string{
		`{"accusation":3,"exchange":1,"messages":[{"text":"hi all","tone":"offer","type":"public"},{"text":"psst","to":2,"type":"private"}],"phase":"talk","round":"T-7","turn":2}`,
		`{"commitments":[{"chips":10,"condition":{"backs":[2,1,1000000]},"due":3,"pair":"deal:1","payee":2},{"amount":2500000,"condition":{"always":true},"due":2,"payee":3}],"phase":"commit","round":"T-7","turn":2}`,
		`{"phase":"scouting","round":"T-7","turn":0}`,
		`{"exchange":3,"phase":"talk","round":"T-7","turn":2}`,
	}
	if len(f.bodies) != len(want) {
		t.Fatalf("bodies %q", f.bodies)
	}
	for i, w := range want {
		if string(f.bodies[i]) != w {
			t.Fatalf("body %d:\n got %s\nwant %s", i, f.bodies[i], w)
		}
	}
	f.err = &games.Error{Code: "stale", Msg: "the answer names another move"}
	out, isErr = call(t, srv, "pass", `{"token":"`+tok+`","round":"T-7","turn":2,"phase":"commit"}`)
	if !isErr {
		t.Fatal(out)
	}
	mustContain(t, out, "Refused (stale): the answer names another move.", "Call next_move for the move open now.")
}

func TestRecordAndFeedback(t *testing.T) {
	f := &fakeDesk{}
	var got []string
	srv := seat(t, f, Options{Feedback: func(_ context.Context, token, round, text string) error {
		got = append(got, token+"|"+round+"|"+text)
		return nil
	}})
	out, _ := call(t, srv, "my_record", `{"token":"`+tok+`"}`)
	mustContain(t, out, "microCCD", `{"name":"Ada","practice":2,"practice_needed":3,"walkin_table":false,"rounds":2}`)
	out, _ = call(t, srv, "list_tables", `{"token":"`+tok+`"}`)
	mustContain(t, out, "finished 2 of the 3 Practice rounds the walk-in table asks: it is not open to you yet", "Practice: always open")
	// Blitz's seat count as §5.6 has it, and how to ask for more than six.
	mustContain(t, out, "blitz (6 to 8 seats, 5 turns: seats 7 or 8 for more than six)")
	out, isErr := call(t, srv, "feedback", `{"token":"`+tok+`","round":"T-7","text":" the commit phase was confusing "}`)
	if isErr {
		t.Fatal(out)
	}
	mustContain(t, out, "Nell")
	if want := tok + "|T-7|the commit phase was confusing"; len(got) != 1 || got[0] != want {
		t.Fatalf("feedback %q", got)
	}
	srv2 := seat(t, f, Options{})
	out, isErr = call(t, srv2, "feedback", `{"text":"hi"}`)
	if !isErr {
		t.Fatal(out)
	}
	mustContain(t, out, "Refused (not_served)")
}

func TestHostedTools(t *testing.T) {
	startsBy := time.Date(2026, 11, 30, 6, 10, 0, 0, time.UTC)
	f := &fakeDesk{hosted: dotdotdot.HostedTable{Code: "K7QX", Link: "/t/K7QX", Format: "blitz", Host: "Ada", Players: []string{"Ada", "Bo"}, Seats: 6, Status: "gathering", StartsBy: startsBy}}
	srv := seat(t, f, Options{}) // the Desk serves hosted tables itself
	out, _ := call(t, srv, "host_table", `{"token":"`+tok+`"}`)
	mustContain(t, out, "code K7QX", "the link "+srv.URL+"/t/K7QX", "ten minutes")
	out, _ = call(t, srv, "join_table", `{"token":"`+tok+`","code":"K7QX"}`)
	mustContain(t, out, "The table: code K7QX, blitz, hosted by Ada, 2 of 6 seats taken (Ada, Bo), gathering, starts by 06:10 UTC, "+srv.URL+"/t/K7QX.",
		"Waiting at the hosted table: it starts when full")
	out, _ = call(t, srv, "list_tables", `{}`)
	mustContain(t, out, "Practice: always open", "Hosted tables gathering", "code K7QX", "rated tables (Glicko-2 ratings per Badge, 60 s scouting)", "GET /v1/tables/kinds")
	out, _ = call(t, srv, "start_table", `{"token":"`+tok+`"}`)
	mustContain(t, out, "Started code K7QX")
	out, _ = call(t, srv, "leave_table", `{"token":"`+tok+`"}`)
	mustContain(t, out, "You left the table.")
	if got, want := f.callList(), []string{"host:", "join:" + tok, "bycode:K7QX", "list", "start", "leave"}; !reflect.DeepEqual(got, want) {
		t.Fatalf("calls %v, want %v", got, want)
	}
	f.err = &games.Error{Code: "not_host", Msg: "only the host starts the table"}
	out, isErr := call(t, srv, "start_table", `{"token":"`+tok+`"}`)
	if !isErr {
		t.Fatal(out)
	}
	mustContain(t, out, "Refused (not_host)", "starts by itself when full")
	f.err = &games.Error{Code: "at_a_hosted_table", Msg: "waiting at K7QX"}
	out, _ = call(t, srv, "play_practice", `{"token":"`+tok+`"}`)
	mustContain(t, out, "Refused (at_a_hosted_table)", "leave_table")
	f.err = &games.Error{Code: "table_started", Msg: "K7QX has started"}
	out, _ = call(t, srv, "join_table", `{"token":"`+tok+`","code":"K7QX"}`)
	mustContain(t, out, "Refused (table_started): K7QX has started.", "Ask its host for a new code")

	// With the site's origin configured, links are written against it.
	f.err = nil
	srvSite := seat(t, f, Options{Hosted: f, Site: "https://arena.example/"})
	out, _ = call(t, srvSite, "host_table", `{"token":"`+tok+`","format":"short"}`)
	mustContain(t, out, "the link https://arena.example/t/K7QX ")
	out, _ = call(t, srvSite, "list_tables", `{}`)
	mustContain(t, out, ", https://arena.example/t/K7QX")
	f.hosted.Status, f.hosted.Round, f.hosted.Watch = "started", "T-9", "/r/T-9"
	out, _ = call(t, srvSite, "start_table", `{"token":"`+tok+`"}`)
	mustContain(t, out, "started, round T-9, https://arena.example/t/K7QX, watch it live at https://arena.example/r/T-9.")

	if j := f.joins[len(f.joins)-1]; j.Code != "K7QX" || j.Table != "" {
		t.Fatalf("join by code went to the desk as %+v", j)
	}

	// Without hosted tables three tools say so (a join by code is the desk's to refuse);
	// list_tables still answers.
	srv2 := seat(t, &fakeDesk{}, Options{Desk: deskOnly{&fakeDesk{}}})
	for _, c := range [][2]string{{"host_table", `{"token":"` + tok + `"}`}, {"start_table", `{"token":"` + tok + `"}`}, {"leave_table", `{"token":"` + tok + `"}`}} {
		out, isErr := call(t, srv2, c[0], c[1])
		if !isErr || !strings.Contains(out, "Refused (not_served): hosted tables are not served by this arena yet") {
			t.Fatalf("%s: %v %q", c[0], isErr, out)
		}
	}
	out, _ = call(t, srv2, "list_tables", `{}`)
	mustContain(t, out, "Hosted tables: not served by this arena yet.")
}

func TestInternalErrorsAreFixed(t *testing.T) {
	f := &fakeDesk{err: errorString("bbolt: /var/lib/arena/arena.db: disk I/O error")}
	srv := seat(t, f, Options{})
	out, isErr := call(t, srv, "my_record", `{"token":"`+tok+`"}`)
	if !isErr || strings.Contains(out, "bbolt") || !strings.Contains(out, "Refused (internal)") {
		t.Fatalf("internal error leaked or not refused: %v %q", isErr, out)
	}
	f.err = nil
	f.panicOn = "record:" + tok
	out, isErr = call(t, srv, "my_record", `{"token":"`+tok+`"}`)
	if !isErr || strings.Contains(out, "secret panic") || strings.Contains(out, ".go:") || !strings.Contains(out, "Refused (internal)") {
		t.Fatalf("panic text reached the client: %v %q", isErr, out)
	}
}

type errorString string

func (e errorString) Error() string { return string(e) }

// TestLocalhostProtection: mcp-go refuses a non-localhost Host on a loopback connection (DNS
// rebinding) unless TrustProxyHost is set, as behind a same-host proxy keeping the public Host.
func TestLocalhostProtection(t *testing.T) {
	for _, trust := range []bool{false, true} {
		srv := seat(t, &fakeDesk{}, Options{TrustProxyHost: trust})
		req, _ := http.NewRequest(http.MethodPost, srv.URL+Path, strings.NewReader(`{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{}}`))
		req.Host = "arena.example"
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Accept", "application/json, text/event-stream")
		req.Header.Set("Mcp-Protocol-Version", "2025-06-18")
		resp, err := srv.Client().Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		want := http.StatusForbidden
		if trust {
			want = http.StatusOK
		}
		if resp.StatusCode != want {
			t.Fatalf("trust=%v: status %d, want %d", trust, resp.StatusCode, want)
		}
	}
}

// TestTooManyPolls: a fifth next_move waiting at once for one token is refused; the four
// waiting answer once a move comes, and the count is given back.
func TestTooManyPolls(t *testing.T) {
	f := &fakeDesk{block: make(chan struct{}), waiting: make(chan struct{}, 8), next: dotdotdot.Next{Waiting: true, Round: "T-7", Status: "playing"}}
	srv := seat(t, f, Options{})
	done := make(chan string, 4)
	for range 4 {
		go func() { // no t.Fatal off the test goroutine: the outcome goes back on done
			req, _ := http.NewRequest(http.MethodPost, srv.URL+Path, strings.NewReader(`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"next_move","arguments":{"token":"`+tok+`"}}}`))
			req.Header.Set("Content-Type", "application/json")
			req.Header.Set("Accept", "application/json, text/event-stream")
			resp, err := srv.Client().Do(req)
			if err != nil {
				done <- err.Error()
				return
			}
			raw, _ := io.ReadAll(resp.Body)
			resp.Body.Close()
			done <- fmt.Sprint(resp.StatusCode, strings.Contains(string(raw), `"Waiting (playing)`))
		}()
	}
	for range 4 {
		<-f.waiting
	}
	out, isErr := call(t, srv, "next_move", `{"token":"`+tok+`","wait":0}`)
	if !isErr {
		t.Fatal(out)
	}
	mustContain(t, out, "Refused (too_many_polls): at most 4 next_move calls wait at once per walk-in.")
	close(f.block)
	for range 4 {
		if got := <-done; got != "200 true" {
			t.Fatalf("a waiting next_move answered %s", got)
		}
	}
	out, isErr = call(t, srv, "next_move", `{"token":"`+tok+`","wait":0}`)
	if isErr {
		t.Fatalf("the cap was not given back: %s", out)
	}
	mustContain(t, out, "Waiting (playing)")
}

// deskOnly hides the fake's hosted tables: a Desk that does not serve them.
type deskOnly struct{ Desk }
