package warden

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/labstack/echo/v4"
	"golang.org/x/crypto/sha3"

	aw "arena/actors/warden"
	"arena/chain/evm"
	"arena/chain/x402"
	"arena/storage"
	"arena/transport/door"
)

// Temperaments is the default closed list of §6.2.
var Temperaments = []string{"steadfast", "gambler", "shark", "diplomat", "mirror", "wildcard"}

// Lifetimes of §6.1 and §5.
const (
	ChallengeLife = 5 * time.Minute
	TokenLife     = 30 * 24 * time.Hour
	OpenTTL       = 10 * time.Minute
	StakeWindow   = 120 * time.Second
	maxBody       = 8 << 10 // §7: bodies up to 8 KB
)

// Match statuses as stored (§5.1); the door builds OPEN → STAKING → LIVE.
const (
	StatusOpen    = "OPEN"
	StatusStaking = "STAKING"
	StatusLive    = "LIVE"
)

// Rail is the stake rail: an x402 exact offer on an EVM chain settled by the facilitator's
// own transferWithAuthorization (§10.6 selfsettle). V1Network is the chain's x402 v1 name, ""
// when it has none (then the 402's v1 body is {}).
type Rail struct {
	ID            string
	ChainID       uint64
	V1Network     string
	Asset         x402.Address
	PayTo         x402.Address
	DomainName    string // the token's EIP-712 name ("USDC")
	DomainVersion string // and version ("2")
}

// Doors are the Warden's REST doors (§7) for registration, matches and stakes (§10.4).
type Doors struct {
	Store   *storage.Store
	Token   evm.Token    // the stake rail's token on chain
	Relayer x402.Address // the account that submits transferWithAuthorization (pays gas)
	Rail    Rail
	// BaseURL is the public base URL the 402's resource.url is built from (§10.2), no slash at
	// the end.
	BaseURL string
	// Games are the game ids a match may name (the Bracket's Warden-family manifests).
	Games []string
	// Stakes are the stake amounts a match may name, atomic units (§17); empty takes any
	// positive amount.
	Stakes []uint64
	Now    func() time.Time
	Log    *slog.Logger
	// SettleTimeout bounds one settlement's wait on the chain (default 60 s).
	SettleTimeout time.Duration
	// NoRail, when not "", says why this Warden has no stake rail: the money doors (queue,
	// open, join, stake) answer facilitator_unavailable (503, §10.10) with it as the detail
	// and write nothing; registration and the public reads serve as ever. Token, Relayer and
	// Rail are then unused.
	NoRail string
	// Down, when set, is asked at every money door after NoRail: a non-empty answer (the
	// rail's node is not reached yet, or is on another chain) is the detail of a
	// facilitator_unavailable refusal (503, §10.10) and nothing is written; "" lets the door
	// serve. It is called from concurrent requests and must be safe for that.
	Down func() string
	// Play is the match actors (actors/warden): a match whose stakes have cleared is handed to
	// them, and the action and private-view doors speak to them. Nil: nothing plays a LIVE
	// match (the play doors answer wrong_state).
	Play *aw.Warden
	// Standing is the ELITE bar the Gallery feed's profiles are tiered by (§13.1; zero: 60 %
	// over 1 match).
	Standing StandingRule
	// hook, when set (tests), is called at each money step; an error there stops the request
	// as a crash would (nothing after it is written).
	hook func(step string) error
}

// Match is a match as warden_state stores it (§5.1).
type Match struct {
	ID            string            `json:"id"`
	Game          string            `json:"game"`
	Stake         uint64            `json:"stake"`
	A             string            `json:"a"`
	B             string            `json:"b,omitempty"`
	Status        string            `json:"status"`
	OpenUntil     int64             `json:"open_until_ms"`
	StakeDeadline int64             `json:"stake_deadline_ms,omitempty"`
	Stakes        map[string]string `json:"stakes,omitempty"` // seat → cleared payment id
}

type contender struct {
	Wallet      string `json:"wallet"`
	Temperament string `json:"temperament"`
	Name        string `json:"name,omitempty"`
	// StakeTimeouts counts the matches canceled because this Contender did not stake in the
	// window (§5.4; raised by actors/warden/wardenpay's sweep, kept across registrations).
	StakeTimeouts int64 `json:"stake_timeouts,omitempty"`
}

