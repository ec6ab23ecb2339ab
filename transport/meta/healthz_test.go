package meta

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
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
