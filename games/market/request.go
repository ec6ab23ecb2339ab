package market

import (
	"encoding/json"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"arena/games/canon"
)

// ProtocolVersion is the one protocolVersion this market speaks.
const ProtocolVersion = 2

// The actions ("Enrolment" … "Rounds").
const (
	ActEnroll          = "enroll"
	ActSetTradingName  = "setTradingName"
	ActReadInventory   = "readInventory"
	ActReadStatement   = "readStatement"
	ActGetExchange     = "getExchange"
	ActListExchanges   = "listExchanges"
	ActReadStanding    = "readStanding"
	ActTransfer        = "transfer"
	ActProposeExchange = "proposeExchange"
	ActRespond         = "respondToExchange"
	ActCancel          = "cancelExchange"
	ActCounter         = "counterExchange"
)

// Bounds of the request (docs/protocol-notes.md "Game Master market").
const (
	maxCommandID   = 128 // bytes of a commandId
	maxTradingName = 32  // characters of a trimmed Trading Name ("Trading Name")
	maxLimit       = 100 // limit and roundLimit
	defaultLimit   = 50  // limit when not given
	maxRoundWindow = 100 // Rounds one response carries ("Rounds")
	maxTermsItems  = 64  // entries of one offered or requested array before merging
	maxQuantity    = 1<<53 - 1
)

// request is one parsed request: its action and its members, checked for shape (types,
// presence, ranges) but not yet against the State. canonical is the canonical form of the
// parsed command, whose SHA-256 is its idempotency hash ("Idempotency and atomicity").
type request struct {
	action    string
	commandID string // mutations only

	tradingName string // trimmed; "" resets

	toPlayerID string
	assetID    string
	quantity   int64

	counterparty string
	offered      []Holding // normalized: sorted by assetId, duplicates summed
	requested    []Holding
	expiresAt    time.Time // UTC, whole milliseconds

	exchangeID      string
	exchangeVersion uint64
	termsHash       string
	decision        string

	limit       int
	cursor      string
	status      string
	roundLimit  int
	roundCursor string

	canonical []byte
}

func (r *request) mutation() bool {
	switch r.action {
	case ActReadInventory, ActReadStatement, ActGetExchange, ActListExchanges, ActReadStanding:
		return false
	}
	return true
}

// The members of each action's request. Pointers tell a missing member from a zero one; a
// member not listed is refused (canon.Decode).
type (
	base struct {
		ProtocolVersion int64  `json:"protocolVersion"`
		Action          string `json:"action"`
	}
	mutationBase struct {
		base
		CommandID *string `json:"commandId"`
	}
	enrollReq         struct{ mutationBase }
	setTradingNameReq struct {
		mutationBase
		TradingName json.RawMessage `json:"tradingName"`
	}
	readInventoryReq struct{ base }
	readStandingReq  struct{ base }
	readStatementReq struct {
		base
		Limit *int64 `json:"limit"`
	}
	getExchangeReq struct {
		base
		ExchangeID  *string `json:"exchangeId"`
		RoundLimit  *int64  `json:"roundLimit"`
		RoundCursor *string `json:"roundCursor"`
	}
	listExchangesReq struct {
		base
		Status *string `json:"status"`
		Limit  *int64  `json:"limit"`
		Cursor *string `json:"cursor"`
	}
	transferReq struct {
		mutationBase
		ToPlayerID *string `json:"toPlayerId"`
		AssetID    *string `json:"assetId"`
		Quantity   *int64  `json:"quantity"`
	}
	item struct {
		AssetID  *string `json:"assetId"`
		Quantity *int64  `json:"quantity"`
	}
	proposeReq struct {
		mutationBase
		Counterparty *string `json:"counterpartyPlayerId"`
		Offered      *[]item `json:"offered"`
		Requested    *[]item `json:"requested"`
		ExpiresAt    *string `json:"expiresAt"`
	}
	respondReq struct {
		mutationBase
		ExchangeID      *string `json:"exchangeId"`
		ExchangeVersion *int64  `json:"exchangeVersion"`
		TermsHash       *string `json:"termsHash"`
		Decision        *string `json:"decision"`
	}
	cancelReq struct {
		mutationBase
		ExchangeID      *string `json:"exchangeId"`
		ExchangeVersion *int64  `json:"exchangeVersion"`
	}
	counterReq struct {
		mutationBase
		ExchangeID      *string `json:"exchangeId"`
		ExchangeVersion *int64  `json:"exchangeVersion"`
		TermsHash       *string `json:"termsHash"`
		Offered         *[]item `json:"offered"`
		Requested       *[]item `json:"requested"`
		ExpiresAt       *string `json:"expiresAt"`
	}
)

