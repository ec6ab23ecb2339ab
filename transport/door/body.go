package door

import (
	"bytes"
	"fmt"
	"io"
	"mime"
	"strings"

	"github.com/labstack/echo/v4"

	"arena/games/canon"
)

// DefaultMaxBody is the body cap when a door is given none: 64 KiB.
const DefaultMaxBody = 64 << 10

// ReadBody returns the raw request body, refusing what is not one JSON body:
//   - a Content-Type other than application/json or application/*+json (XML, forms, text,
//     multipart) → unsupported_media_type (415); a missing Content-Type is read as JSON; a
//     charset other than utf-8 → 415;
//   - more than max bytes (max ≤ 0 selects DefaultMaxBody) → too_large (413);
//   - an empty or all-white-space body → bad_request (400).
//
// The bytes are returned as received: callers decode them with Decode or hand them on.
func ReadBody(c echo.Context, max int64) ([]byte, error) {
	if max <= 0 {
		max = DefaultMaxBody
	}
	req := c.Request()
	if ct := req.Header.Get("Content-Type"); ct != "" {
		mt, params, err := mime.ParseMediaType(ct)
		if err != nil {
			return nil, Refuse(CodeMediaType, "unreadable Content-Type; send application/json")
		}
		if mt != "application/json" && !(strings.HasPrefix(mt, "application/") && strings.HasSuffix(mt, "+json")) {
			return nil, Refuse(CodeMediaType, fmt.Sprintf("Content-Type %s is not accepted; send application/json", mt))
		}
		if cs, ok := params["charset"]; ok && !strings.EqualFold(cs, "utf-8") {
			return nil, Refuse(CodeMediaType, "charset must be utf-8")
		}
	}
	if req.ContentLength > max {
		return nil, Refuse(CodeTooLarge, fmt.Sprintf("body over %d bytes", max))
	}
	if req.Body == nil {
		return nil, Refuse(CodeBadRequest, "empty body; send one JSON object")
	}
	raw, err := io.ReadAll(io.LimitReader(req.Body, max+1))
	if err != nil {
		return nil, Refuse(CodeBadRequest, "body could not be read")
	}
	if int64(len(raw)) > max {
		return nil, Refuse(CodeTooLarge, fmt.Sprintf("body over %d bytes", max))
	}
	if len(bytes.TrimSpace(raw)) == 0 {
		return nil, Refuse(CodeBadRequest, "empty body; send one JSON object")
	}
	return raw, nil
}

// Decode reads the body (ReadBody) and decodes it strictly into v (canon.Decode: exact-case
// member names, no unknown members, no duplicates or case-folded twins, no trailing data,
// integers within ±(2^53−1), the right JSON types). Any failure is bad_request (400) naming the
// member at fault. v's type must hold no field for a path parameter, so a body can never
// override one: such a member is unknown and refused.
func Decode(c echo.Context, max int64, v any) error {
	raw, err := ReadBody(c, max)
	if err != nil {
		return err
	}
	return DecodeBytes(raw, v)
}

// DecodeBytes is Decode on bytes already read.
func DecodeBytes(raw []byte, v any) error {
	if err := canon.Decode(raw, v); err != nil {
		return Refuse(CodeBadRequest, canon.Reason(err))
	}
	return nil
}
