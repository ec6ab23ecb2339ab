package join

import (
	"context"
	"crypto/ed25519"
	"encoding/json"
	"fmt"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/labstack/echo/v4"

	"arena/actors/dotdotdot"
	"arena/chain/badge"
	"arena/games"
	"arena/games/blitz"
	"arena/games/canon"
	"arena/transport/door"
	"arena/transport/dotdotdot/codes"
)

// testBadge is registry token n's Badge on testnet's registry.
func testBadge(n uint64) string {
	reg := badge.Contract{Chain: "ccd:4221332d34e1694168c2a0c0b3fd0f27", Index: 12802}
	return badge.NewAgentID(reg.Chain, reg, n).String()
}

var (
	otsInstance = testBadge(1)
	otsA        = testBadge(2)
	otsB        = testBadge(3)
	otsOther    = testBadge(4) // names another operator
	otsByo      = testBadge(5) // names none
	otsWrongKey = testBadge(6) // carries a key the arena does not hold
	otsNobody   = testBadge(7) // not registered
)

type fakeOTSSeater struct {
	mu    sync.Mutex
	seats []OTSSeat
}

func (s *fakeOTSSeater) JoinOTS(_ context.Context, st OTSSeat) (dotdotdot.OTSJoinReply, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.seats = append(s.seats, st)
	r := dotdotdot.OTSJoinReply{Round: "T-9", Table: "o-1", Format: "blitz", Pace: "agent", Status: "seated"}
	for i := range st.Agents {
		r.Seats = append(r.Seats, i+1)
	}
	return r, nil
}

func (s *fakeOTSSeater) EditPlaybook(_ context.Context, token string, body []byte) (json.RawMessage, error) {
	if token != "pb_good" {
		return nil, games.Errorf("unknown_token", "not a playbook token")
	}
	pb, err := blitz.ParsePlaybook(body)
	if err != nil {
		return nil, err
	}
	return json.RawMessage(`{"playbook":` + string(pb.JSON()) + `}`), nil
}

// otsKeyOf is the test's stand-in for the arena's OTSKey.
func otsKeyOf(agent, grant string) ed25519.PublicKey {
	d := canon.Digest([]byte("ots-test-key/" + agent + "/" + grant))
	return ed25519.NewKeyFromSeed(d[:]).Public().(ed25519.PublicKey)
}

// The owners' tokens: each card carries the key of its owner's token.
var (
	otsTokenA = "ots_" + strings.Repeat("a1", 21) + "A"
	otsTokenB = "ots_" + strings.Repeat("b2", 21) + "B"
	otsTokens = map[string]string{otsA: otsTokenA, otsB: otsTokenB}
)

// otsAgentJSON is one agents entry with its owner's token and extra members.
func otsAgentJSON(agent, extra string) string {
	return `{"agent":"` + agent + `","owner_token":"` + otsTokens[agent] + `"` + extra + `}`
}

type otsEnv struct {
	e    *echo.Echo
	res  *fakeResolver
	seat *fakeOTSSeater
}

func newOTSEnv(t testing.TB) *otsEnv {
	v := &otsEnv{seat: &fakeOTSSeater{}, res: &fakeResolver{agents: map[string]Agent{}}}
	for _, a := range []string{otsA, otsB} {
		v.res.agents[a] = Agent{ID: a, Owner: "ccd:4221332d34e1694168c2a0c0b3fd0f27:own-" + a[len(a)-3:], Name: "Shelf " + a[len(a)-3:],
			Kind: "player", Operator: otsInstance, SigningKey: otsKeyOf(a, dotdotdot.OTSGrant(otsTokens[a]))}
	}
	v.e = echo.New()
	v.e.HTTPErrorHandler = codes.ErrorHandler(slog.New(slog.DiscardHandler))
	Mount(v.e, Options{Seater: &fakeSeater{}, Resolver: v.res,
		OTS: &OTSOptions{Seater: v.seat, Instance: otsInstance, Key: otsKeyOf}})
	return v
}

