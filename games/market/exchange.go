package market

import (
	"crypto/sha256"
	"encoding/hex"
	"slices"
	"time"

	"arena/games/canon"
)

// terms is the canonical Terms of one Round ("Exchange"): sealed as RFC 8785 bytes, whose
// SHA-256 in lowercase hex is the Terms Hash.
type terms struct {
	ProtocolVersion int       `json:"protocolVersion"`
	Proposer        string    `json:"proposerPlayerId"`
	Counterparty    string    `json:"counterpartyPlayerId"`
	Offered         []Holding `json:"offered"`
	Requested       []Holding `json:"requested"`
	ExpiresAt       string    `json:"expiresAt"`
}

// sealTerms gives the canonical Terms bytes and their Terms Hash.
func sealTerms(proposer, counterparty string, offered, requested []Holding, expiresAt time.Time) ([]byte, string) {
	b, err := canon.Marshal(terms{ProtocolVersion, proposer, counterparty, offered, requested, formatTime(expiresAt)})
	if err != nil {
		panic("market: seal terms: " + err.Error()) // parsed goods are safe integers: a bug
	}
	h := sha256.Sum256(b)
	return b, hex.EncodeToString(h[:])
}

// checkRound validates a Round's goods and deadline against the State, as proposeExchange and
// counterExchange both do ("Rounds": "validated exactly as proposeExchange validates them").
func (t *txn) checkRound(r *request) *refusal {
	for _, side := range [][]Holding{r.offered, r.requested} {
		for _, h := range side {
			if !t.tradeable(h.AssetID) {
				return refuse(CodeUnknownAsset, "an assetId of the Terms is not an Asset this game trades")
			}
		}
	}
	if !r.expiresAt.After(t.now) {
		return malformed("expiresAt is not in the future")
	}
	return nil
}

// propose opens an Exchange with its Round 1 ("Exchange"): refusals unknown_player,
// self_dealing, unknown_asset, malformed_request (a deadline not ahead), insufficient_available.
// It reserves the Offered Assets and records the Proposer's Approval.
func (t *txn) propose(pid string, r *request) (any, *refusal) {
	if t.player(r.counterparty) == nil {
		return nil, refuse(CodeUnknownPlayer, "counterpartyPlayerId is not a Player of this game")
	}
	if r.counterparty == pid {
		return nil, refuse(CodeSelfDealing, "a Player cannot trade with itself")
	}
	if rf := t.checkRound(r); rf != nil {
		return nil, rf
	}
	if !t.covers(pid, r.offered) {
		return nil, refuse(CodeInsufficientAvailable, "the Available quantities do not cover what is offered")
	}
	n := len(t.st.exOrder) + t.newExIDs + 1
	x := &Exchange{ID: t.st.opaqueID("ex_", "exchange", n), Proposer: pid, Counterparty: r.counterparty,
		Status: StatusAwaiting, CreatedAt: t.now}
	t.putNewExchange(x)
	t.addRound(x, pid, r)
	x.Version = 1
	t.bump()
	return t.exchangeView(x, pid, 0, maxRoundWindow, true), nil
}

// addRound seals the author's Round from r, reserves the author's side and records its
// Approval.
func (t *txn) addRound(x *Exchange, author string, r *request) {
	b, h := sealTerms(x.Proposer, x.Counterparty, r.offered, r.requested, r.expiresAt)
	rd := Round{Number: uint64(len(x.Rounds)) + 1, Author: author, Terms: b, TermsHash: h,
		Offered: slices.Clone(r.offered), Requested: slices.Clone(r.requested), ExpiresAt: r.expiresAt, CreatedAt: t.now}
	x.Rounds = append(x.Rounds, rd)
	x.Approvals = append(x.Approvals, Approval{Round: rd.Number, Player: author, ApprovedAt: t.now})
	t.reserve(author, x.side(&rd, author), 1)
	x.UpdatedAt = t.now
}

