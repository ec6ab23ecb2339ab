package market

import (
	"bytes"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"encoding/json"
	"maps"
	"slices"
	"strconv"
	"strings"
	"time"
)

// Step is what one Apply or Expire gives: the response to send (nil from Expire) and the Delta
// to persist and then Commit. The response may be sent only once the Delta is durable (write
// before you speak); an Empty Delta needs no write.
type Step struct {
	Response []byte
	Delta    Delta
}

// expiryBatch is how many due Exchanges one pass concludes ("Expiry is drained in batches").
const expiryBatch = 50

// Apply answers one request: body is the raw application/json request part and caller the
// authenticated Owner ID Blocks supplied ("" or blank: authentication_required), now the
// instant the request is handled. It first drains one expiry batch (Expire's pass), then
// authenticates, parses, resolves the Player, replays a retried mutation's stored response
// byte for byte (an accepted Command's only: a refused one left no record, so its retry is
// run afresh), and only then runs the action. It does not change st's records (only the
// Standing board's memo, which the next readStanding at a new State Version rebuilds): state'
// is st after st.Commit(step.Delta), and the Ledger rows the request wrote are
// step.Delta.Ledger. Every refusal is the protocol's envelope with one of ErrorCodes; nothing a
// caller sends panics. Apply is pure.
func Apply(st *State, caller string, body []byte, now time.Time) Step {
	return ApplyParsed(st, caller, Parse(body), now)
}

// Parsed is one request body as the market's one strict parser read it (Parse): the parsed
// command and the SHA-256 of its canonical form (its idempotency hash, "Idempotency and
// atomicity"), or the parser's refusal. It holds nothing of any State, so it may be made on
// any goroutine and handed to whoever owns the State; it is never changed after Parse.
type Parsed struct {
	r    request
	rf   *refusal
	hash [32]byte // mutations only
}

// Parse reads body with the one strict parser Apply uses ("Response": one strict JSON object,
// protocolVersion 2, a known action, its members exactly; a mutation's non-empty commandId). It
// reads no State and no clock, so an actor's callers run it on their own goroutines and the
// actor applies the result (ApplyParsed); its refusal (malformed_request or
// unsupported_protocol_version) is answered by ApplyParsed, after the Owner is authenticated,
// at the State Version it then reads. Parse is pure and never panics.
func Parse(body []byte) *Parsed {
	r, rf := parseRequest(body)
	p := &Parsed{r: r, rf: rf}
	if rf == nil && r.mutation() {
		p.hash = sha256.Sum256(r.canonical)
	}
	return p
}

// ApplyParsed is Apply on a body already read by Parse: Apply(st, caller, body, now) is
// ApplyParsed(st, caller, Parse(body), now), byte for byte. p is only read, so a request run
// again (after a failed write) may pass the same p. ApplyParsed is pure.
func ApplyParsed(st *State, caller string, p *Parsed, now time.Time) Step {
	t := newTxn(st, now)
	t.sweep()
	resp := t.handle(caller, p)
	return Step{Response: resp, Delta: t.delta()}
}

// Expire drains one batch of at most 50 due Exchanges (live deadline ≤ now), earliest
// deadline first, concluding each expired and releasing its reservation, with one State
// Version bump for the pass when it concluded any. Apply runs the same pass at the head of
// every request; the actor also calls it on a timer (State.NextDeadline). Expire is pure.
func Expire(st *State, now time.Time) Step {
	t := newTxn(st, now)
	t.sweep()
	return Step{Delta: t.delta()}
}

// txn is one request's working copy: the records it changed, over the State it reads through.
type txn struct {
	st        *State
	now       time.Time
	version   uint64
	transfers uint64

	players  map[string]*Player
	pOrder   []string
	invs     map[string]*Inventory
	iOrder   []string
	exs      map[string]*Exchange
	exBase   map[string][2]int // the Rounds and Approvals the State already holds
	xOrder   []string
	ledger   []LedgerRow
	command  *Command
	newExIDs int
}