type tokenRec struct {
	Wallet  string `json:"wallet"`
	Expires int64  `json:"expires_ms"`
}

func (d *Doors) mount(e *echo.Echo) {
	e.GET("/v1/warden/challenge", d.challenge)
	e.POST("/v1/warden/contenders", d.register)
	e.POST("/v1/warden/queue", d.money(d.queue))
	e.GET("/v1/warden/queue/:ticket", d.queueStatus)
	e.DELETE("/v1/warden/queue/:ticket", d.leaveQueue)
	e.POST("/v1/warden/matches", d.money(d.openMatch))
	e.GET("/v1/warden/matches/:id", d.publicMatch)
	e.POST("/v1/warden/matches/:id/join", d.money(d.join))
	e.POST("/v1/warden/matches/:id/stake", d.money(d.stake))
	e.POST("/v1/warden/matches/:id/actions", d.act)
	e.GET("/v1/warden/matches/:id/me", d.me)
	e.GET("/v1/warden/matches/:id/me/moves", d.moves)
}

// money is h, or, with no stake rail (NoRail), facilitator_unavailable before anything is
// read or written: a match nobody can stake is never opened.
func (d *Doors) money(h echo.HandlerFunc) echo.HandlerFunc {
	return func(c echo.Context) error {
		if d.NoRail != "" {
			return refuse("facilitator_unavailable", d.NoRail)
		}
		if d.Down != nil {
			if why := d.Down(); why != "" {
				return refuse("facilitator_unavailable", why)
			}
		}
		return h(c)
	}
}

func (d *Doors) now() time.Time {
	if d.Now != nil {
		return d.Now()
	}
	return time.Now()
}

func (d *Doors) step(name string) error {
	if d.hook != nil {
		return d.hook(name)
	}
	return nil
}

func ms(t time.Time) int64 { return t.UnixMilli() }

func rfc(msec int64) string { return time.UnixMilli(msec).UTC().Format("2006-01-02T15:04:05.000Z") }

func randHex(n int) string {
	b := make([]byte, n)
	_, _ = rand.Read(b)
	return hex.EncodeToString(b)
}

func hashHex(s string) string {
	h := sha256.Sum256([]byte(s))
	return hex.EncodeToString(h[:])
}

func refuse(code, msg string) error { return door.Refuse(code, msg) }

// challenge is GET /v1/warden/challenge (§6.1): a single-use challenge valid ChallengeLife.
func (d *Doors) challenge(c echo.Context) error {
	ch := randHex(32)
	exp := ms(d.now().Add(ChallengeLife))
	if err := d.Store.WardenUpdate(func(tx storage.WardenTx) error {
		return tx.Put("challenge/"+ch, exp)
	}); err != nil {
		return err
	}
	c.Response().Header().Set("Cache-Control", "no-store")
	return c.JSON(http.StatusOK, map[string]any{"challenge": ch, "expires_at": rfc(exp)})
}

// RegistrationText is the exact text a wallet signs to register (§6.1).
func RegistrationText(wallet, temperament, challenge string) string {
	return "Warden registration\nwallet: " + wallet + "\ntemperament: " + temperament + "\nchallenge: " + challenge
}

// PersonalDigest is EIP-191 personal_sign's digest of text.
func PersonalDigest(text string) [32]byte {
	h := sha3.NewLegacyKeccak256()
	h.Write([]byte("\x19Ethereum Signed Message:\n" + strconv.Itoa(len(text)) + text))
	var out [32]byte
	h.Sum(out[:0])
	return out
}

