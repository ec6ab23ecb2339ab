package lnurl

import (
	"crypto/sha256"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"

	"github.com/btcsuite/btcd/btcec/v2"

	"arena/chain/egress"
	"arena/chain/lightning/bolt11"
)

// service is a LUD-16/LUD-06 server on loopback for user "bob". issue makes the invoice the
// callback answers for an amount (the metadata's hash given); params is the payRequest JSON.
type service struct {
	srv    *httptest.Server
	params func(callback string) map[string]any
	issue  func(msat uint64, descHash [32]byte) string
	mu     sync.Mutex
	calls  []string
}

func (s *service) called(c string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.calls = append(s.calls, c)
}

const metadata = `[["text/plain","payout to bob"],["text/identifier","bob@arena.test"]]`

func newService(t *testing.T) *service {
	t.Helper()
	s := &service{}
	key, _ := btcec.NewPrivateKey()
	s.params = func(cb string) map[string]any {
		return map[string]any{"tag": "payRequest", "callback": cb, "minSendable": 1000, "maxSendable": 100_000_000, "metadata": metadata}
	}
	s.issue = func(msat uint64, h [32]byte) string { return sign(t, key, bolt11.Simnet, msat, h) }
	mux := http.NewServeMux()
	mux.HandleFunc("GET /.well-known/lnurlp/bob", func(w http.ResponseWriter, r *http.Request) {
		s.called(r.URL.Path)
		json.NewEncoder(w).Encode(s.params(s.srv.URL + "/cb?k=v"))
	})
	mux.HandleFunc("GET /cb", func(w http.ResponseWriter, r *http.Request) {
		s.called(r.URL.Path + "?" + r.URL.RawQuery)
		var msat uint64
		fmt.Sscan(r.URL.Query().Get("amount"), &msat)
		json.NewEncoder(w).Encode(map[string]any{"pr": s.issue(msat, sha256.Sum256([]byte(metadata))), "routes": []any{}})
	})
	s.srv = httptest.NewServer(mux)
	t.Cleanup(s.srv.Close)
	return s
}

func (s *service) addr() string { return "bob@" + strings.TrimPrefix(s.srv.URL, "http://") }

func sign(t *testing.T, key *btcec.PrivateKey, cur bolt11.Currency, msat uint64, h [32]byte) string {
	t.Helper()
	amount, _ := bolt11.AmountMsat(msat)
	inv, err := bolt11.Sign(bolt11.Unsigned{Currency: cur, Amount: amount, Timestamp: 1_700_000_000, Fields: []bolt11.Field{
		bolt11.PaymentHashField(sha256.Sum256([]byte(fmt.Sprint(msat)))),
		bolt11.DescriptionHashField(h),
		bolt11.PaymentSecretField([32]byte{1}),
	}}, key)
	if err != nil {
		t.Fatal(err)
	}
	return inv.Encode()
}

func devResolver() *Resolver {
	return &Resolver{Egress: egress.NewClient(egress.Dev()), Scheme: "http", Currency: bolt11.Simnet}
}

// TestInvoice: the address resolves, the callback gets the amount in msat (keeping its own
// query), and the invoice comes back decoded with the metadata's hash.
func TestInvoice(t *testing.T) {
	s := newService(t)
	pr, inv, err := devResolver().Invoice(t.Context(), s.addr(), 21_000)
	if err != nil {
		t.Fatal(err)
	}
	if inv.Msat != 21_000 || inv.Encode() != pr || *inv.DescriptionHash != sha256.Sum256([]byte(metadata)) {
		t.Fatalf("%+v", inv)
	}
	want := []string{"/.well-known/lnurlp/bob", "/cb?amount=21000&k=v"}
	s.mu.Lock()
	defer s.mu.Unlock()
	if fmt.Sprint(s.calls) != fmt.Sprint(want) {
		t.Fatalf("calls %v, want %v", s.calls, want)
	}
}

