package market

import (
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"time"

	"github.com/labstack/echo/v4"

	gm "arena/games/market"
	"arena/storage"
	"arena/transport/door"
	"arena/transport/ops"
)

// Ops are the market's operator routes, behind `Authorization: Bearer <operator token>`
// (ops.Bearer: no token 401 unauthorized, a wrong one 403 forbidden):
//
//	POST /ops/market/keys {owner, name?}  → {key, record}: a new API key, shown this once
//	GET  /ops/market/keys                 → {keys: [record…]} (hashes, Owners, names; no key)
//	POST /ops/market/keys/{id}/revoke     → {record}; unknown id: 404 not_found
//	GET  /ops/market/admin                → the Admin projection (games/market.AdminView)
//
// These answers name Owners and Delegates: they are the operator's, never a public output.
type Ops struct {
	Token string
	Auth  *Authenticator
	Keys  Keys
	// Admin is the Admin projection now (AdminFromStore).
	Admin func(now time.Time) (gm.AdminView, error)
	Now   func() time.Time // nil: time.Now
}

func (o *Ops) now() time.Time {
	if o.Now != nil {
		return o.Now()
	}
	return time.Now()
}

// guard holds the operator routes to the market's limit on failed credentials (GuessRate,
// one budget per client address with the doors' bearer keys): a wrong operator token (403)
// counts, and past the limit every operator request from that address is rate_limited (429)
// before its token is compared, the right one included.
func (o *Ops) guard(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c echo.Context) error {
		if o.Auth == nil {
			return next(c)
		}
		addr := door.ClientAddr(c.Request(), false)
		if err := o.Auth.guesses.Exhausted(addr); err != nil {
			return err
		}
		err := next(c)
		if r, ok := door.AsRefusal(err); err != nil && ok && r.Code == door.CodeForbidden {
			o.Auth.guesses.Allow(addr)
		}
		return err
	}
}

func (o *Ops) mount(e *echo.Echo) {
	g := e.Group("/ops/market", o.guard, ops.Bearer(o.Token))
	g.POST("/keys", func(c echo.Context) error {
		var in struct {
			Owner string `json:"owner"`
			Name  string `json:"name"`
		}
		if err := door.Decode(c, 4096, &in); err != nil {
			return err
		}
		key, rec, err := o.Auth.Issue(in.Owner, in.Name, o.now())
		if err != nil {
			return door.Refuse(door.CodeBadRequest, err.Error())
		}
		c.Response().Header().Set("Cache-Control", "no-store")
		return c.JSON(http.StatusOK, map[string]any{"key": key, "record": rec})
	})
	g.GET("/keys", func(c echo.Context) error {
		ks, err := o.Keys.MarketKeys()
		if err != nil {
			return err
		}
		if ks == nil {
			ks = []storage.MarketKey{}
		}
		c.Response().Header().Set("Cache-Control", "no-store")
		return c.JSON(http.StatusOK, map[string]any{"keys": ks})
	})
	g.POST("/keys/:id/revoke", func(c echo.Context) error {
		rec, err := o.Keys.RevokeMarketKey(c.Param("id"), o.now())
		if errors.Is(err, storage.ErrNotFound) {
			return door.Refuse(door.CodeNotFound, "no key has id "+c.Param("id"))
		}
		if err != nil {
			return err
		}
		c.Response().Header().Set("Cache-Control", "no-store")
		return c.JSON(http.StatusOK, map[string]any{"record": rec})
	})
	g.GET("/admin", func(c echo.Context) error {
		v, err := o.Admin(o.now())
		if err != nil {
			return err
		}
		c.Response().Header().Set("Cache-Control", "no-store")
		return c.JSON(http.StatusOK, v)
	})
}

// Deltas are the market's stored Deltas: *storage.Store.
type Deltas interface {
	MarketDeltas(fn func(seq uint64, delta []byte) error) error
}

// AdminFromStore is the Admin projection of the market of cfg and seed as its durable Deltas
// make it (everything acknowledged): a fresh State with every stored Delta committed, then
// games/market.Admin. It reads the store only, so it never waits on the market actor.
func AdminFromStore(store Deltas, cfg gm.Config, seed [32]byte) func(now time.Time) (gm.AdminView, error) {
	return func(now time.Time) (v gm.AdminView, err error) {
		st, err := gm.NewState(cfg, seed)
		if err != nil {
			return v, err
		}
		defer func() {
			if r := recover(); r != nil { // a Delta that does not follow: stored data gone wrong
				err = fmt.Errorf("market: admin: stored deltas do not replay: %v", r)
			}
		}()
		err = store.MarketDeltas(func(seq uint64, b []byte) error {
			var d gm.Delta
			if err := json.Unmarshal(b, &d); err != nil {
				return fmt.Errorf("delta %d: %w", seq, err)
			}
			st.Commit(d)
			return nil
		})
		if err != nil {
			return v, fmt.Errorf("market: admin: %w", err)
		}
		return gm.Admin(st, now), nil
	}
}