// target finds the Exchange a command acts on, refusing in the protocol's order ("Rounds"):
// identity (unknown_exchange, then not_a_party), then status (exchange_not_open, also for an
// open Exchange whose deadline has passed), then turn (not_your_turn: answer wants the party
// that did not write the live Round, cancel the party that did), then the pin
// (stale_exchange_version, then terms_mismatch when hash is given).
func (t *txn) target(pid string, r *request, answer bool, hash string) (*Exchange, *refusal) {
	x := t.exchange(r.exchangeID)
	if x == nil {
		return nil, refuse(CodeUnknownExchange, "no Exchange of this game has that exchangeId")
	}
	if pid != x.Proposer && pid != x.Counterparty {
		return nil, refuse(CodeNotAParty, "the caller is not a party to this Exchange")
	}
	if !x.open() || !x.live().ExpiresAt.After(t.now) {
		return nil, refuse(CodeExchangeNotOpen, "the Exchange is not open")
	}
	if answer == (x.live().Author == pid) {
		return nil, refuse(CodeNotYourTurn, "it is the other party's move")
	}
	if r.exchangeVersion != x.Version {
		return nil, refuse(CodeStaleExchangeVersion, "exchangeVersion is not the Exchange's current version")
	}
	if hash != "" && hash != x.live().TermsHash {
		return nil, refuse(CodeTermsMismatch, "termsHash is not the live Round's Terms Hash")
	}
	return x, nil
}

// respond answers the live Round ("Exchange"): decline concludes declined and releases the
// reservation; approve records the Approval and settles both directions with the matching Game
// Rules in one step, or concludes unfunded moving nothing.
func (t *txn) respond(pid string, r *request) (any, *refusal) {
	x, rf := t.target(pid, r, true, r.termsHash)
	if rf != nil {
		return nil, rf
	}
	if r.decision == "decline" {
		x = t.exMut(x.ID)
		t.conclude(x, StatusDeclined)
	} else {
		fired, moves, funded := t.settlement(x, pid)
		if rf := t.inRange(moves); rf != nil {
			return nil, rf
		}
		x = t.exMut(x.ID)
		x.Approvals = append(x.Approvals, Approval{Round: x.live().Number, Player: pid, ApprovedAt: t.now})
		t.settle(x, pid, r.commandID, fired, funded)
	}
	t.bump()
	return t.exchangeView(x, pid, 0, maxRoundWindow, true), nil
}

// cancel withdraws the live Round by its author: cancelled, reservation released.
func (t *txn) cancel(pid string, r *request) (any, *refusal) {
	x, rf := t.target(pid, r, false, "")
	if rf != nil {
		return nil, rf
	}
	x = t.exMut(x.ID)
	t.conclude(x, StatusCancelled)
	t.bump()
	return t.exchangeView(x, pid, 0, maxRoundWindow, true), nil
}

// counter writes the answering party's own Round ("Rounds"): validated as a proposal, funded
// from the author's Available or refused insufficient_available with the previous Round left
// standing; the previous author's reservation is released and the new one committed in the
// same step.
func (t *txn) counter(pid string, r *request) (any, *refusal) {
	x, rf := t.target(pid, r, true, r.termsHash)
	if rf != nil {
		return nil, rf
	}
	if rf := t.checkRound(r); rf != nil {
		return nil, rf
	}
	own := r.requested
	if pid == x.Proposer {
		own = r.offered
	}
	if !t.covers(pid, own) {
		return nil, refuse(CodeInsufficientAvailable, "the Available quantities do not cover this side of the Terms")
	}
	x = t.exMut(x.ID)
	prev := x.live()
	t.reserve(prev.Author, x.side(prev, prev.Author), -1)
	t.addRound(x, pid, r)
	x.Version++
	t.bump()
	return t.exchangeView(x, pid, 0, maxRoundWindow, true), nil
}

