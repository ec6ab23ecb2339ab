package join

import (
	"context"
	"crypto/ed25519"
	"encoding/json"
	"fmt"
	"log/slog"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/labstack/echo/v4"

	"arena/actors/dotdotdot"
	"arena/games"
	"arena/games/canon"
	"arena/storage"
	"arena/storage/storagetest"
	"arena/transport/door"
	"arena/transport/dotdotdot/codes"
	"arena/transport/dotdotdot/walkin"
)

const agentID = "ccd:4221332d34e1694168c2a0c0b3fd0f27/cis-2:JyP9TuVfyJhJganGq2W8d" // registry token 1 on testnet

var t0 = time.Date(2026, 9, 9, 14, 0, 0, 0, time.UTC)

type fakeResolver struct {
	agents map[string]Agent
	err    error
	calls  int
}

func (r *fakeResolver) Resolve(_ context.Context, agent string) (Agent, error) {
	r.calls++
	if r.err != nil {
		return Agent{}, r.err
	}
	a, ok := r.agents[agent]
	if !ok {
		return Agent{}, games.Errorf("not_registered", "no such Badge")
	}
	return a, nil
}

type leverCall struct {
	agent, round, kind string
	body               string
}

type fakeSeater struct {
	mu     sync.Mutex
	joins  []Seat
	levers []leverCall
	refuse error
}

func (s *fakeSeater) JoinAgent(_ context.Context, st Seat) (dotdotdot.AgentJoinReply, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.joins = append(s.joins, st)
	if st.Table == "rated" { // a table of a kind that gathers: no round yet
		return dotdotdot.AgentJoinReply{Table: "r-1", Seat: 2, Format: "blitz", Pace: "agent", Status: "gathering", Kind: "rated",
			StartsBy: time.Date(2026, 9, 9, 14, 2, 0, 0, time.UTC)}, nil
	}
	return dotdotdot.AgentJoinReply{Round: "T-5", Table: "a-1", Seat: 1, Format: "blitz", Pace: "agent", Status: "seated"}, nil
}

func (s *fakeSeater) Lever(_ context.Context, agent, round, kind string, body []byte) (json.RawMessage, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.levers = append(s.levers, leverCall{agent, round, kind, string(body)})
	if s.refuse != nil {
		return nil, s.refuse
	}
	return json.RawMessage(`{"ok":true,"lever":"` + kind + `"}`), nil
}

type env struct {
	e     *echo.Echo
	res   *fakeResolver
	seat  *fakeSeater
	key   ed25519.PrivateKey
	now   time.Time
	db    *storage.Store
	paid  Paid
	desks int
	limit *door.Limiter // Options.Challenges
	claim Claimer       // Options.Claims
	// sessions, when set (mountDurable), are the door's Options.Sessions.
	sessions *Sessions
}

func newEnv(t testing.TB) *env {
	db := storagetest.Open(t, storage.Options{NoSync: true})
	v := &env{key: ed25519.NewKeyFromSeed(make([]byte, 32)), now: t0, db: db, seat: &fakeSeater{}}
	v.res = &fakeResolver{agents: map[string]Agent{agentID: {ID: agentID, Owner: "ccd:4221332d34e1694168c2a0c0b3fd0f27:3kBx", Name: "Ada (card)",
		Kind: "player", Endpoint: "https://ada.example/a2a", SigningKey: v.key.Public().(ed25519.PublicKey)}}}
	v.mount(t)
	return v
}

// mount (re)builds the server on the same nonce file, as a restart would.
func (v *env) mount(t testing.TB) {
	n := NewStoreNonces(v.db, func() time.Time { return v.now })
	v.e = echo.New()
	v.e.HTTPErrorHandler = codes.ErrorHandler(slog.New(slog.DiscardHandler))
	// A stand-in for the walk-in desk's lever routes, mounted first as transport/dotdotdot/site does.
	for _, k := range []string{"call", "veto", "accuse"} {
		v.e.POST("/v1/rounds/:round/"+k, func(c echo.Context) error {
			v.desks++
			return c.JSON(200, map[string]string{"desk": c.Request().Header.Get(walkin.Header)})
		})
	}
	var res Resolver = v.res
	if v.res == nil {
		res = nil
	}
	Mount(v.e, Options{Seater: v.seat, Resolver: res, Nonces: n, Now: func() time.Time { return v.now }, Paid: v.paid,
		Challenges: v.limit, Sessions: v.sessions, Claims: v.claim})
}