// The canonical parsed command each mutation hashes: every member as parsed and normalized
// (a trimmed name, merged and sorted goods, the UTC deadline), so two spellings of one command
// are one command.
type canonicalCommand struct {
	ProtocolVersion int       `json:"protocolVersion"`
	Action          string    `json:"action"`
	CommandID       string    `json:"commandId"`
	TradingName     *string   `json:"tradingName,omitempty"`
	ToPlayerID      string    `json:"toPlayerId,omitempty"`
	AssetID         string    `json:"assetId,omitempty"`
	Quantity        int64     `json:"quantity,omitempty"`
	Counterparty    string    `json:"counterpartyPlayerId,omitempty"`
	Offered         []Holding `json:"offered,omitempty"`
	Requested       []Holding `json:"requested,omitempty"`
	ExpiresAt       string    `json:"expiresAt,omitempty"`
	ExchangeID      string    `json:"exchangeId,omitempty"`
	ExchangeVersion uint64    `json:"exchangeVersion,omitempty"`
	TermsHash       string    `json:"termsHash,omitempty"`
	Decision        string    `json:"decision,omitempty"`
}

func malformed(msg string) *refusal { return refuse(CodeMalformedRequest, msg) }

// parseRequest is the one strict reader of a request body ("Response": unknown fields are
// refused; mutations need a non-empty commandId, queries omit it). Its order: one strict JSON
// object (canon), protocolVersion (a whole number, 2), action (a known one), then the action's
// members exactly. It never panics; a refusal is malformed_request or
// unsupported_protocol_version.
func parseRequest(body []byte) (request, *refusal) {
	v, err := canon.Parse(body)
	if err != nil {
		return request{}, malformed("the body is not one strict JSON value: " + canon.Reason(err))
	}
	if v.Kind() != canon.Object {
		return request{}, malformed("the body is not a JSON object")
	}
	var pv, act canon.Value
	var havePV, haveAct bool
	for i := 0; i < v.Len(); i++ {
		switch name, m := v.Member(i); name {
		case "protocolVersion":
			pv, havePV = m, true
		case "action":
			act, haveAct = m, true
		}
	}
	if !havePV {
		return request{}, malformed("protocolVersion is missing")
	}
	n, ok := pv.Int()
	if !ok {
		return request{}, malformed("protocolVersion is not a whole number")
	}
	if n != ProtocolVersion {
		return request{}, refuse(CodeUnsupportedProtocolVersion, "this Game Master speaks protocol version 2")
	}
	if !haveAct {
		return request{}, malformed("action is missing")
	}
	action, ok := act.Str()
	if !ok {
		return request{}, malformed("action is not a string")
	}
	r := request{action: action}
	var mb *mutationBase
	var rf *refusal
	decode := func(dst any) bool {
		if err := canon.Decode(body, dst); err != nil {
			rf = malformed("the " + action + " request: " + canon.Reason(err))
			return false
		}
		return true
	}
	switch action {
	case ActEnroll:
		var q enrollReq
		if !decode(&q) {
			return request{}, rf
		}
		mb = &q.mutationBase
	case ActSetTradingName:
		var q setTradingNameReq
		if !decode(&q) {
			return request{}, rf
		}
		mb = &q.mutationBase
		name, rf := parseTradingName(q.TradingName)
		if rf != nil {
			return request{}, rf
		}
		r.tradingName = name
	case ActReadInventory:
		var q readInventoryReq
		if !decode(&q) {
			return request{}, rf
		}
	case ActReadStanding:
		var q readStandingReq
		if !decode(&q) {
			return request{}, rf
		}
	case ActReadStatement:
		var q readStatementReq
		if !decode(&q) {
			return request{}, rf
		}
		if r.limit, rf = parseLimit("limit", q.Limit, defaultLimit); rf != nil {
			return request{}, rf
		}
	case ActGetExchange:
		var q getExchangeReq
		if !decode(&q) {
			return request{}, rf
		}
		if r.exchangeID, rf = need("exchangeId", q.ExchangeID); rf != nil {
			return request{}, rf
		}
		if r.roundLimit, rf = parseLimit("roundLimit", q.RoundLimit, maxRoundWindow); rf != nil {
			return request{}, rf
		}
		if q.RoundCursor != nil {
			r.roundCursor = *q.RoundCursor
		}
	case ActListExchanges:
		var q listExchangesReq
		if !decode(&q) {
			return request{}, rf
		}
		if q.Status != nil {
			switch *q.Status {
			case StatusAwaiting, StatusSettled, StatusDeclined, StatusCancelled, StatusExpired, StatusUnfunded:
				r.status = *q.Status
			default:
				return request{}, malformed("status is not an Exchange status")
			}
		}
		if r.limit, rf = parseLimit("limit", q.Limit, defaultLimit); rf != nil {
			return request{}, rf
		}
		if q.Cursor != nil {
			r.cursor = *q.Cursor
		}
	case ActTransfer:
		var q transferReq
		if !decode(&q) {
			return request{}, rf
		}
		mb = &q.mutationBase
		if r.toPlayerID, rf = need("toPlayerId", q.ToPlayerID); rf != nil {
			return request{}, rf
		}
		if r.assetID, rf = need("assetId", q.AssetID); rf != nil {
			return request{}, rf
		}
		if r.quantity, rf = parseQuantity("quantity", q.Quantity); rf != nil {
			return request{}, rf
		}
	case ActProposeExchange:
		var q proposeReq
		if !decode(&q) {
			return request{}, rf
		}
		mb = &q.mutationBase
		if r.counterparty, rf = need("counterpartyPlayerId", q.Counterparty); rf != nil {
			return request{}, rf
		}
		if rf = r.parseTerms(q.Offered, q.Requested, q.ExpiresAt); rf != nil {
			return request{}, rf
		}
	case ActRespond:
		var q respondReq
		if !decode(&q) {
			return request{}, rf
		}
		mb = &q.mutationBase
		if rf = r.parsePin(q.ExchangeID, q.ExchangeVersion, q.TermsHash, true); rf != nil {
			return request{}, rf
		}
		d, rf := need("decision", q.Decision)
		if rf != nil {
			return request{}, rf
		}
		if d != "approve" && d != "decline" {
			return request{}, malformed(`decision is neither "approve" nor "decline"`)
		}
		r.decision = d
	case ActCancel:
		var q cancelReq
		if !decode(&q) {
			return request{}, rf
		}
		mb = &q.mutationBase
		if rf = r.parsePin(q.ExchangeID, q.ExchangeVersion, nil, false); rf != nil {
			return request{}, rf
		}
	case ActCounter:
		var q counterReq
		if !decode(&q) {
			return request{}, rf
		}
		mb = &q.mutationBase
		if rf = r.parsePin(q.ExchangeID, q.ExchangeVersion, q.TermsHash, true); rf != nil {
			return request{}, rf
		}
		if rf = r.parseTerms(q.Offered, q.Requested, q.ExpiresAt); rf != nil {
			return request{}, rf
		}
	default:
		return request{}, malformed("action is not one this Game Master knows")
	}
	if mb == nil {
		return r, nil
	}
	if mb.CommandID == nil || *mb.CommandID == "" {
		return request{}, malformed("a mutation needs a non-empty commandId")
	}
	if len(*mb.CommandID) > maxCommandID {
		return request{}, malformed("commandId is longer than 128 bytes")
	}
	r.commandID = *mb.CommandID
	c := canonicalCommand{
		ProtocolVersion: ProtocolVersion, Action: r.action, CommandID: r.commandID,
		ToPlayerID: r.toPlayerID, AssetID: r.assetID, Quantity: r.quantity,
		Counterparty: r.counterparty, Offered: r.offered, Requested: r.requested,
		ExchangeID: r.exchangeID, ExchangeVersion: r.exchangeVersion, TermsHash: r.termsHash,
		Decision: r.decision,
	}
	if r.action == ActSetTradingName {
		c.TradingName = &r.tradingName
	}
	if !r.expiresAt.IsZero() {
		c.ExpiresAt = formatTime(r.expiresAt)
	}
	r.canonical, err = canon.Marshal(c)
	if err != nil {
		return request{}, malformed("the command has no canonical form")
	}
	return r, nil
}

