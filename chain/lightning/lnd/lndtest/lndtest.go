// Package lndtest is a fake LND node for tests: an HTTPS server speaking the three REST calls
// chain/lightning/lnd makes, in lnd v0.18's JSON shapes (protojson with proto names and unpopulated
// fields, 64-bit integers as strings, bytes as base64, grpc-gateway v2 error bodies and stream
// lines), behind a self-signed certificate and a macaroon check. It issues real signed BOLT 11
// invoices (chain/lightning/bolt11) with its own node key.
//
// Nodes started on one Network pay each other: paying an invoice another node issued settles it
// there and returns its preimage, as a channel between them would. An invoice of no node on the
// network fails with FAILURE_REASON_NO_ROUTE. Tests settle an invoice from outside with Settle.
//
// It is a stand-in for unit tests, not a Lightning node: no channels, balances, fees, HTLCs or
// hold invoices. Where it answers, it answers as lnd v0.18 does against a real simnet
// (chain/lightning/lnd's simnet tests check the same calls there): an invoice without an expiry
// gets lnd's default of 24 hours, and paying one past its expiry at the node's clock is refused
// with lnd's "invoice expired" stream error.
package lndtest

import (
	"crypto/sha256"
	"encoding/base64"
	"encoding/binary"
	"encoding/hex"
	"encoding/json"
	"encoding/pem"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/btcsuite/btcd/btcec/v2"

	"arena/chain/lightning/bolt11"
)

// defaultExpiry is lnd v0.18's expiry for an invoice asked without one, in seconds.
const defaultExpiry = 24 * 60 * 60

// Network is a set of fake nodes that pay each other. The zero Network is ready to use.
type Network struct {
	mu    sync.Mutex
	nodes []*Node
}

// Options configure a Node. The zero value is a simnet node at time 1,700,000,000.
type Options struct {
	Currency bolt11.Currency // "" is bolt11.Simnet
	// Now is the node's clock for invoice timestamps and settle dates; nil is a fixed
	// 2023-11-14T22:13:20Z.
	Now func() time.Time
}

// Node is one fake LND node. Its methods are safe for concurrent use.
type Node struct {
	// URL, TLSCert and Macaroon are what lnd.Options needs to reach the node.
	URL      string
	TLSCert  []byte
	Macaroon []byte
	// Client trusts the node's certificate (httptest's).
	Client *http.Client

	name     string
	net      *Network
	key      *btcec.PrivateKey
	currency bolt11.Currency
	now      func() time.Time

	mu       sync.Mutex
	invoices map[[32]byte]*invoice
	payments map[[32]byte]*payment
	adds     uint64
	settles  uint64
	payIndex uint64
	requests []string // "METHOD path" of every authenticated request, in order
}

type invoice struct {
	memo      string
	preimage  [32]byte
	hash      [32]byte
	msat      uint64
	bolt11    string
	created   int64
	expiry    int64
	addIndex  uint64
	state     string
	paidMsat  uint64
	settled   int64
	settleIdx uint64
	paymentAd [32]byte
}

type payment struct {
	hash     [32]byte
	preimage [32]byte
	msat     uint64
	bolt11   string
	status   string
	reason   string
	index    uint64
	created  time.Time
}

// Start starts a node named name on nw; t's cleanup closes it.
func (nw *Network) Start(t testing.TB, name string, opts Options) *Node {
	t.Helper()
	seed := sha256.Sum256([]byte("lndtest node key " + name))
	key, _ := btcec.PrivKeyFromBytes(seed[:])
	n := &Node{
		name:     name,
		net:      nw,
		key:      key,
		currency: opts.Currency,
		now:      opts.Now,
		invoices: map[[32]byte]*invoice{},
		payments: map[[32]byte]*payment{},
	}
	if n.currency == "" {
		n.currency = bolt11.Simnet
	}
	if n.now == nil {
		n.now = func() time.Time { return time.Unix(1_700_000_000, 0) }
	}
	mac := sha256.Sum256([]byte("lndtest macaroon " + name))
	n.Macaroon = mac[:]
	srv := httptest.NewTLSServer(http.HandlerFunc(n.serve))
	t.Cleanup(srv.Close)
	n.URL = srv.URL
	n.Client = srv.Client()
	n.TLSCert = pemCert(srv.Certificate().Raw)
	nw.mu.Lock()
	nw.nodes = append(nw.nodes, n)
	nw.mu.Unlock()
	return n
}

// PubKey is the node's identity key: the payee of the invoices it issues.
func (n *Node) PubKey() *btcec.PublicKey { return n.key.PubKey() }