// signed signs obj (a map) with key: sig over SHA-256(JCS(obj without sig)).
func signed(t *testing.T, key ed25519.PrivateKey, obj map[string]any) []byte {
	t.Helper()
	delete(obj, "sig")
	unsigned, err := canon.Marshal(obj)
	if err != nil {
		t.Fatal(err)
	}
	d := canon.Digest(unsigned)
	obj["sig"] = canon.FormatSig(ed25519.Sign(key, d[:]))
	b, _ := json.Marshal(obj)
	return b
}

func (v *env) joinObj(nonce string) map[string]any {
	return map[string]any{"agent": agentID, "table": "practice", "issued_at": v.now.Add(-5 * time.Second).Format(time.RFC3339),
		"nonce": nonce, "name": "Not Ada"}
}

func (v *env) do(method, path string, body []byte, hdr map[string]string) (int, map[string]any) {
	req := httptest.NewRequest(method, path, strings.NewReader(string(body)))
	req.Header.Set("Content-Type", "application/json")
	for k, val := range hdr {
		req.Header.Set(k, val)
	}
	rec := httptest.NewRecorder()
	v.e.ServeHTTP(rec, req)
	var m map[string]any
	_ = json.Unmarshal(rec.Body.Bytes(), &m)
	return rec.Code, m
}

func wantRefusal(t *testing.T, code int, body map[string]any, status int, c string) {
	t.Helper()
	if code != status || body["code"] != c {
		t.Fatalf("got %d %v, want %d %s", code, body, status, c)
	}
	if _, ok := body["retry"].(bool); !ok {
		t.Fatalf("refusal without retry: %v", body)
	}
	if s, _ := body["error"].(string); s == "" {
		t.Fatalf("refusal without error text: %v", body)
	}
}

func TestJoinSeatsWithTheCardsName(t *testing.T) {
	v := newEnv(t)
	code, body := v.do("POST", "/v1/join", signed(t, v.key, v.joinObj("nonce-0000000000001")), nil)
	if code != 200 || body["round"] != "T-5" || body["seat"] != float64(1) || body["name"] != "Ada (card)" {
		t.Fatalf("%d %v", code, body)
	}
	if len(v.seat.joins) != 1 || v.seat.joins[0].Agent.Name != "Ada (card)" || v.seat.joins[0].Agent.Endpoint != "https://ada.example/a2a" || v.seat.joins[0].Table != "practice" {
		t.Fatalf("seated %+v", v.seat.joins)
	}
}

func TestJoinReplayedRefused(t *testing.T) {
	v := newEnv(t)
	b := signed(t, v.key, v.joinObj("nonce-0000000000002"))
	if code, body := v.do("POST", "/v1/join", b, nil); code != 200 {
		t.Fatalf("%d %v", code, body)
	}
	code, body := v.do("POST", "/v1/join", b, nil)
	wantRefusal(t, code, body, 409, CodeReplayed)
	// After a restart (the same database), the replay is still refused.
	v.mount(t)
	code, body = v.do("POST", "/v1/join", b, nil)
	wantRefusal(t, code, body, 409, CodeReplayed)
	if len(v.seat.joins) != 1 {
		t.Fatalf("seated %d times", len(v.seat.joins))
	}
	// A fresh nonce from the same agent goes through.
	if code, body := v.do("POST", "/v1/join", signed(t, v.key, v.joinObj("nonce-0000000000003")), nil); code != 200 {
		t.Fatalf("%d %v", code, body)
	}
}

func TestJoinStaleRefused(t *testing.T) {
	v := newEnv(t)
	for name, at := range map[string]time.Time{
		"old":    v.now.Add(-MaxAge - time.Second),
		"future": v.now.Add(MaxSkew + time.Second),
	} {
		t.Run(name, func(t *testing.T) {
			o := v.joinObj("nonce-stale-" + name + "-00000")
			o["issued_at"] = at.Format(time.RFC3339)
			code, body := v.do("POST", "/v1/join", signed(t, v.key, o), nil)
			wantRefusal(t, code, body, 409, CodeStale)
		})
	}
	// At the edges it is fresh.
	o := v.joinObj("nonce-edge-000000000")
	o["issued_at"] = v.now.Add(-MaxAge).Format(time.RFC3339)
	if code, body := v.do("POST", "/v1/join", signed(t, v.key, o), nil); code != 200 {
		t.Fatalf("%d %v", code, body)
	}
	if v.res.calls != 1 {
		t.Fatalf("stale joins reached the resolver: %d calls", v.res.calls)
	}
}

