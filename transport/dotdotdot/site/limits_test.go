package site

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"arena/transport/door"
	"arena/transport/dotdotdot/chatseat"
	"arena/transport/dotdotdot/desk"
	"arena/transport/dotdotdot/desk/desktest"
)

// limitedSite is the site with the desk and the chat seat sharing one registration limiter
// and one table limiter, as `arena serve` wires them.
func limitedSite(t *testing.T, reg, tables door.Rate) (*env, *httptest.Server) {
	t.Helper()
	rl := door.NewLimiter(reg, door.LimiterOptions{})
	tl := door.NewLimiter(tables, door.LimiterOptions{})
	en := &env{t: t, desk: desktest.New()}
	e, err := New(Options{Desk: en.desk,
		DeskOptions: desk.Options{Registrations: rl, Tables: tl},
		Chat:        &chatseat.Options{Desk: en.desk, Registrations: rl, Tables: tl}})
	if err != nil {
		t.Fatal(err)
	}
	en.srv = httptest.NewServer(e)
	t.Cleanup(en.srv.Close)
	return en, en.srv
}

// mcpCall posts one tools/call to /mcp and returns the tool result's text and isError.
func mcpCall(t *testing.T, srv *httptest.Server, tool, args string) (string, bool) {
	t.Helper()
	body := `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"` + tool + `","arguments":` + args + `}}`
	req, _ := http.NewRequest(http.MethodPost, srv.URL+"/mcp", strings.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	resp, err := srv.Client().Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	raw, _ := io.ReadAll(resp.Body)
	var r struct {
		Result struct {
			IsError bool `json:"isError"`
			Content []struct {
				Text string `json:"text"`
			} `json:"content"`
		} `json:"result"`
	}
	if err := json.Unmarshal(raw, &r); err != nil || len(r.Result.Content) == 0 {
		t.Fatalf("tools/call %s: %d %s", tool, resp.StatusCode, raw)
	}
	return r.Result.Content[0].Text, r.Result.IsError
}

// Forty registrations in a burst from one address: the first twenty are made, the rest refused
// with rate_limited (429, Retry-After) and nothing made; the chat seat's register shares the
// budget; time brings one more.
func TestRegistrationBurstIsLimitedPerAddress(t *testing.T) {
	en, srv := limitedSite(t, door.Rate{Burst: 20, Every: time.Hour}, door.Rate{})
	made := 0
	for i := range 40 {
		r := en.do("POST", "/v1/walkin", fmt.Sprintf(`{"name":"Walker %d"}`, i))
		switch r.status {
		case 201:
			made++
		case 429:
			refused(t, r, 429, door.CodeRateLimited)
			if r.header.Get("Retry-After") == "" || r.body["retry"] != true || r.body["retry_after"] == nil {
				t.Fatalf("rate_limited without Retry-After, retry or retry_after: %v %s", r.header, r.raw)
			}
		default:
			t.Fatalf("registration %d: %d %s", i, r.status, r.raw)
		}
	}
	if made != 20 {
		t.Fatalf("%d registrations made in a burst of 40, want 20", made)
	}
	before := en.desk.Changes()
	text, isErr := mcpCall(t, srv, "register", `{"name":"Chat Walker"}`)
	if !isErr || !strings.Contains(text, "rate_limited") || !strings.Contains(text, "wait ") {
		t.Fatalf("the chat seat's register past the HTTP door's budget: %v %q", isErr, text)
	}
	en.unchanged(before)
}

// Practice tables and hosted tables opened from one address share one limit, on both doors;
// a join by code or to the walk-in table opens nothing and is not counted.
func TestTablesOpenedAreLimitedPerAddress(t *testing.T) {
	en, srv := limitedSite(t, door.Rate{}, door.Rate{Burst: 3, Every: time.Hour})
	tok := en.register("Ada")
	if r := en.do("POST", "/v1/walkin/join", `{"table":"practice"}`, "X-Walkin", tok); r.status != 200 {
		t.Fatalf("practice: %d %s", r.status, r.raw)
	}
	if r := en.do("POST", "/v1/walkin/join", `{"table":"walkin"}`, "X-Walkin", en.register("Bo")); r.status == 429 {
		t.Fatalf("a walk-in table join counted as a table opened: %s", r.raw)
	}
	if text, isErr := mcpCall(t, srv, "play_practice", `{"token":"`+en.register("Cy")+`"}`); isErr {
		t.Fatalf("play_practice within the limit: %s", text)
	}
	if text, isErr := mcpCall(t, srv, "play_practice", `{"token":"`+en.register("Di")+`"}`); isErr {
		t.Fatalf("play_practice within the limit: %s", text)
	}
	r := en.do("POST", "/v1/walkin/join", `{"table":"practice"}`, "X-Walkin", en.register("Ed"))
	refused(t, r, 429, door.CodeRateLimited)
	if text, isErr := mcpCall(t, srv, "play_practice", `{"token":"`+en.register("Fay")+`"}`); !isErr || !strings.Contains(text, "rate_limited") {
		t.Fatalf("play_practice past the limit: %v %q", isErr, text)
	}
}

// The address is the connection's: a client's X-Forwarded-For does not buy a fresh budget
// unless the site is told a proxy writes it.
func TestForwardedForIsNotTrustedByDefault(t *testing.T) {
	en, _ := limitedSite(t, door.Rate{Burst: 1, Every: time.Hour}, door.Rate{})
	en.register("Ada")
	r := en.do("POST", "/v1/walkin", `{"name":"Bo"}`, "X-Forwarded-For", "198.51.100.77")
	refused(t, r, 429, door.CodeRateLimited)
}
