package warden

import (
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/labstack/echo/v4"

	"arena/actors/warden/wardenpay"
	"arena/chain/evm/evmtest"
	"arena/chain/x402"
	"arena/storage"
)

const adminToken = "operator-token-for-tests"

// newAdminRig serves the Warden's operator routes over a fresh store holding one FAILED
// match, wm_00000000000000f1, whose two stakes of testStake cleared (settled payment records,
// as the stake door writes them), and its play record's failed reason.
func newAdminRig(t *testing.T) (*rig, *echo.Echo) {
	s, err := storage.Open(filepath.Join(t.TempDir(), "arena.db"), storage.Options{NoSync: true})
	if err != nil {
		t.Fatal(err)
	}
	r := &rig{t: t, store: s}
	_, token := evmtest.Key(0x0a)
	stakes := map[string]string{}
	for i, seat := range []string{"A", "B"} {
		_, from := evmtest.Key(byte(0x31 + i))
		var nonce [32]byte
		nonce[0] = byte(i + 1)
		k := x402.ReplayKey{ChainID: 1337, Contract: token, From: from, Nonce: nonce}
		p := storage.WardenPayment{ID: fmt.Sprintf("wp_%016x", i+1), Resource: "/v1/warden/matches/wm_00000000000000f1/stake",
			Match: "wm_00000000000000f1", Seat: seat, Payer: from.String(), Amount: testStake, Network: "eip155:1337",
			Key: k.String(), Version: 2, Payload: []byte(`{"test":"stake"}`), Status: storage.WardenPaySettling, Created: 1}
		if _, claimed, err := s.ClaimWardenPayment(k, p); err != nil || !claimed {
			t.Fatalf("claim: %v %v", claimed, err)
		}
		p.Status, p.Tx = storage.WardenPaySettled, fmt.Sprintf("0x%064x", i+1)
		if err := s.PutWardenPayment(p); err != nil {
			t.Fatal(err)
		}
		stakes[seat] = p.ID
	}
	_, a := evmtest.Key(0x31)
	_, b := evmtest.Key(0x32)
	if err := s.WardenUpdate(func(tx storage.WardenTx) error {
		if err := tx.Put("match/wm_00000000000000f1", Match{ID: "wm_00000000000000f1", Game: "warden.dilemma", Stake: testStake,
			A: a.String(), B: b.String(), Status: "FAILED", OpenUntil: 1, StakeDeadline: 2, Stakes: stakes}); err != nil {
			return err
		}
		if err := tx.Put("match/wm_00000000000000f2", Match{ID: "wm_00000000000000f2", Game: "warden.dilemma", Stake: testStake,
			A: a.String(), Status: "OPEN", OpenUntil: 1}); err != nil {
			return err
		}
		return tx.Put("play/wm_00000000000000f1", map[string]any{"failed": "warden: result breaks conservation"})
	}); err != nil {
		t.Fatal(err)
	}
	e := echo.New()
	e.HTTPErrorHandler = Answer.ErrorHandler(slog.New(slog.NewTextHandler(io.Discard, nil)))
	if err := (Site{Admin: &Admin{Token: adminToken, Store: s, Now: func() time.Time { return time.Unix(1_796_006_400, 0) }}}).Mount(e); err != nil {
		t.Fatal(err)
	}
	r.srv = httptest.NewServer(e)
	t.Cleanup(r.close)
	return r, e
}

// TestAdminAuth: no bearer is unauthorized (401), a wrong one forbidden (403), a client off
// loopback forbidden even with the right token.
func TestAdminAuth(t *testing.T) {
	r, e := newAdminRig(t)
	if a := r.do("GET", "/v1/warden/admin/matches", "", nil, nil); a.status != 401 || a.body["error"] != "unauthorized" {
		t.Fatalf("no bearer: %d %v", a.status, a.body)
	}
	if a := r.do("GET", "/v1/warden/admin/matches", "wrong-token-wrong-token", nil, nil); a.status != 403 || a.body["error"] != "forbidden" {
		t.Fatalf("wrong bearer: %d %v", a.status, a.body)
	}
	req := httptest.NewRequest("GET", "/v1/warden/admin/matches", nil)
	req.RemoteAddr = "192.0.2.7:40000"
	req.Header.Set("Authorization", "Bearer "+adminToken)
	w := httptest.NewRecorder()
	e.ServeHTTP(w, req)
	if w.Code != 403 || !strings.Contains(w.Body.String(), `"error":"forbidden"`) || !strings.Contains(w.Body.String(), "loopback") {
		t.Fatalf("remote client: %d %s", w.Code, w.Body)
	}
}