func need(name string, s *string) (string, *refusal) {
	if s == nil {
		return "", malformed(name + " is missing")
	}
	return *s, nil
}

// parseLimit reads an optional limit in 1..100 (def when missing).
func parseLimit(name string, n *int64, def int) (int, *refusal) {
	if n == nil {
		return def, nil
	}
	if *n < 1 || *n > maxLimit {
		return 0, malformed(name + " is not between 1 and 100")
	}
	return int(*n), nil
}

func parseQuantity(name string, n *int64) (int64, *refusal) {
	if n == nil {
		return 0, malformed(name + " is missing")
	}
	if *n < 1 || *n > maxQuantity {
		return 0, malformed(name + " is not a whole number from 1 to 2^53−1")
	}
	return *n, nil
}

// parsePin reads the exchangeId, exchangeVersion and (when withHash) termsHash that pin the
// Round a command answers.
func (r *request) parsePin(id *string, version *int64, hash *string, withHash bool) *refusal {
	var rf *refusal
	if r.exchangeID, rf = need("exchangeId", id); rf != nil {
		return rf
	}
	if version == nil {
		return malformed("exchangeVersion is missing")
	}
	if *version < 1 {
		return malformed("exchangeVersion is not a whole number ≥ 1")
	}
	r.exchangeVersion = uint64(*version)
	if !withHash {
		return nil
	}
	h, rf := need("termsHash", hash)
	if rf != nil {
		return rf
	}
	if !isHash(h) {
		return malformed("termsHash is not 64 lowercase hex digits")
	}
	r.termsHash = h
	return nil
}

