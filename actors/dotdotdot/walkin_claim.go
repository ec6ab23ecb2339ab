package dotdotdot

import (
	"context"
	"encoding/json"
	"errors"
	"sort"
	"time"

	"arena/games"
	"arena/storage"
)

// The claim (§4.4 POST /v1/walkin/claim): a Badge's owner takes a walk-in's record into the record
// of its account, once; the token is then spent (claimed, 410). The join door checks the signed
// claim (the Badge key over the JCS of the object without sig, as a join) and calls ClaimWalkin
// with the owner the registry names.

// accountRecord is an account's record (account/<CAIP-10> in the walkins bucket): the sum of the
// walk-in records merged into it, each once.
type accountRecord struct {
	Account          string               `json:"account"`
	Rounds           int                  `json:"rounds"`
	Practice         int                  `json:"practice"`
	Net              int64                `json:"net"`
	WouldHavePaid    int64                `json:"would_have_paid"`
	MoleRounds       int                  `json:"mole_rounds"`
	Rungs            int                  `json:"rungs"`
	Accusations      int                  `json:"accusations"`
	AccusationsRight int                  `json:"accusations_right"`
	VsHouse          map[string]*walkinVs `json:"vs_house"`
	Marks            []string             `json:"marks"`
	Last             []walkinRoundLine    `json:"last"` // newest first, at most walkinLastRounds
	Claimed          []accountClaim       `json:"claimed"`
}

// accountClaim is one walk-in record merged into the account.
type accountClaim struct {
	Record string    `json:"record"` // the walk-in record's key, sha256 of its first token
	Name   string    `json:"name"`
	Agent  string    `json:"agent"` // the Badge that signed the claim
	At     time.Time `json:"at"`
}

// merged reports whether the record of key is in the account already.
func (ar *accountRecord) merged(key string) bool {
	for _, c := range ar.Claimed {
		if c.Record == key {
			return true
		}
	}
	return false
}

// merge adds rec's figures, marks and rounds (newest first, the last walkinLastRounds kept).
func (ar *accountRecord) merge(key string, rec walkinRecord, agent string, at time.Time) {
	ar.Rounds += rec.Rounds
	ar.Practice += rec.Practice
	ar.Net += rec.Net
	ar.WouldHavePaid += rec.WouldHavePaid
	ar.MoleRounds += rec.MoleRounds
	ar.Rungs += rec.Rungs
	ar.Accusations += rec.Accusations
	ar.AccusationsRight += rec.AccusationsRight
	if ar.VsHouse == nil {
		ar.VsHouse = map[string]*walkinVs{}
	}
	for name, vs := range rec.VsHouse {
		have := ar.VsHouse[name]
		if have == nil {
			have = &walkinVs{}
			ar.VsHouse[name] = have
		}
		have.Rounds += vs.Rounds
		have.Ahead += vs.Ahead
		have.Behind += vs.Behind
		have.Even += vs.Even
	}
	for _, m := range rec.Marks {
		found := false
		for _, h := range ar.Marks {
			found = found || h == m
		}
		if !found {
			ar.Marks = append(ar.Marks, m)
		}
	}
	ar.Last = append(ar.Last, rec.Last...)
	sort.SliceStable(ar.Last, func(i, j int) bool { return ar.Last[i].Ended.After(ar.Last[j].Ended) })
	if len(ar.Last) > walkinLastRounds {
		ar.Last = ar.Last[:walkinLastRounds]
	}
	ar.Claimed = append(ar.Claimed, accountClaim{Record: key, Name: rec.Name, Agent: agent, At: at.UTC()})
}

// walkinClaim asks a walk-in actor for its record, to be merged: refused while it holds a seat,
// a join, a queue place or a hosted table, or another claim. Reply *walkinClaimReply.
type walkinClaim struct{ deskReplier }

type walkinClaimReply struct {
	Key    string
	Record []byte // the record's JSON
	Err    *games.Error
}

// walkinClaimDone ends a claim begun with walkinClaim; OK when the record was merged.
type walkinClaimDone struct{ OK bool }

// Claim states of a walk-in actor (walkin.claim).
const (
	claimNone = iota
	claimPending
	claimSpent
)

// beginClaim answers walkinClaim.
func (w *walkin) beginClaim() *walkinClaimReply {
	switch {
	case w.claim == claimSpent:
		return &walkinClaimReply{Err: games.Errorf(CodeClaimed, "this walk-in token was claimed already")}
	case w.claim == claimPending:
		return &walkinClaimReply{Err: games.Errorf(CodeBusy, "a claim of this walk-in is under way")}
	case w.rec.Live != nil || w.joinGen != 0 || w.queued || w.hosted != "":
		return &walkinClaimReply{Err: games.Errorf(CodeInARound, "this walk-in holds a seat or a place at a table: claim it once its round is over")}
	}
	b, err := json.Marshal(&w.rec)
	if err != nil {
		return &walkinClaimReply{Err: games.Errorf(CodeBusy, "the record could not be read")}
	}
	w.claim = claimPending
	return &walkinClaimReply{Key: w.hash, Record: b}
}

// spentRefusal refuses what a claimed (or being claimed) walk-in asks for; nil otherwise.
func (w *walkin) spentRefusal() *games.Error {
	switch w.claim {
	case claimPending:
		return games.Errorf(CodeBusy, "a claim of this walk-in is under way")
	case claimSpent:
		return games.Errorf(CodeClaimed, "this walk-in token was claimed: it is spent")
	}
	return nil
}

// deskClaimMerge merges a walk-in's record into an account's and spends the token, in the desk
// (one goroutine for every account record). Reply *deskClaimReply.
type deskClaimMerge struct {
	deskReplier
	Hash    string // the token's hash
	Key     string // the record's key
	Record  []byte // the record's JSON, as the walk-in actor held it
	Account string // CAIP-10 owner of the Badge
	Agent   string // the Badge that signed the claim
}