// exchangeView is x as party reads it. With chain, it carries the window of at most limit
// Rounds ending at Round end (0: the newest), oldest first, their Approvals and the cursor to
// the older ones; without (a listing), rounds is null and only the live Round's Approvals
// come.
func (t *txn) exchangeView(x *Exchange, party string, end uint64, limit int, chain bool) exchangeView {
	live := x.live()
	v := exchangeView{
		ExchangeID: x.ID, ProposerPlayerID: x.Proposer, CounterpartyID: x.Counterparty,
		Status: x.Status, ExchangeVersion: x.Version, Terms: live.Terms, TermsHash: live.TermsHash,
		ExpiresAt: formatTime(live.ExpiresAt), CreatedAt: formatTime(x.CreatedAt), UpdatedAt: formatTime(x.UpdatedAt),
		LiveRound: live.Number, RoundCount: uint64(len(x.Rounds)),
	}
	if x.open() {
		v.AnsweringPlayerID = strPtr(x.answering())
	}
	sig := x.ProposerRule
	if party == x.Counterparty {
		sig = x.CounterRule
	}
	v.RuleApplied, v.RuleNote = sig.Applied, sig.Note
	first, last := live.Number, live.Number
	if chain {
		if end == 0 {
			end = live.Number
		}
		last = end
		first = 1
		if end > uint64(limit) {
			first = end - uint64(limit) + 1
		}
		v.Rounds = make([]roundView, 0, last-first+1)
		for n := first; n <= last; n++ {
			rd := &x.Rounds[n-1]
			rv := roundView{RoundNumber: rd.Number, AuthorPlayerID: rd.Author, Terms: rd.Terms, TermsHash: rd.TermsHash,
				ExpiresAt: formatTime(rd.ExpiresAt), CreatedAt: formatTime(rd.CreatedAt)}
			if n < live.Number {
				rv.Outcome = strPtr("countered")
			}
			v.Rounds = append(v.Rounds, rv)
		}
		if first > 1 {
			v.NextRoundCursor = strPtr(t.st.cursor("rc_", "round/"+x.ID, first-1))
		}
	}
	v.Approvals = []approvalView{}
	for _, a := range x.Approvals {
		if a.Round >= first && a.Round <= last {
			v.Approvals = append(v.Approvals, approvalView{RoundNumber: a.Round, PlayerID: a.Player, ApprovedAt: formatTime(a.ApprovedAt)})
		}
	}
	return v
}

// getExchange reads one Exchange with a window of its Rounds: unknown_exchange, then
// not_a_party, then a roundCursor this market did not issue for this Exchange is
// malformed_request.
func (t *txn) getExchange(pid string, r *request) (any, *refusal) {
	x := t.exchange(r.exchangeID)
	if x == nil {
		return nil, refuse(CodeUnknownExchange, "no Exchange of this game has that exchangeId")
	}
	if pid != x.Proposer && pid != x.Counterparty {
		return nil, refuse(CodeNotAParty, "the caller is not a party to this Exchange")
	}
	var end uint64
	if r.roundCursor != "" {
		n, ok := t.st.readCursor("rc_", "round/"+x.ID, r.roundCursor)
		if !ok || n < 1 || n > uint64(len(x.Rounds)) {
			return nil, malformed("roundCursor is not a cursor this Game Master issued for this Exchange")
		}
		end = n
	}
	return t.exchangeView(x, pid, end, r.roundLimit, true), nil
}

// listExchanges lists the caller's Exchanges newest first, filtered by party and the optional
// status before the limit; nextCursor resumes after the last one returned.
func (t *txn) listExchanges(pid string, r *request) (any, *refusal) {
	ids := t.st.byPlayer[pid]
	from := len(ids) // exclusive: positions below it are read
	if r.cursor != "" {
		n, ok := t.st.readCursor("lc_", "list/"+pid, r.cursor)
		if !ok || n > uint64(len(ids)) {
			return nil, malformed("cursor is not a cursor this Game Master issued to this Player")
		}
		from = int(n)
	}
	out := listView{Exchanges: []exchangeView{}}
	i := from - 1
	for ; i >= 0 && len(out.Exchanges) < r.limit; i-- {
		x := t.exchange(ids[i])
		if r.status != "" && x.Status != r.status {
			continue
		}
		out.Exchanges = append(out.Exchanges, t.exchangeView(x, pid, 0, 0, false))
	}
	// More may follow when the scan stopped on the limit with positions left to read.
	if len(out.Exchanges) == r.limit {
		for j := i; j >= 0; j-- {
			if r.status == "" || t.exchange(ids[j]).Status == r.status {
				out.NextCursor = strPtr(t.st.cursor("lc_", "list/"+pid, uint64(i+1)))
				break
			}
		}
	}
	return out, nil
}
