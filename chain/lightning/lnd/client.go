// Package lnd is a lightning.Wallet on an LND node's REST API (lnd v0.18: grpc-gateway v2 with
// protojson, proto field names, 64-bit integers as decimal strings, bytes as standard base64,
// enums by name). It uses three calls: POST /v1/invoices (AddInvoice), GET /v1/invoice/{r_hash}
// (LookupInvoice) and POST /v2/router/send (SendPaymentV2, a stream of JSON lines). The node's
// macaroon travels in the Grpc-Metadata-macaroon header as hex; its self-signed tls.cert is the
// only certificate trusted.
//
// Every invoice is decoded with chain/lightning/bolt11 on its way in and out: what AddInvoice
// returns is checked against the request, and Pay refuses an invoice of another network, expired,
// or not for the amount asked before anything is sent.
package lnd

import (
	"bufio"
	"bytes"
	"context"
	"crypto/sha256"
	"crypto/tls"
	"crypto/x509"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"

	"arena/chain/lightning"
	"arena/chain/lightning/bolt11"
)

// Options configure a Client. URL, Macaroon, Currency and TLSCert (or HTTPClient) are required.
type Options struct {
	// URL is the node's REST listener, "https://host:port" (lnd's --restlisten).
	URL string
	// Macaroon is a macaroon file's bytes: admin.macaroon, or one allowing invoices:read,
	// invoices:write and offchain:write.
	Macaroon []byte
	// TLSCert is the node's tls.cert (PEM), the only certificate the client trusts.
	TLSCert []byte
	// Currency is the node's network; Pay refuses invoices of any other, and AddInvoice one the
	// node writes for another.
	Currency bolt11.Currency
	// HTTPClient, when set, replaces the client built from TLSCert (it must do its own TLS).
	HTTPClient *http.Client
	// Now is the clock Pay checks an invoice's expiry against; nil is time.Now.
	Now func() time.Time
}

// maxBody is the most bytes read of one answer (an invoice with many route hints is a few KiB).
const maxBody = 1 << 20

// defaultPayTimeout is how long the node may try a payment when PayRequest.Timeout is 0.
const defaultPayTimeout = 60 * time.Second

// Client is a lightning.Wallet on one LND node. It is safe for concurrent use.
type Client struct {
	base     *url.URL
	macaroon string // hex
	currency bolt11.Currency
	http     *http.Client
	now      func() time.Time
}

var _ lightning.Wallet = (*Client)(nil)

// New checks opts and makes a Client. It does not contact the node.
func New(opts Options) (*Client, error) {
	u, err := url.Parse(opts.URL)
	if err != nil || u.Scheme != "https" || u.Host == "" || (u.Path != "" && u.Path != "/") || u.RawQuery != "" {
		return nil, fmt.Errorf("lnd: URL %q is not https://host:port", opts.URL)
	}
	u.Path = ""
	if len(opts.Macaroon) == 0 {
		return nil, errors.New("lnd: no macaroon")
	}
	switch opts.Currency {
	case bolt11.Bitcoin, bolt11.Testnet, bolt11.Signet, bolt11.Regtest, bolt11.Simnet:
	default:
		return nil, fmt.Errorf("lnd: unknown currency %q", opts.Currency)
	}
	hc := opts.HTTPClient
	if hc == nil {
		pool := x509.NewCertPool()
		if !pool.AppendCertsFromPEM(opts.TLSCert) {
			return nil, errors.New("lnd: TLSCert holds no PEM certificate")
		}
		hc = &http.Client{Transport: &http.Transport{
			TLSClientConfig:     &tls.Config{RootCAs: pool, MinVersion: tls.VersionTLS12},
			ForceAttemptHTTP2:   true,
			MaxIdleConnsPerHost: 4,
		}}
	}
	now := opts.Now
	if now == nil {
		now = time.Now
	}
	return &Client{base: u, macaroon: hex.EncodeToString(opts.Macaroon), currency: opts.Currency, http: hc, now: now}, nil
}

