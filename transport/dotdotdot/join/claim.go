package join

import (
	"context"
	"net/http"

	"github.com/labstack/echo/v4"

	"arena/transport/door"
	"arena/transport/dotdotdot/walkin"
)

// claimBody is POST /v1/walkin/claim (§4.4): the walk-in token to claim, signed by the Badge's
// key over the JCS of the object without sig, as a join is.
type claimBody struct {
	Agent    string `json:"agent"`
	Walkin   string `json:"walkin"`
	IssuedAt string `json:"issued_at"`
	Nonce    string `json:"nonce"`
	Sig      string `json:"sig"`
}

// claim checks the signed claim as a join is checked (verify: a registry, issued_at fresh, the
// nonce's shape and first use, the Badge resolved per §4.1, sig by its card's key) and merges the
// token's record into the record of the account the registry names as the Badge's owner.
func (h *handlers) claim(c echo.Context) error {
	raw, err := door.ReadBody(c, h.o.MaxBody)
	if err != nil {
		return err
	}
	var b claimBody
	if err := door.DecodeBytes(raw, &b); err != nil {
		return err
	}
	if err := CheckAgentID(b.Agent); err != nil {
		return err
	}
	if !walkin.LooksLikeToken(b.Walkin) || len(b.Walkin) > 128 {
		return door.Refuse("unknown_token", `walkin must be the walk-in token to claim (w_…), sent in the signed body, never in a URL`)
	}
	ctx, cancel := context.WithTimeout(c.Request().Context(), h.o.CallTimeout)
	defer cancel()
	ag, err := h.verify(ctx, raw, b.Agent, b.IssuedAt, b.Nonce, b.Sig, "claim")
	if err != nil {
		return err
	}
	rec, err := h.o.Claims.ClaimWalkin(ctx, b.Walkin, ag.ID, ag.Owner)
	if err != nil {
		return err
	}
	c.Response().Header().Set("Cache-Control", "no-store")
	return c.JSON(http.StatusOK, map[string]any{"agent": ag.ID, "account": ag.Owner, "record": rec})
}
