package warden

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"net/http"
	"testing"

	"arena/storage"
)

// Any registration body is answered with a §7.3 code (never 500 or a panic), and a refused one
// writes no Contender.
func FuzzRegisterBody(f *testing.F) {
	f.Add([]byte(`{"wallet":"0x19E7E376E7C213B7E7e7e46cc70A5dD086DAff2A","temperament":"steadfast","challenge":"00","signature":"0x00"}`))
	f.Add([]byte(`{"wallet":1}`))
	f.Add([]byte(`[]`))
	f.Add([]byte(`{"wallet":"0x19E7E376E7C213B7E7e7e46cc70A5dD086DAff2A","temperament":"x","challenge":"","signature":"0x","name":"n"}`))
	r := newPlainRig(f)
	f.Fuzz(func(t *testing.T, body []byte) {
		req, _ := http.NewRequest("POST", r.srv.URL+"/v1/warden/contenders", bytes.NewReader(body))
		req.Header.Set("Content-Type", "application/json")
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		var out map[string]any
		if err := json.NewDecoder(resp.Body).Decode(&out); err != nil {
			t.Fatalf("%q: undecodable answer", body)
		}
		code, _ := out["error"].(string)
		if resp.StatusCode >= 500 || resp.StatusCode != Statuses.Status(code) {
			t.Fatalf("%q: %d %v", body, resp.StatusCode, out)
		}
		n := 0
		_ = r.store.WardenKeys("contender/", func(string, []byte) error { n++; return nil })
		if n != 0 {
			t.Fatalf("%q: a refused registration wrote a Contender", body)
		}
	})
}

// Any payment header on a stake is answered with a §10.10 code and writes no payment record.
func FuzzStakeHeader(f *testing.F) {
	f.Add("e30=", false)
	f.Add(base64.StdEncoding.EncodeToString([]byte(`{"x402Version":1,"scheme":"exact","network":"base-sepolia","payload":{}}`)), true)
	f.Add("!!", false)
	f.Add("", true)
	r := newPlainRig(f)
	a, b := r.register(0x21, "steadfast"), r.register(0x22, "shark")
	id := r.pair(a, b)
	f.Fuzz(func(t *testing.T, h string, v1 bool) {
		req, _ := http.NewRequest("POST", r.srv.URL+"/v1/warden/matches/"+id+"/stake", nil)
		req.Header.Set("Authorization", "Bearer "+a.token)
		name := "PAYMENT-SIGNATURE"
		if v1 {
			name = "X-PAYMENT"
		}
		req.Header.Set(name, h)
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			return // a header net/http will not send
		}
		defer resp.Body.Close()
		var out map[string]any
		if err := json.NewDecoder(resp.Body).Decode(&out); err != nil {
			t.Fatalf("%q: undecodable answer", h)
		}
		code, _ := out["error"].(string)
		if resp.StatusCode >= 500 || resp.StatusCode != Statuses.Status(code) {
			t.Fatalf("%q: %d %v", h, resp.StatusCode, out)
		}
		n := 0
		_ = r.store.WardenPayments(func(storage.WardenPayment) error { n++; return nil })
		if n != 0 {
			t.Fatalf("%q: a refused payment wrote a record", h)
		}
	})
}
