package devwallet

import (
	"context"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"arena/chain/lightning"
)

// FuzzDevRoute: whatever body the dev route is sent, it never panics, answers 200 only for the
// one invoice of the wallet's that the body names (which becomes Accepted), and a refusal changes
// no invoice.
func FuzzDevRoute(f *testing.F) {
	w, err := New(Options{})
	if err != nil {
		f.Fatal(err)
	}
	inv, err := w.AddHoldInvoice(context.Background(), [32]byte{1}, lightning.InvoiceRequest{Msat: 10_000, Memo: "stake"})
	if err != nil {
		f.Fatal(err)
	}
	f.Add(`{"bolt11":"` + inv.Bolt11 + `"}`)
	f.Add(`{"bolt11":"lnbcrt1"}`)
	f.Add(`{"bolt11":""}`)
	f.Add(`{}`)
	f.Add(`[`)
	f.Add(`{"bolt11":"` + strings.ToUpper(inv.Bolt11) + `"}`)
	h := w.Handler()
	f.Fuzz(func(t *testing.T, body string) {
		before, _ := w.LookupInvoice(context.Background(), inv.PaymentHash)
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, httptest.NewRequest(http.MethodPost, PayPath, strings.NewReader(body)))
		after, _ := w.LookupInvoice(context.Background(), inv.PaymentHash)
		switch rec.Code {
		case http.StatusOK:
			if before.State != lightning.InvoiceOpen || after.State != lightning.InvoiceAccepted {
				t.Fatalf("200 with the invoice %s → %s: %q", before.State, after.State, body)
			}
			// back to open for the next input
			w.mu.Lock()
			w.invoices[inv.PaymentHash].State = lightning.InvoiceOpen
			w.mu.Unlock()
		case http.StatusBadRequest:
			if before.State != after.State {
				t.Fatalf("a refusal changed the invoice %s → %s: %q", before.State, after.State, body)
			}
		default:
			t.Fatalf("status %d for %q", rec.Code, body)
		}
	})
}
