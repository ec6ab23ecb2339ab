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
	"arena/chain/badge"
	"arena/games"
	"arena/games/blitz"
	"arena/games/canon"
	"arena/storage"
	"arena/storage/storagetest"
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
	otsOther    = testBadge(4)  // names another operator
	otsByo      = testBadge(5)  // names none
	otsWrongKey = testBadge(6)  // carries a key the arena does not hold
	otsNobody   = testBadge(7)  // not registered
	otsForeign  = testBadge(9)  // run by this arena, another account's
	ownBadge    = testBadge(10) // a player Badge of otsA's and otsB's owner: it signs the owner in
	strangerBdg = testBadge(11) // a player Badge of another account

	otsOwner    = "ccd:4221332d34e1694168c2a0c0b3fd0f27:3kBxOwner"
	otsStranger = "ccd:4221332d34e1694168c2a0c0b3fd0f27:4StrangerAcct"
	ownKey      = ed25519.NewKeyFromSeed(bytes32(1))
	strangerKey = ed25519.NewKeyFromSeed(bytes32(2))
)

func bytes32(b byte) []byte {
	s := make([]byte, 32)
	s[0] = b
	return s
}

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
func otsKeyOf(agent string) ed25519.PublicKey {
	d := canon.Digest([]byte("ots-test-key/" + agent))
	return ed25519.NewKeyFromSeed(d[:]).Public().(ed25519.PublicKey)
}

type otsEnv struct {
	e    *echo.Echo
	res  *fakeResolver
	seat *fakeOTSSeater
	now  time.Time
	db   *storage.Store
	sess *Sessions
	tok  string // the session v.do sends as a bearer ("": none)
}

// newOTSEnv mounts the door with the off-the-shelf routes, otsA and otsB owned by otsOwner, and
// signs otsOwner in through ownBadge (v.tok).
func newOTSEnv(t *testing.T) *otsEnv {
	v := &otsEnv{seat: &fakeOTSSeater{}, res: &fakeResolver{agents: map[string]Agent{}}, now: t0,
		db: storagetest.Open(t, storage.Options{NoSync: true})}
	for _, a := range []string{otsA, otsB, otsForeign} {
		owner := otsOwner
		if a == otsForeign {
			owner = otsStranger
		}
		v.res.agents[a] = Agent{ID: a, Owner: owner, Name: "Shelf " + a[len(a)-3:],
			Kind: "player", Operator: otsInstance, SigningKey: otsKeyOf(a)}
	}
	v.res.agents[ownBadge] = Agent{ID: ownBadge, Owner: otsOwner, Kind: "player", SigningKey: ownKey.Public().(ed25519.PublicKey)}
	v.res.agents[strangerBdg] = Agent{ID: strangerBdg, Owner: otsStranger, Kind: "player", SigningKey: strangerKey.Public().(ed25519.PublicKey)}
	v.mount(nil)
	v.tok = v.signIn(t, ownKey, ownBadge)
	return v
}

// mount (re)builds the server; set adjusts its Options.
func (v *otsEnv) mount(set func(*Options)) {
	clock := func() time.Time { return v.now }
	if v.sess == nil {
		v.sess, _ = NewSessions(nil, clock)
	}
	o := Options{Seater: &fakeSeater{}, Resolver: v.res, Nonces: NewStoreNonces(v.db, clock), Now: clock, Sessions: v.sess,
		OTS: &OTSOptions{Seater: v.seat, Instance: otsInstance, Key: otsKeyOf}}
	if set != nil {
		set(&o)
	}
	v.e = echo.New()
	v.e.HTTPErrorHandler = codes.ErrorHandler(slog.New(slog.DiscardHandler))
	Mount(v.e, o)
}

// sessionBody signs a POST /v1/session for agent with key over a fresh challenge.
func (v *otsEnv) sessionBody(t *testing.T, key ed25519.PrivateKey, agent string) string {
	t.Helper()
	tok := v.tok
	v.tok = ""
	defer func() { v.tok = tok }()
	code, m := v.do("POST", "/v1/session/challenge", `{"agent":"`+agent+`"}`)
	ch, _ := m["challenge"].(string)
	if code != 200 || ch == "" {
		t.Fatalf("challenge: %d %v", code, m)
	}
	return string(signed(t, key, map[string]any{"agent": agent, "challenge": ch, "issued_at": v.now.Format(time.RFC3339)}))
}

