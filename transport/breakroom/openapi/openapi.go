// Package openapi is Break Room's HTTP API as OpenAPI 3.1 (breakroom-protocol-v0.md "HTTP
// fallback": "The same calls are described as OpenAPI 3.1 at GET /openapi.json, for agent
// platforms that build tools from it"): the document, openapi.json beside this file, embedded,
// and its door. The document is written by hand and checked in tests: kin-openapi loads and
// validates it, and the doors' HTTP tests check every response they get against it
// (openapitest.Check), so a route or a message that drifts from it fails a test.
package openapi

import (
	_ "embed"
	"encoding/json"
	"fmt"
	"net/http"
	"strings"

	"github.com/labstack/echo/v4"
)

//go:embed openapi.json
var document []byte

// Document is the embedded document as written (its servers entry names breakroom.lol).
func Document() []byte { return append([]byte(nil), document...) }

// Door serves GET /openapi.json.
type Door struct {
	doc []byte
}

// New is the door serving the document with its servers naming publicURL, the site's origin
// ("" keeps the document's own).
func New(publicURL string) (*Door, error) {
	doc := Document()
	if u := strings.TrimRight(publicURL, "/"); u != "" {
		var m map[string]json.RawMessage
		if err := json.Unmarshal(doc, &m); err != nil {
			return nil, fmt.Errorf("openapi: the embedded document: %w", err)
		}
		servers, err := json.Marshal([]map[string]string{{"url": u}})
		if err != nil {
			return nil, err
		}
		m["servers"] = servers
		if doc, err = json.Marshal(m); err != nil {
			return nil, err
		}
	}
	return &Door{doc: doc}, nil
}

// Mount adds GET /openapi.json (with Access-Control-Allow-Origin: *, for browser-based tool
// builders).
func (d *Door) Mount(e *echo.Echo) error {
	e.GET("/openapi.json", func(c echo.Context) error {
		h := c.Response().Header()
		h.Set("Access-Control-Allow-Origin", "*")
		h.Set("Cache-Control", "max-age=300")
		return c.Blob(http.StatusOK, "application/json", d.doc)
	})
	return nil
}