// AddInvoice asks the node for an invoice (POST /v1/invoices) and checks the payment request it
// writes: it decodes, is of this network, and carries the r_hash the node answered, req.Msat and
// req.Memo.
func (c *Client) AddInvoice(ctx context.Context, req lightning.InvoiceRequest) (lightning.Invoice, error) {
	if err := checkRequest("lnd add invoice", req); err != nil {
		return lightning.Invoice{}, err
	}
	body := addInvoiceRequest{Memo: req.Memo, ValueMsat: strconv.FormatUint(req.Msat, 10)}
	if req.Expiry > 0 {
		body.Expiry = strconv.FormatInt(int64(req.Expiry/time.Second), 10)
	}
	var resp addInvoiceResponse
	if err := c.call(ctx, http.MethodPost, "/v1/invoices", body, &resp); err != nil {
		return lightning.Invoice{}, fmt.Errorf("lnd add invoice: %w", err)
	}
	hash, err := resp.RHash.hash()
	if err != nil {
		return lightning.Invoice{}, fmt.Errorf("%w: lnd add invoice: r_hash: %v", lightning.ErrWallet, err)
	}
	return c.issued("lnd add invoice", hash, resp.PaymentRequest, req)
}

// issued checks a payment request the node wrote for req under hash (it decodes, is of this
// network, and carries hash, req.Msat and req.Memo) and returns it as an Open invoice.
func (c *Client) issued(op string, hash [32]byte, paymentRequest string, req lightning.InvoiceRequest) (lightning.Invoice, error) {
	inv, err := c.decode(paymentRequest)
	if err != nil {
		return lightning.Invoice{}, fmt.Errorf("%s: the node's payment request: %w", op, err)
	}
	if inv.PaymentHash != hash || inv.Msat != req.Msat || inv.Description != req.Memo {
		return lightning.Invoice{}, fmt.Errorf("%w: %s: the payment request (hash %x, %d msat, %q) is not the one asked (hash %x, %d msat, %q)",
			lightning.ErrBadInvoice, op, inv.PaymentHash, inv.Msat, inv.Description, hash, req.Msat, req.Memo)
	}
	return lightning.Invoice{
		PaymentHash: hash,
		Bolt11:      paymentRequest,
		Msat:        inv.Msat,
		State:       lightning.InvoiceOpen,
		CreatedAt:   time.Unix(int64(inv.Timestamp), 0),
		Expiry:      time.Duration(min(inv.Expiry, 1<<32)) * time.Second,
	}, nil
}

// checkRequest refuses an InvoiceRequest lnd cannot issue: no amount, or an expiry not in whole
// seconds. Errors wrap lightning.ErrBadInvoice.
func checkRequest(op string, req lightning.InvoiceRequest) error {
	if req.Msat == 0 || req.Msat > 1<<63-1 {
		return fmt.Errorf("%w: %s: amount %d msat", lightning.ErrBadInvoice, op, req.Msat)
	}
	if req.Expiry < 0 || req.Expiry%time.Second != 0 {
		return fmt.Errorf("%w: %s: expiry %v is not whole seconds", lightning.ErrBadInvoice, op, req.Expiry)
	}
	return nil
}

// AddHoldInvoice asks the node for a hold invoice on hash (POST /v2/invoices/hodl, invoicesrpc):
// paid, it is Accepted, the payer's HTLC held and the funds in escrow, until SettleInvoice with
// the preimage takes them or CancelInvoice returns them. The payment request is checked as
// AddInvoice's is. The node must be built with the invoicesrpc tag.
func (c *Client) AddHoldInvoice(ctx context.Context, hash [32]byte, req lightning.InvoiceRequest) (lightning.Invoice, error) {
	const op = "lnd add hold invoice"
	if err := checkRequest(op, req); err != nil {
		return lightning.Invoice{}, err
	}
	body := addHoldInvoiceRequest{Memo: req.Memo, Hash: base64.StdEncoding.EncodeToString(hash[:]), ValueMsat: strconv.FormatUint(req.Msat, 10)}
	if req.Expiry > 0 {
		body.Expiry = strconv.FormatInt(int64(req.Expiry/time.Second), 10)
	}
	var resp addHoldInvoiceResponse
	if err := c.call(ctx, http.MethodPost, "/v2/invoices/hodl", body, &resp); err != nil {
		return lightning.Invoice{}, fmt.Errorf("%s: %w", op, err)
	}
	return c.issued(op, hash, resp.PaymentRequest, req)
}