// signIn opens a session for agent through the door (POST /v1/session, signed with key).
func (v *otsEnv) signIn(t *testing.T, key ed25519.PrivateKey, agent string) string {
	t.Helper()
	body := v.sessionBody(t, key, agent)
	code, m := v.do("POST", "/v1/session", body)
	tok, _ := m["session"].(string)
	if code != 200 || tok == "" {
		t.Fatalf("session for %s: %d %v", agent, code, m)
	}
	return tok
}

func (v *otsEnv) do(method, path, body string) (int, map[string]any) {
	req := httptest.NewRequest(method, path, strings.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	if v.tok != "" {
		req.Header.Set("Authorization", "Bearer "+v.tok)
	}
	rec := httptest.NewRecorder()
	v.e.ServeHTTP(rec, req)
	var m map[string]any
	_ = json.Unmarshal(rec.Body.Bytes(), &m)
	return rec.Code, m
}

// TestOTSKeyTellsTheCard: GET /v1/ots/key names the operator and the signing_key an
// off-the-shelf card must carry for this arena to run the Badge; a bad id is refused at the door.
func TestOTSKeyTellsTheCard(t *testing.T) {
	v := newOTSEnv(t)
	code, m := v.do("GET", "/v1/ots/key?agent="+otsA, "")
	if code != 200 || m["agent"] != otsA || m["operator"] != otsInstance || m["signing_key"] != canon.FormatKey(otsKeyOf(otsA)) {
		t.Fatalf("%d %v", code, m)
	}
	if code, m := v.do("GET", "/v1/ots/key?agent=ccd:x/cis-2:0OIl", ""); code != 400 {
		t.Fatalf("bad id: %d %v", code, m)
	}
}

// TestOTSJoinSeatsResolvedAgents: POST /v1/ots/join resolves each Badge and hands the seater
// the resolved agents with their strictly read playbooks (the default where none is given), and
// answers where they sit.
func TestOTSJoinSeatsResolvedAgents(t *testing.T) {
	v := newOTSEnv(t)
	code, m := v.do("POST", "/v1/ots/join", `{"table":"practice","format":"blitz","agents":[{"agent":"`+otsA+`","playbook":{"text":"keep promises","dials":{"trust":8}}},{"agent":"`+otsB+`"}]}`)
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
	wrongKey.SigningKey = otsKeyOf(otsA)
	v.res.agents[otsWrongKey] = wrongKey
	one := func(agent, extra string) string {
		return `{"table":"practice","agents":[{"agent":"` + agent + `"` + extra + `}]}`
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
		{`{"table":"practice","agents":[{"agent":"` + otsA + `"},{"agent":"` + otsA + `"},{"agent":"` + otsA + `"},{"agent":"` + otsA + `"},{"agent":"` + otsA + `"}]}`, 400, "bad_request"},
		{`{"table":"open","agents":[{"agent":"` + otsA + `"}]}`, 409, CodeBadTable},
		{`{"table":"practice","agents":[{"agent":"` + otsA + `"}],"mole":1}`, 400, "bad_request"},
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
	v.mount(func(o *Options) { o.Resolver = nil })
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
	v.mount(func(o *Options) { o.Paid = fp })
	code, m := v.do("POST", "/v1/ots/join", `{"table":"open","agents":[{"agent":"`+otsA+`","playbook":{"text":"steady"}}]}`)
	if code != 200 || m["seat_token"] != "st_ots" || m["check"] == nil || m["entry"] == nil {
		t.Fatalf("%d %v", code, m)
	}
	want := blitz.Playbook{Text: "steady", Dials: blitz.DefaultPlaybook().Dials}
	if fp.seat.Agent.ID != otsA || fp.seat.Table != "open" || fp.seat.Playbook == nil || *fp.seat.Playbook != want || len(v.seat.seats) != 0 {
		t.Fatalf("held %+v", fp.seat)
	}
	if code, m := v.do("POST", "/v1/ots/join", `{"table":"open","agents":[{"agent":"`+otsA+`"},{"agent":"`+otsB+`"}]}`); code != 400 || m["code"] != "bad_request" {
		t.Fatalf("two agents for a paid seat: %d %v", code, m)
	}
}