// TestAdminVoidRefundsAFailedMatch: the failed list names the parked match and why; its void
// queues both full refunds (the refund jobs wardenpay's Worker pays), moves it REFUNDING,
// publishes match_voided, writes no Ledger row and keeps the ledger invariant (wardenpay.Audit);
// a second void is wrong_state, an unknown match unknown_match, a bad id bad_request.
func TestAdminVoidRefundsAFailedMatch(t *testing.T) {
	r, _ := newAdminRig(t)
	a := r.do("GET", "/v1/warden/admin/matches?status=failed", adminToken, nil, nil)
	ms, _ := a.body["matches"].([]any)
	if a.status != 200 || len(ms) != 1 {
		t.Fatalf("failed list: %d %v", a.status, a.body)
	}
	m0 := ms[0].(map[string]any)
	if m0["failed"] != "warden: result breaks conservation" || m0["match"].(map[string]any)["id"] != "wm_00000000000000f1" {
		t.Fatalf("failed match %v", m0)
	}
	if a := r.do("GET", "/v1/warden/admin/matches", adminToken, nil, nil); len(a.body["matches"].([]any)) != 2 {
		t.Fatalf("every match: %v", a.body)
	}
	v := r.do("POST", "/v1/warden/admin/matches/wm_00000000000000f1/void", adminToken, nil, nil)
	refunds, _ := v.body["refunds"].([]any)
	if v.status != 200 || v.body["status"] != "REFUNDING" || len(refunds) != 2 {
		t.Fatalf("void: %d %v", v.status, v.body)
	}
	for i, seat := range []string{"A", "B"} {
		j := refunds[i].(map[string]any)
		_, to := evmtest.Key(byte(0x31 + i))
		if j["seat"] != seat || j["kind"] != "refund" || j["amount"] != float64(testStake) || j["to"] != to.String() || j["status"] != "queued" {
			t.Fatalf("refund %d: %v", i, j)
		}
	}
	var rec Match
	if err := r.store.WardenView(func(tx storage.WardenTx) error {
		_, err := tx.Get("match/wm_00000000000000f1", &rec)
		return err
	}); err != nil || rec.Status != "REFUNDING" {
		t.Fatalf("status %s %v", rec.Status, err)
	}
	b, err := wardenpay.Audit(r.store)
	if err != nil || b.StakesIn != 2*testStake || b.Refunded != 0 || b.PaidOut != 0 {
		t.Fatalf("ledger invariant: %+v %v", b, err)
	}
	if h, _ := r.store.WardenHead(); h.Seq != 0 {
		t.Fatal("a void wrote a Ledger row")
	}
	var types []string
	var voided json.RawMessage
	if err := r.store.WardenView(func(tx storage.WardenTx) error {
		envs, err := tx.MatchFeed("wm_00000000000000f1")
		for _, e := range envs {
			types = append(types, e.Type)
			voided = e.Data
		}
		return err
	}); err != nil {
		t.Fatal(err)
	}
	if len(types) != 1 || types[0] != "match_voided" ||
		string(voided) != `{"reason":"operator","refunds":[{"amount":1000000,"seat":"A","status":"queued"},{"amount":1000000,"seat":"B","status":"queued"}]}` {
		t.Fatalf("feed %v %s", types, voided)
	}
	for path, want := range map[string]struct {
		status int
		code   string
	}{
		"/v1/warden/admin/matches/wm_00000000000000f1/void": {409, "wrong_state"},
		"/v1/warden/admin/matches/wm_00000000000000f2/void": {409, "wrong_state"},
		"/v1/warden/admin/matches/wm_00000000000000f9/void": {404, "unknown_match"},
		"/v1/warden/admin/matches/wm_1/void":                {400, "bad_request"},
	} {
		if a := r.do("POST", path, adminToken, nil, nil); a.status != want.status || a.body["error"] != want.code {
			t.Fatalf("%s: %d %v", path, a.status, a.body)
		}
	}
	if b2, err := wardenpay.Audit(r.store); err != nil || b2 != b {
		t.Fatalf("refusals changed the books: %+v %v", b2, err)
	}
}