// register is POST /v1/warden/contenders (§6.1): the challenge is used once, the signature must
// recover (low s) to wallet, the temperament be on the list. Answers 201 with a new bearer
// token, stored only as its SHA-256.
func (d *Doors) register(c echo.Context) error {
	var in struct {
		Wallet      string `json:"wallet"`
		Temperament string `json:"temperament"`
		Name        string `json:"name,omitempty"`
		Challenge   string `json:"challenge"`
		Signature   string `json:"signature"`
	}
	return d.idempotent(c, "anon", true, func(raw []byte, keep keeper) (int, any, error) {
		if err := door.DecodeBytes(raw, &in); err != nil {
			return 0, nil, err
		}
		wallet, ok := x402.ParseAddress(in.Wallet)
		if !ok {
			return 0, nil, refuse("bad_request", "wallet is not an EVM address")
		}
		if !slices.Contains(Temperaments, in.Temperament) {
			return 0, nil, refuse("unknown_temperament", "temperament "+strconv.Quote(in.Temperament)+" is not one of "+strings.Join(Temperaments, ", "))
		}
		if len(in.Name) > 64 {
			return 0, nil, refuse("bad_request", "name is longer than 64 bytes")
		}
		sig, err := hex.DecodeString(strings.TrimPrefix(in.Signature, "0x"))
		if err != nil || !strings.HasPrefix(in.Signature, "0x") {
			return 0, nil, refuse("bad_signature", "signature is not 0x and hex")
		}
		signer, err := x402.Recover(PersonalDigest(RegistrationText(in.Wallet, in.Temperament, in.Challenge)), sig)
		if err != nil || signer != wallet {
			return 0, nil, refuse("bad_signature", "the signature does not recover to wallet over the registration text (EIP-191, low s)")
		}
		token := randHex(32)
		now := d.now()
		id := wallet.String()
		exp := ms(now.Add(TokenLife))
		agg, err := d.Store.WardenAggregate(id, false)
		if err != nil {
			return 0, nil, err
		}
		out := map[string]any{"contender_id": id, "token": token, "token_expires_at": rfc(exp),
			"standing": map[string]any{"tier": agg.Tier(1), "matches": agg.Matches}}
		err = d.Store.WardenUpdate(func(tx storage.WardenTx) error {
			var until int64
			found, err := tx.Get("challenge/"+in.Challenge, &until)
			if err != nil {
				return err
			}
			if !found || until < ms(now) {
				return refuse("challenge_expired", "the challenge is unknown, used or expired; get a new one")
			}
			if err := tx.Delete("challenge/" + in.Challenge); err != nil {
				return err
			}
			var old contender
			if _, err := tx.Get("contender/"+id, &old); err != nil {
				return err
			}
			if err := tx.Put("contender/"+id, contender{Wallet: id, Temperament: in.Temperament, Name: in.Name, StakeTimeouts: old.StakeTimeouts}); err != nil {
				return err
			}
			if err := tx.Put("token/"+hashHex(token), tokenRec{Wallet: id, Expires: exp}); err != nil {
				return err
			}
			return keep(tx, http.StatusCreated, out)
		})
		if err != nil {
			return 0, nil, err
		}
		return http.StatusCreated, out, nil
	})
}

// caller is the Contender of the request's bearer token, or unauthorized.
func (d *Doors) caller(c echo.Context) (string, error) {
	h := c.Request().Header.Get("Authorization")
	tok, ok := strings.CutPrefix(h, "Bearer ")
	if !ok || tok == "" {
		return "", refuse("unauthorized", "send Authorization: Bearer <token> from registration")
	}
	var rec tokenRec
	var found bool
	err := d.Store.WardenView(func(tx storage.WardenTx) (err error) {
		found, err = tx.Get("token/"+hashHex(tok), &rec)
		return err
	})
	if err != nil {
		return "", err
	}
	if !found || rec.Expires < ms(d.now()) {
		return "", refuse("unauthorized", "the token is unknown or expired; register again")
	}
	return rec.Wallet, nil
}

// active counts the caller's matches in STAKING or LIVE (§5.5, max_active_matches 1).
func active(tx storage.WardenTx, wallet string) (int, error) {
	n := 0
	err := tx.Scan("match/", func(_ string, v []byte) error {
		var m Match
		if err := json.Unmarshal(v, &m); err != nil {
			return err
		}
		if (m.Status == StatusStaking || m.Status == StatusLive) && (m.A == wallet || m.B == wallet) {
			n++
		}
		return nil
	})
	return n, err
}

// gameStake is the {game, stake} body an open match and a queue entry share (§5.5), strictly
// decoded: a game of the Bracket's and a positive stake, one of the configured amounts when any
// are. Errors: bad_request, unknown_game, bad_stake.
func (d *Doors) gameStake(raw []byte) (gameStake, error) {
	var in gameStake
	if err := door.DecodeBytes(raw, &in); err != nil {
		return in, err
	}
	if !slices.Contains(d.Games, in.Game) {
		return in, refuse("unknown_game", "no Warden game "+strconv.Quote(in.Game))
	}
	if in.Stake <= 0 || len(d.Stakes) > 0 && !slices.Contains(d.Stakes, uint64(in.Stake)) {
		return in, refuse("bad_stake", "stake must be one of the configured amounts (atomic units)")
	}
	return in, nil
}

