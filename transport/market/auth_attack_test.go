package market

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"net/netip"
	"strings"
	"testing"
)

// sendLines posts body to path with each header given as its own header line, in order (so a
// name may repeat), and returns the status and body.
func (r *rig) sendLines(path string, lines [][2]string, body []byte) (int, []byte, http.Header) {
	r.t.Helper()
	req, _ := http.NewRequest(http.MethodPost, r.srv.URL+path, bytes.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	for _, l := range lines {
		req.Header.Add(l[0], l[1])
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		r.t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, b, resp.Header
}

// The gateway header under attack, on both doors: from the gateway's own address, a second
// line of the header (a client's spoof that the gateway appended to rather than replaced, in
// either order), an Owner ID over MaxOwnerID bytes, one with a control character or not UTF-8,
// are each no credential (401 authentication_required), and a key beside them is not read; two
// Authorization lines are none either. The victim's Player is untouched.
func TestGatewayHeaderSpoofs(t *testing.T) {
	r := newRig(t, Gateway{Header: "X-Owner-Id", From: []netip.Prefix{mustPrefix("127.0.0.1/32")}})
	k := r.key("owner-attacker", "")
	enrol := []byte(`{"protocolVersion":2,"commandId":"e1","action":"enroll"}`)
	if st, b, _ := r.sendLines("/v2/request", [][2]string{{"X-Owner-Id", "owner-victim"}}, enrol); st != 200 || decode(t, b).code() != "" {
		t.Fatalf("the victim's own enrolment: %d %s", st, b)
	}
	cases := []struct {
		name  string
		lines [][2]string
	}{
		{"two lines, spoof first", [][2]string{{"X-Owner-Id", "owner-victim"}, {"X-Owner-Id", "owner-attacker"}}},
		{"two lines, spoof last", [][2]string{{"X-Owner-Id", "owner-attacker"}, {"X-Owner-Id", "owner-victim"}}},
		{"two lines beside a good key", [][2]string{{"X-Owner-Id", "owner-victim"}, {"x-owner-id", "owner-victim"}, {"Authorization", "Bearer " + k}}},
		{"oversized owner", [][2]string{{"X-Owner-Id", strings.Repeat("v", MaxOwnerID+1)}}},
		{"control character (a tab inside)", [][2]string{{"X-Owner-Id", "owner\tvictim"}}},
		{"not UTF-8", [][2]string{{"X-Owner-Id", "owner-\xff"}}},
		{"two Authorization lines", [][2]string{{"Authorization", "Bearer " + k}, {"Authorization", "Bearer " + k}}},
	}
	for _, c := range cases {
		for _, path := range []string{"/v2/request", "/a2a"} {
			body := []byte(`{"protocolVersion":2,"action":"readInventory"}`)
			if path == "/a2a" {
				body = a2aFrame(string(body))
			}
			st, b, _ := r.sendLines(path, c.lines, body)
			got := b
			if path == "/a2a" {
				got = a2aText(t, b)
			}
			if e := decode(t, got); st != http.StatusUnauthorized || e.code() != "authentication_required" {
				t.Errorf("%s on %s: %d %s, want 401 authentication_required", c.name, path, st, got)
			}
		}
	}
	// An Owner ID at the bound is one.
	if st, b, _ := r.sendLines("/v2/request", [][2]string{{"X-Owner-Id", strings.Repeat("v", MaxOwnerID)}}, enrol); st != 200 || decode(t, b).code() != "" {
		t.Errorf("an Owner ID of %d bytes: %d %s", MaxOwnerID, st, b)
	}
}

// a2aText is the envelope an A2A answer carries (the body itself when it is no Message).
func a2aText(t *testing.T, b []byte) []byte {
	t.Helper()
	var out struct {
		Result *struct {
			Parts []struct {
				Text string `json:"text"`
			} `json:"parts"`
		} `json:"result"`
	}
	if decodeJSON(b, &out) != nil || out.Result == nil || len(out.Result.Parts) != 1 {
		return b
	}
	return []byte(out.Result.Parts[0].Text)
}

// Guessing keys from one address: the first GuessRate.Burst wrong keys are
// authentication_required (401); then every request from that address presenting a key — a
// wrong one, an oversized one, and the right one too — is rate_limited (429, Retry-After, the
// market's envelope) on both doors, while a request with no key is still judged (401) and the
// gateway's header, honoured from the gateway, still works.
func TestKeyGuessingIsRateLimited(t *testing.T) {
	r := newRig(t, Gateway{Header: "X-Owner-Id", From: []netip.Prefix{mustPrefix("127.0.0.1/32")}})
	good := r.key("owner-good", "")
	body := `{"protocolVersion":2,"action":"readStanding"}`
	if st, b := r.post(good, nil, body); st != 200 {
		t.Fatalf("a good key: %d %s", st, b)
	}
	for i := range GuessRate.Burst {
		if st, b := r.post("gmk_guess"+strings.Repeat("0", i), nil, body); st != 401 || decode(t, b).code() != "authentication_required" {
			t.Fatalf("wrong key %d: %d %s", i+1, st, b)
		}
	}
	for _, d := range doors {
		for _, key := range []string{"gmk_guess-more", strings.Repeat("k", MaxKey+1), good} {
			req, _ := http.NewRequest(http.MethodPost, r.srv.URL+"/v2/request", strings.NewReader(body))
			if d.name == "a2a" {
				req, _ = http.NewRequest(http.MethodPost, r.srv.URL+"/a2a", bytes.NewReader(a2aFrame(body)))
			}
			req.Header.Set("Content-Type", "application/json")
			req.Header.Set("Authorization", "Bearer "+key)
			resp, err := http.DefaultClient.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			b, _ := io.ReadAll(resp.Body)
			resp.Body.Close()
			env := b
			if d.name == "a2a" {
				env = a2aText(t, b)
			}
			if e := decode(t, env); resp.StatusCode != 429 || e.code() != "rate_limited" || resp.Header.Get("Retry-After") == "" || e.StateVersion != 0 {
				t.Errorf("%s, key %.12s… past the limit: %d %s (Retry-After %q)", d.name, key, resp.StatusCode, env, resp.Header.Get("Retry-After"))
			}
		}
	}
	if st, b := r.post("", nil, body); st != 401 || decode(t, b).code() != "authentication_required" {
		t.Errorf("no key, past the limit: %d %s", st, b)
	}
	if st, b := r.post("", map[string]string{"X-Owner-Id": "owner-via-gateway"}, body); st != 200 {
		t.Errorf("the gateway header, past the limit: %d %s", st, b)
	}
}

func decodeJSON(b []byte, v any) error { return json.Unmarshal(b, v) }

// Guessing the operator token on the market's operator routes: GuessRate.Burst wrong tokens
// are 403 forbidden, then every operator request from that address is 429 rate_limited (the
// market's envelope, Retry-After), the right token included, and so is a bearer key on the
// doors (one budget per address for every failed credential).
func TestOperatorTokenGuessingIsRateLimited(t *testing.T) {
	r := newRig(t, Gateway{})
	good := r.key("owner-ops-guess", "")
	for i := range GuessRate.Burst {
		if st, b := r.do(http.MethodGet, "/ops/market/keys", "Bearer wrong-"+strings.Repeat("x", i), nil, nil); st != 403 {
			t.Fatalf("wrong token %d: %d %s", i+1, st, b)
		}
	}
	for _, tok := range []string{"wrong-again", opToken} {
		st, b, h := r.sendLines("/ops/market/keys", [][2]string{{"Authorization", "Bearer " + tok}}, []byte(`{"owner":"x"}`))
		if e := decode(t, b); st != 429 || e.code() != "rate_limited" || h.Get("Retry-After") == "" {
			t.Errorf("token %q past the limit: %d %s", tok, st, b)
		}
	}
	if st, b := r.post(good, nil, `{"protocolVersion":2,"action":"readStanding"}`); st != 429 {
		t.Errorf("a key on the doors from the same address: %d %s", st, b)
	}
}
