package identity

import (
	"bytes"
	"encoding/xml"
	"io"
	"strings"
	"testing"

	"arena/games/breakroom/wire"
)

// svgDoc is what the tests read of a badge: its size, its link and its texts.
type svgDoc struct {
	XMLName xml.Name `xml:"http://www.w3.org/2000/svg svg"`
	Width   string   `xml:"width,attr"`
	Label   string   `xml:"aria-label,attr"`
	Title   string   `xml:"title"`
	A       struct {
		Href  string   `xml:"href,attr"`
		Texts []string `xml:"g>text"`
	} `xml:"a"`
}

// wellFormed fails t unless raw is one well-formed XML document (every token read to the end).
func wellFormed(t *testing.T, raw []byte) {
	t.Helper()
	d := xml.NewDecoder(bytes.NewReader(raw))
	for {
		_, err := d.Token()
		if err == io.EOF {
			return
		}
		if err != nil {
			t.Fatalf("badge is not well-formed XML: %v\n%s", err, raw)
		}
	}
}

// badgeTexts is GET /badge/{pub}.svg's two texts (label, value), after checking it is an SVG
// badge linking to the key's page.
func (r *rig) badgeTexts(pub string) [2]string {
	r.t.Helper()
	resp, raw := r.do("GET", "/badge/"+pub+".svg", nil, nil)
	if resp.StatusCode != 200 || resp.Header.Get("Content-Type") != "image/svg+xml; charset=utf-8" {
		r.t.Fatalf("badge: %d %q %s", resp.StatusCode, resp.Header.Get("Content-Type"), raw)
	}
	wellFormed(r.t, raw)
	var doc svgDoc
	if err := xml.Unmarshal(raw, &doc); err != nil {
		r.t.Fatalf("badge: %v\n%s", err, raw)
	}
	if doc.A.Href != testOrigin+"/agents/"+pub || len(doc.A.Texts) != 2 || doc.Title != doc.A.Texts[0]+": "+doc.A.Texts[1] || doc.Label != doc.Title {
		r.t.Fatalf("badge: %+v\n%s", doc, raw)
	}
	return [2]string{doc.A.Texts[0], doc.A.Texts[1]}
}

// The badge is well-formed SVG with the key's real record, linked to /agents/{pubkey}; a key
// with none says so; a malformed key or a path without .svg is refused.
func TestBadgeShowsTheRecord(t *testing.T) {
	r := newRig(t)
	ada := newKey(1)
	r.recs.set(ada.pub, wire.Reputation{Matches: 12, Wins: 3, AvgRank: 2.625, BluffRate: 0.4})
	if got := r.badgeTexts(ada.pub); got != [2]string{"breakroom", "12 matches · 3 wins · avg rank 2.6"} {
		t.Fatalf("badge: %v", got)
	}
	r.recs.set(ada.pub, wire.Reputation{Matches: 1, Wins: 1, AvgRank: 1})
	if got := r.badgeTexts(ada.pub); got[1] != "1 match · 1 win · avg rank 1.0" {
		t.Fatalf("badge of one match: %v", got)
	}
	if got := r.badgeTexts(newKey(2).pub); got[1] != "no ranked matches yet" {
		t.Fatalf("badge of a new key: %v", got)
	}
	for _, path := range []string{"/badge/" + strings.ToUpper(ada.pub) + ".svg", "/badge/abc.svg", "/badge/" + ada.pub,
		"/badge/" + ada.pub + ".png", "/badge/house:1.svg"} {
		if st, m := r.json("GET", path, nil, nil); st != 400 || m["code"] != "bad_request" || m["detail"] == "" {
			t.Fatalf("%s: %d %v", path, st, m)
		}
	}
}

// Badge escapes what it writes: a label and link with XML's special characters come out as
// well-formed XML reading back the same text.
func TestBadgeEscapes(t *testing.T) {
	raw := Badge(`<a&"b'>`, "x < y & z", `https://h/agents/"><script>`)
	wellFormed(t, raw)
	var doc svgDoc
	if err := xml.Unmarshal(raw, &doc); err != nil {
		t.Fatal(err)
	}
	if doc.A.Texts[0] != `<a&"b'>` || doc.A.Texts[1] != "x < y & z" || doc.A.Href != `https://h/agents/"><script>` {
		t.Fatalf("%+v", doc)
	}
	if bytes.Contains(raw, []byte("<script>")) {
		t.Fatalf("unescaped: %s", raw)
	}
}
