package desk

import (
	"context"
	"net/http"

	"github.com/labstack/echo/v4"

	"arena/actors/dotdotdot"
)

// Table kinds and ratings over HTTP (docs/protocol-notes.md "DOTDOTDOT table kinds",
// "DOTDOTDOT ratings"), mounted by Mount when the Desk also implements Kinds:
//
//	GET /v1/tables/kinds  → {kinds: [...], gathering: [...]} every kind and its rules; the agent
//	                        tables gathering now (display names only)
//	GET /v1/ratings       → {method, ratings: [...]} the rated Badges, best first (at most 100)

// Kinds is the lobby's tables by kind and the ratings. *dotdotdot.Arena implements it.
type Kinds interface {
	// Gatherings lists the agent tables (free, rated, badge-gated) gathering now.
	Gatherings(ctx context.Context) ([]dotdotdot.Gathering, error)
	// Ratings lists the rated Badges, highest rating first.
	Ratings() ([]dotdotdot.RatingRecord, error)
}

// RatingMethod is the ratings' method in words, as /v1/ratings and the lobby state it.
const RatingMethod = "Glicko-2 (Glickman 2013), τ 0.5, newcomers 1500 / RD 350 / volatility 0.06; a rated round is one rating period, each rated seat playing every other rated seat once, scored by place"

// ratingsMax caps GET /v1/ratings.
const ratingsMax = 100

func mountKinds(e *echo.Echo, h *handlers) {
	k, ok := h.d.(Kinds)
	if !ok {
		return
	}
	kh := &kindHandlers{handlers: h, k: k}
	e.GET("/v1/tables/kinds", kh.kinds)
	e.GET("/v1/ratings", kh.ratings)
}

type kindHandlers struct {
	*handlers
	k Kinds
}

func (h *kindHandlers) kinds(c echo.Context) error {
	if err := onlyQuery(c); err != nil {
		return err
	}
	ctx, cancel := h.call(c)
	defer cancel()
	gs, err := h.k.Gatherings(ctx)
	if err != nil {
		return err
	}
	return sendJSON(c, http.StatusOK, map[string]any{"kinds": kindsOf(h.k), "gathering": gs})
}

func (h *kindHandlers) ratings(c echo.Context) error {
	if err := onlyQuery(c); err != nil {
		return err
	}
	rs, err := h.k.Ratings()
	if err != nil {
		return err
	}
	if len(rs) > ratingsMax {
		rs = rs[:ratingsMax]
	}
	if rs == nil {
		rs = []dotdotdot.RatingRecord{}
	}
	return sendJSON(c, http.StatusOK, map[string]any{"method": RatingMethod, "ratings": rs})
}

// kindsOf is the catalogue as src plays it (the arena's scouting, Arena.TableKinds) when src
// says, else the catalogue's own lengths.
func kindsOf(src any) []dotdotdot.TableKind {
	if k, ok := src.(interface{ TableKinds() []dotdotdot.TableKind }); ok {
		return k.TableKinds()
	}
	return dotdotdot.TableKinds()
}