func (v *otsEnv) do(method, path, body string) (int, map[string]any) {
	req := httptest.NewRequest(method, path, strings.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	rec := httptest.NewRecorder()
	v.e.ServeHTTP(rec, req)
	var m map[string]any
	_ = json.Unmarshal(rec.Body.Bytes(), &m)
	return rec.Code, m
}

// TestOTSKeyTellsTheCard: POST /v1/ots/key names the operator, the signing_key an
// off-the-shelf card must carry for this arena to run the Badge, and the owner_token whose key it
// is; every issue is a fresh token and a fresh key, never cached; a bad id is refused at the door,
// and the key is never handed out on a GET (a URL is logged, the token is secret).
func TestOTSKeyTellsTheCard(t *testing.T) {
	v := newOTSEnv(t)
	code, m := v.do("POST", "/v1/ots/key", `{"agent":"`+otsA+`"}`)
	tok, _ := m["owner_token"].(string)
	if code != 200 || m["agent"] != otsA || m["operator"] != otsInstance || !ownerTokenPattern.MatchString(tok) ||
		m["signing_key"] != canon.FormatKey(otsKeyOf(otsA, dotdotdot.OTSGrant(tok))) {
		t.Fatalf("%d %v", code, m)
	}
	_, m2 := v.do("POST", "/v1/ots/key", `{"agent":"`+otsA+`"}`)
	if m2["owner_token"] == tok || m2["signing_key"] == m["signing_key"] {
		t.Fatalf("a second issue repeats the first: %v %v", m, m2)
	}
	for _, c := range []struct {
		method, path, body string
		code               int
		want               string
	}{
		{"POST", "/v1/ots/key", `{"agent":"ccd:x/cis-2:0OIl"}`, 400, ""},
		{"POST", "/v1/ots/key", `{"agent":"` + otsA + `","x":1}`, 400, "bad_request"},
		{"GET", "/v1/ots/key?agent=" + otsA, "", 405, ""},
	} {
		if code, m := v.do(c.method, c.path, c.body); code != c.code || (c.want != "" && m["code"] != c.want) || m["owner_token"] != nil {
			t.Errorf("%s %s %s: %d %v, want %d %s", c.method, c.path, c.body, code, m, c.code, c.want)
		}
	}
}

// TestOTSJoinNeedsTheOwnersToken: only the holder of the owner_token whose key the card carries
// seats an off-the-shelf Badge. Knowing the agent id is not enough: no token is unauthorized, a
// token of the caller's own (a fresh POST /v1/ots/key for the victim's Badge) or another owner's
// names a key the card does not carry, a malformed one is bad_request; one foreign agent in a
// list refuses the whole join; a paid seat is held for nobody without it. Nothing is seated or
// held by any of them.
func TestOTSJoinNeedsTheOwnersToken(t *testing.T) {
	v := newOTSEnv(t)
	fp := &fakePaid{token: "st_ots"}
	v.e = echo.New()
	v.e.HTTPErrorHandler = codes.ErrorHandler(slog.New(slog.DiscardHandler))
	Mount(v.e, Options{Seater: &fakeSeater{}, Resolver: v.res, Paid: fp,
		OTS: &OTSOptions{Seater: v.seat, Instance: otsInstance, Key: otsKeyOf}})
	_, k := v.do("POST", "/v1/ots/key", `{"agent":"`+otsA+`"}`)
	own, _ := k["owner_token"].(string)
	if own == "" {
		t.Fatalf("no token issued: %v", k)
	}
	with := func(agent, token string) string {
		return `{"agent":"` + agent + `","owner_token":"` + token + `"}`
	}
	for _, c := range []struct {
		body string
		code int
		want string
	}{
		{`{"table":"practice","agents":[{"agent":"` + otsA + `"}]}`, 401, "unauthorized"},
		{`{"table":"practice","agents":[` + with(otsA, "") + `]}`, 401, "unauthorized"},
		{`{"table":"practice","agents":[` + with(otsA, own) + `]}`, 409, CodeSigningKeyMismatch},
		{`{"table":"practice","agents":[` + with(otsA, otsTokenB) + `]}`, 409, CodeSigningKeyMismatch},
		{`{"table":"practice","agents":[` + with(otsA, otsTokenA[:len(otsTokenA)-1]+"+") + `]}`, 400, "bad_request"},
		{`{"table":"practice","agents":[` + with(otsA, otsTokenA+"0") + `]}`, 400, "bad_request"},
		{`{"table":"practice","agents":[` + with(otsA, "pb_good") + `]}`, 400, "bad_request"},
		{`{"table":"practice","agents":[` + otsAgentJSON(otsA, "") + `,` + with(otsB, own) + `]}`, 409, CodeSigningKeyMismatch},
		{`{"table":"practice","agents":[` + otsAgentJSON(otsA, "") + `,{"agent":"` + otsB + `"}]}`, 401, "unauthorized"},
		{`{"table":"open","agents":[{"agent":"` + otsA + `"}]}`, 401, "unauthorized"},
		{`{"table":"open","agents":[` + with(otsA, own) + `]}`, 409, CodeSigningKeyMismatch},
	} {
		code, m := v.do("POST", "/v1/ots/join", c.body)
		if code != c.code || m["code"] != c.want || m["playbook_tokens"] != nil || m["seat_token"] != nil {
			t.Errorf("%.160s: %d %v, want %d %s", c.body, code, m, c.code, c.want)
		}
	}
	if len(v.seat.seats) != 0 || fp.seat.Agent.ID != "" {
		t.Fatalf("seated %+v, held %+v", v.seat.seats, fp.seat)
	}
	code, m := v.do("POST", "/v1/ots/join", `{"table":"practice","agents":[`+otsAgentJSON(otsA, "")+`,`+otsAgentJSON(otsB, "")+`]}`)
	if code != 200 || len(v.seat.seats) != 1 {
		t.Fatalf("the owners' own join: %d %v", code, m)
	}
	if g := v.seat.seats[0].Agents; g[0].Grant != dotdotdot.OTSGrant(otsTokenA) || g[1].Grant != dotdotdot.OTSGrant(otsTokenB) {
		t.Fatalf("grants handed on %+v", g)
	}
}

// TestOTSJoinSeatsResolvedAgents: POST /v1/ots/join resolves each Badge and hands the seater
// the resolved agents with their strictly read playbooks (the default where none is given), and
// answers where they sit.
func TestOTSJoinSeatsResolvedAgents(t *testing.T) {
	v := newOTSEnv(t)
	code, m := v.do("POST", "/v1/ots/join", `{"table":"practice","format":"blitz","agents":[`+otsAgentJSON(otsA, `,"playbook":{"text":"keep promises","dials":{"trust":8}}`)+`,`+otsAgentJSON(otsB, "")+`]}`)
	if code != 200 || m["round"] != "T-9" || m["status"] != "seated" {
		t.Fatalf("%d %v", code, m)
	}
	if len(v.seat.seats) != 1 {
		t.Fatalf("seats %+v", v.seat.seats)
	}
	s := v.seat.seats[0]
	want := blitz.Playbook{Text: "keep promises", Dials: blitz.Dials{Boldness: 5, Trust: 8, Chatter: 5}}
	if s.Table != "practice" || s.Format != "blitz" || len(s.Agents) != 2 || s.Agents[0].Agent.ID != otsA || s.Agents[0].Playbook != want ||
		s.Agents[1].Agent.ID != otsB || s.Agents[1].Playbook != blitz.DefaultPlaybook() || s.Agents[0].Agent.Owner != v.res.agents[otsA].Owner {
		t.Fatalf("seat %+v", s)
	}
}

// TestOTSJoinRefusals: each malformed or foreign join is refused with its code and seats nobody:
// a card naming another operator or none, a card whose key the arena does not hold, a Badge that
// does not resolve, a bad id, a bad playbook, no agents or too many, another table, an unknown
// member; with no registry, no_registry.
func TestOTSJoinRefusals(t *testing.T) {
	v := newOTSEnv(t)
	other := v.res.agents[otsB]
	other.Operator = testBadge(8)
	v.res.agents[otsOther] = other
	byo := v.res.agents[otsB]
	byo.Operator = ""
	v.res.agents[otsByo] = byo
	wrongKey := v.res.agents[otsB]
	wrongKey.SigningKey = otsKeyOf(otsA, dotdotdot.OTSGrant(otsTokenA))
	v.res.agents[otsWrongKey] = wrongKey
	one := func(agent, extra string) string {
		return `{"table":"practice","agents":[{"agent":"` + agent + `","owner_token":"` + otsTokenA + `"` + extra + `}]}`
	}
	for _, c := range []struct {
		body string
		code int
		want string
	}{
		{one(otsOther, ""), 409, CodeOperatorMismatch},
		{one(otsByo, ""), 409, CodeOperatorMismatch},
		{one(otsWrongKey, ""), 409, CodeSigningKeyMismatch},
		{one(otsNobody, ""), 409, "not_registered"},
		{one("ccd:4221332d34e1694168c2a0c0b3fd0f27/cis-2:0OIl", ""), 400, "agent_id_not_base58"},
		{one(otsA, `,"playbook":{"dials":{"boldness":11}}`), 400, "bad_request"},
		{one(otsA, `,"playbook":{"text":"x","Text":"y"}`), 400, "bad_request"},
		{`{"table":"practice","agents":[]}`, 400, "bad_request"},
		{`{"table":"practice","agents":[` + strings.Repeat(otsAgentJSON(otsA, "")+`,`, 4) + otsAgentJSON(otsA, "") + `]}`, 400, "bad_request"},
		{`{"table":"open","agents":[` + otsAgentJSON(otsA, "") + `]}`, 409, CodeBadTable},
		{`{"table":"practice","agents":[` + otsAgentJSON(otsA, "") + `],"mole":1}`, 400, "bad_request"},
		{`not json`, 400, "bad_request"},
	} {
		code, m := v.do("POST", "/v1/ots/join", c.body)
		if code != c.code || m["code"] != c.want {
			t.Errorf("%.90s: %d %v, want %d %s", c.body, code, m, c.code, c.want)
		}
	}
	if len(v.seat.seats) != 0 {
		t.Fatalf("seated %+v", v.seat.seats)
	}
	e := echo.New()
	e.HTTPErrorHandler = codes.ErrorHandler(slog.New(slog.DiscardHandler))
	Mount(e, Options{Seater: &fakeSeater{}, OTS: &OTSOptions{Seater: v.seat, Instance: otsInstance, Key: otsKeyOf}})
	v.e = e
	if code, m := v.do("POST", "/v1/ots/join", one(otsA, "")); code != 503 || m["code"] != CodeNoRegistry {
		t.Fatalf("no registry: %d %v", code, m)
	}
}

// TestOTSPlaybookEdit: POST /v1/ots/playbook takes the token in its header only and answers the
// seater's {playbook}; no token is unauthorized, an unknown one unknown_token, a bad playbook
// bad_request.
func TestOTSPlaybookEdit(t *testing.T) {
	v := newOTSEnv(t)
	post := func(token, body string) (int, map[string]any) {
		req := httptest.NewRequest("POST", "/v1/ots/playbook", strings.NewReader(body))
		req.Header.Set("Content-Type", "application/json")
		if token != "" {
			req.Header.Set(PlaybookHeader, token)
		}
		rec := httptest.NewRecorder()
		v.e.ServeHTTP(rec, req)
		var m map[string]any
		_ = json.Unmarshal(rec.Body.Bytes(), &m)
		return rec.Code, m
	}
	code, m := post("pb_good", `{"text":"hold back","dials":{"chatter":1}}`)
	pb, _ := m["playbook"].(map[string]any)
	if code != 200 || pb["text"] != "hold back" || fmt.Sprint(pb["dials"]) != "map[boldness:5 chatter:1 trust:5]" {
		t.Fatalf("%d %v", code, m)
	}
	for _, c := range []struct {
		token, body string
		code        int
		want        string
	}{{"", `{}`, 401, "unauthorized"}, {"pb_bad", `{}`, 401, "unknown_token"}, {"pb_good", `{"dials":{"trust":"x"}}`, 400, "bad_request"}} {
		if code, m := post(c.token, c.body); code != c.code || m["code"] != c.want {
			t.Errorf("token %q body %s: %d %v, want %d %s", c.token, c.body, code, m, c.code, c.want)
		}
	}
}

// TestOTSJoinAPaidSeat: table "open" holds a paid seat for one off-the-shelf agent, its
// playbook with the hold, and answers the hold as a signed paid join does (§5.7: seat_token,
// entry, check); two agents for one paid seat are refused.
func TestOTSJoinAPaidSeat(t *testing.T) {
	v := newOTSEnv(t)
	fp := &fakePaid{token: "st_ots"}
	v.e = echo.New()
	v.e.HTTPErrorHandler = codes.ErrorHandler(slog.New(slog.DiscardHandler))
	Mount(v.e, Options{Seater: &fakeSeater{}, Resolver: v.res, Paid: fp,
		OTS: &OTSOptions{Seater: v.seat, Instance: otsInstance, Key: otsKeyOf}})
	code, m := v.do("POST", "/v1/ots/join", `{"table":"open","agents":[`+otsAgentJSON(otsA, `,"playbook":{"text":"steady"}`)+`]}`)
	if code != 200 || m["seat_token"] != "st_ots" || m["check"] == nil || m["entry"] == nil {
		t.Fatalf("%d %v", code, m)
	}
	want := blitz.Playbook{Text: "steady", Dials: blitz.DefaultPlaybook().Dials}
	if fp.seat.Agent.ID != otsA || fp.seat.Table != "open" || fp.seat.Playbook == nil || *fp.seat.Playbook != want || len(v.seat.seats) != 0 ||
		fp.seat.OTSGrant != dotdotdot.OTSGrant(otsTokenA) {
		t.Fatalf("held %+v", fp.seat)
	}
	if code, m := v.do("POST", "/v1/ots/join", `{"table":"open","agents":[`+otsAgentJSON(otsA, "")+`,`+otsAgentJSON(otsB, "")+`]}`); code != 400 || m["code"] != "bad_request" {
		t.Fatalf("two agents for a paid seat: %d %v", code, m)
	}
}

// TestOTSKeysAreLimitedPerAddress: POST /v1/ots/key is limited per caller address by the
// shared door.Limiter: past the burst, rate_limited (429, retry, Retry-After) in the door's
// refusal shape and no owner_token; another address still gets its keys; a malformed body is
// refused without spending the budget.
func TestOTSKeysAreLimitedPerAddress(t *testing.T) {
	v := newOTSEnv(t)
	now := t0
	lim := door.NewLimiter(door.Rate{Burst: 2, Every: time.Minute}, door.LimiterOptions{Now: func() time.Time { return now }})
	v.e = echo.New()
	v.e.HTTPErrorHandler = codes.ErrorHandler(slog.New(slog.DiscardHandler))
	Mount(v.e, Options{Seater: &fakeSeater{}, Resolver: v.res,
		OTS: &OTSOptions{Seater: v.seat, Instance: otsInstance, Key: otsKeyOf, Keys: lim}})
	ask := func(addr, body string) (int, map[string]any, http.Header) {
		req := httptest.NewRequest("POST", "/v1/ots/key", strings.NewReader(body))
		req.Header.Set("Content-Type", "application/json")
		req.RemoteAddr = addr
		rec := httptest.NewRecorder()
		v.e.ServeHTTP(rec, req)
		var m map[string]any
		_ = json.Unmarshal(rec.Body.Bytes(), &m)
		return rec.Code, m, rec.Header()
	}
	good := `{"agent":"` + otsA + `"}`
	if code, m, _ := ask("198.51.100.7:4000", `{"agent":"`+otsA+`","x":1}`); code != 400 || m["code"] != "bad_request" {
		t.Fatalf("a malformed body: %d %v", code, m)
	}
	for i := range 2 {
		if code, m, _ := ask("198.51.100.7:4000", good); code != 200 || !ownerTokenPattern.MatchString(fmt.Sprint(m["owner_token"])) {
			t.Fatalf("key %d: %d %v", i+1, code, m)
		}
	}
	code, m, hdr := ask("198.51.100.7:4001", good)
	if code != 429 || m["code"] != door.CodeRateLimited || m["retry"] != true || m["owner_token"] != nil || m["signing_key"] != nil ||
		m["retry_after"] != float64(60) || hdr.Get("Retry-After") != "60" {
		t.Fatalf("past the burst: %d %v %v", code, m, hdr)
	}
	if s, _ := m["error"].(string); s == "" {
		t.Fatalf("refusal without error text: %v", m)
	}
	if code, m, _ := ask("203.0.113.9:4000", good); code != 200 || m["owner_token"] == nil {
		t.Fatalf("another address: %d %v", code, m)
	}
	now = now.Add(time.Minute)
	if code, m, _ := ask("198.51.100.7:4000", good); code != 200 || m["owner_token"] == nil {
		t.Fatalf("after the next token comes: %d %v", code, m)
	}
}
