package main

import (
	"bytes"
	"context"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"testing"
	"time"

	"arena/chain/badge"
	"arena/chain/ccd"
	"arena/chain/egress"
	"arena/games/canon"
)

// A Practice round on the embedded devchain mints every lent Badge at the table (the walk-in's
// and the house seats', §4.4) through the chain actor: its transcript carries one badge.minted
// per seat, each naming the seat's agent and owner from seat.taken and a transaction the
// devchain holds, finalized; afterwards each lent id resolves through §4.1 (registry, card as
// served, hash) to the key its seat.taken publishes; and anchor-check still passes.
func TestPracticeMintsItsLentBadges(t *testing.T) {
	bin := buildArena(t)
	data := filepath.Join(t.TempDir(), "data")
	s := startServer(t, bin, data)
	ctx, cancel := context.WithTimeout(t.Context(), 120*time.Second)
	defer cancel()

	reg := s.call(ctx, "POST", "/v1/walkin", "", map[string]any{"name": fmt.Sprintf("Mint Walker %d", walkers.Add(1)), "model": "test"})
	tok, _ := reg.body["token"].(string)
	if reg.status != 201 || tok == "" {
		t.Fatalf("register %d %s", reg.status, reg.raw)
	}
	join := s.call(ctx, "POST", "/v1/walkin/join", tok, map[string]any{"table": "practice"})
	round, _ := join.body["round"].(string)
	if join.status != 200 || round == "" {
		t.Fatalf("join %d %s", join.status, join.raw)
	}

	type event struct {
		Type    string          `json:"type"`
		Payload json.RawMessage `json:"payload"`
	}
	type seatTaken struct {
		Seat       int    `json:"seat"`
		Agent      string `json:"agent"`
		Owner      string `json:"owner"`
		SigningKey string `json:"signing_key"`
	}
	type minted struct {
		Seat  int    `json:"seat"`
		Agent string `json:"agent"`
		Owner string `json:"owner"`
		Tx    string `json:"tx"`
	}
	read := func(raw []byte) (seats map[int]seatTaken, mints []minted) {
		var tr struct {
			Events []event `json:"events"`
		}
		if err := json.Unmarshal(raw, &tr); err != nil {
			t.Fatalf("transcript %.300s: %v", raw, err)
		}
		seats = map[int]seatTaken{}
		for _, e := range tr.Events {
			switch e.Type {
			case "seat.taken":
				var p seatTaken
				json.Unmarshal(e.Payload, &p)
				seats[p.Seat] = p
			case "badge.minted":
				var p minted
				json.Unmarshal(e.Payload, &p)
				mints = append(mints, p)
			}
		}
		return seats, mints
	}
	// The mints are final within seconds, long before the round ends: wait for them (the
	// walk-in's first move may pass unanswered meanwhile; its seat then stays silent).
	var seats map[int]seatTaken
	var mints []minted
	eventually(t, time.Until(deadlineOf(ctx))-5*time.Second, 100*time.Millisecond, func() bool {
		tr := s.call(ctx, "GET", "/v1/rounds/"+round+"/transcript", "", nil)
		if tr.status != 200 {
			return false
		}
		seats, mints = read(tr.raw)
		return len(seats) > 0 && len(mints) == len(seats)
	}, func() string {
		return fmt.Sprintf("%d badge.minted for %d seats; logs:\n%s", len(mints), len(seats), s.logs)
	})

	client, err := ccd.Dial(ctx, s.chain, false)
	if err != nil {
		t.Fatal(err)
	}
	defer client.Close()
	var gen struct {
		Accounts []struct{ Name, Address string } `json:"accounts"`
	}
	graw, err := os.ReadFile(filepath.Join(data, "devchain", "devchain-genesis.json"))
	if err != nil {
		t.Fatal(err)
	}
	json.Unmarshal(graw, &gen)
	var house ccd.Address
	for _, a := range gen.Accounts {
		if a.Name == "house" {
			house, _ = ccd.ParseAddress(a.Address)
		}
	}
	resolver := badge.New(badge.Config{Node: client, Cards: egress.NewClient(egress.Dev()), House: house})
	byseat := map[int]bool{}
	for _, m := range mints {
		st, ok := seats[m.Seat]
		if !ok || byseat[m.Seat] {
			t.Fatalf("badge.minted %+v: no such seat, or minted twice", m)
		}
		byseat[m.Seat] = true
		if m.Agent != st.Agent || m.Owner != st.Owner || m.Owner == "" {
			t.Fatalf("badge.minted %+v; seat.taken %+v", m, st)
		}
		var h [32]byte
		if b, err := hex.DecodeString(m.Tx); err != nil || len(b) != 32 {
			t.Fatalf("badge.minted tx %q is not a transaction hash", m.Tx)
		} else {
			copy(h[:], b)
		}
		cs, err := client.Status(ctx, h)
		if err != nil || cs.State != ccd.Finalized || cs.Rejected {
			t.Fatalf("seat %d's mint %s on the devchain: %+v %v", m.Seat, m.Tx, cs, err)
		}
		a, err := resolver.Resolve(ctx, m.Agent)
		if err != nil {
			t.Fatalf("seat %d's lent Badge %s does not resolve: %v", m.Seat, m.Agent, err)
		}
		if canon.FormatKey(a.Key) != st.SigningKey || a.Owner != house || !a.HouseOwned || a.Kind != badge.KindHouse {
			t.Fatalf("seat %d resolves to key %s owner %s kind %s; seat.taken %+v", m.Seat, canon.FormatKey(a.Key), a.Owner, a.Kind, st)
		}
	}

	// The round plays out; anchor-check passes on its revealed transcript.
	for {
		if ctx.Err() != nil {
			t.Fatalf("round %s not over; logs:\n%s", round, s.logs)
		}
		r := s.call(ctx, "GET", "/v1/walkin/next?wait=30", tok, nil)
		if r.status != 200 {
			t.Fatalf("next %d %s", r.status, r.raw)
		}
		if r.body["result"] != nil {
			break
		}
		if r.body["waiting"] == true {
			continue
		}
		var e envelope
		if err := json.Unmarshal(r.raw, &e); err != nil || e.Round != round {
			t.Fatalf("envelope %s: %v", r.raw, err)
		}
		if a := s.call(ctx, "POST", "/v1/walkin/answer", tok, answerFor(e)); a.status != 200 && !bytes.Contains(a.raw, []byte("stale")) {
			t.Fatalf("answer %d/%s/%d: %d %s", e.Turn, e.Phase, e.Exchange, a.status, a.raw)
		}
	}
	raw := revealedTranscript(t, ctx, s, round)
	if _, after := read(raw); len(after) != len(mints) {
		t.Fatalf("the revealed transcript has %d badge.minted, the live one had %d", len(after), len(mints))
	}
	if code, out, errOut := runAnchorCheck(ctx, nil, "--node", s.chain, s.url+"/v1/rounds/"+round+"/transcript"); code != 0 || firstFail(out) != "" {
		t.Fatalf("anchor-check: exit %d\n%s%s", code, out, errOut)
	}
}

// deadlineOf is ctx's deadline (a minute from now when it has none).
func deadlineOf(ctx context.Context) time.Time {
	if dl, ok := ctx.Deadline(); ok {
		return dl
	}
	return time.Now().Add(time.Minute)
}