// gameStake is a match's game and its stake in the rail's atomic units.
type gameStake struct {
	Game  string `json:"game"`
	Stake int64  `json:"stake"`
}

// openMatch is POST /v1/warden/matches {game, stake} (§5.5): 201 {match_id, seat:"A", open_until}.
func (d *Doors) openMatch(c echo.Context) error {
	wallet, err := d.caller(c)
	if err != nil {
		return err
	}
	return d.idempotent(c, wallet, true, func(raw []byte, keep keeper) (int, any, error) {
		in, err := d.gameStake(raw)
		if err != nil {
			return 0, nil, err
		}
		now := d.now()
		m := Match{ID: "wm_" + randHex(8), Game: in.Game, Stake: uint64(in.Stake), A: wallet, Status: StatusOpen,
			OpenUntil: ms(now.Add(OpenTTL))}
		out := map[string]any{"match_id": m.ID, "seat": "A", "open_until": rfc(m.OpenUntil)}
		if err := d.Store.WardenUpdate(func(tx storage.WardenTx) error {
			if err := tx.Put("match/"+m.ID, m); err != nil {
				return err
			}
			if err := d.feedOpened(tx, m, now); err != nil {
				return err
			}
			return keep(tx, http.StatusCreated, out)
		}); err != nil {
			return 0, nil, err
		}
		return http.StatusCreated, out, nil
	})
}

// join is POST /v1/warden/matches/{id}/join: seat B, the stake window opens (§5.4).
func (d *Doors) join(c echo.Context) error {
	wallet, err := d.caller(c)
	if err != nil {
		return err
	}
	id := c.Param("id")
	return d.idempotent(c, wallet, false, func(_ []byte, keep keeper) (int, any, error) {
		now := d.now()
		var m Match
		err := d.Store.WardenUpdate(func(tx storage.WardenTx) error {
			found, err := tx.Get("match/"+id, &m)
			if err != nil {
				return err
			}
			switch {
			case !found:
				return refuse("unknown_match", "no match "+strconv.Quote(id))
			case m.A == wallet:
				return refuse("self_match", "a Contender cannot take both seats")
			case m.Status != StatusOpen:
				return refuse("match_full", "the match is "+m.Status)
			case m.OpenUntil < ms(now):
				return refuse("wrong_state", "the match expired unjoined")
			}
			for _, w := range []string{m.A, wallet} {
				if n, err := active(tx, w); err != nil {
					return err
				} else if n > 0 {
					return refuse("too_many_matches", w+" is already in a match that is staking or live")
				}
			}
			m.B, m.Status, m.StakeDeadline = wallet, StatusStaking, ms(now.Add(StakeWindow))
			if err := tx.Put("match/"+id, m); err != nil {
				return err
			}
			if err := d.feedPaired(tx, m, now); err != nil {
				return err
			}
			return keep(tx, http.StatusOK, map[string]any{"match_id": id, "seat": "B", "stake_deadline": rfc(m.StakeDeadline)})
		})
		if err != nil {
			return 0, nil, err
		}
		return http.StatusOK, map[string]any{"match_id": id, "seat": "B", "stake_deadline": rfc(m.StakeDeadline)}, nil
	})
}

// publicMatch is GET /v1/warden/matches/{id}: the part of the match record this door keeps.
func (d *Doors) publicMatch(c echo.Context) error {
	m, err := d.match(c.Param("id"))
	if err != nil {
		return err
	}
	staked := []string{}
	for _, s := range []string{"A", "B"} {
		if m.Stakes[s] != "" {
			staked = append(staked, s)
		}
	}
	c.Response().Header().Set("Cache-Control", "no-store")
	out := map[string]any{"match_id": m.ID, "game": m.Game, "stake": m.Stake,
		"status": m.Status, "seats": map[string]string{"A": m.A, "B": m.B}, "staked": staked}
	if d.Play != nil && played(m) {
		v, err := d.Play.View(c.Request().Context(), m.ID, 0, 0)
		if err != nil {
			return err
		}
		for k, x := range d.common(v) {
			if k != "status" && k != "stake" {
				out[k] = x
			}
		}
		profiles := map[string]any{}
		for i, s := range v.Seats {
			profiles[string(rune('A'+i))] = map[string]any{"contender_id": s.ContenderID, "name": s.Name, "temperament": s.Temperament}
		}
		out["profiles"], out["log"] = profiles, v.Log
	}
	return c.JSON(http.StatusOK, out)
}