func TestJoinForgedSignatureRefused(t *testing.T) {
	v := newEnv(t)
	other := ed25519.NewKeyFromSeed([]byte("another key, not on the card!!!!"))
	code, body := v.do("POST", "/v1/join", signed(t, other, v.joinObj("nonce-forged-0000000")), nil)
	wantRefusal(t, code, body, 422, CodeBadSignature)
	// Signed by the right key, then changed: the name is not what was signed.
	b2 := signed(t, v.key, v.joinObj("nonce-tamper-0000001"))
	b2 = []byte(strings.Replace(string(b2), `"Not Ada"`, `"Mallory"`, 1))
	code, body = v.do("POST", "/v1/join", b2, nil)
	wantRefusal(t, code, body, 422, CodeBadSignature)
	// A forged join does not burn the nonce: the agent's own join with it still goes through.
	if code, body := v.do("POST", "/v1/join", signed(t, v.key, v.joinObj("nonce-forged-0000000")), nil); code != 200 {
		t.Fatalf("%d %v", code, body)
	}
}

func TestJoinNoRegistry503(t *testing.T) {
	v := newEnv(t)
	v.res = nil
	v.mount(t)
	code, body := v.do("POST", "/v1/join", signed(t, v.key, v.joinObj("nonce-noreg-00000000")), nil)
	wantRefusal(t, code, body, 503, CodeNoRegistry)
	code, body = v.do("POST", "/v1/session/challenge", []byte(`{"agent":"`+agentID+`"}`), nil)
	wantRefusal(t, code, body, 503, CodeNoRegistry)
}

func TestJoinResolverRefusalPassesThrough(t *testing.T) {
	v := newEnv(t)
	v.res.err = games.Errorf("status_not_active", "the Badge is Revoked")
	code, body := v.do("POST", "/v1/join", signed(t, v.key, v.joinObj("nonce-revoked-000000")), nil)
	wantRefusal(t, code, body, 409, "status_not_active")
	v.res.err = &games.Error{Code: "no_registry", Msg: "none"}
	code, body = v.do("POST", "/v1/join", signed(t, v.key, v.joinObj("nonce-revoked-000001")), nil)
	wantRefusal(t, code, body, 503, "no_registry")
}

func TestJoinBadBodies(t *testing.T) {
	v := newEnv(t)
	for name, b := range map[string]string{
		"unknown member": `{"agent":"a","table":"practice","issued_at":"2026-09-09T14:00:00Z","nonce":"nonce-0000000000009","sig":"ed25519:00","key":"x"}`,
		"not json":       `agent=a`,
		"bad time":       `{"agent":"` + agentID + `","table":"practice","issued_at":"yesterday","nonce":"nonce-0000000000009","sig":"ed25519:00"}`,
		"short nonce":    `{"agent":"` + agentID + `","table":"practice","issued_at":"2026-09-09T13:59:59Z","nonce":"n1","sig":"ed25519:00"}`,
	} {
		t.Run(name, func(t *testing.T) {
			code, body := v.do("POST", "/v1/join", []byte(b), nil)
			wantRefusal(t, code, body, 400, door.CodeBadRequest)
		})
	}
	code, body := v.do("POST", "/v1/join", []byte(`{"agent":"`+agentID+`","table":"hosted","issued_at":"2026-09-09T14:00:00Z","nonce":"nonce-0000000000009","sig":"ed25519:00"}`), nil)
	wantRefusal(t, code, body, 409, CodeBadTable)
	code, body = v.do("POST", "/v1/join", []byte(`{"agent":"`+agentID+`","table":"open","issued_at":"2026-09-09T14:00:00Z","nonce":"nonce-0000000000009","sig":"ed25519:00"}`), nil)
	wantRefusal(t, code, body, 409, CodeBadTable) // no paid table on this arena
}

// openSession runs challenge → signed session and returns the bearer.
func (v *env) openSession(t *testing.T, key ed25519.PrivateKey) (int, map[string]any) {
	t.Helper()
	code, body := v.do("POST", "/v1/session/challenge", []byte(`{"agent":"`+agentID+`"}`), nil)
	ch, _ := body["challenge"].(string)
	if code != 200 || !strings.HasPrefix(ch, "c_") {
		t.Fatalf("challenge: %d %v", code, body)
	}
	return v.do("POST", "/v1/session", signed(t, key, map[string]any{"agent": agentID, "challenge": ch,
		"issued_at": v.now.Format(time.RFC3339)}), nil)
}

