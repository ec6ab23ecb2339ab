package dotdotdot

import (
	"context"
	"encoding/json"
	"errors"
	"time"

	"github.com/asynkron/protoactor-go/actor"

	"arena/games"
	"arena/storage"
)

// Tokens that no longer open their record, and tokens that open another token's record (§4.4),
// in the walkins bucket beside the records:
//
//	revoked/<token hash>  → tokenRevoked JSON: a token exposed in a URL (its record now opens with
//	                        the token that replaced it) or claimed (merged into an account's record)
//	alias/<token hash>    → the record key a replacement token opens
//	account/<CAIP-10>     → accountRecord JSON: the records merged into an account (walkin_claim.go)
//
// Each is written before the answer that depends on it leaves. The desk holds revoked/ and alias/
// in memory from its start (revocations are rare); every request by token resolves through them.

// Refusal codes of tokens that no longer open their record.
const (
	// CodeTokenRevoked: the token was exposed in a URL and revoked; its record opens with the
	// token that replaced it (401).
	CodeTokenRevoked = "token_revoked"
	// CodeClaimed: the token's record was merged into an account's (§4.4 POST /v1/walkin/claim);
	// the token is spent (410).
	CodeClaimed = "claimed"
)

// Reasons of a revocation (tokenRevoked.Reason).
const (
	revokedExposed = "exposed"
	revokedClaimed = "claimed"
)

// tokenRevoked is the stored revocation of one token.
type tokenRevoked struct {
	Reason  string    `json:"reason"`
	At      time.Time `json:"at"`
	Account string    `json:"account,omitempty"` // claimed: the account the record merged into
}

// refusal is what a request with the revoked token is answered.
func (r tokenRevoked) refusal() *games.Error {
	if r.Reason == revokedClaimed {
		return games.Errorf(CodeClaimed, "this walk-in token was claimed: its record was merged into the record of %s and the token is spent (§4.4)", r.Account)
	}
	return games.Errorf(CodeTokenRevoked, "this walk-in token was revoked when a URL carried it (it has been exposed); its record opens with the token that refusal handed back, sent only in the x-walkin header")
}

// deskTokens are the desk's revoked and rotated tokens, by token hash.
type deskTokens struct {
	revoked map[string]tokenRevoked
	alias   map[string]string // token hash → record key
}

// deskRevokeExposed revokes a token a URL carried (walkin.Guard) and hands its record to a new
// token. Reply *deskRevokeReply.
type deskRevokeExposed struct {
	deskReplier
	Hash string // the exposed token's hash
}

type deskRevokeReply struct {
	Token string // the token that now opens the record
	Err   error
}

// loadTokens reads revoked/ and alias/ (on every start of the desk).
func (d *desk) loadTokens() {
	d.tokens = deskTokens{revoked: map[string]tokenRevoked{}, alias: map[string]string{}}
	db := d.a.Store().Walkins()
	err := db.Scan("revoked/", func(k string, v []byte) error {
		var r tokenRevoked
		if json.Unmarshal(v, &r) == nil {
			d.tokens.revoked[k[len("revoked/"):]] = r
		}
		return nil
	})
	if err == nil {
		err = db.Scan("alias/", func(k string, v []byte) error {
			d.tokens.alias[k[len("alias/"):]] = string(v)
			return nil
		})
	}
	if err != nil {
		d.log.Error("revoked walk-in tokens unreadable", "err", err)
	}
}

// tokenKey is the record key a token's hash opens, or the refusal of a revoked or claimed token.
func (d *desk) tokenKey(hash string) (string, *games.Error) {
	if r, ok := d.tokens.revoked[hash]; ok {
		return "", r.refusal()
	}
	if key, ok := d.tokens.alias[hash]; ok {
		return key, nil
	}
	return hash, nil
}

// receiveTokens handles the desk's token messages; false for any other message.
func (d *desk) receiveTokens(ctx actor.Context, msg any) bool {
	switch m := msg.(type) {
	case *deskRevokeExposed:
		m.respond(d.revokeExposed(m.Hash))
	case *deskClaimMerge:
		m.respond(d.claimMerge(m))
	default:
		return false
	}
	return true
}

// revokeExposed: the record the token opens goes to a fresh token (alias/ written first, then
// revoked/, so a crash between leaves the old token working and the new one unknown to anybody).
func (d *desk) revokeExposed(hash string) *deskRevokeReply {
	key, refused := d.tokenKey(hash)
	if refused != nil {
		return &deskRevokeReply{Err: refused}
	}
	db := d.a.Store().Walkins()
	if _, err := db.Get(key); err != nil {
		if errors.Is(err, storage.ErrNotFound) {
			return &deskRevokeReply{Err: games.Errorf(CodeUnknownToken, "this walk-in token was not issued here")}
		}
		return &deskRevokeReply{Err: err}
	}
	token, err := newWalkinToken()
	if err != nil {
		return &deskRevokeReply{Err: err}
	}
	fresh, _ := walkinTokenHash(token)
	rev := tokenRevoked{Reason: revokedExposed, At: d.now().UTC()}
	b, _ := json.Marshal(rev) // strings and a time: cannot fail
	if err := db.Put("alias/"+fresh, []byte(key)); err != nil {
		return &deskRevokeReply{Err: err}
	}
	if err := db.Put("revoked/"+hash, b); err != nil {
		return &deskRevokeReply{Err: err}
	}
	d.tokens.alias[fresh] = key
	d.tokens.revoked[hash] = rev
	d.log.Info("walk-in token exposed in a URL: revoked and replaced", "record", key[:12])
	return &deskRevokeReply{Token: token}
}

// RevokeExposed revokes a walk-in token that a URL carried (§4.4: the token travels only in the
// x-walkin header, so one seen in a URL is treated as exposed) and returns the token that now
// opens its record: the same record, its seat and its rounds, under a fresh token. It is the
// token guard's (transport/dotdotdot/walkin), which hands the new token back in its token_in_url
// refusal, to the one request that exposed the old one; a token already revoked, claimed or never
// issued gets no replacement (token_revoked, claimed, unknown_token). The revocation and the new
// token are durable before it returns.
func (a *Arena) RevokeExposed(ctx context.Context, token string) (string, error) {
	hash, ok := walkinTokenHash(token)
	if !ok {
		return "", games.Errorf(CodeUnknownToken, "not a walk-in token")
	}
	d, err := a.deskPID()
	if err != nil {
		return "", err
	}
	r, err := deskCall[*deskRevokeReply](ctx, a, d, &deskRevokeExposed{Hash: hash})
	if err != nil {
		return "", err
	}
	return r.Token, r.Err
}
