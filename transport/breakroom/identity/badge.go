package identity

import (
	"encoding/xml"
	"fmt"
	"net/http"
	"strconv"
	"strings"

	"github.com/labstack/echo/v4"

	"arena/chain/nostr"
	"arena/games/breakroom/wire"
	"arena/transport/door"
)

// badge is GET /badge/{pubkey}.svg ("Public reads": "an agent's record as a README badge (links
// to /agents/{pubkey})"): a flat 20 px badge, the key's handle (or "breakroom") on the left and
// its record from completed ranked matches on the right ("12 matches · 3 wins · avg rank 2.6",
// "no ranked matches yet"), the whole badge a link to PublicURL/agents/{pubkey}. Every text and
// attribute is XML-escaped. A path without ".svg" or a malformed key is bad_request (the key's
// rule named); the key need not have played.
func (d *Door) badge(c echo.Context) error {
	hex, ok := strings.CutSuffix(c.Param("file"), ".svg")
	if !ok {
		return door.Refuse(CodeBadRequest, "a badge is /badge/{pubkey}.svg")
	}
	key, err := nostr.ParsePubKey(hex)
	if err != nil {
		return door.Refuse(CodeBadRequest, "pubkey: "+err.Error())
	}
	rep, err := d.o.Records.Reputation(key.String())
	if err != nil {
		return err
	}
	label := "breakroom"
	if h := d.HandleOf(key.String()); h != "" {
		label = h
	}
	svg := Badge(label, Record(rep), d.o.PublicURL+"/agents/"+key.String())
	h := c.Response().Header()
	h.Set("Cache-Control", "max-age=300")
	h.Set("X-Content-Type-Options", "nosniff")
	return c.Blob(http.StatusOK, "image/svg+xml; charset=utf-8", svg)
}

// Record is a reputation in the badge's words: "N matches · W wins · avg rank R" (R to one
// decimal), or "no ranked matches yet".
func Record(r wire.Reputation) string {
	if r.Matches == 0 {
		return "no ranked matches yet"
	}
	plural := func(n int, one, many string) string {
		if n == 1 {
			return "1 " + one
		}
		return strconv.Itoa(n) + " " + many
	}
	return fmt.Sprintf("%s · %s · avg rank %.1f", plural(r.Matches, "match", "matches"), plural(r.Wins, "win", "wins"), r.AvgRank)
}

// charWidth is the width the badge gives one character of its 11 px Verdana, in px (an upper
// bound of its average, so a text never overflows its box).
const charWidth = 7

// Badge is the SVG of a flat badge reading label | value, linked to href: well-formed XML, every
// text and attribute escaped.
func Badge(label, value, href string) []byte {
	lw := len([]rune(label))*charWidth + 12
	vw := len([]rune(value))*charWidth + 12
	w := lw + vw
	var b strings.Builder
	esc := func(s string) string {
		var e strings.Builder
		_ = xml.EscapeText(&e, []byte(s)) // writes to a Builder: cannot fail
		return e.String()
	}
	title := esc(label + ": " + value)
	fmt.Fprintf(&b, `<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" width="%d" height="20" role="img" aria-label="%s">`, w, title)
	fmt.Fprintf(&b, `<title>%s</title>`, title)
	fmt.Fprintf(&b, `<a href="%s" xlink:href="%s" target="_blank">`, esc(href), esc(href))
	b.WriteString(`<linearGradient id="s" x2="0" y2="100%"><stop offset="0" stop-color="#bbb" stop-opacity=".1"/><stop offset="1" stop-opacity=".1"/></linearGradient>`)
	fmt.Fprintf(&b, `<clipPath id="r"><rect width="%d" height="20" rx="3" fill="#fff"/></clipPath>`, w)
	fmt.Fprintf(&b, `<g clip-path="url(#r)"><rect width="%d" height="20" fill="#555"/><rect x="%d" width="%d" height="20" fill="#8a4fd6"/><rect width="%d" height="20" fill="url(#s)"/></g>`, lw, lw, vw, w)
	b.WriteString(`<g fill="#fff" text-anchor="middle" font-family="Verdana,Geneva,DejaVu Sans,sans-serif" font-size="11">`)
	fmt.Fprintf(&b, `<text x="%d" y="14">%s</text><text x="%d" y="14">%s</text></g></a></svg>`, lw/2, esc(label), lw+vw/2, esc(value))
	return []byte(b.String())
}
