package site

import (
	"bytes"
	"io"
	"net/http"
	"strings"
	"testing"

	"arena/transport/dotdotdot/desk"
)

// Every hostile body is its own test: the refusal's status and code, and nothing changed.
func TestHostileBodies(t *testing.T) {
	big := `{"name":"` + strings.Repeat("a", 64<<10) + `"}`
	tests := []struct {
		name, path, body, ctype string
		status                  int
		code                    string
	}{
		{"malformed JSON", "/v1/walkin", `{"name":`, "", 400, "bad_request"},
		{"not JSON at all", "/v1/walkin", `name=Ada`, "", 400, "bad_request"},
		{"unknown member", "/v1/walkin", `{"name":"Ada","nmae":"x"}`, "", 400, "bad_request"},
		{"member in the wrong case", "/v1/walkin", `{"Name":"Ada"}`, "", 400, "bad_request"},
		{"duplicate member", "/v1/walkin", `{"name":"Ada","name":"Eve"}`, "", 400, "bad_request"},
		{"case-folded twin", "/v1/walkin", `{"name":"Ada","NAME":"Eve"}`, "", 400, "bad_request"},
		{"long-s folded twin", "/v1/walkin/join", `{"table":"practice","\u017ftable":"walkin"}`, "", 400, "bad_request"},
		{"wrong type", "/v1/walkin", `{"name":5}`, "", 400, "bad_request"},
		{"wrong type nested", "/v1/walkin/join", `{"table":"practice","mole":"2"}`, "", 400, "bad_request"},
		{"null name", "/v1/walkin", `{"name":null}`, "", 400, "bad_request"},
		{"unsafe integer", "/v1/walkin/join", `{"table":"practice","mole":9007199254740993}`, "", 400, "bad_request"},
		{"trailing object", "/v1/walkin", `{"name":"Ada"}{"name":"Eve"}`, "", 400, "bad_request"},
		{"trailing garbage", "/v1/walkin", `{"name":"Ada"}x`, "", 400, "bad_request"},
		{"top-level array", "/v1/walkin", `[{"name":"Ada"}]`, "", 400, "bad_request"},
		{"invalid UTF-8", "/v1/walkin", "{\"name\":\"A\xffa\"}", "", 400, "bad_request"},
		{"lone surrogate", "/v1/walkin", `{"name":"\ud800"}`, "", 400, "bad_request"},
		{"white space body", "/v1/walkin", " \n\t ", "", 400, "bad_request"},
		{"oversized body", "/v1/walkin", big, "", 413, "too_large"},
		{"XML", "/v1/walkin", `<walkin><name>Ada</name></walkin>`, "application/xml", 415, "unsupported_media_type"},
		{"XML text", "/v1/walkin", `<walkin/>`, "text/xml", 415, "unsupported_media_type"},
		{"form", "/v1/walkin", `name=Ada`, "application/x-www-form-urlencoded", 415, "unsupported_media_type"},
		{"form carrying JSON", "/v1/walkin", `{"name":"Ada"}`, "application/x-www-form-urlencoded", 415, "unsupported_media_type"},
		{"multipart", "/v1/walkin", "--x\r\n\r\nAda\r\n--x--", "multipart/form-data; boundary=x", 415, "unsupported_media_type"},
		{"plain text", "/v1/walkin", `{"name":"Ada"}`, "text/plain", 415, "unsupported_media_type"},
		{"latin-1 charset", "/v1/walkin", `{"name":"Ada"}`, "application/json; charset=iso-8859-1", 415, "unsupported_media_type"},
		{"answer oversized", "/v1/walkin/answer", `{"round":"T-1","turn":1,"phase":"talk","pad":"` + strings.Repeat("a", 70000) + `"}`, "", 413, "too_large"},
		{"join XML", "/v1/walkin/join", `<join/>`, "application/xml", 415, "unsupported_media_type"},
		{"lever form", "/v1/rounds/T-1/call", `text=hi`, "application/x-www-form-urlencoded", 415, "unsupported_media_type"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			en := newEnv(t, desk.Options{})
			tok := en.register("Walker")
			before := en.desk.Changes()
			hdr := []string{"X-Walkin", tok}
			if tt.ctype != "" {
				hdr = append(hdr, "Content-Type", tt.ctype)
			}
			refused(t, en.do("POST", tt.path, tt.body, hdr...), tt.status, tt.code)
			en.unchanged(before)
		})
	}
}

// An empty body and a chunked body over the cap (no Content-Length) are refused as well.
func TestEmptyBody(t *testing.T) {
	en := newEnv(t, desk.Options{})
	refused(t, en.do("POST", "/v1/walkin", ""), 400, "bad_request")
	en.unchanged(0)
}