func newTxn(st *State, now time.Time) *txn {
	return &txn{st: st, now: now.UTC(), version: st.version, transfers: st.transfers,
		players: map[string]*Player{}, invs: map[string]*Inventory{}, exs: map[string]*Exchange{},
		exBase: map[string][2]int{}}
}

func (t *txn) bump() { t.version++ }

func (t *txn) player(id string) *Player {
	if p, ok := t.players[id]; ok {
		return p
	}
	return t.st.players[id]
}

func (t *txn) putPlayer(p *Player) {
	if _, ok := t.players[p.ID]; !ok {
		t.pOrder = append(t.pOrder, p.ID)
	}
	t.players[p.ID] = p
}

// inv is the Inventory id as the request sees it (read only; nil for none).
func (t *txn) inv(id string) *Inventory {
	if inv, ok := t.invs[id]; ok {
		return inv
	}
	return t.st.invs[id]
}

// invMut is the request's own copy of Inventory id, made on first write.
func (t *txn) invMut(id string) *Inventory {
	if inv, ok := t.invs[id]; ok {
		return inv
	}
	var inv *Inventory
	if base := t.st.invs[id]; base != nil {
		inv = base.clone()
	} else {
		inv = &Inventory{ID: id}
	}
	if inv.Holdings == nil {
		inv.Holdings = map[string]int64{}
	}
	if inv.Reserved == nil {
		inv.Reserved = map[string]int64{}
	}
	t.invs[id] = inv
	t.iOrder = append(t.iOrder, id)
	return inv
}

func (t *txn) exchange(id string) *Exchange {
	if x, ok := t.exs[id]; ok {
		return x
	}
	return t.st.exs[id]
}

// exMut is the request's own copy of Exchange id (its Rounds and Approvals clipped, so an
// append never writes into the State's arrays).
func (t *txn) exMut(id string) *Exchange {
	if x, ok := t.exs[id]; ok {
		return x
	}
	base := t.st.exs[id]
	x := *base
	x.Rounds, x.Approvals = slices.Clip(base.Rounds), slices.Clip(base.Approvals)
	x.RulesFired = slices.Clone(base.RulesFired)
	t.exs[id] = &x
	t.exBase[id] = [2]int{len(base.Rounds), len(base.Approvals)}
	t.xOrder = append(t.xOrder, id)
	return &x
}

func (t *txn) putNewExchange(x *Exchange) {
	t.exs[x.ID] = x
	t.exBase[x.ID] = [2]int{}
	t.xOrder = append(t.xOrder, x.ID)
	t.newExIDs++
}

// move writes one Ledger row moving q of asset from one Inventory to another.
func (t *txn) move(reason, from, to, asset string, q int64, row LedgerRow) {
	addTo(t.invMut(from).Holdings, asset, -q)
	addTo(t.invMut(to).Holdings, asset, q)
	row.Sequence = uint64(len(t.st.ledger)+len(t.ledger)) + 1
	row.At, row.Reason, row.From, row.To, row.AssetID, row.Quantity = t.now, reason, from, to, asset, q
	t.ledger = append(t.ledger, row)
}

func (t *txn) reserve(id string, goods []Holding, sign int64) {
	inv := t.invMut(id)
	for _, h := range goods {
		addTo(inv.Reserved, h.AssetID, sign*h.Quantity)
	}
}

func (t *txn) covers(id string, goods []Holding) bool {
	inv := t.inv(id)
	for _, h := range goods {
		if inv.available(h.AssetID) < h.Quantity {
			return false
		}
	}
	return true
}

// delta is what the request changed, in the order it first wrote each record. Ledger rows
// carry the State Version they were written at.
func (t *txn) delta() Delta {
	d := Delta{StateVersion: t.version, Transfers: t.transfers}
	for _, id := range t.pOrder {
		d.Players = append(d.Players, *t.players[id])
	}
	for _, id := range t.iOrder {
		inv := t.invs[id]
		d.Inventories = append(d.Inventories, Inventory{ID: inv.ID, Holdings: maps.Clone(inv.Holdings), Reserved: maps.Clone(inv.Reserved)})
	}
	for _, id := range t.xOrder {
		x, b := t.exs[id], t.exBase[id]
		d.Exchanges = append(d.Exchanges, ExchangeDelta{
			Exchange:  x.header(),
			Rounds:    slices.Clone(x.Rounds[b[0]:]),
			Approvals: slices.Clone(x.Approvals[b[1]:]),
		})
	}
	for _, row := range t.ledger {
		row.StateVersion = t.version
		d.Ledger = append(d.Ledger, row)
	}
	d.Command = t.command
	return d
}