func isHash(s string) bool {
	if len(s) != 64 {
		return false
	}
	for i := 0; i < len(s); i++ {
		if c := s[i]; !('0' <= c && c <= '9' || 'a' <= c && c <= 'f') {
			return false
		}
	}
	return true
}

// parseTerms reads a Round's offered, requested and expiresAt ("Exchange"): each side a
// non-empty array of {assetId, quantity ≥ 1}, normalized (sorted by assetId, one entry per
// Asset, quantities summed); expiresAt an RFC 3339 instant with its offset, in whole
// milliseconds. Whether the Assets exist and the deadline is ahead are the State's questions.
func (r *request) parseTerms(offered, requested *[]item, expiresAt *string) *refusal {
	var rf *refusal
	if r.offered, rf = parseGoods("offered", offered); rf != nil {
		return rf
	}
	if r.requested, rf = parseGoods("requested", requested); rf != nil {
		return rf
	}
	s, rf := need("expiresAt", expiresAt)
	if rf != nil {
		return rf
	}
	t, ok := parseInstant(s)
	if !ok {
		return malformed("expiresAt is not an RFC 3339 timestamp in whole milliseconds")
	}
	r.expiresAt = t
	return nil
}

func parseGoods(name string, items *[]item) ([]Holding, *refusal) {
	if items == nil {
		return nil, malformed(name + " is missing")
	}
	if len(*items) == 0 {
		return nil, malformed(name + " is empty")
	}
	if len(*items) > maxTermsItems {
		return nil, malformed(name + " has more than 64 entries")
	}
	var out []Holding
	for _, it := range *items {
		if it.AssetID == nil {
			return nil, malformed(name + ": an entry has no assetId")
		}
		q, rf := parseQuantity(name+" quantity", it.Quantity)
		if rf != nil {
			return nil, rf
		}
		out = addHolding(out, *it.AssetID, q)
	}
	for _, h := range out {
		if h.Quantity > maxQuantity {
			return nil, malformed(name + ": an Asset's quantities sum beyond 2^53−1")
		}
	}
	return out, nil
}