func TestOversizedChunkedBody(t *testing.T) {
	en := newEnv(t, desk.Options{MaxBody: 1024})
	body := io.MultiReader(strings.NewReader(`{"name":"`), bytes.NewReader(bytes.Repeat([]byte("a"), 4096)), strings.NewReader(`"}`))
	req, _ := http.NewRequestWithContext(t.Context(), "POST", en.srv.URL+"/v1/walkin", io.NopCloser(body))
	req.ContentLength = -1
	req.Header.Set("Content-Type", "application/json")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != 413 {
		t.Fatalf("status %d, want 413", resp.StatusCode)
	}
	en.unchanged(0)
}

func TestMissingContentTypeIsJSON(t *testing.T) {
	en := newEnv(t, desk.Options{})
	req, _ := http.NewRequestWithContext(t.Context(), "POST", en.srv.URL+"/v1/walkin", strings.NewReader(`{"name":"Ada"}`))
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != 201 {
		t.Fatalf("status %d, want 201 for a JSON body sent without Content-Type", resp.StatusCode)
	}
}

func TestTokens(t *testing.T) {
	en := newEnv(t, desk.Options{})
	tok, _ := en.joined("Ada")
	before := en.desk.Changes()
	t.Run("missing", func(t *testing.T) {
		refused(t, en.do("GET", "/v1/walkin/next?wait=0", ""), 401, "no_token")
	})
	t.Run("empty", func(t *testing.T) {
		refused(t, en.do("GET", "/v1/walkin/next?wait=0", "", "X-Walkin", " "), 401, "no_token")
	})
	t.Run("not shaped like a token", func(t *testing.T) {
		refused(t, en.do("GET", "/v1/walkin/next?wait=0", "", "X-Walkin", "Bearer abc"), 401, "unknown_token")
	})
	t.Run("unknown token", func(t *testing.T) {
		refused(t, en.do("POST", "/v1/walkin/join", `{"table":"practice"}`, "X-Walkin", "w_"+strings.Repeat("f", 32)), 401, "unknown_token")
	})
	t.Run("token twice", func(t *testing.T) {
		refused(t, en.do("GET", "/v1/walkin/me", "", "X-Walkin+", tok, "X-Walkin+", tok), 400, "bad_request")
	})
	t.Run("foreign token on a lever", func(t *testing.T) {
		other := en.register("Eve")
		_, round := en.joined("Bob")
		refused(t, en.do("POST", "/v1/rounds/"+round+"/accuse", `{"seat":2}`, "X-Walkin", other), 403, "not_seated")
	})
	en.unchanged(before + 3) // Eve's and Bob's registrations and Bob's join
}

// A token anywhere in a URL is refused before any route runs, even with a valid header.
func TestTokenInURL(t *testing.T) {
	en := newEnv(t, desk.Options{})
	tok, _ := en.joined("Ada")
	before := en.desk.Changes()
	urls := map[string]string{
		"query token":            "/v1/walkin/next?wait=0&token=" + tok,
		"query x-walkin":         "/v1/walkin/next?x-walkin=" + tok,
		"query walkin":           "/v1/walkin/me?walkin=" + tok,
		"query key in caps":      "/v1/walkin/me?TOKEN=abc",
		"query empty token":      "/v1/walkin/board?token=",
		"token under other name": "/v1/walkin/board?id=" + tok,
		"token as a query key":   "/v1/walkin/board?" + tok,
		"percent-encoded":        "/v1/walkin/board?q=%77%5F" + tok[2:],
		"token in a list":        "/v1/walkin/board?q=a," + tok,
		"path segment":           "/v1/walkin/name/" + tok,
		"path on unknown route":  "/v1/" + tok + "/next",
		"ops path":               "/ops/tables/" + tok + "/stop",
	}
	for name, u := range urls {
		t.Run(name, func(t *testing.T) {
			refused(t, en.do("GET", u, "", "X-Walkin", tok), 400, "token_in_url")
		})
	}
	t.Run("post with token in query", func(t *testing.T) {
		refused(t, en.do("POST", "/v1/walkin/join?token="+tok, `{"table":"practice"}`, "X-Walkin", tok), 400, "token_in_url")
	})
	en.unchanged(before)
	if en.desk.Polls(tok) != 0 {
		t.Fatal("a poll with the token in its URL reached the desk")
	}
}

// Query members a route does not take are refused, not ignored.
func TestUnknownQueryOnPost(t *testing.T) {
	en := newEnv(t, desk.Options{})
	refused(t, en.do("POST", "/v1/walkin?name=Eve", `{"name":"Ada"}`), 400, "bad_request")
	en.unchanged(0)
}
