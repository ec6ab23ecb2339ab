package main

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"net/url"
)

// opsWarden is `arena ops warden …`, the Warden's operator routes (transport/warden Admin,
// warden-games §5.6, §7.1, §11) asked of the Warden site by its Host name host on the server at
// base, each printing the server's JSON answer:
//
//	failed                → GET  /v1/warden/admin/matches?status=FAILED
//	void ID               → POST /v1/warden/admin/matches/{ID}/void
//	verify                → POST /v1/warden/admin/ledger/verify (exit 1 when the Ledger fails)
//	payments [STATUS]     → GET  /v1/warden/admin/payments[?status=STATUS]
//	payouts [STATUS]      → GET  /v1/warden/admin/payouts[?status=STATUS]
//	retry MATCH SEAT      → POST /v1/warden/admin/payouts/{MATCH}/{SEAT}/retry
//
// Exit codes as opsMain's; 2 for a verb it does not know.
func opsWarden(ctx context.Context, base, host, tok string, pos []string, stdout, stderr io.Writer) int {
	req := opsRequest{host: host, limit: 64 << 20}
	admin := base + "/v1/warden/admin"
	status := func(path string) string {
		if len(pos) == 3 {
			return path + "?status=" + url.QueryEscape(pos[2])
		}
		return path
	}
	switch {
	case len(pos) == 2 && pos[1] == "failed":
		req.method, req.url = http.MethodGet, admin+"/matches?status=FAILED"
	case len(pos) == 3 && pos[1] == "void":
		req.method, req.url = http.MethodPost, admin+"/matches/"+url.PathEscape(pos[2])+"/void"
	case len(pos) == 2 && pos[1] == "verify":
		req.method, req.url = http.MethodPost, admin+"/ledger/verify"
	case (len(pos) == 2 || len(pos) == 3) && pos[1] == "payments":
		req.method, req.url = http.MethodGet, status(admin+"/payments")
	case (len(pos) == 2 || len(pos) == 3) && pos[1] == "payouts":
		req.method, req.url = http.MethodGet, status(admin+"/payouts")
	case len(pos) == 4 && pos[1] == "retry":
		req.method, req.url = http.MethodPost, admin+"/payouts/"+url.PathEscape(pos[2])+"/"+url.PathEscape(pos[3])+"/retry"
	default:
		fmt.Fprint(stderr, opsUsage)
		return 2
	}
	var verdict struct {
		OK *bool `json:"ok"`
	}
	var into any
	if pos[1] == "verify" {
		into = &verdict
	}
	raw, _, code := opsAsk(ctx, req, tok, into, stderr)
	if code != 0 {
		return code
	}
	stdout.Write(raw)
	fmt.Fprintln(stdout)
	if pos[1] == "verify" && (verdict.OK == nil || !*verdict.OK) {
		return 1
	}
	return 0
}