func (d *Doors) match(id string) (Match, error) {
	var m Match
	var found bool
	err := d.Store.WardenView(func(tx storage.WardenTx) (err error) {
		found, err = tx.Get("match/"+id, &m)
		return err
	})
	if err != nil {
		return Match{}, err
	}
	if !found {
		return Match{}, refuse("unknown_match", "no match "+strconv.Quote(id))
	}
	return m, nil
}

// idemRec is an Idempotency-Key's stored answer.
type idemRec struct {
	Hash   string          `json:"hash"`
	Status int             `json:"status"`
	Body   json.RawMessage `json:"body"`
}

// keeper stores a write's answer under the request's Idempotency-Key inside the write's own
// transaction (nothing without the header), so the write and its stored answer are one commit.
type keeper func(tx storage.WardenTx, status int, out any) error

// idemHit is a keeper's finding that the key's answer was stored (by a concurrent twin): the
// write is abandoned and the stored answer sent.
type idemHit struct{ rec idemRec }

func (*idemHit) Error() string { return "idempotency key answered already" }

// idempotent runs a write under the request's Idempotency-Key (§7): a repeat with the same key
// and body gets the stored answer; the same key with another request is bad_request. fn calls
// keep inside its write transaction. Without the header the write just runs. Refusals are not
// stored (an error changes nothing, so a retry is safe).
func (d *Doors) idempotent(c echo.Context, scope string, hasBody bool, fn func(raw []byte, keep keeper) (int, any, error)) error {
	var raw []byte
	if hasBody {
		var err error
		if raw, err = door.ReadBody(c, maxBody); err != nil {
			return err
		}
	}
	key := c.Request().Header.Get("Idempotency-Key")
	if key == "" {
		st, out, err := fn(raw, func(storage.WardenTx, int, any) error { return nil })
		if err != nil {
			return err
		}
		return c.JSON(st, out)
	}
	if len(key) > 128 || strings.ContainsAny(key, "/\x00") {
		return refuse("bad_request", "Idempotency-Key is at most 128 bytes, without '/'")
	}
	sum := hashHex(c.Request().Method + " " + c.Request().URL.Path + "\n" + string(raw))
	k := "idem/" + scope + "/" + key
	stored := func(tx storage.WardenTx) error {
		var rec idemRec
		found, err := tx.Get(k, &rec)
		switch {
		case err != nil:
			return err
		case !found:
			return nil
		case rec.Hash != sum:
			return refuse("bad_request", "this Idempotency-Key was used with another request")
		}
		return &idemHit{rec}
	}
	err := d.Store.WardenView(stored)
	var hit *idemHit
	if errors.As(err, &hit) {
		return c.JSONBlob(hit.rec.Status, hit.rec.Body)
	}
	if err != nil {
		return err
	}
	var body []byte
	st, _, err := fn(raw, func(tx storage.WardenTx, status int, out any) error {
		if err := stored(tx); err != nil {
			return err
		}
		b, err := json.Marshal(out)
		if err != nil {
			return err
		}
		body = b
		return tx.Put(k, idemRec{Hash: sum, Status: status, Body: b})
	})
	if errors.As(err, &hit) {
		return c.JSONBlob(hit.rec.Status, hit.rec.Body)
	}
	if err != nil {
		return err
	}
	return c.JSONBlob(st, body)
}

// Challenge is the 402 challenge of a match's stake (§10.2): one exact offer of the stake on
// the rail.
func (d *Doors) Challenge(m Match, seat string) x402.Challenge {
	r := d.Rail
	return x402.Challenge{
		Resource: x402.Resource{URL: d.BaseURL + "/v1/warden/matches/" + m.ID + "/stake",
			Description: "Warden stake, match " + m.ID + ", seat " + seat, MimeType: "application/json"},
		Offers: []x402.Offer{{Kind: x402.KindExact, ChainID: r.ChainID, V1Network: r.V1Network, Asset: r.Asset,
			PayTo: r.PayTo, Amount: m.Stake, MaxTimeoutSeconds: 300, DomainName: r.DomainName, DomainVersion: r.DomainVersion}},
	}
}