// TestAdminPaymentsPayoutsRetryVerify: the payment and job lists filter by status; a retry of
// a queued job is wrong_state, of a failed one queues it again, of no job not_found; the
// Ledger verifies; every malformed query is bad_request.
func TestAdminPaymentsPayoutsRetryVerify(t *testing.T) {
	r, _ := newAdminRig(t)
	if a := r.do("GET", "/v1/warden/admin/payments?status=settled", adminToken, nil, nil); a.status != 200 || len(a.body["payments"].([]any)) != 2 {
		t.Fatalf("settled payments: %d %v", a.status, a.body)
	}
	if a := r.do("GET", "/v1/warden/admin/payments?status=failed", adminToken, nil, nil); a.status != 200 || len(a.body["payments"].([]any)) != 0 {
		t.Fatalf("failed payments: %d %v", a.status, a.body)
	}
	r.do("POST", "/v1/warden/admin/matches/wm_00000000000000f1/void", adminToken, nil, nil)
	if a := r.do("GET", "/v1/warden/admin/payouts?status=queued", adminToken, nil, nil); a.status != 200 || len(a.body["jobs"].([]any)) != 2 {
		t.Fatalf("queued jobs: %d %v", a.status, a.body)
	}
	if a := r.do("POST", "/v1/warden/admin/payouts/wm_00000000000000f1/A/retry", adminToken, nil, nil); a.status != 409 || a.body["error"] != "wrong_state" {
		t.Fatalf("retry of a queued job: %d %v", a.status, a.body)
	}
	if err := r.store.WardenUpdate(func(tx storage.WardenTx) error {
		var j wardenpay.Job
		if _, err := tx.Get("payoutq/wm_00000000000000f1/A", &j); err != nil {
			return err
		}
		j.Status, j.Reason, j.Reverted = wardenpay.JobFailed, "payout_failed: 3 transactions reverted", []string{"0x01", "0x02", "0x03"}
		return tx.Put("payoutq/wm_00000000000000f1/A", j)
	}); err != nil {
		t.Fatal(err)
	}
	if a := r.do("GET", "/v1/warden/admin/payouts?status=failed", adminToken, nil, nil); len(a.body["jobs"].([]any)) != 1 {
		t.Fatalf("failed jobs: %v", a.body)
	}
	a := r.do("POST", "/v1/warden/admin/payouts/wm_00000000000000f1/A/retry", adminToken, nil, nil)
	j, _ := a.body["job"].(map[string]any)
	if a.status != 200 || j["status"] != "queued" || j["retried"] != float64(3) || j["reason"] != nil {
		t.Fatalf("retry: %d %v", a.status, a.body)
	}
	for path, want := range map[string]struct {
		status int
		code   string
	}{
		"/v1/warden/admin/payouts/wm_00000000000000f2/A/retry": {404, "not_found"},
		"/v1/warden/admin/payouts/wm_00000000000000f1/C/retry": {400, "bad_request"},
		"/v1/warden/admin/payouts/x/A/retry":                   {400, "bad_request"},
	} {
		if a := r.do("POST", path, adminToken, nil, nil); a.status != want.status || a.body["error"] != want.code {
			t.Fatalf("%s: %d %v", path, a.status, a.body)
		}
	}
	for _, q := range []string{"/v1/warden/admin/payments?status=SETTLED", "/v1/warden/admin/payments?x=1",
		"/v1/warden/admin/payouts?status=done", "/v1/warden/admin/matches?status=gone", "/v1/warden/admin/matches?status=FAILED&status=OPEN"} {
		if a := r.do("GET", q, adminToken, nil, nil); a.status != 400 || a.body["error"] != "bad_request" {
			t.Fatalf("%s: %d %v", q, a.status, a.body)
		}
	}
	v := r.do("POST", "/v1/warden/admin/ledger/verify", adminToken, nil, nil)
	if v.status != 200 || v.body["ok"] != true || v.body["head"].(map[string]any)["seq"] != float64(0) {
		t.Fatalf("verify: %d %v", v.status, v.body)
	}
	if _, err := wardenpay.Audit(r.store); err != nil {
		t.Fatalf("ledger invariant: %v", err)
	}
}