func TestSessionLevers(t *testing.T) {
	v := newEnv(t)
	code, body := v.openSession(t, v.key)
	tok, _ := body["session"].(string)
	if code != 200 || !strings.HasPrefix(tok, "s_") || body["agent"] != agentID {
		t.Fatalf("session: %d %v", code, body)
	}
	auth := map[string]string{"Authorization": "Bearer " + tok}
	code, body = v.do("POST", "/v1/rounds/T-5/accuse", []byte(`{"seat":3}`), auth)
	if code != 200 || body["lever"] != "accuse" {
		t.Fatalf("accuse: %d %v", code, body)
	}
	code, _ = v.do("POST", "/v1/rounds/T-5/call", []byte(`{"text":"watch seat 2"}`), auth)
	if code != 200 {
		t.Fatal(code)
	}
	if len(v.seat.levers) != 2 || v.seat.levers[0] != (leverCall{agentID, "T-5", "accuse", `{"seat":3}`}) || v.seat.levers[1].kind != "call" {
		t.Fatalf("levers %+v", v.seat.levers)
	}
	// The game's §12 refusal is answered 409 {error, code, retry} as it is.
	for _, c := range []struct {
		err   *games.Error
		retry bool
	}{{&games.Error{Code: "not_now", Msg: "veto only during commit", Retry: true}, true},
		{&games.Error{Code: "lever_spent", Msg: "once per round"}, false},
		{&games.Error{Code: "is_mole", Msg: "the mole has no accusation"}, false}} {
		v.seat.refuse = c.err
		code, body = v.do("POST", "/v1/rounds/T-5/veto", []byte(`{"pending_id":"sha256:ab"}`), auth)
		wantRefusal(t, code, body, 409, c.err.Code)
		if body["retry"] != c.retry {
			t.Fatalf("retry %v for %s", body["retry"], c.err.Code)
		}
	}
	v.seat.refuse = nil
	// Shape refusals stay in the door.
	code, body = v.do("POST", "/v1/rounds/T-5/accuse", []byte(`{"seat":0}`), auth)
	wantRefusal(t, code, body, 400, door.CodeBadRequest)
	code, body = v.do("POST", "/v1/rounds/T-5/call", []byte(`{"text":"x","round":"T-6"}`), auth)
	wantRefusal(t, code, body, 400, door.CodeBadRequest)
	// Without a session bearer, the walk-in desk's handler answers.
	code, body = v.do("POST", "/v1/rounds/T-5/call", []byte(`{"text":"x"}`), map[string]string{"X-Walkin": "w_abcdefghijklmnopqrstu"})
	if code != 200 || body["desk"] != "w_abcdefghijklmnopqrstu" || v.desks != 1 {
		t.Fatalf("desk fallback: %d %v", code, body)
	}
	// An unknown or expired session is unauthorized.
	code, body = v.do("POST", "/v1/rounds/T-5/call", []byte(`{"text":"x"}`), map[string]string{"Authorization": "Bearer s_nope"})
	wantRefusal(t, code, body, 401, door.CodeUnauthorized)
	v.now = v.now.Add(SessionTTL + time.Second)
	code, body = v.do("POST", "/v1/rounds/T-5/call", []byte(`{"text":"x"}`), auth)
	wantRefusal(t, code, body, 401, door.CodeUnauthorized)
}

func TestSessionRefusals(t *testing.T) {
	v := newEnv(t)
	other := ed25519.NewKeyFromSeed([]byte("another key, not on the card!!!!"))
	code, body := v.openSession(t, other)
	wantRefusal(t, code, body, 422, CodeBadSignature)
	// A challenge is single use.
	_, body = v.do("POST", "/v1/session/challenge", []byte(`{"agent":"`+agentID+`"}`), nil)
	ch := body["challenge"].(string)
	b := signed(t, v.key, map[string]any{"agent": agentID, "challenge": ch, "issued_at": v.now.Format(time.RFC3339)})
	if code, body := v.do("POST", "/v1/session", b, nil); code != 200 {
		t.Fatalf("%d %v", code, body)
	}
	code, body = v.do("POST", "/v1/session", b, nil)
	wantRefusal(t, code, body, 409, CodeReplayed)
	// A challenge that was never issued, though well signed, opens nothing.
	code, body = v.do("POST", "/v1/session", signed(t, v.key, map[string]any{"agent": agentID,
		"challenge": "c_madeupmadeupmadeup", "issued_at": v.now.Format(time.RFC3339)}), nil)
	wantRefusal(t, code, body, 403, door.CodeForbidden)
	// An expired challenge opens nothing.
	_, body = v.do("POST", "/v1/session/challenge", []byte(`{"agent":"`+agentID+`"}`), nil)
	ch = body["challenge"].(string)
	v.now = v.now.Add(ChallengeTTL + time.Second)
	code, body = v.do("POST", "/v1/session", signed(t, v.key, map[string]any{"agent": agentID, "challenge": ch,
		"issued_at": v.now.Format(time.RFC3339)}), nil)
	wantRefusal(t, code, body, 403, door.CodeForbidden)
}

