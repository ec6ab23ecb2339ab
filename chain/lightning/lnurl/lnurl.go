// Package lnurl turns a Lightning address into an invoice to pay: LUD-16 (user@domain names
// https://domain/.well-known/lnurlp/user) and LUD-06 (that document is a payRequest; its callback,
// given the amount in millisatoshis, answers a BOLT 11 invoice). Every fetch goes through the
// egress policy (chain/egress), and the invoice is decoded and checked (network, amount, and the
// description hash LUD-06 requires: sha256 of the metadata) before it is returned.
//
// # Errors
//
// Every error wraps ErrBadAddress (the address, or what its service answers, can never be paid:
// malformed, a refused address, the amount outside minSendable..maxSendable, a status ERROR, a
// wrong invoice) or ErrUnreachable (the service could not be reached or answered a non-200; a
// later try may work).
package lnurl

import (
	"context"
	"crypto/sha256"
	"encoding/json"
	"errors"
	"fmt"
	"net/url"
	"strconv"
	"strings"

	"arena/chain/egress"
	"arena/chain/lightning/bolt11"
)

// The ways a Resolve fails.
var (
	// ErrBadAddress: the address or its service's answer cannot be paid (Break Room:
	// bad_payout_address). Trying again will not help.
	ErrBadAddress = errors.New("lnurl: bad payout address")
	// ErrUnreachable: the service did not answer usably this time (network, timeout, status);
	// the caller may retry with back-off.
	ErrUnreachable = errors.New("lnurl: payout address unreachable")
)

// Address is a Lightning address (LUD-16).
type Address struct {
	User   string // a-z 0-9 - _ . +
	Domain string // a lower-case host name, with :port only for development
}

// String is user@domain.
func (a Address) String() string { return a.User + "@" + a.Domain }

// ParseAddress reads user@domain. The user is LUD-16's a-z0-9-_.+ (upper case refused, as
// LUD-16 allows only lower case); the domain is a host name of letters, digits, '-' and '.',
// lower-cased, with an optional :port. Errors wrap ErrBadAddress.
func ParseAddress(s string) (Address, error) {
	user, domain, ok := strings.Cut(s, "@")
	if !ok || user == "" || domain == "" || len(s) > 320 {
		return Address{}, fmt.Errorf("%w: %q is not user@domain", ErrBadAddress, s)
	}
	for _, r := range user {
		if !(r >= 'a' && r <= 'z' || r >= '0' && r <= '9' || strings.ContainsRune("-_.+", r)) {
			return Address{}, fmt.Errorf("%w: %q: the user part allows only a-z 0-9 - _ . +", ErrBadAddress, s)
		}
	}
	domain = strings.ToLower(domain)
	host, port, hasPort := strings.Cut(domain, ":")
	if hasPort {
		if n, err := strconv.Atoi(port); err != nil || n < 1 || n > 65535 || strconv.Itoa(n) != port {
			return Address{}, fmt.Errorf("%w: %q: bad port", ErrBadAddress, s)
		}
	}
	if host == "" || len(host) > 253 || strings.HasPrefix(host, ".") || strings.HasSuffix(host, ".") || strings.Contains(host, "..") {
		return Address{}, fmt.Errorf("%w: %q: bad domain", ErrBadAddress, s)
	}
	for _, r := range host {
		if !(r >= 'a' && r <= 'z' || r >= '0' && r <= '9' || r == '-' || r == '.') {
			return Address{}, fmt.Errorf("%w: %q: bad domain", ErrBadAddress, s)
		}
	}
	return Address{User: user, Domain: domain}, nil
}

// PayParams is a LUD-06 payRequest.
type PayParams struct {
	Callback    string // an absolute URL
	MinSendable uint64 // msat
	MaxSendable uint64 // msat
	Metadata    string // a JSON array of [mime, content] pairs, as sent (it is hashed byte for byte)
}

// lnurlError is LUD-06's error answer.
type lnurlError struct {
	Status string `json:"status"`
	Reason string `json:"reason"`
}

// ParsePayParams reads the answer at the address's well-known URL: tag "payRequest", a callback
// URL, 1 <= minSendable <= maxSendable, and metadata a JSON array of string pairs holding a
// "text/plain" entry. A {"status":"ERROR"} answer is refused with its reason. Errors wrap
// ErrBadAddress.
func ParsePayParams(b []byte) (PayParams, error) {
	var raw struct {
		lnurlError
		Tag         string          `json:"tag"`
		Callback    string          `json:"callback"`
		MinSendable json.Number     `json:"minSendable"`
		MaxSendable json.Number     `json:"maxSendable"`
		Metadata    json.RawMessage `json:"metadata"`
	}
	if err := json.Unmarshal(b, &raw); err != nil {
		return PayParams{}, fmt.Errorf("%w: the payRequest is not JSON: %v", ErrBadAddress, err)
	}
	if strings.EqualFold(raw.Status, "ERROR") {
		return PayParams{}, fmt.Errorf("%w: the service says: %.200s", ErrBadAddress, raw.Reason)
	}
	if raw.Tag != "payRequest" {
		return PayParams{}, fmt.Errorf("%w: tag %q, want payRequest", ErrBadAddress, raw.Tag)
	}
	u, err := url.Parse(raw.Callback)
	if err != nil || (u.Scheme != "https" && u.Scheme != "http") || u.Host == "" {
		return PayParams{}, fmt.Errorf("%w: callback %q is not an http(s) URL", ErrBadAddress, raw.Callback)
	}
	lo, err1 := strconv.ParseUint(raw.MinSendable.String(), 10, 64)
	hi, err2 := strconv.ParseUint(raw.MaxSendable.String(), 10, 64)
	if err1 != nil || err2 != nil || lo < 1 || lo > hi {
		return PayParams{}, fmt.Errorf("%w: minSendable %q, maxSendable %q", ErrBadAddress, raw.MinSendable, raw.MaxSendable)
	}
	var meta string
	if err := json.Unmarshal(raw.Metadata, &meta); err != nil {
		return PayParams{}, fmt.Errorf("%w: metadata is not a JSON string", ErrBadAddress)
	}
	var pairs [][]string
	if err := json.Unmarshal([]byte(meta), &pairs); err != nil {
		return PayParams{}, fmt.Errorf("%w: metadata is not an array of string pairs", ErrBadAddress)
	}
	plain := false
	for _, p := range pairs {
		if len(p) != 2 {
			return PayParams{}, fmt.Errorf("%w: a metadata entry is not a pair", ErrBadAddress)
		}
		plain = plain || p[0] == "text/plain"
	}
	if !plain {
		return PayParams{}, fmt.Errorf("%w: metadata has no text/plain entry", ErrBadAddress)
	}
	return PayParams{Callback: raw.Callback, MinSendable: lo, MaxSendable: hi, Metadata: meta}, nil
}

