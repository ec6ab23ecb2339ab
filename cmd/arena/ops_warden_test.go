package main

import (
	"bytes"
	"net/http/httptest"
	"strings"
	"testing"

	"arena/storage"
	"arena/storage/storagetest"
	"arena/transport/httpapi"
	"arena/transport/warden"
)

// TestOpsWarden: `arena ops warden` lists the FAILED match, voids it once (exit 1 the second
// time, wrong_state), verifies the Ledger, lists the void's queued refund job, and refuses a
// retry of a job that did not fail; a verb it does not know is a usage error (2).
func TestOpsWarden(t *testing.T) {
	store := storagetest.Open(t, storage.Options{})
	const id = "wm_00000000000000e1"
	if err := store.WardenUpdate(func(tx storage.WardenTx) error {
		return tx.Put("match/"+id, warden.Match{ID: id, Game: "warden.dilemma", Stake: 1_000_000,
			A: "0x00000000000000000000000000000000000000a1", B: "0x00000000000000000000000000000000000000b1", Status: "FAILED"})
	}); err != nil {
		t.Fatal(err)
	}
	tok := "operator-token-for-ops-warden"
	e, err := httpapi.Build(warden.Site{Admin: &warden.Admin{Token: tok, Store: store}}, httpapi.Global{})
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
	if code, out, errs := ops("warden", "failed"); code != 0 || !strings.Contains(out, `"id":"`+id+`"`) || !strings.Contains(out, `"status":"FAILED"`) {
		t.Fatalf("failed: %d %s %s", code, out, errs)
	}
	if code, out, errs := ops("warden", "void", id); code != 0 || !strings.Contains(out, `"status":"REFUNDING"`) || !strings.Contains(out, `"refunds":[]`) {
		t.Fatalf("void: %d %s %s", code, out, errs)
	}
	if code, _, errs := ops("warden", "void", id); code != 1 || !strings.Contains(errs, "wrong_state") {
		t.Fatalf("second void: %d %s", code, errs)
	}
	if code, out, errs := ops("warden", "verify"); code != 0 || !strings.Contains(out, `"ok":true`) {
		t.Fatalf("verify: %d %s %s", code, out, errs)
	}
	if code, out, errs := ops("warden", "payouts", "queued"); code != 0 || strings.TrimSpace(out) != `{"jobs":[],"v":1}` {
		t.Fatalf("payouts: %d %s %s", code, out, errs)
	}
	if code, out, errs := ops("warden", "payments"); code != 0 || strings.TrimSpace(out) != `{"payments":[],"v":1}` {
		t.Fatalf("payments: %d %s %s", code, out, errs)
	}
	if code, _, errs := ops("warden", "retry", id, "A"); code != 1 || !strings.Contains(errs, "not_found") {
		t.Fatalf("retry: %d %s", code, errs)
	}
	if code, _, _ := ops("warden", "resume", id); code != 2 {
		t.Fatalf("unknown verb: %d", code)
	}
}