type deskClaimReply struct {
	JSON json.RawMessage // the account's record
	Err  error
}

// claimMerge writes the account's record with the walk-in's merged (skipped when it is merged
// already: a claim that crashed after this write), then the token's claimed revocation, and only
// then answers. The record is merged exactly once whatever restarts come between.
func (d *desk) claimMerge(m *deskClaimMerge) *deskClaimReply {
	key, refused := d.tokenKey(m.Hash)
	if refused != nil {
		return &deskClaimReply{Err: refused}
	}
	if key != m.Key {
		return &deskClaimReply{Err: games.Errorf(CodeBusy, "the token's record moved; claim again")}
	}
	var rec walkinRecord
	if err := json.Unmarshal(m.Record, &rec); err != nil {
		return &deskClaimReply{Err: err}
	}
	db := d.a.Store().Walkins()
	ak := "account/" + m.Account
	ar := accountRecord{Account: m.Account}
	if b, err := db.Get(ak); err == nil {
		if err := json.Unmarshal(b, &ar); err != nil {
			return &deskClaimReply{Err: err}
		}
	} else if !errors.Is(err, storage.ErrNotFound) {
		return &deskClaimReply{Err: err}
	}
	now := d.now().UTC()
	if !ar.merged(key) {
		ar.merge(key, rec, m.Agent, now)
		b, err := json.Marshal(&ar)
		if err == nil {
			err = db.Put(ak, b)
		}
		if err != nil {
			return &deskClaimReply{Err: err}
		}
	}
	rev := tokenRevoked{Reason: revokedClaimed, At: now, Account: m.Account}
	b, _ := json.Marshal(rev)
	if err := db.Put("revoked/"+m.Hash, b); err != nil {
		return &deskClaimReply{Err: err}
	}
	d.tokens.revoked[m.Hash] = rev
	d.log.Info("walk-in record claimed", "record", key[:12], "account", m.Account)
	out, err := json.Marshal(ar.view())
	return &deskClaimReply{JSON: out, Err: err}
}

// accountView is the account's record as the claim answers it.
type accountView struct {
	Account          string            `json:"account"`
	Rounds           int               `json:"rounds"`
	Practice         int               `json:"practice"`
	Entry            int64             `json:"entry"`
	Net              int64             `json:"net"`
	WouldHavePaid    int64             `json:"would_have_paid"`
	MoleRounds       int               `json:"mole_rounds"`
	Rungs            int               `json:"rungs"`
	Accusations      int               `json:"accusations"`
	AccusationsRight int               `json:"accusations_right"`
	VsHouse          []walkinVsLine    `json:"vs_house"`
	Marks            []string          `json:"marks"`
	Last             []walkinRoundLine `json:"last"`
	Claimed          []accountClaim    `json:"claimed"`
}

func (ar *accountRecord) view() accountView {
	v := accountView{Account: ar.Account, Rounds: ar.Rounds, Practice: ar.Practice, Entry: walkinEntry,
		Net: ar.Net, WouldHavePaid: ar.WouldHavePaid, MoleRounds: ar.MoleRounds, Rungs: ar.Rungs,
		Accusations: ar.Accusations, AccusationsRight: ar.AccusationsRight, VsHouse: []walkinVsLine{},
		Marks: ar.Marks, Last: ar.Last, Claimed: ar.Claimed}
	if v.Marks == nil {
		v.Marks = []string{}
	}
	if v.Last == nil {
		v.Last = []walkinRoundLine{}
	}
	for name, vs := range ar.VsHouse {
		v.VsHouse = append(v.VsHouse, walkinVsLine{Name: name, walkinVs: *vs})
	}
	sort.Slice(v.VsHouse, func(i, j int) bool { return v.VsHouse[i].Name < v.VsHouse[j].Name })
	return v
}

// ClaimWalkin merges the record of the walk-in token into the record of account, the CAIP-10
// owner of the Badge agent that signed the claim (§4.4; the join door checked the signature with
// the Badge's key resolved per §4.1, and the claim's freshness and nonce), once, and spends the
// token: from then on every request with it is refused claimed (410). It answers the account's
// record as merged. Refusals: unknown_token, token_revoked, claimed (a token claimed already),
// in_a_round (the walk-in holds a seat, a join, a queue place or a hosted table: a record is
// claimed between rounds), busy. Both writes (the account's record, then the token's claimed
// mark) are durable before it returns, and a claim retried after a crash between them merges
// nothing twice.
func (a *Arena) ClaimWalkin(ctx context.Context, token, agent, account string) (json.RawMessage, error) {
	if account == "" {
		return nil, games.Errorf(games.CodeBadRequest, "the Badge's registration names no owner account to merge the record into")
	}
	hash, ok := walkinTokenHash(token)
	if !ok {
		return nil, games.Errorf(CodeUnknownToken, "walkin is not a walk-in token (w_…)")
	}
	w, err := a.walkinPID(ctx, token)
	if err != nil {
		return nil, err
	}
	c, err := deskCall[*walkinClaimReply](ctx, a, w, &walkinClaim{})
	if err != nil {
		return nil, err
	}
	if c.Err != nil {
		return nil, c.Err
	}
	d, err := a.deskPID()
	var r *deskClaimReply
	if err == nil {
		r, err = deskCall[*deskClaimReply](ctx, a, d, &deskClaimMerge{Hash: hash, Key: c.Key, Record: c.Record, Account: account, Agent: agent})
	}
	if err == nil {
		err = r.Err
	}
	a.System().Root.Send(w, &walkinClaimDone{OK: err == nil})
	if err != nil {
		return nil, err
	}
	return r.JSON, nil
}