// paymentRequired answers 402 with both wire formats (§10.2): PAYMENT-REQUIRED (v2) and the
// v1 body, to which the Warden's {v, error, detail} members are added so that one body serves
// x402 v1 clients and the Warden's own error shape.
func paymentRequired(c echo.Context, ch x402.Challenge, code, detail string) error {
	hdr, err := ch.Header(code)
	if err != nil {
		return err
	}
	v1, err := ch.V1Body(code)
	if err != nil {
		return err
	}
	body := map[string]any{}
	if err := json.Unmarshal(v1, &body); err != nil {
		return err
	}
	body["v"], body["error"], body["detail"] = 1, code, detail
	h := c.Response().Header()
	h.Set("PAYMENT-REQUIRED", hdr)
	h.Set("Access-Control-Expose-Headers", "PAYMENT-REQUIRED, PAYMENT-RESPONSE, X-PAYMENT-RESPONSE")
	h.Set("Cache-Control", "no-store")
	return c.JSON(http.StatusPaymentRequired, body)
}

// seatOf is wallet's seat in m, "" when it has none.
func seatOf(m Match, wallet string) string {
	switch wallet {
	case m.A:
		return "A"
	case m.B:
		return "B"
	}
	return ""
}

// stake is POST /v1/warden/matches/{id}/stake (§10.3, §10.4). In order: the payment header is
// parsed (bad_payment, invalid_payload, invalid_x402_version); the caller, seat, state and
// window are checked before any money moves (not_seated, wrong_state, stake_window_closed,
// already_staked); no payment → 402 with the challenge; the payment is checked against the
// challenge (chain/x402 Verify) and must come from the seated wallet (payer_mismatch); the
// nonce is claimed with the payment record in one transaction (payment_replayed for another
// resource; the same payment again resumes or repeats its outcome); the transfer is settled on
// chain at most once (settle); the cleared stake and the payment's settled record are one
// write, and the match goes LIVE in it when both seats have cleared. Then 200.
func (d *Doors) stake(c echo.Context) error {
	wallet, err := d.caller(c)
	if err != nil {
		return err
	}
	h := c.Request().Header
	p, perr := x402.FromHeaders(h.Get("X-PAYMENT"), h.Get("PAYMENT-SIGNATURE"))
	var xr *x402.Refusal
	if perr != nil && !(errors.As(perr, &xr) && xr.Code == x402.CodePaymentRequired) {
		return d.paymentRefusal(c, perr, nil)
	}
	m, err := d.match(c.Param("id"))
	if err != nil {
		return err
	}
	seat := seatOf(m, wallet)
	if seat == "" {
		return refuse("not_seated", "the caller has no seat in "+m.ID)
	}
	ch := d.Challenge(m, seat)
	now := d.now()
	if m.Stakes[seat] != "" {
		if p != nil {
			if done, ok, err := d.samePayment(m.Stakes[seat], p); err != nil {
				return err
			} else if ok {
				return d.cleared(c, m, seat, done)
			}
		}
		return refuse("already_staked", "seat "+seat+" has staked")
	}
	switch {
	case m.Status != StatusStaking:
		return refuse("wrong_state", "the match is "+m.Status+", stakes are taken while STAKING")
	case ms(now) > m.StakeDeadline:
		return refuse("stake_window_closed", "the stake window closed at "+rfc(m.StakeDeadline))
	}
	if p == nil {
		return paymentRequired(c, ch, x402.CodePaymentRequired, "pay the stake with x402 (X-PAYMENT v1 or PAYMENT-SIGNATURE v2)")
	}
	v, err := ch.Verify(p, now.Unix())
	if err != nil {
		return d.paymentRefusal(c, err, &ch)
	}
	if v.Payer.String() != wallet {
		return paymentRequired(c, ch, "payer_mismatch", "the authorization is from "+v.Payer.String()+", the seat's wallet is "+wallet)
	}
	rec := storage.WardenPayment{ID: "wp_" + randHex(8), Resource: c.Request().URL.Path, Match: m.ID, Seat: seat,
		Payer: wallet, Amount: m.Stake, Network: v.Offer.Network(), Key: v.Key.String(), Version: p.Version,
		Payload: p.Raw, Status: storage.WardenPaySettling, Created: now.Unix()}
	held, claimed, err := d.Store.ClaimWardenPayment(v.Key, rec)
	if err != nil {
		return err
	}
	if !claimed {
		if held.Resource != rec.Resource || held.Payer != rec.Payer || string(held.Payload) != string(p.Raw) {
			return paymentRequired(c, ch, x402.CodePaymentReplayed, "this authorization's nonce was used by another payment")
		}
		rec = held // the same payment again: resume or repeat its outcome (§10.8)
	}
	if err := d.step("claimed"); err != nil {
		return err
	}
	done, err := d.settle(c.Request().Context(), rec, p)
	if err != nil {
		var ref *door.Refusal
		if errors.As(err, &ref) && ref.Code == "settlement_failed" {
			return paymentRequired(c, ch, ref.Code, ref.Msg)
		}
		return err
	}
	m, err = d.match(m.ID)
	if err != nil {
		return err
	}
	return d.cleared(c, m, seat, done)
}

