package main

import (
	"bytes"
	"crypto/ed25519"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/asynkron/protoactor-go/actor"

	"arena/config"
	"arena/storage"
	"arena/storage/storagetest"
	"arena/transport/httpapi"
	"arena/transport/market"
)

// TestOpsMarketKeys: `arena ops market keys create` prints a key alone on its last line that
// enrols on the market; `keys list` shows its id, Owner and Delegate but never the key; `keys
// revoke` refuses it from then on (401 authentication_required); `admin` prints the Admin
// projection; a verb it does not know is a usage error.
func TestOpsMarketKeys(t *testing.T) {
	sys := actor.NewActorSystem(actor.WithLoggerFactory(func(*actor.ActorSystem) *slog.Logger { return slog.New(slog.DiscardHandler) }))
	t.Cleanup(sys.Shutdown)
	store := storagetest.Open(t, storage.Options{})
	tok := "operator-token-for-ops-market"
	sec := config.Secrets{InstanceKey: ed25519.NewKeyFromSeed(bytes.Repeat([]byte{3}, 32)), OperatorToken: tok}
	d, err := startMarket(config.Default(), sec, store, sys, "http://market.test", slog.New(slog.DiscardHandler))
	if err != nil {
		t.Fatal(err)
	}
	e, err := httpapi.Build(market.Site{Doors: d}, httpapi.Global{})
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(e)
	t.Cleanup(srv.Close)
	ops := func(args ...string) (int, string, string) {
		var out, errs bytes.Buffer
		code := opsMain(t.Context(), append(args, "--server", srv.URL, "--token", tok), func(string) string { return "" }, &out, &errs)
		return code, out.String(), errs.String()
	}
	enrol := func(key string) (int, string) {
		req, _ := http.NewRequest(http.MethodPost, srv.URL+"/v2/request", strings.NewReader(`{"protocolVersion":2,"commandId":"e","action":"enroll"}`))
		req.Header.Set("Authorization", "Bearer "+key)
		req.Header.Set("Content-Type", "application/json")
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		return resp.StatusCode, string(b)
	}
	code, out, errs := ops("market", "keys", "create", "owner-ops-1", "--name", "desk-7")
	lines := strings.Split(strings.TrimSpace(out), "\n")
	key := lines[len(lines)-1]
	if code != 0 || !strings.HasPrefix(key, "gmk_") || len(key) != 4+64 {
		t.Fatalf("create: %d %q %s", code, out, errs)
	}
	if st, b := enrol(key); st != 200 || !strings.Contains(b, `"ok":true`) {
		t.Fatalf("enrol with the new key: %d %s", st, b)
	}
	code, out, _ = ops("market", "keys", "list")
	if code != 0 || !strings.Contains(out, "owner-ops-1") || !strings.Contains(out, "desk-7") || strings.Contains(out, key) {
		t.Fatalf("list: %d\n%s", code, out)
	}
	id := strings.Fields(strings.Split(out, "\n")[1])[0]
	if code, out, errs = ops("market", "keys", "revoke", id); code != 0 || out != id+" revoked\n" {
		t.Fatalf("revoke: %d %q %s", code, out, errs)
	}
	if st, b := enrol(key); st != 401 || !strings.Contains(b, `"authentication_required"`) {
		t.Fatalf("enrol with the revoked key: %d %s", st, b)
	}
	if _, out, _ = ops("market", "keys", "list"); len(strings.Fields(strings.Split(out, "\n")[1])) != 5 || strings.Fields(strings.Split(out, "\n")[1])[4] == "-" {
		t.Errorf("list after revoke shows no revocation: %s", out)
	}
	code, out, _ = ops("market", "admin")
	if code != 0 || !strings.Contains(out, `"gameId":"arena-market"`) || !strings.Contains(out, `"starting_assets"`) {
		t.Errorf("admin: %d %s", code, out)
	}
	if strings.Contains(out, "owner-ops-1") || strings.Contains(out, key) {
		t.Errorf("the Admin projection names an Owner or a key: %s", out)
	}
	if code, _, _ = ops("market", "keys"); code != 2 {
		t.Errorf("market keys with no verb: exit %d, want 2", code)
	}
	if code, _, errs = ops("market", "keys", "revoke", "mk_nope"); code != 1 || !strings.Contains(errs, "not_found") {
		t.Errorf("revoke an unknown id: exit %d %s", code, errs)
	}
}