// sweep concludes up to 50 due Exchanges, earliest deadline first, with one bump.
func (t *txn) sweep() {
	n := 0
	for _, dl := range t.st.open {
		if dl.at.After(t.now) || n == expiryBatch {
			break
		}
		x := t.exMut(dl.id)
		t.conclude(x, StatusExpired)
		n++
	}
	if n > 0 {
		t.bump()
	}
}

// conclude ends open Exchange x with status, releasing the live Round author's reservation.
func (t *txn) conclude(x *Exchange, status string) {
	live := x.live()
	t.reserve(live.Author, x.side(live, live.Author), -1)
	x.Status, x.Version, x.UpdatedAt = status, x.Version+1, t.now
}

// handle authenticates, resolves and runs one parsed request, and gives its response bytes.
func (t *txn) handle(caller string, p *Parsed) []byte {
	if strings.TrimSpace(caller) == "" {
		return t.envelope(nil, refuse(CodeAuthenticationRequired, "the request carries no authenticated Owner"))
	}
	if p.rf != nil {
		return t.envelope(nil, p.rf)
	}
	r := p.r
	var rf *refusal
	pid, enrolled := t.st.owners[caller]
	if !enrolled && r.action != ActEnroll && r.action != ActReadStanding {
		return t.envelope(nil, refuse(CodeNotEnrolled, "this Owner has no Player: enroll first"))
	}
	if !r.mutation() {
		result, rf := t.query(pid, &r)
		return t.envelope(result, rf)
	}
	hash := p.hash
	if enrolled {
		if c, ok := t.st.cmds[cmdKey{pid, r.commandID}]; ok {
			if c.Hash == hash {
				return bytes.Clone(c.Response)
			}
			return t.envelope(nil, refuse(CodeCommandIDReuse, "this commandId was used before with different content"))
		}
	}
	before := t.written()
	var result any
	switch r.action {
	case ActEnroll:
		if enrolled {
			result = t.enrolmentView(t.player(pid))
		} else {
			pid, result, rf = t.enroll(caller)
		}
	case ActSetTradingName:
		result, rf = t.setTradingName(pid, &r)
	case ActTransfer:
		result, rf = t.transfer(pid, &r)
	case ActProposeExchange:
		result, rf = t.propose(pid, &r)
	case ActRespond:
		result, rf = t.respond(pid, &r)
	case ActCancel:
		result, rf = t.cancel(pid, &r)
	case ActCounter:
		result, rf = t.counter(pid, &r)
	}
	if rf != nil && t.written() != before {
		// Actions validate fully before they write (house style §12): a write before a refusal
		// is a bug in this package, never input.
		panic("market: " + r.action + " wrote before it refused")
	}
	resp := t.envelope(result, rf)
	if rf == nil {
		// Only an accepted Command consumes its commandId ("Idempotency and atomicity": the
		// command response commits with the mutation; "unfunded has two causes": the Approval is
		// recorded, "so the Command ID is consumed"). A refusal changed nothing and records
		// nothing, so its retry is a fresh attempt on the State as it then is.
		t.command = &Command{Player: pid, CommandID: r.commandID, Action: r.action, Hash: hash,
			OK: true, StateVersion: t.version, At: t.now, Response: resp}
	}
	return resp
}

// written counts what the request has written so far: bumps and records.
func (t *txn) written() [5]int {
	return [5]int{int(t.version), len(t.pOrder), len(t.iOrder), len(t.xOrder), len(t.ledger)}
}