// SettleInvoice takes the funds of an Accepted hold invoice by revealing its preimage (POST
// /v2/invoices/settle). An invoice the node does not hold is lightning.ErrNotFound; one not
// Accepted (still Open, already Settled or Canceled) is lightning.ErrWallet.
func (c *Client) SettleInvoice(ctx context.Context, preimage [32]byte) error {
	body := map[string]string{"preimage": base64.StdEncoding.EncodeToString(preimage[:])}
	if err := c.call(ctx, http.MethodPost, "/v2/invoices/settle", body, &struct{}{}); err != nil {
		return fmt.Errorf("lnd settle invoice %x: %w", sha256.Sum256(preimage[:]), err)
	}
	return nil
}

// CancelInvoice cancels an Open or Accepted invoice (POST /v2/invoices/cancel): a held payment is
// returned to its payer, and the invoice can no longer be paid. An unknown hash is
// lightning.ErrNotFound; a Settled invoice is lightning.ErrWallet.
func (c *Client) CancelInvoice(ctx context.Context, paymentHash [32]byte) error {
	body := map[string]string{"payment_hash": base64.StdEncoding.EncodeToString(paymentHash[:])}
	if err := c.call(ctx, http.MethodPost, "/v2/invoices/cancel", body, &struct{}{}); err != nil {
		return fmt.Errorf("lnd cancel invoice %x: %w", paymentHash, err)
	}
	return nil
}

// LookupInvoice reads an invoice the node issued (GET /v1/invoice/{hex hash}). An unknown hash is
// lightning.ErrNotFound.
func (c *Client) LookupInvoice(ctx context.Context, paymentHash [32]byte) (lightning.Invoice, error) {
	var resp invoiceJSON
	if err := c.call(ctx, http.MethodGet, "/v1/invoice/"+hex.EncodeToString(paymentHash[:]), nil, &resp); err != nil {
		return lightning.Invoice{}, fmt.Errorf("lnd lookup invoice %x: %w", paymentHash, err)
	}
	hash, err := resp.RHash.hash()
	if err != nil || hash != paymentHash {
		return lightning.Invoice{}, fmt.Errorf("%w: lnd lookup invoice %x: the node answered r_hash %q", lightning.ErrWallet, paymentHash, resp.RHash)
	}
	out := lightning.Invoice{
		PaymentHash: hash,
		Bolt11:      resp.PaymentRequest,
		State:       lightning.InvoiceState(resp.State),
		CreatedAt:   time.Unix(int64(resp.CreationDate), 0),
		Expiry:      time.Duration(resp.Expiry) * time.Second,
	}
	switch out.State {
	case lightning.InvoiceOpen, lightning.InvoiceAccepted, lightning.InvoiceSettled, lightning.InvoiceCanceled:
	default:
		return lightning.Invoice{}, fmt.Errorf("%w: lnd lookup invoice %x: state %q", lightning.ErrWallet, paymentHash, resp.State)
	}
	if resp.ValueMsat < 0 || resp.AmtPaidMsat < 0 || resp.Expiry < 0 {
		return lightning.Invoice{}, fmt.Errorf("%w: lnd lookup invoice %x: negative amount or expiry", lightning.ErrWallet, paymentHash)
	}
	out.Msat = uint64(resp.ValueMsat)
	if out.State == lightning.InvoiceSettled {
		out.PaidMsat = uint64(resp.AmtPaidMsat)
		out.SettledAt = time.Unix(int64(resp.SettleDate), 0)
	}
	return out, nil
}