// Settle marks the node's invoice with this hash paid in full, as if a payer outside the network
// paid it. It reports false if the node has no such open invoice.
func (n *Node) Settle(hash [32]byte) bool {
	n.mu.Lock()
	defer n.mu.Unlock()
	inv, ok := n.invoices[hash]
	if !ok || inv.state != "OPEN" {
		return false
	}
	n.settleLocked(inv)
	return true
}

// Cancel marks the node's open invoice with this hash CANCELED. It reports false if there is none.
func (n *Node) Cancel(hash [32]byte) bool {
	n.mu.Lock()
	defer n.mu.Unlock()
	inv, ok := n.invoices[hash]
	if !ok || inv.state != "OPEN" {
		return false
	}
	inv.state = "CANCELED"
	return true
}

// Requests are "METHOD path" of every request the node answered past its macaroon check, in order.
func (n *Node) Requests() []string {
	n.mu.Lock()
	defer n.mu.Unlock()
	return append([]string(nil), n.requests...)
}

// Sent is the number of payments the node has attempted.
func (n *Node) Sent() int {
	n.mu.Lock()
	defer n.mu.Unlock()
	return len(n.payments)
}

func (n *Node) settleLocked(inv *invoice) {
	n.settles++
	inv.state = "SETTLED"
	inv.paidMsat = inv.msat
	inv.settled = n.now().Unix()
	inv.settleIdx = n.settles
}

// serve is the REST proxy: the macaroon check, then the three routes.
func (n *Node) serve(w http.ResponseWriter, r *http.Request) {
	switch got := r.Header.Get("Grpc-Metadata-macaroon"); {
	case got == "":
		writeStatus(w, http.StatusInternalServerError, 2, "expected 1 macaroon, got 0")
		return
	case got != hex.EncodeToString(n.Macaroon):
		writeStatus(w, http.StatusInternalServerError, 2, "verification failed: signature mismatch after caveat verification")
		return
	}
	n.mu.Lock()
	n.requests = append(n.requests, r.Method+" "+r.URL.Path)
	n.mu.Unlock()
	switch {
	case r.Method == http.MethodPost && r.URL.Path == "/v1/invoices":
		n.addInvoice(w, r)
	case r.Method == http.MethodGet && strings.HasPrefix(r.URL.Path, "/v1/invoice/"):
		n.lookupInvoice(w, strings.TrimPrefix(r.URL.Path, "/v1/invoice/"))
	case r.Method == http.MethodPost && r.URL.Path == "/v2/router/send":
		n.sendPayment(w, r)
	default:
		writeStatus(w, http.StatusNotImplemented, 12, "Method Not Allowed")
	}
}

func (n *Node) addInvoice(w http.ResponseWriter, r *http.Request) {
	var req struct {
		Memo      string `json:"memo"`
		Value     string `json:"value"`
		ValueMsat string `json:"value_msat"`
		Expiry    string `json:"expiry"`
	}
	dec := json.NewDecoder(r.Body)
	dec.DisallowUnknownFields()
	if err := dec.Decode(&req); err != nil {
		writeStatus(w, http.StatusBadRequest, 3, "proto: syntax error: "+err.Error())
		return
	}
	sat, _ := strconv.ParseInt(orZero(req.Value), 10, 64)
	msatIn, err1 := strconv.ParseInt(orZero(req.ValueMsat), 10, 64)
	expiry, err2 := strconv.ParseInt(orZero(req.Expiry), 10, 64)
	switch {
	case err1 != nil || err2 != nil || sat < 0 || msatIn < 0 || expiry < 0:
		writeStatus(w, http.StatusBadRequest, 3, "proto: invalid value")
		return
	case sat != 0 && msatIn != 0:
		writeStatus(w, http.StatusInternalServerError, 2, "value and value_msat are mutually exclusive")
		return
	}
	msat := uint64(msatIn)
	if sat != 0 {
		msat = uint64(sat) * 1000
	}
	n.mu.Lock()
	defer n.mu.Unlock()
	n.adds++
	inv := &invoice{memo: req.Memo, msat: msat, expiry: expiry, addIndex: n.adds, state: "OPEN", created: n.now().Unix()}
	inv.preimage = derive(n.name, "preimage", n.adds)
	inv.hash = sha256.Sum256(inv.preimage[:])
	inv.paymentAd = derive(n.name, "payment_addr", n.adds)
	if inv.expiry == 0 {
		inv.expiry = defaultExpiry
	}
	amount, ok := bolt11.AmountMsat(msat)
	if !ok {
		writeStatus(w, http.StatusInternalServerError, 2, "amount not representable")
		return
	}
	fields := []bolt11.Field{
		bolt11.PaymentHashField(inv.hash),
		bolt11.DescriptionField(req.Memo),
		bolt11.ExpiryField(uint64(inv.expiry)),
		bolt11.MinFinalCLTVExpiryDeltaField(80),
		bolt11.PaymentSecretField(inv.paymentAd),
		bolt11.FeaturesField(8, 14, 17),
	}
	signed, err := bolt11.Sign(bolt11.Unsigned{Currency: n.currency, Amount: amount, Timestamp: uint64(inv.created), Fields: fields}, n.key)
	if err != nil {
		writeStatus(w, http.StatusInternalServerError, 2, err.Error())
		return
	}
	inv.bolt11 = signed.Encode()
	n.invoices[inv.hash] = inv
	writeJSON(w, http.StatusOK, map[string]any{
		"r_hash":          b64(inv.hash[:]),
		"payment_request": inv.bolt11,
		"add_index":       u64(inv.addIndex),
		"payment_addr":    b64(inv.paymentAd[:]),
	})
}