// query runs a read-only action.
func (t *txn) query(pid string, r *request) (any, *refusal) {
	switch r.action {
	case ActReadInventory:
		return inventoryView{PlayerID: pid, Holdings: t.holdings(pid)}, nil
	case ActReadStatement:
		return t.statement(pid, r.limit), nil
	case ActGetExchange:
		return t.getExchange(pid, r)
	case ActListExchanges:
		return t.listExchanges(pid, r)
	case ActReadStanding:
		return standing(t, t.now), nil
	}
	return nil, malformed("action is not one this Game Master knows")
}

// envelope is the response ("Response"): ok with result, or the refusal as error{code,
// message}; stateVersion is the State Version after the request.
func (t *txn) envelope(result any, rf *refusal) []byte {
	return envelopeOf(t.version, result, rf)
}

// envelopeOf is the response envelope, members in the protocol's order ("Response":
// protocolVersion, ok, stateVersion, then result or error{code, message}).
func envelopeOf(version uint64, result any, rf *refusal) []byte {
	type errBody struct {
		Code    string `json:"code"`
		Message string `json:"message"`
	}
	type env struct {
		ProtocolVersion int      `json:"protocolVersion"`
		OK              bool     `json:"ok"`
		StateVersion    uint64   `json:"stateVersion"`
		Result          any      `json:"result,omitempty"`
		Error           *errBody `json:"error,omitempty"`
	}
	e := env{ProtocolVersion: ProtocolVersion, OK: rf == nil, StateVersion: version}
	if rf != nil {
		e.Error = &errBody{rf.code, rf.msg}
	} else {
		e.Result = result
	}
	return encode(e)
}

// RefusalEnvelope is the protocol's refusal envelope ("Response") for a refusal decided outside
// the reducer — a door's own (too_large, unsupported_media_type, method_not_allowed, busy, …) —
// at State Version version, byte for byte as the reducer writes its own refusals, so a client
// reads every refusal alike. code and message are written as given. RefusalEnvelope is pure.
func RefusalEnvelope(version uint64, code, message string) []byte {
	return envelopeOf(version, nil, refuse(code, message))
}

// encode is the one JSON writer of every output: Go's encoding of fixed structs (fields in
// declaration order), no HTML escaping, no trailing newline.
func encode(v any) []byte {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		panic("market: encode a view: " + err.Error()) // views are plain data: a bug
	}
	return bytes.TrimSuffix(b.Bytes(), []byte("\n"))
}

// opaqueID is an ID of kind n drawn from the seed: prefix and 24 hex digits of
// HMAC-SHA256(seed, kind/n). Nothing about an Owner goes into it ("Privacy").
func (st *State) opaqueID(prefix, kind string, n int) string {
	m := hmac.New(sha256.New, st.seed[:])
	m.Write([]byte(kind + "/" + strconv.Itoa(n)))
	return prefix + hex.EncodeToString(m.Sum(nil)[:12])
}

// mac is HMAC-SHA256(seed, "cursor/"+msg), the tag on every cursor this market issues.
func (st *State) mac(msg string) []byte {
	m := hmac.New(sha256.New, st.seed[:])
	m.Write([]byte("cursor/" + msg))
	return m.Sum(nil)[:16]
}

// cursor is an opaque cursor for position n in the space msg names.
func (st *State) cursor(prefix, msg string, n uint64) string {
	var b [24]byte
	binary.BigEndian.PutUint64(b[:8], n)
	copy(b[8:], st.mac(msg+"/"+strconv.FormatUint(n, 10)))
	return prefix + hex.EncodeToString(b[:])
}

// readCursor is the position a cursor of this market carries for the space msg, or false for
// a cursor it did not issue there.
func (st *State) readCursor(prefix, msg, c string) (uint64, bool) {
	s, ok := strings.CutPrefix(c, prefix)
	if !ok || len(s) != 48 {
		return 0, false
	}
	b, err := hex.DecodeString(s)
	if err != nil || hex.EncodeToString(b) != s {
		return 0, false
	}
	n := binary.BigEndian.Uint64(b[:8])
	if !hmac.Equal(b[8:], st.mac(msg+"/"+strconv.FormatUint(n, 10))) {
		return 0, false
	}
	return n, true
}
