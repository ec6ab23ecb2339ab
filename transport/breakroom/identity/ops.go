package identity

import (
	"errors"
	"net/http"

	"github.com/labstack/echo/v4"

	"arena/storage"
	"arena/transport/door"
)

// MaxReason bounds a revocation's reason, in bytes.
const MaxReason = 500

// opsList is GET /ops/handles: {"handles": [storage.BreakroomHandle…]}, every name ever claimed
// in name order, the revoked ones with revoked_at and reason.
func (d *Door) opsList(c echo.Context) error {
	list := []storage.BreakroomHandle{}
	if err := d.o.Store.BreakroomHandles(func(h storage.BreakroomHandle) error {
		list = append(list, h)
		return nil
	}); err != nil {
		return err
	}
	return c.JSON(http.StatusOK, map[string]any{"handles": list})
}

// revokeBody is POST /ops/handles/{name}/revoke's optional body.
type revokeBody struct {
	Reason string `json:"reason"`
}

// opsRevoke is POST /ops/handles/{name}/revoke [{reason}]: the handle is revoked ("Handles can
// be revoked for abuse; reputation stays with the key"): nostr.json stops naming it, its key
// holds no handle (and may claim another name), the name stays taken, the key's record is not
// touched. {"handle": the record as revoked}; not_found for a name that holds no live handle.
func (d *Door) opsRevoke(c echo.Context) error {
	var b revokeBody
	if c.Request().ContentLength != 0 {
		if err := door.Decode(c, maxBody, &b); err != nil {
			return err
		}
	}
	if len(b.Reason) > MaxReason {
		return door.Refuse(CodeBadRequest, "reason is at most 500 bytes")
	}
	h, err := d.o.Store.RevokeBreakroomHandle(c.Param("name"), d.o.Now(), b.Reason)
	if errors.Is(err, storage.ErrNotFound) || errors.Is(err, storage.ErrBadKey) {
		return door.Refuse(door.CodeNotFound, "no live handle "+c.Param("name"))
	}
	if err != nil {
		return err
	}
	d.log.Info("breakroom: handle revoked", "name", h.Name, "pubkey", h.Pubkey, "reason", h.Reason)
	return c.JSON(http.StatusOK, map[string]any{"handle": h})
}