func (n *Node) lookupInvoice(w http.ResponseWriter, hashHex string) {
	h, err := hex.DecodeString(hashHex)
	if err != nil {
		writeStatus(w, http.StatusInternalServerError, 2, "encoding/hex: invalid byte")
		return
	}
	if len(h) != 32 {
		writeStatus(w, http.StatusInternalServerError, 2, fmt.Sprintf("payment hash must be exactly 32 bytes, is instead %d", len(h)))
		return
	}
	n.mu.Lock()
	inv, ok := n.invoices[[32]byte(h)]
	var body map[string]any
	if ok {
		body = inv.wire()
	}
	n.mu.Unlock()
	if !ok {
		writeStatus(w, http.StatusNotFound, 5, "unable to locate invoice")
		return
	}
	writeJSON(w, http.StatusOK, body)
}

// wire is the invoice as lnrpc.Invoice with every field (EmitUnpopulated).
func (inv *invoice) wire() map[string]any {
	preimage := inv.preimage[:]
	return map[string]any{
		"memo": inv.memo, "r_preimage": b64(preimage), "r_hash": b64(inv.hash[:]),
		"value": i64(int64(inv.msat / 1000)), "value_msat": i64(int64(inv.msat)),
		"settled": inv.state == "SETTLED", "creation_date": i64(inv.created), "settle_date": i64(inv.settled),
		"payment_request": inv.bolt11, "description_hash": "", "expiry": i64(inv.expiry), "fallback_addr": "",
		"cltv_expiry": u64(80), "route_hints": []any{}, "private": false, "add_index": u64(inv.addIndex),
		"settle_index": u64(inv.settleIdx), "amt_paid": i64(int64(inv.paidMsat / 1000)),
		"amt_paid_sat": i64(int64(inv.paidMsat / 1000)), "amt_paid_msat": i64(int64(inv.paidMsat)),
		"state": inv.state, "htlcs": []any{},
		"features": map[string]any{
			"8":  map[string]any{"name": "tlv-onion", "is_required": true, "is_known": true},
			"14": map[string]any{"name": "payment-addr", "is_required": true, "is_known": true},
			"17": map[string]any{"name": "multi-path-payments", "is_required": false, "is_known": true},
		},
		"is_keysend": false, "payment_addr": b64(inv.paymentAd[:]), "is_amp": false,
		"amp_invoice_state": map[string]any{}, "is_blinded": false,
	}
}