// ParseCallback reads the callback's answer: {"pr": invoice, "routes": []} (or the ERROR
// form). It returns the invoice string unchecked. Errors wrap ErrBadAddress.
func ParseCallback(b []byte) (string, error) {
	var raw struct {
		lnurlError
		PR string `json:"pr"`
	}
	if err := json.Unmarshal(b, &raw); err != nil {
		return "", fmt.Errorf("%w: the callback's answer is not JSON: %v", ErrBadAddress, err)
	}
	if strings.EqualFold(raw.Status, "ERROR") {
		return "", fmt.Errorf("%w: the service says: %.200s", ErrBadAddress, raw.Reason)
	}
	if raw.PR == "" {
		return "", fmt.Errorf("%w: the callback answered no pr", ErrBadAddress)
	}
	return raw.PR, nil
}

// Resolver fetches invoices for Lightning addresses.
type Resolver struct {
	// Egress is the client every fetch goes through; its policy decides what may be reached.
	Egress *egress.Client
	// Scheme is "https" (LUD-16), or "" for it; "http" only for development (the egress policy
	// must allow it too).
	Scheme string
	// Currency is the network the invoice must be on.
	Currency bolt11.Currency
}

// Invoice resolves addr and asks its service for an invoice of msat: the payRequest must allow
// msat, and the invoice it answers must decode, be on Currency, ask exactly msat and carry
// sha256(metadata) as its description hash. It returns the invoice string and its decoding.
func (r *Resolver) Invoice(ctx context.Context, addr string, msat uint64) (string, *bolt11.Invoice, error) {
	a, err := ParseAddress(addr)
	if err != nil {
		return "", nil, err
	}
	scheme := r.Scheme
	if scheme == "" {
		scheme = "https"
	}
	b, err := r.get(ctx, scheme+"://"+a.Domain+"/.well-known/lnurlp/"+a.User)
	if err != nil {
		return "", nil, err
	}
	params, err := ParsePayParams(b)
	if err != nil {
		return "", nil, err
	}
	if msat < params.MinSendable || msat > params.MaxSendable {
		return "", nil, fmt.Errorf("%w: %s takes %d..%d msat, not %d", ErrBadAddress, a, params.MinSendable, params.MaxSendable, msat)
	}
	cb, _ := url.Parse(params.Callback) // ParsePayParams checked it
	q := cb.Query()
	q.Set("amount", strconv.FormatUint(msat, 10))
	cb.RawQuery = q.Encode()
	b, err = r.get(ctx, cb.String())
	if err != nil {
		return "", nil, err
	}
	pr, err := ParseCallback(b)
	if err != nil {
		return "", nil, err
	}
	inv, err := bolt11.Decode(pr)
	if err != nil {
		return "", nil, fmt.Errorf("%w: the invoice: %v", ErrBadAddress, err)
	}
	want := sha256.Sum256([]byte(params.Metadata))
	switch {
	case inv.Currency != r.Currency:
		return "", nil, fmt.Errorf("%w: an invoice of %q, want %q", ErrBadAddress, inv.Currency, r.Currency)
	case inv.Msat != msat:
		return "", nil, fmt.Errorf("%w: the invoice asks %d msat, not %d", ErrBadAddress, inv.Msat, msat)
	case inv.DescriptionHash == nil || *inv.DescriptionHash != want:
		return "", nil, fmt.Errorf("%w: the invoice's description hash is not sha256 of the metadata", ErrBadAddress)
	}
	return pr, inv, nil
}

// get fetches a URL through the egress client: a refused URL or address is ErrBadAddress, any
// other failure ErrUnreachable.
func (r *Resolver) get(ctx context.Context, u string) ([]byte, error) {
	b, err := r.Egress.Get(ctx, u, "application/json")
	switch {
	case err == nil:
		return b, nil
	case errors.Is(err, egress.ErrBadURL), errors.Is(err, egress.ErrScheme), errors.Is(err, egress.ErrBlocked), errors.Is(err, egress.ErrTooLarge):
		return nil, fmt.Errorf("%w: %v", ErrBadAddress, err)
	default:
		return nil, fmt.Errorf("%w: %v", ErrUnreachable, err)
	}
}
