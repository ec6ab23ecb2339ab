package openapi_test

import (
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"slices"
	"testing"

	"github.com/labstack/echo/v4"

	"arena/transport/breakroom/openapi"
	"arena/transport/breakroom/openapi/openapitest"
)

// The document is OpenAPI 3.1 and kin-openapi loads and validates it; it describes every route
// of the Break Room HTTP API, and GET /openapi.json serves it naming the site's origin.
func TestOpenAPIDocumentValidates(t *testing.T) {
	doc, err := openapitest.Load()
	if err != nil {
		t.Fatal(err)
	}
	if doc.OpenAPI != "3.1.0" || !doc.IsOpenAPI31OrLater() {
		t.Fatalf("openapi %q", doc.OpenAPI)
	}
	for _, p := range []string{"/v0/games", "/v0/challenge", "/v0/join", "/v0/join/{token}", "/v0/matches/{id}/state",
		"/v0/matches/{id}/move", "/v0/matches/{id}/feedback", "/v0/play", "/r/{match_id}.jsonl", "/v0/agents/{pubkey}",
		"/v0/handle", "/.well-known/nostr.json", "/badge/{pubkey}.svg", "/openapi.json", "/healthz",
		"/", "/llms.txt", "/start", "/play", "/payments", "/protocol", "/rules/{game}", "/v0/matches", "/v0/matches/{id}", "/r/{match_id}/transcript", "/v0/leaderboard/{game}",
		"/agents/{pubkey}", "/robots.txt", "/sitemap.xml", "/v0/stats", "/stats", "/mcp", "/mcp/free", "/.well-known/mcp/server-card.json",
		"/v0/live", "/v0/live/stream", "/r/{match_id}/live"} {
		if doc.Paths.Find(p) == nil {
			t.Errorf("no path %s", p)
		}
	}
	for path, item := range doc.Paths.Map() {
		for method, o := range item.Operations() {
			if o.OperationID == "" || o.Summary == "" || o.Responses.Value("200") == nil && o.Responses.Value("101") == nil {
				t.Errorf("%s %s: an operation id, a summary and its success are required", method, path)
			}
		}
	}

	d, err := openapi.New("https://br.example/")
	if err != nil {
		t.Fatal(err)
	}
	e := echo.New()
	if err := d.Mount(e); err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(e)
	defer srv.Close()
	resp, err := http.Get(srv.URL + "/openapi.json")
	if err != nil {
		t.Fatal(err)
	}
	raw, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	var served struct {
		OpenAPI string `json:"openapi"`
		Servers []struct {
			URL string `json:"url"`
		} `json:"servers"`
		Paths map[string]any `json:"paths"`
	}
	if resp.StatusCode != 200 || resp.Header.Get("Content-Type") != "application/json" || json.Unmarshal(raw, &served) != nil ||
		served.OpenAPI != "3.1.0" || len(served.Servers) != 1 || served.Servers[0].URL != "https://br.example" {
		t.Fatalf("GET /openapi.json: %d %q %.300s", resp.StatusCode, resp.Header.Get("Content-Type"), raw)
	}
	keys := make([]string, 0, len(served.Paths))
	for k := range served.Paths {
		keys = append(keys, k)
	}
	if !slices.Contains(keys, "/v0/handle") || len(keys) != len(doc.Paths.Map()) {
		t.Fatalf("served paths %v", keys)
	}
	req, _ := http.NewRequest("GET", srv.URL+"/openapi.json", nil)
	openapitest.Check(t, req, resp.StatusCode, resp.Header, raw)
}

// Validate refuses what the document does not describe: an unknown path, an undocumented
// status, a body that breaks its schema.
func TestOpenAPICheckRefusesDrift(t *testing.T) {
	get := func(p string) *http.Request { r, _ := http.NewRequest("GET", "http://127.0.0.1:1"+p, nil); return r }
	h := http.Header{"Content-Type": {"application/json"}}
	if err := openapitest.Validate(get("/v0/challenge"), 200, h, []byte(`{"type":"challenge","v":0,"nonce":"`+string(make43())+`"}`)); err != nil {
		t.Fatalf("a good challenge: %v", err)
	}
	if err := openapitest.Validate(get("/v0/nowhere"), 200, h, []byte(`{}`)); err == nil {
		t.Fatal("an unknown path passed")
	}
	if err := openapitest.Validate(get("/openapi.json"), 418, h, []byte(`{}`)); err == nil {
		t.Fatal("an undocumented status passed")
	}
	if err := openapitest.Validate(get("/v0/challenge"), 200, h, []byte(`{"type":"challenge","v":0}`)); err == nil {
		t.Fatal("a challenge without its nonce passed")
	}
	if err := openapitest.Validate(get("/v0/challenge"), 429, h, []byte(`{"type":"error","v":0,"code":"rate_limited"}`)); err == nil {
		t.Fatal("an error without its detail passed")
	}
}

func make43() []byte {
	b := make([]byte, 43)
	for i := range b {
		b[i] = 'a'
	}
	return b
}
