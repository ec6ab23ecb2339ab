package main

import (
	"context"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"arena/chain/lightning"
	"arena/chain/lightning/bolt11"
	"arena/chain/lightning/lnd"
	"arena/chain/lightning/simnet"
)

// TestServePaidDilemmaOnARealLightningNetwork: `arena serve` with its wallet on alice's lnd (a
// btcd simnet, chain/lightning/simnet: --breakroom-lnd-url, macaroon and certificate files,
// --breakroom-ln-network simnet); three agents join the Dilemma at 100 sats, pay the hold invoices
// from bob's lnd (real HTLCs, held until their table forms), send paid with Lightning addresses
// served by a LUD-16 service in front of bob's node, are queued, seated and play to match_end; the
// winners' payouts settle at bob's node for exactly the settlement's sats, and alice's channel
// balance moved by exactly the rake.
func TestServePaidDilemmaOnARealLightningNetwork(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: starts a Lightning simnet and the binary")
	}
	ctx, cancel := context.WithTimeout(t.Context(), 5*time.Minute)
	defer cancel()
	n, err := simnet.Start(ctx, simnet.Options{Log: t.Logf})
	if err != nil {
		t.Fatal(err)
	}
	defer n.Close()
	bob, err := lnd.New(lnd.Options{URL: n.Bob.RESTURL, Macaroon: n.Bob.Macaroon, TLSCert: n.Bob.TLSCert, Currency: bolt11.Simnet})
	if err != nil {
		t.Fatal(err)
	}
	const meta = `[["text/plain","Break Room winnings"]]`
	var base string
	var mu sync.Mutex
	payoutInvoices := map[string][32]byte{} // user → its payout invoice's hash
	mux := http.NewServeMux()
	mux.HandleFunc("GET /.well-known/lnurlp/{user}", func(w http.ResponseWriter, r *http.Request) {
		json.NewEncoder(w).Encode(map[string]any{"tag": "payRequest", "callback": base + "/cb/" + r.PathValue("user"),
			"minSendable": 1000, "maxSendable": 100_000_000, "metadata": meta})
	})
	mux.HandleFunc("GET /cb/{user}", func(w http.ResponseWriter, r *http.Request) {
		h := sha256.Sum256([]byte(meta))
		var inv struct {
			RHash          string `json:"r_hash"`
			PaymentRequest string `json:"payment_request"`
		}
		if err := n.Bob.Call(r.Context(), http.MethodPost, "/v1/invoices", map[string]string{
			"value_msat": r.URL.Query().Get("amount"), "description_hash": base64.StdEncoding.EncodeToString(h[:]),
		}, &inv); err != nil {
			json.NewEncoder(w).Encode(map[string]string{"status": "ERROR", "reason": err.Error()})
			return
		}
		raw, _ := base64.StdEncoding.DecodeString(inv.RHash)
		var hash [32]byte
		copy(hash[:], raw)
		mu.Lock()
		payoutInvoices[r.PathValue("user")] = hash
		mu.Unlock()
		json.NewEncoder(w).Encode(map[string]any{"pr": inv.PaymentRequest, "routes": []any{}})
	})
	srv := httptest.NewServer(mux)
	defer srv.Close()
	base = srv.URL

	dir := t.TempDir()
	mac, cert := filepath.Join(dir, "admin.macaroon"), filepath.Join(dir, "tls.cert")
	os.WriteFile(mac, n.Alice.Macaroon, 0o600)
	os.WriteFile(cert, n.Alice.TLSCert, 0o600)
	bin := buildArena(t)
	args := append(append([]string{}, breakroomFast...), "--addr", freeAddr(t), "--breakroom-lnd-url", n.Alice.RESTURL,
		"--breakroom-lnd-macaroon", mac, "--breakroom-lnd-tls-cert", cert, "--breakroom-ln-network", "simnet")
	s := startServeArgs(t, bin, filepath.Join(dir, "data"), args, nil)
	before, _, err := n.Settled(ctx)
	if err != nil {
		t.Fatal(err)
	}

	keys := []brKey{newBrKey(91), newBrKey(92), newBrKey(93)}
	users := map[string]string{} // pubkey → its Lightning address user
	tokens := make([]string, 3)
	pays := make(chan error, 3)
	for i, k := range keys {
		st, pr := brCall(t, s.url, "POST", "/v0/join", brSigned(t, s.url, k, map[string]any{"game": "dilemma", "stake_sats": 100}))
		if st != 402 || !strings.HasPrefix(pr["bolt11"].(string), "lnsb1u1") || strings.Contains(pr["note"].(string), "test sats") {
			t.Fatalf("paid join: %d %v", st, pr)
		}
		go func() {
			p, err := bob.Pay(ctx, lightning.PayRequest{Bolt11: pr["bolt11"].(string), Msat: 100_000, MaxFeeMsat: 10_000})
			if err == nil && p.Status != lightning.PaymentSucceeded {
				err = io.ErrUnexpectedEOF
			}
			pays <- err
		}()
		user := k.pub[:10]
		users[k.pub] = user
		body := brSigned(t, s.url, k, map[string]any{"payment_hash": pr["payment_hash"], "payout_lnaddr": user + "@" + strings.TrimPrefix(srv.URL, "http://")})
		for {
			st, q := brCall(t, s.url, "POST", "/v0/paid", body)
			if st == 200 && q["type"] == "queued" {
				tokens[i] = q["token"].(string)
				break
			}
			if st != 402 || q["code"] != "not_paid" {
				t.Fatalf("paid: %d %v", st, q)
			}
			time.Sleep(100 * time.Millisecond)
		}
	}
	match := ""
	seatUser := map[int]string{}
	for match == "" {
		_, m := brCall(t, s.url, "GET", "/v0/join/"+tokens[0]+"?wait=2000", "")
		if m["type"] == "seated" {
			match = m["match_id"].(string)
			for _, pl := range m["players"].([]any) {
				pl := pl.(map[string]any)
				seatUser[int(pl["seat"].(float64))] = users[pl["pubkey"].(string)]
			}
		}
	}
	for range keys {
		if err := <-pays; err != nil {
			t.Fatalf("bob's stake payment: %v", err)
		}
	}
	bearer := func(method, path, tok, body string) map[string]any {
		var rd io.Reader
		if body != "" {
			rd = strings.NewReader(body)
		}
		req, _ := http.NewRequest(method, s.url+path, rd)
		req.Host = "breakroom.localhost"
		req.Header.Set("Authorization", "Bearer "+tok)
		if body != "" {
			req.Header.Set("Content-Type", "application/json")
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		var m map[string]any
		json.NewDecoder(resp.Body).Decode(&m)
		return m
	}
	var end map[string]any
	for n := 0; end == nil; n++ {
		if ctx.Err() != nil {
			t.Fatal("the match did not end")
		}
		for i, tok := range tokens {
			st := bearer("GET", "/v0/matches/"+match+"/state", tok, "")
			switch st["status"] {
			case "ended":
				end, _ = st["match_end"].(map[string]any)
			case "your_turn":
				mv, _ := json.Marshal(map[string]any{"round": st["round"], "turn": st["turn"], "action": []string{"cooperate", "defect"}[(i+n)%2]})
				bearer("POST", "/v0/matches/"+match+"/move", tok, string(mv))
			}
		}
		time.Sleep(20 * time.Millisecond)
	}
	set := end["settlement"].(map[string]any)
	var paid int64
	for _, po := range set["payouts"].([]any) {
		po := po.(map[string]any)
		sats := int64(po["sats"].(float64))
		paid += sats
		user := seatUser[int(po["seat"].(float64))]
		for {
			mu.Lock()
			hash, ok := payoutInvoices[user]
			mu.Unlock()
			if ok {
				if got, err := bob.LookupInvoice(ctx, hash); err == nil && got.State == lightning.InvoiceSettled {
					if got.PaidMsat != uint64(sats)*1000 {
						t.Fatalf("%s was paid %d msat, the settlement says %d sats", user, got.PaidMsat, sats)
					}
					break
				}
			}
			if ctx.Err() != nil {
				t.Fatalf("the payout to %s did not settle", user)
			}
			time.Sleep(100 * time.Millisecond)
		}
	}
	if set["pot_sats"].(float64) != 300 || int64(set["rake_sats"].(float64))+paid != 300 {
		t.Fatalf("settlement %v", set)
	}
	after, _, err := n.Settled(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if int64(after)-int64(before) != int64(set["rake_sats"].(float64))*1000 {
		t.Fatalf("alice moved %d msat, the rake is %v sats", int64(after)-int64(before), set["rake_sats"])
	}
	s.stop()
}