// Pay decodes req.Bolt11, checks it (this network, not expired at Now, asking exactly req.Msat),
// then pays it (POST /v2/router/send with no_inflight_updates) and waits for the final update.
// A failed payment is a Payment with Status PaymentFailed and a nil error.
func (c *Client) Pay(ctx context.Context, req lightning.PayRequest) (lightning.Payment, error) {
	inv, err := c.decode(req.Bolt11)
	if err != nil {
		return lightning.Payment{}, fmt.Errorf("lnd pay: %w", err)
	}
	switch {
	case req.Msat == 0 || inv.Msat == 0:
		return lightning.Payment{}, fmt.Errorf("%w: lnd pay %x: no amount (the invoice asks %d msat, the caller means %d)", lightning.ErrBadInvoice, inv.PaymentHash, inv.Msat, req.Msat)
	case inv.Expired(c.now()):
		return lightning.Payment{}, fmt.Errorf("%w: lnd pay %x: expired at %v", lightning.ErrBadInvoice, inv.PaymentHash, inv.ExpiresAt().UTC())
	case inv.Msat != req.Msat:
		return lightning.Payment{}, fmt.Errorf("%w: lnd pay %x: the invoice asks %d msat, not %d", lightning.ErrBadInvoice, inv.PaymentHash, inv.Msat, req.Msat)
	case req.MaxFeeMsat > 1<<63-1:
		return lightning.Payment{}, fmt.Errorf("%w: lnd pay %x: fee limit %d msat", lightning.ErrBadInvoice, inv.PaymentHash, req.MaxFeeMsat)
	}
	timeout := req.Timeout
	if timeout <= 0 {
		timeout = defaultPayTimeout
	}
	body := sendPaymentRequest{
		PaymentRequest:    req.Bolt11,
		TimeoutSeconds:    int32(min(timeout/time.Second, 1<<31-1)),
		FeeLimitMsat:      strconv.FormatUint(req.MaxFeeMsat, 10),
		NoInflightUpdates: true,
	}
	var p paymentJSON
	err = c.stream(ctx, "/v2/router/send", body, func(msg json.RawMessage) (bool, error) {
		p = paymentJSON{}
		if err := json.Unmarshal(msg, &p); err != nil {
			return false, fmt.Errorf("%w: payment update: %v", lightning.ErrWallet, err)
		}
		return p.Status == "SUCCEEDED" || p.Status == "FAILED", nil
	})
	if err != nil {
		return lightning.Payment{}, fmt.Errorf("lnd pay %x: %w", inv.PaymentHash, err)
	}
	hash, err := hex.DecodeString(p.PaymentHash)
	if err != nil || !bytes.Equal(hash, inv.PaymentHash[:]) {
		return lightning.Payment{}, fmt.Errorf("%w: lnd pay %x: the node answered payment_hash %q", lightning.ErrWallet, inv.PaymentHash, p.PaymentHash)
	}
	out := lightning.Payment{PaymentHash: inv.PaymentHash, Status: lightning.PaymentStatus(p.Status), FailureReason: p.FailureReason}
	if p.ValueMsat < 0 || p.FeeMsat < 0 {
		return lightning.Payment{}, fmt.Errorf("%w: lnd pay %x: negative amount or fee", lightning.ErrWallet, inv.PaymentHash)
	}
	if out.Status == lightning.PaymentSucceeded {
		pre, err := hex.DecodeString(p.PaymentPreimage)
		if err != nil || len(pre) != 32 || sha256.Sum256(pre) != inv.PaymentHash {
			return lightning.Payment{}, fmt.Errorf("%w: lnd pay %x: preimage %q does not hash to the payment hash", lightning.ErrWallet, inv.PaymentHash, p.PaymentPreimage)
		}
		out.Preimage = [32]byte(pre)
		out.Msat, out.FeeMsat = uint64(p.ValueMsat), uint64(p.FeeMsat)
		out.FailureReason = ""
	}
	return out, nil
}

// decode reads an invoice and checks its network. Errors wrap lightning.ErrBadInvoice.
func (c *Client) decode(s string) (*bolt11.Invoice, error) {
	inv, err := bolt11.Decode(s)
	if err != nil {
		return nil, fmt.Errorf("%w: %v", lightning.ErrBadInvoice, err)
	}
	if inv.Currency != c.currency {
		return nil, fmt.Errorf("%w: an invoice of %q, the node is on %q", lightning.ErrBadInvoice, inv.Currency, c.currency)
	}
	return inv, nil
}

// request builds an authenticated request with body as JSON (nil: none).
func (c *Client) request(ctx context.Context, method, path string, body any) (*http.Request, error) {
	var rd io.Reader
	if body != nil {
		b, err := json.Marshal(body)
		if err != nil {
			return nil, fmt.Errorf("%w: %v", lightning.ErrWallet, err)
		}
		rd = bytes.NewReader(b)
	}
	u := *c.base
	u.Path = path
	req, err := http.NewRequestWithContext(ctx, method, u.String(), rd)
	if err != nil {
		return nil, fmt.Errorf("%w: %v", lightning.ErrWallet, err)
	}
	req.Header.Set("Grpc-Metadata-macaroon", c.macaroon)
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	return req, nil
}

