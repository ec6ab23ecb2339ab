package meta

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/labstack/echo/v4"
)

// /healthz names the chain node when one is configured, and only then.
func TestHealthzReportsChainNode(t *testing.T) {
	for _, node := range []string{"127.0.0.1:40123", ""} {
		e := echo.New()
		Mount(e, Options{ChainNode: node})
		rec := httptest.NewRecorder()
		e.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, "/healthz", nil))
		var m map[string]string
		if err := json.Unmarshal(rec.Body.Bytes(), &m); err != nil || rec.Code != 200 || m["status"] != "ok" {
			t.Fatalf("node %q: %d %s", node, rec.Code, rec.Body)
		}
		got, has := m["chain_node"]
		if got != node || has != (node != "") {
			t.Fatalf("node %q: chain_node %q (present %v)", node, got, has)
		}
	}
}

// An unhealthy arena answers 503 with a fixed message: the cause (internal text, here a path)
// goes to the log, never to whoever asked.
func TestHealthzHidesTheCause(t *testing.T) {
	e := echo.New()
	e.Logger.SetOutput(io.Discard)
	Mount(e, Options{Health: func(context.Context) error { return errors.New("open /var/lib/arena/arena.db: permission denied") }})
	rec := httptest.NewRecorder()
	e.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, "/healthz", nil))
	var m map[string]string
	if err := json.Unmarshal(rec.Body.Bytes(), &m); err != nil || rec.Code != http.StatusServiceUnavailable || m["status"] != "unavailable" {
		t.Fatalf("%d %s", rec.Code, rec.Body)
	}
	if strings.Contains(rec.Body.String(), "/var/lib") || strings.Contains(rec.Body.String(), "permission") {
		t.Fatalf("the cause reached the client: %s", rec.Body)
	}
}
