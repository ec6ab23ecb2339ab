package lnd

import (
	"errors"
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"
	"time"

	"arena/chain/lightning"
	"arena/chain/lightning/bolt11"
)

// FuzzAnswers: whatever a node answers (status and body), AddInvoice, LookupInvoice and Pay
// return without panicking, and every error wraps exactly one of lightning's sentinels.
func FuzzAnswers(f *testing.F) {
	f.Add(200, `{"r_hash":"AQAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA=","state":"SETTLED","value_msat":"1","creation_date":"0","settle_date":"0","expiry":"1","amt_paid_msat":"1"}`)
	f.Add(200, `{"result":{"payment_hash":"01","status":"SUCCEEDED","payment_preimage":"00","value_msat":"1","fee_msat":"0"}}`+"\n")
	f.Add(409, `{"error":{"code":6,"message":"invoice is already paid","details":[]}}`+"\n")
	f.Add(404, `{"code":5,"message":"unable to locate invoice","details":[]}`)
	f.Add(200, `{"r_hash":"AQAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA=","payment_request":"lnsb1","add_index":"1","payment_addr":""}`)
	var mu sync.Mutex
	var status int
	var body string
	srv := httptest.NewTLSServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		st, b := status, body
		mu.Unlock()
		w.WriteHeader(st)
		w.Write([]byte(b))
	}))
	defer srv.Close()
	c, err := New(Options{URL: srv.URL, HTTPClient: srv.Client(), Macaroon: []byte{1}, Currency: bolt11.Simnet,
		Now: func() time.Time { return fakeNow }})
	if err != nil {
		f.Fatal(err)
	}
	bolt := outsideInvoice()
	f.Fuzz(func(t *testing.T, st int, b string) {
		if st < 200 || st > 599 {
			return
		}
		mu.Lock()
		status, body = st, b
		mu.Unlock()
		ctx := t.Context()
		_, err1 := c.AddInvoice(ctx, lightning.InvoiceRequest{Msat: 1000, Memo: "x"})
		_, err2 := c.LookupInvoice(ctx, [32]byte{1})
		_, err3 := c.Pay(ctx, lightning.PayRequest{Bolt11: bolt, Msat: 1000})
		for _, err := range []error{err1, err2, err3} {
			if err == nil {
				continue
			}
			n := 0
			for _, s := range []error{lightning.ErrNotFound, lightning.ErrAlreadyPaid, lightning.ErrBadInvoice, lightning.ErrWallet} {
				if errors.Is(err, s) {
					n++
				}
			}
			if n != 1 {
				t.Fatalf("%v wraps %d sentinels", err, n)
			}
		}
	})
}