// samePayment reports whether the cleared payment id carries p's authorization, and returns it.
func (d *Doors) samePayment(id string, p *x402.Payment) (storage.WardenPayment, bool, error) {
	rec, err := d.Store.WardenPayment(id)
	if err != nil {
		return storage.WardenPayment{}, false, err
	}
	return rec, string(rec.Payload) == string(p.Raw), nil
}

// cleared is the stake's 200 answer with the settlement response header.
func (d *Doors) cleared(c echo.Context, m Match, seat string, rec storage.WardenPayment) error {
	resp, _ := json.Marshal(map[string]any{"success": true, "transaction": rec.Tx, "network": rec.Network, "payer": rec.Payer})
	name := "X-PAYMENT-RESPONSE"
	if rec.Version == 2 {
		name = "PAYMENT-RESPONSE"
	}
	h := c.Response().Header()
	h.Set(name, base64.StdEncoding.EncodeToString(resp))
	h.Set("Access-Control-Expose-Headers", "PAYMENT-REQUIRED, PAYMENT-RESPONSE, X-PAYMENT-RESPONSE")
	h.Set("Cache-Control", "no-store")
	return c.JSON(http.StatusOK, map[string]any{"seat": seat, "amount": rec.Amount, "rail": d.Rail.ID, "ref": rec.Tx,
		"status": "cleared", "payment_id": rec.ID, "match_status": m.Status})
}

// paymentRefusal answers a chain/x402 refusal with its §10.10 status: 400 for bad_payment and
// invalid_payload, 402 with the challenge otherwise (or 402 without one when the request was
// refused before its match was read).
func (d *Doors) paymentRefusal(c echo.Context, err error, ch *x402.Challenge) error {
	var r *x402.Refusal
	if !errors.As(err, &r) {
		return err
	}
	if Statuses.Status(r.Code) != http.StatusPaymentRequired || ch == nil {
		return door.Refuse(r.Code, r.Detail)
	}
	return paymentRequired(c, *ch, r.Code, r.Detail)
}

