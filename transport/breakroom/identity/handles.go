package identity

import (
	"encoding/json"
	"errors"
	"fmt"
	"net/http"

	"github.com/labstack/echo/v4"

	"arena/games/breakroom/wire"
	"arena/storage"
	"arena/transport/door"
)

// maxBody bounds a claim's body: its four members fit in far less.
const maxBody = 4 << 10

// claimBody is POST /v0/handle's body: {pubkey, name, nonce, sig}, v optional (0).
type claimBody struct {
	V      json.RawMessage `json:"v"` // as sent: only 0 (wire.CheckVersion)
	Pubkey string          `json:"pubkey"`
	Name   string          `json:"name"`
	Nonce  string          `json:"nonce"`
	Sig    string          `json:"sig"`
}

// claimReply is a claim's answer: the handle as a NIP-05 identifier (name@domain), its parts
// and where it is served.
type claimReply struct {
	Type      string `json:"type"`
	V         int    `json:"v"`
	Handle    string `json:"handle"`
	Name      string `json:"name"`
	Pubkey    string `json:"pubkey"`
	NIP05     string `json:"nip05_url"`
	ClaimedAt string `json:"claimed_at"`
}

// claimHandle is POST /v0/handle {pubkey, name, nonce, sig} ("Identity": "After 10 completed
// matches you may claim name@breakroom.lol"). The checks, in order, each refusing with its code
// and changing nothing: the body (bad_request, bad_version); the name's spelling
// (handle_invalid) and the reserved names (handle_reserved); the key and signature over
// sha256(utf8(nonce)) with a live nonce (bad_request, auth_failed: transport/breakroom/auth); the
// key's completed matches (not_eligible); a key holding a handle (already_has_handle); a name
// claimed before, by anyone, even if since revoked (handle_taken). The nonce is spent only by a
// claim that is stored, so a refused claim may be corrected and sent again with it. The claim is
// durable before the 200 leaves.
func (d *Door) claimHandle(c echo.Context) error {
	var b claimBody
	if err := door.Decode(c, maxBody, &b); err != nil {
		return err
	}
	if b.V != nil {
		if err := wire.CheckVersion(b.V); err != nil {
			r, _ := door.AsRefusal(err)
			return r
		}
	}
	for _, m := range []struct{ name, v string }{{"pubkey", b.Pubkey}, {"name", b.Name}, {"nonce", b.Nonce}, {"sig", b.Sig}} {
		if m.v == "" {
			return door.Refuse(CodeBadRequest, m.name+" is required")
		}
	}
	if code, detail := checkName(b.Name); code != "" {
		return door.Refuse(code, detail)
	}
	key, err := d.o.Nonces.Check(b.Pubkey, b.Nonce, b.Sig)
	if err != nil {
		return err
	}
	pub := key.String()
	rep, err := d.o.Records.Reputation(pub)
	if err != nil {
		return err
	}
	if rep.Matches < MinMatches {
		return door.Refuse(CodeNotEligible, fmt.Sprintf("a handle needs %d completed ranked matches; this key has %d", MinMatches, rep.Matches))
	}
	d.claim.Lock()
	defer d.claim.Unlock()
	if h, err := d.o.Store.BreakroomHandleOf(pub); err == nil {
		return door.Refuse(CodeHasHandle, fmt.Sprintf("this key holds %s@%s already; one handle per key", h.Name, d.domain))
	} else if !errors.Is(err, storage.ErrNotFound) {
		return err
	}
	if _, err := d.o.Store.BreakroomHandle(b.Name); err == nil {
		return door.Refuse(CodeTaken, fmt.Sprintf("%s@%s is taken", b.Name, d.domain))
	} else if !errors.Is(err, storage.ErrNotFound) {
		return err
	}
	if err := d.o.Nonces.Consume(b.Nonce); err != nil {
		return err
	}
	h := storage.BreakroomHandle{Name: b.Name, Pubkey: pub, ClaimedAt: d.o.Now().UTC()}
	switch err := d.o.Store.ClaimBreakroomHandle(h); {
	case errors.Is(err, storage.ErrHandleTaken):
		return door.Refuse(CodeTaken, fmt.Sprintf("%s@%s is taken", b.Name, d.domain))
	case errors.Is(err, storage.ErrHasHandle):
		return door.Refuse(CodeHasHandle, "this key holds a handle already; one handle per key")
	case err != nil:
		return err
	}
	c.Response().Header().Set("Cache-Control", "no-store")
	return c.JSON(http.StatusOK, claimReply{Type: "handle", V: wire.V, Handle: b.Name + "@" + d.domain, Name: b.Name, Pubkey: pub,
		NIP05: d.o.PublicURL + "/.well-known/nostr.json?name=" + b.Name, ClaimedAt: h.ClaimedAt.Format("2006-01-02T15:04:05.000Z")})
}

// nostrReply is NIP-05's document: names → hex keys.
type nostrReply struct {
	Names map[string]string `json:"names"`
}

// nostrJSON is GET /.well-known/nostr.json?name=<name> (NIP-05): {"names":{name: pubkey}} for a
// live handle, "_" for Break Room's own key, {"names":{}} for a name nobody holds (a revoked one
// included); with no name, Break Room's own entry. Always 200 with
// Access-Control-Allow-Origin: *, never a redirect (NIP-05 forbids them); the name is looked up
// exactly as sent (names are lower case). A repeated name is bad_request (door.UniqueQuery).
func (d *Door) nostrJSON(c echo.Context) error {
	h := c.Response().Header()
	h.Set("Access-Control-Allow-Origin", "*")
	h.Set("Cache-Control", "max-age=60")
	names := map[string]string{}
	vs := c.QueryParams()["name"]
	if len(vs) > 1 {
		return door.Refuse(CodeBadRequest, "name given more than once")
	}
	name := SelfName
	if len(vs) == 1 && vs[0] != "" {
		name = vs[0]
	}
	switch {
	case name == SelfName:
		names[SelfName] = d.o.SelfKey
	case len(name) <= MaxName:
		rec, err := d.o.Store.BreakroomHandle(name)
		switch {
		case err == nil && rec.RevokedAt == nil:
			names[name] = rec.Pubkey
		case err == nil, errors.Is(err, storage.ErrNotFound):
		default:
			return err
		}
	}
	return c.JSON(http.StatusOK, nostrReply{Names: names})
}

// nostrPreflight answers a browser's CORS preflight for nostr.json (web Nostr clients fetch it
// cross-origin).
func (d *Door) nostrPreflight(c echo.Context) error {
	h := c.Response().Header()
	h.Set("Access-Control-Allow-Origin", "*")
	h.Set("Access-Control-Allow-Methods", "GET, OPTIONS")
	h.Set("Access-Control-Allow-Headers", "*")
	return c.NoContent(http.StatusNoContent)
}

// HandleOf is key's live handle as name@domain, "" for none (seated.players' handle).
func (d *Door) HandleOf(key string) string {
	h, err := d.o.Store.BreakroomHandleOf(key)
	if err != nil {
		return ""
	}
	return h.Name + "@" + d.domain
}