type fakePaid struct {
	token string
	ag    Agent
	seat  Seat // the last join held
}

func (p *fakePaid) Hold(_ context.Context, s Seat) (dotdotdot.PaidHold, error) {
	ag := s.Agent
	p.ag, p.seat = ag, s
	return dotdotdot.PaidHold{Hold: "h_0123456789abcdef01234567", SeatToken: p.token, StartsAt: t0.Add(2 * time.Minute),
		PayFrom: []string{ag.Owner}, Entry: 100_000_000, Escrow: "ccd:4221332d34e1694168c2a0c0b3fd0f27:12810.0", Table: "o-1"}, nil
}

func (p *fakePaid) Check(_ context.Context, hold, tok string) (json.RawMessage, error) {
	if tok != p.token {
		return nil, games.Errorf("forbidden", "not this hold's token")
	}
	return json.RawMessage(`{"paid":true,"paid_by":"` + p.ag.Owner + `"}`), nil
}

func TestPaidJoinAndCheck(t *testing.T) {
	v := newEnv(t)
	fp := &fakePaid{token: "st_secret"}
	v.paid = fp
	v.mount(t)
	o := v.joinObj("nonce-paid-000000000")
	o["table"] = "open"
	code, body := v.do("POST", "/v1/join", signed(t, v.key, o), nil)
	if code != 200 || body["seat_token"] != "st_secret" || body["starts_at"] != "2026-09-09T14:02:00Z" || body["check"] != "/v1/join/paid/h_0123456789abcdef01234567" {
		t.Fatalf("%d %v", code, body)
	}
	entry := body["entry"].(map[string]any)
	// parameter_hex is the seat token as a smart-contract String: u32 LE length, then bytes.
	if entry["amount"] != float64(100_000_000) || entry["entrypoint"] != "escrow.deposit" || entry["parameter_hex"] != "09000000"+"73745f736563726574" {
		t.Fatalf("entry %v", entry)
	}
	if pf := body["pay_from"].([]any); len(pf) != 1 || pf[0] != v.res.agents[agentID].Owner {
		t.Fatalf("pay_from %v", body["pay_from"])
	}
	code, body = v.do("GET", "/v1/join/paid/h_0123456789abcdef01234567", nil, map[string]string{HeaderSeatToken: "st_secret"})
	if code != 200 || body["paid"] != true {
		t.Fatalf("%d %v", code, body)
	}
	code, body = v.do("GET", "/v1/join/paid/h_0123456789abcdef01234567", nil, map[string]string{HeaderSeatToken: "st_wrong"})
	wantRefusal(t, code, body, 403, "forbidden")
	code, body = v.do("GET", "/v1/join/paid/h_0123456789abcdef01234567", nil, nil)
	wantRefusal(t, code, body, 401, door.CodeUnauthorized)
}

// A join names a table kind (actors/dotdotdot kinds.go): the gathering ones answer where the
// agent waits and when house seats may top the table up; a kind the door does not seat at is
// bad_table, before any signature check.
func TestJoinTableKinds(t *testing.T) {
	v := newEnv(t)
	obj := v.joinObj("nonce-0000000000k01")
	obj["table"] = "rated"
	code, body := v.do("POST", "/v1/join", signed(t, v.key, obj), nil)
	if code != 200 || body["status"] != "gathering" || body["kind"] != "rated" || body["starts_by"] != "2026-09-09T14:02:00Z" || body["table"] != "r-1" || body["seat"] != float64(2) {
		t.Fatalf("%d %v", code, body)
	}
	for i, table := range []string{"solo", "free", "gated"} {
		obj := v.joinObj(fmt.Sprintf("nonce-0000000000k1%d", i))
		obj["table"] = table
		if code, body := v.do("POST", "/v1/join", signed(t, v.key, obj), nil); code != 200 {
			t.Fatalf("%s: %d %v", table, code, body)
		}
	}
	if n := len(v.seat.joins); n != 4 || v.seat.joins[0].Table != "rated" || v.seat.joins[3].Table != "gated" {
		t.Fatalf("seated %+v", v.seat.joins)
	}
	for i, table := range []string{"showcase", "walkin", "hosted", "marathon", ""} {
		obj := v.joinObj(fmt.Sprintf("nonce-0000000000k2%d", i))
		obj["table"] = table
		code, body := v.do("POST", "/v1/join", signed(t, v.key, obj), nil)
		wantRefusal(t, code, body, 409, CodeBadTable)
	}
	if len(v.seat.joins) != 4 {
		t.Fatalf("a refused kind was seated: %+v", v.seat.joins)
	}
}