// TestInvoiceRefusals: each way an address or its service cannot be paid, with the error a
// payout records (ErrBadAddress, final) or retries (ErrUnreachable).
func TestInvoiceRefusals(t *testing.T) {
	key, _ := btcec.NewPrivateKey()
	cases := []struct {
		name   string
		addr   string // "" is the service's
		msat   uint64
		params func(cb string) map[string]any
		issue  func(msat uint64, h [32]byte) string
		res    *Resolver
		want   error
	}{
		{name: "malformed", addr: "not an address", msat: 1000, want: ErrBadAddress},
		{name: "upper-case user", addr: "Bob@example.com", msat: 1000, want: ErrBadAddress},
		{name: "below minSendable", msat: 999, want: ErrBadAddress},
		{name: "above maxSendable", msat: 100_000_001, want: ErrBadAddress},
		{name: "status ERROR", msat: 1000, params: func(string) map[string]any { return map[string]any{"status": "ERROR", "reason": "no such user"} }, want: ErrBadAddress},
		{name: "not a payRequest", msat: 1000, params: func(cb string) map[string]any {
			return map[string]any{"tag": "withdrawRequest", "callback": cb, "minSendable": 1, "maxSendable": 2, "metadata": metadata}
		}, want: ErrBadAddress},
		{name: "invoice for another amount", msat: 5000, issue: func(msat uint64, h [32]byte) string { return sign(t, key, bolt11.Simnet, msat+1, h) }, want: ErrBadAddress},
		{name: "invoice without the metadata hash", msat: 5000, issue: func(msat uint64, h [32]byte) string { return sign(t, key, bolt11.Simnet, msat, [32]byte{}) }, want: ErrBadAddress},
		{name: "invoice of another network", msat: 5000, issue: func(msat uint64, h [32]byte) string { return sign(t, key, bolt11.Bitcoin, msat, h) }, want: ErrBadAddress},
		{name: "not an invoice", msat: 5000, issue: func(uint64, [32]byte) string { return "lnsb1xyz" }, want: ErrBadAddress},
		{name: "loopback under the production policy", msat: 1000, res: &Resolver{Egress: egress.NewClient(egress.Policy{AllowHTTP: true}), Scheme: "http", Currency: bolt11.Simnet}, want: ErrBadAddress},
		{name: "nobody listening", addr: "bob@127.0.0.1:1", msat: 1000, want: ErrUnreachable},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			s := newService(t)
			if c.params != nil {
				s.params = c.params
			}
			if c.issue != nil {
				s.issue = c.issue
			}
			addr := c.addr
			if addr == "" {
				addr = s.addr()
			}
			res := c.res
			if res == nil {
				res = devResolver()
			}
			pr, inv, err := res.Invoice(t.Context(), addr, c.msat)
			if !errors.Is(err, c.want) || pr != "" || inv != nil {
				t.Fatalf("%q, %v, %v; want %v", pr, inv, err, c.want)
			}
		})
	}
}

func TestParseAddress(t *testing.T) {
	for s, want := range map[string]string{
		"bob@example.com":       "bob@example.com",
		"a.b-c_d+e@Wallet.Test": "a.b-c_d+e@wallet.test",
		"bob@127.0.0.1:8080":    "bob@127.0.0.1:8080",
	} {
		a, err := ParseAddress(s)
		if err != nil || a.String() != want {
			t.Errorf("%q: %v %v, want %q", s, a, err, want)
		}
	}
	for _, s := range []string{"", "bob", "@x.com", "bob@", "bob@x..com", "bob@.x.com", "bob@x.com.", "bob@x.com:0",
		"bob@x.com:080", "bob@x.com:99999", "b b@x.com", "bob@x_y.com", "bob@x.com/path", "BOB@x.com", "bob@x@y.com"} {
		if _, err := ParseAddress(s); !errors.Is(err, ErrBadAddress) {
			t.Errorf("%q: %v, want ErrBadAddress", s, err)
		}
	}
}