// settle takes a claimed payment to settled or failed, at most one transfer on chain
// (evm.Token.SettleOnce), each step durable before the next: submitted with its hash, then
// settled together with the match's cleared seat (and LIVE when both have cleared). A
// transfer the chain refuses or reverts is recorded failed: settlement_failed. A chain that
// cannot be reached leaves the record where it is (the same payment again, or Recover,
// resumes it): facilitator_unavailable.
func (d *Doors) settle(ctx context.Context, rec storage.WardenPayment, p *x402.Payment) (storage.WardenPayment, error) {
	switch rec.Status {
	case storage.WardenPaySettled:
		return rec, d.clearSeat(rec)
	case storage.WardenPayFailed:
		return rec, refuse("settlement_failed", rec.Reason)
	}
	timeout := d.SettleTimeout
	if timeout <= 0 {
		timeout = 60 * time.Second
	}
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	var known [32]byte
	if rec.Tx != "" {
		b, _ := hex.DecodeString(strings.TrimPrefix(rec.Tx, "0x"))
		copy(known[:], b)
	}
	r, err := d.Token.SettleOnce(ctx, d.Relayer, p, known, func(tx [32]byte) error {
		if err := d.step("sent"); err != nil {
			return err
		}
		rec.Status, rec.Tx = storage.WardenPaySubmitted, "0x"+hex.EncodeToString(tx[:])
		if err := d.Store.PutWardenPayment(rec); err != nil {
			return err
		}
		return d.step("submitted")
	})
	var rpcErr *evm.RPCError
	var reverted *evm.RevertedError
	switch {
	case errors.As(err, &reverted), errors.As(err, &rpcErr) && rpcErr.Code == 3:
		rec.Status, rec.Reason = storage.WardenPayFailed, "the token refused the transfer: "+err.Error()
		if rec.Tx == "" && reverted != nil {
			rec.Tx = reverted.Receipt.TxHash
		}
		if perr := d.Store.PutWardenPayment(rec); perr != nil {
			return rec, perr
		}
		return rec, refuse("settlement_failed", rec.Reason)
	case errors.Is(err, evm.ErrNotSubmitted):
		return rec, err
	case err != nil:
		if d.Log != nil {
			d.Log.Warn("warden: settlement not finished", "payment", rec.ID, "err", err)
		}
		return rec, refuse("facilitator_unavailable", "the chain could not be reached; send the same payment again")
	}
	if err := d.step("mined"); err != nil {
		return rec, err
	}
	rec.Status, rec.Tx = storage.WardenPaySettled, strings.ToLower(r.TxHash)
	if err := d.clearSeat(rec); err != nil {
		return rec, err
	}
	return rec, nil
}

// clearSeat writes a settled stake: the payment record settled and its seat cleared in the
// match, in one transaction; the match goes LIVE when both seats have cleared (§10.4). A seat
// cleared already by this payment is left as it is.
func (d *Doors) clearSeat(rec storage.WardenPayment) error {
	live := false
	err := d.Store.WardenUpdate(func(tx storage.WardenTx) error {
		live = false
		if err := tx.PutPayment(rec); err != nil {
			return err
		}
		var m Match
		found, err := tx.Get("match/"+rec.Match, &m)
		if err != nil {
			return err
		}
		if !found {
			return fmt.Errorf("warden: payment %s names match %s, which has no record", rec.ID, rec.Match)
		}
		if m.Stakes[rec.Seat] == rec.ID {
			return nil
		}
		if m.Stakes[rec.Seat] != "" {
			return fmt.Errorf("warden: seat %s of %s cleared by %s, not %s", rec.Seat, m.ID, m.Stakes[rec.Seat], rec.ID)
		}
		if m.Stakes == nil {
			m.Stakes = map[string]string{}
		}
		m.Stakes[rec.Seat] = rec.ID
		if m.Stakes["A"] != "" && m.Stakes["B"] != "" && m.Status == StatusStaking {
			m.Status, live = StatusLive, true
		}
		if err := tx.Put("match/"+m.ID, m); err != nil {
			return err
		}
		return d.feedStakeCleared(tx, m, rec, d.now())
	})
	if err != nil || !live || d.Play == nil {
		return err
	}
	// Play begins (the match actor writes its play record); were this lost to a crash, boot
	// recovery starts every LIVE match, and the first action or view starts it too.
	if err := d.Play.Begin(context.Background(), rec.Match); err != nil && d.Log != nil {
		d.Log.Warn("warden: play did not begin", "match", rec.Match, "err", err)
	}
	return nil
}

// Recover resumes every payment a crash left settling or submitted (§10.8): each is settled at
// most once (SettleOnce asks the chain before it sends) and its seat cleared in the same write
// as its settled record. It returns the first error; the rest are still tried.
func (d *Doors) Recover(ctx context.Context) error {
	var open []storage.WardenPayment
	if err := d.Store.WardenPayments(func(p storage.WardenPayment) error {
		if p.Status == storage.WardenPaySettling || p.Status == storage.WardenPaySubmitted {
			open = append(open, p)
		}
		return nil
	}); err != nil {
		return err
	}
	var first error
	for _, rec := range open {
		p, err := x402.Parse(rec.Payload)
		if err == nil {
			_, err = d.settle(ctx, rec, p)
		}
		var ref *door.Refusal
		if errors.As(err, &ref) && ref.Code == "settlement_failed" {
			err = nil // recorded failed: nothing moved
		}
		if err != nil && first == nil {
			first = fmt.Errorf("warden: recover payment %s: %w", rec.ID, err)
		}
	}
	return first
}