func (n *Node) sendPayment(w http.ResponseWriter, r *http.Request) {
	var req struct {
		PaymentRequest    string `json:"payment_request"`
		TimeoutSeconds    int32  `json:"timeout_seconds"`
		FeeLimitMsat      string `json:"fee_limit_msat"`
		FeeLimitSat       string `json:"fee_limit_sat"`
		NoInflightUpdates bool   `json:"no_inflight_updates"`
		AmtMsat           string `json:"amt_msat"`
	}
	dec := json.NewDecoder(r.Body)
	dec.DisallowUnknownFields()
	if err := dec.Decode(&req); err != nil {
		writeStreamError(w, http.StatusBadRequest, 3, "proto: syntax error: "+err.Error())
		return
	}
	if req.TimeoutSeconds <= 0 {
		writeStreamError(w, http.StatusInternalServerError, 2, "timeout_seconds must be specified")
		return
	}
	inv, err := bolt11.Decode(req.PaymentRequest)
	if err != nil {
		writeStreamError(w, http.StatusInternalServerError, 2, "invalid payment request: "+err.Error())
		return
	}
	if inv.Currency != n.currency {
		writeStreamError(w, http.StatusInternalServerError, 2, "invoice not for current active network")
		return
	}
	if inv.Expired(n.now()) {
		writeStreamError(w, http.StatusInternalServerError, 2, "invoice expired. Valid until "+inv.ExpiresAt().UTC().Format("2006-01-02 15:04:05 -0700 MST"))
		return
	}
	n.mu.Lock()
	if p, ok := n.payments[inv.PaymentHash]; ok && p.status != "FAILED" {
		n.mu.Unlock()
		msg := "invoice is already paid"
		if p.status == "IN_FLIGHT" {
			msg = "payment is in transition"
		}
		writeStreamError(w, http.StatusConflict, 6, msg)
		return
	}
	n.payIndex++
	p := &payment{hash: inv.PaymentHash, msat: inv.Msat, bolt11: req.PaymentRequest, status: "IN_FLIGHT", index: n.payIndex, created: n.now()}
	n.payments[inv.PaymentHash] = p
	n.mu.Unlock()

	preimage, ok := n.net.route(n, inv)
	n.mu.Lock()
	if ok {
		p.status, p.preimage = "SUCCEEDED", preimage
	} else {
		p.status, p.reason = "FAILED", "FAILURE_REASON_NO_ROUTE"
	}
	body := p.wire()
	n.mu.Unlock()
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(http.StatusOK)
	b, _ := json.Marshal(map[string]any{"result": body})
	w.Write(append(b, '\n'))
}

// route settles inv at the node of nw that issued it, other than from, and returns the preimage.
func (nw *Network) route(from *Node, inv *bolt11.Invoice) ([32]byte, bool) {
	nw.mu.Lock()
	nodes := append([]*Node(nil), nw.nodes...)
	nw.mu.Unlock()
	for _, to := range nodes {
		if to == from || !to.key.PubKey().IsEqual(inv.Payee) {
			continue
		}
		to.mu.Lock()
		got, ok := to.invoices[inv.PaymentHash]
		if ok && got.state == "OPEN" && got.msat == inv.Msat {
			to.settleLocked(got)
			to.mu.Unlock()
			return got.preimage, true
		}
		to.mu.Unlock()
	}
	return [32]byte{}, false
}

// wire is the payment as lnrpc.Payment with every field.
func (p *payment) wire() map[string]any {
	return map[string]any{
		"payment_hash": hex.EncodeToString(p.hash[:]), "value": i64(int64(p.msat / 1000)),
		"creation_date": i64(p.created.Unix()), "fee": i64(0), "payment_preimage": hex.EncodeToString(p.preimage[:]),
		"value_sat": i64(int64(p.msat / 1000)), "value_msat": i64(int64(p.msat)), "payment_request": p.bolt11,
		"status": p.status, "fee_sat": i64(0), "fee_msat": i64(0), "creation_time_ns": i64(p.created.UnixNano()),
		"htlcs": []any{}, "payment_index": u64(p.index), "failure_reason": orNone(p.reason),
	}
}

func orNone(reason string) string {
	if reason == "" {
		return "FAILURE_REASON_NONE"
	}
	return reason
}

func orZero(s string) string {
	if s == "" {
		return "0"
	}
	return s
}

// derive is a deterministic 32-byte value for the node's i-th invoice, so runs repeat.
func derive(node, what string, i uint64) [32]byte {
	b := binary.BigEndian.AppendUint64([]byte("lndtest "+node+" "+what+" "), i)
	return sha256.Sum256(b)
}

func b64(b []byte) string { return base64.StdEncoding.EncodeToString(b) }
func i64(v int64) string  { return strconv.FormatInt(v, 10) }
func u64(v uint64) string { return strconv.FormatUint(v, 10) }

// writeStatus is a failed unary call as grpc-gateway v2 writes it.
func writeStatus(w http.ResponseWriter, httpStatus, code int, msg string) {
	writeJSON(w, httpStatus, map[string]any{"code": code, "message": msg, "details": []any{}})
}

// writeStreamError is a stream that fails before its first message: the status of the code and
// one line {"error": status}.
func writeStreamError(w http.ResponseWriter, httpStatus, code int, msg string) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(httpStatus)
	b, _ := json.Marshal(map[string]any{"error": map[string]any{"code": code, "message": msg, "details": []any{}}})
	w.Write(append(b, '\n'))
}

func writeJSON(w http.ResponseWriter, status int, body any) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	b, _ := json.Marshal(body)
	w.Write(b)
}

// pemCert is a DER certificate as PEM, the form of lnd's tls.cert.
func pemCert(der []byte) []byte {
	return pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: der})
}