// call makes a unary call and decodes the answer into out. A non-200 answer is the node's error.
func (c *Client) call(ctx context.Context, method, path string, body, out any) error {
	req, err := c.request(ctx, method, path, body)
	if err != nil {
		return err
	}
	resp, err := c.http.Do(req)
	if err != nil {
		return fmt.Errorf("%w: %v", lightning.ErrWallet, err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(io.LimitReader(resp.Body, maxBody+1))
	if err != nil {
		return fmt.Errorf("%w: reading the answer: %v", lightning.ErrWallet, err)
	}
	if len(b) > maxBody {
		return fmt.Errorf("%w: an answer over %d bytes", lightning.ErrWallet, maxBody)
	}
	if resp.StatusCode != http.StatusOK {
		return statusError(resp.StatusCode, b)
	}
	if err := json.Unmarshal(b, out); err != nil {
		return fmt.Errorf("%w: the answer is not what lnd sends: %v", lightning.ErrWallet, err)
	}
	return nil
}

// stream makes a server-streaming call: each line of the answer is {"result": ...} or
// {"error": status}. each is given every result until it reports done; the stream ending first
// is an error.
func (c *Client) stream(ctx context.Context, path string, body any, each func(json.RawMessage) (bool, error)) error {
	req, err := c.request(ctx, http.MethodPost, path, body)
	if err != nil {
		return err
	}
	resp, err := c.http.Do(req)
	if err != nil {
		return fmt.Errorf("%w: %v", lightning.ErrWallet, err)
	}
	defer resp.Body.Close()
	sc := bufio.NewScanner(resp.Body)
	sc.Buffer(make([]byte, 0, 64<<10), maxBody)
	for sc.Scan() {
		line := bytes.TrimSpace(sc.Bytes())
		if len(line) == 0 {
			continue
		}
		var chunk struct {
			Result json.RawMessage `json:"result"`
			Error  *rpcStatus      `json:"error"`
		}
		if err := json.Unmarshal(line, &chunk); err != nil {
			return fmt.Errorf("%w: a stream line is not what lnd sends: %v", lightning.ErrWallet, err)
		}
		if chunk.Error != nil {
			return chunk.Error.err(resp.StatusCode)
		}
		if chunk.Result == nil {
			return fmt.Errorf("%w: a stream line with neither result nor error", lightning.ErrWallet)
		}
		done, err := each(chunk.Result)
		if err != nil || done {
			return err
		}
	}
	if err := sc.Err(); err != nil {
		return fmt.Errorf("%w: reading the stream: %v", lightning.ErrWallet, err)
	}
	if resp.StatusCode != http.StatusOK {
		return fmt.Errorf("%w: HTTP %d with no error line", lightning.ErrWallet, resp.StatusCode)
	}
	return fmt.Errorf("%w: the stream ended before a final update", lightning.ErrWallet)
}

// rpcStatus is a gRPC status as grpc-gateway v2 writes it: the body of a failed unary call and
// the "error" of a stream line.
type rpcStatus struct {
	Code    int             `json:"code"`
	Message string          `json:"message"`
	Details json.RawMessage `json:"details"`
}

// gRPC codes the client tells apart.
const (
	codeNotFound      = 5
	codeAlreadyExists = 6
)

// Messages lnd v0.18 sends with gRPC code 2 (Unknown) that the client tells apart: the
// invoices package's ErrInvoiceNotFound (SettleInvoice, CancelInvoice of an unknown hash), and
// routerrpc's refusal of an invoice past its expiry.
const (
	msgInvoiceNotFound = "unable to locate invoice"
	msgInvoiceExpired  = "invoice expired"
)

// err is the status as an error: NotFound (or an Unknown "unable to locate invoice") is
// lightning.ErrNotFound, AlreadyExists lightning.ErrAlreadyPaid, an "invoice expired" refusal
// lightning.ErrBadInvoice, anything else lightning.ErrWallet.
func (s *rpcStatus) err(httpStatus int) error {
	sentinel := lightning.ErrWallet
	switch {
	case s.Code == codeNotFound, strings.HasPrefix(s.Message, msgInvoiceNotFound):
		sentinel = lightning.ErrNotFound
	case s.Code == codeAlreadyExists:
		sentinel = lightning.ErrAlreadyPaid
	case strings.HasPrefix(s.Message, msgInvoiceExpired):
		sentinel = lightning.ErrBadInvoice
	}
	return fmt.Errorf("%w: HTTP %d, gRPC code %d: %s", sentinel, httpStatus, s.Code, s.Message)
}

// statusError reads a failed unary call's body.
func statusError(httpStatus int, body []byte) error {
	var s rpcStatus
	if err := json.Unmarshal(body, &s); err != nil || s.Message == "" {
		return fmt.Errorf("%w: HTTP %d: %.200q", lightning.ErrWallet, httpStatus, body)
	}
	return s.err(httpStatus)
}

// The request and answer bodies, as lnd's REST proxy writes them (proto field names; int64 and
// uint64 as decimal strings; bytes as standard base64). Fields the client does not read are left
// out; encoding/json ignores them in answers.
type addInvoiceRequest struct {
	Memo      string `json:"memo"`
	ValueMsat string `json:"value_msat"`
	Expiry    string `json:"expiry,omitempty"`
}

type addHoldInvoiceRequest struct {
	Memo      string `json:"memo"`
	Hash      string `json:"hash"` // base64
	ValueMsat string `json:"value_msat"`
	Expiry    string `json:"expiry,omitempty"`
}

type addHoldInvoiceResponse struct {
	PaymentRequest string `json:"payment_request"`
	AddIndex       i64    `json:"add_index"`
	PaymentAddr    b64    `json:"payment_addr"`
}

type addInvoiceResponse struct {
	RHash          b64    `json:"r_hash"`
	PaymentRequest string `json:"payment_request"`
	AddIndex       i64    `json:"add_index"`
	PaymentAddr    b64    `json:"payment_addr"`
}

type invoiceJSON struct {
	Memo           string `json:"memo"`
	RHash          b64    `json:"r_hash"`
	ValueMsat      i64    `json:"value_msat"`
	CreationDate   i64    `json:"creation_date"`
	SettleDate     i64    `json:"settle_date"`
	PaymentRequest string `json:"payment_request"`
	Expiry         i64    `json:"expiry"`
	AmtPaidMsat    i64    `json:"amt_paid_msat"`
	State          string `json:"state"`
}

type sendPaymentRequest struct {
	PaymentRequest    string `json:"payment_request"`
	TimeoutSeconds    int32  `json:"timeout_seconds"`
	FeeLimitMsat      string `json:"fee_limit_msat"`
	NoInflightUpdates bool   `json:"no_inflight_updates"`
}

type paymentJSON struct {
	PaymentHash     string `json:"payment_hash"`     // hex (a string field in lnrpc.Payment)
	PaymentPreimage string `json:"payment_preimage"` // hex
	ValueMsat       i64    `json:"value_msat"`
	FeeMsat         i64    `json:"fee_msat"`
	Status          string `json:"status"`
	FailureReason   string `json:"failure_reason"`
}

// i64 is a protojson int64 or uint64: a JSON string of decimal digits (uint64 values above
// 2^63-1 are refused; none the client reads can be that large).
type i64 int64

func (v *i64) UnmarshalJSON(b []byte) error {
	var s string
	if err := json.Unmarshal(b, &s); err != nil {
		return fmt.Errorf("want a decimal string, got %s", b)
	}
	n, err := strconv.ParseInt(s, 10, 64)
	if err != nil {
		return fmt.Errorf("want a decimal string, got %q", s)
	}
	*v = i64(n)
	return nil
}

// b64 is protojson bytes: standard base64 with padding.
type b64 string

// hash decodes a 32-byte hash.
func (v b64) hash() ([32]byte, error) {
	b, err := base64.StdEncoding.DecodeString(string(v))
	if err != nil || len(b) != 32 {
		return [32]byte{}, fmt.Errorf("%q is not 32 bytes of base64", strings.TrimSpace(string(v)))
	}
	return [32]byte(b), nil
}
