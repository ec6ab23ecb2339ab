package join

import (
	"context"
	"encoding/hex"
	"encoding/json"
	"net/http"
	"regexp"
	"strconv"
	"time"

	"github.com/labstack/echo/v4"

	"arena/actors/dotdotdot"
	"arena/chain/escrow"
	"arena/transport/door"
)

// HeaderSeatToken carries a paid seat's token on GET {check} (§5.7); never in a URL.
const HeaderSeatToken = "X-Seat-Token"

// DepositEntrypoint is the escrow entrypoint a paid seat's entry is sent to; its parameter is the
// seat token as a smart-contract String (chain/escrow.EncodeDeposit), docs/protocol-notes.md
// "devchain".
const DepositEntrypoint = "escrow.deposit"

// Paid serves paid tables over dotdotdot.PaidHold (*dotdotdot.PaidTables, through cmd/arena's
// wiring). Hold is handed the verified join (Seat.Table "open") with its format and seats as
// sent: the paid tables refuse those they do not play (bad_request for no format or seat count
// of §5.6, bad_table for another table than the one filling). Check answers the
// {paid, paid_by, ...} object; a wrong token is a refusal with code forbidden.
type Paid interface {
	Hold(ctx context.Context, s Seat) (dotdotdot.PaidHold, error)
	Check(ctx context.Context, hold, seatToken string) (json.RawMessage, error)
}

// holdReply is the answer of a paid join: seat_token, starts_at, pay_from, entry (the deposit
// instruction) and check (§5.7).
func holdReply(h dotdotdot.PaidHold) map[string]any {
	param := escrow.EncodeDeposit(h.SeatToken)
	return map[string]any{
		"seat_token": h.SeatToken,
		"starts_at":  h.StartsAt.UTC().Format(time.RFC3339),
		"pay_from":   h.PayFrom,
		"table":      h.Table,
		"entry": map[string]any{
			"amount":        h.Entry, // microCCD
			"amount_ccd":    strconv.FormatFloat(float64(h.Entry)/1e6, 'f', -1, 64),
			"contract":      h.Escrow,
			"entrypoint":    DepositEntrypoint,
			"parameter":     map[string]string{"seat_token": h.SeatToken},
			"parameter_hex": hex.EncodeToString(param),
			"from":          "one of pay_from",
			"before":        h.StartsAt.UTC().Format(time.RFC3339),
		},
		"check": "/v1/join/paid/" + h.Hold,
	}
}

var holdID = regexp.MustCompile(`^h_[0-9a-f]{24}$`)

// paidCheck is GET /v1/join/paid/{hold} with x-seat-token.
func (h *handlers) paidCheck(c echo.Context) error {
	hold := c.Param("hold")
	if !holdID.MatchString(hold) {
		return door.Refuse(door.CodeUnknownTable, "no such hold")
	}
	if len(c.QueryParams()) > 0 {
		return door.Refuse(door.CodeBadRequest, "no query parameters on a check")
	}
	vs := c.Request().Header.Values(HeaderSeatToken)
	if len(vs) != 1 || vs[0] == "" || len(vs[0]) > 128 {
		return door.Refuse(door.CodeUnauthorized, "send the seat token in x-seat-token (once)")
	}
	ctx, cancel := context.WithTimeout(c.Request().Context(), h.o.CallTimeout)
	defer cancel()
	body, err := h.o.Paid.Check(ctx, hold, vs[0])
	if err != nil {
		return err
	}
	c.Response().Header().Set("Cache-Control", "no-store")
	return c.Blob(http.StatusOK, echo.MIMEApplicationJSON, body)
}