// addHolding adds q of asset to the sorted list hs.
func addHolding(hs []Holding, asset string, q int64) []Holding {
	for i := range hs {
		if hs[i].AssetID == asset {
			hs[i].Quantity += q
			return hs
		}
		if hs[i].AssetID > asset {
			hs = append(hs, Holding{})
			copy(hs[i+1:], hs[i:])
			hs[i] = Holding{asset, q}
			return hs
		}
	}
	return append(hs, Holding{asset, q})
}

// timeLayout is the one UTC spelling every timestamp is written in: milliseconds, "Z".
const timeLayout = "2006-01-02T15:04:05.000Z"

func formatTime(t time.Time) string { return t.UTC().Format(timeLayout) }

// parseInstant reads an RFC 3339 timestamp (§5.6: "T" between date and time, "Z" or a numeric
// offset, either letter in lower case too) that names a whole millisecond of the years
// 0001–9999, as UTC.
func parseInstant(s string) (time.Time, bool) {
	t, err := time.Parse(time.RFC3339Nano, strings.ToUpper(s)) // the only letters are T and Z
	if err != nil {
		return time.Time{}, false
	}
	t = t.UTC()
	if t.Nanosecond()%int(time.Millisecond) != 0 || t.Year() < 1 || t.Year() > 9999 {
		return time.Time{}, false
	}
	return t, true
}

// parseTradingName reads tradingName ("Trading Name"): a string, trimmed of white space, or null
// (""); a missing member or any other JSON type is malformed_request. Whether the name is
// printable is checkName's question, asked once the caller is resolved.
func parseTradingName(raw json.RawMessage) (string, *refusal) {
	if raw == nil {
		return "", malformed("tradingName is missing")
	}
	v, err := canon.Parse(raw)
	if err != nil {
		return "", malformed("tradingName is not JSON")
	}
	switch v.Kind() {
	case canon.Null:
		return "", nil
	case canon.String:
	default:
		return "", malformed("tradingName is neither a string nor null")
	}
	s, ok := v.Str()
	if !ok {
		return "", malformed("tradingName is not a string")
	}
	return strings.TrimFunc(s, unicode.IsSpace), nil
}

// checkName refuses a trimmed Trading Name over 32 characters or carrying a character that does
// not print (invalid_trading_name, "Trading Name": the refusal is about printability). A character
// prints when it is Unicode graphic (letters, marks, numbers, punctuation, symbols, spaces), so
// control characters, format characters (zero-width, bidi overrides, the byte-order mark, soft
// hyphen), line and paragraph separators, private use and unassigned code points are refused:
// each would let a name print blank or disguise itself on the Standing every visitor reads.
func checkName(s string) *refusal {
	if utf8.RuneCountInString(s) > maxTradingName {
		return refuse(CodeInvalidTradingName, "a Trading Name is at most 32 characters")
	}
	for _, c := range s {
		if unicode.IsControl(c) {
			return refuse(CodeInvalidTradingName, "a Trading Name carries no control character")
		}
		if !unicode.IsGraphic(c) {
			return refuse(CodeInvalidTradingName, "a Trading Name carries only printing characters")
		}
	}
	return nil
}
