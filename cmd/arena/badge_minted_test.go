package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strconv"
	"strings"
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
	table, _ := join.body["table"].(string)
	if join.status != 200 || round == "" || table == "" {
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
	// The mints are final within seconds, long before the round ends: the round's public feed
	// (the transcript itself is public after the reveal only, §11.4) shows one badge.minted per
	// seat.taken while the round is live (the walk-in's first move may pass unanswered meanwhile;
	// its seat then stays silent).
	liveSeats, liveMints := watchFeed(t, ctx, s, round, func(types map[string]int) bool {
		return types["seat.taken"] > 0 && types["badge.minted"] == types["seat.taken"]
	})
	if liveMints != liveSeats {
		t.Fatalf("the live feed showed %d badge.minted for %d seat.taken; logs:\n%s", liveMints, liveSeats, s.logs)
	}

	// The round plays out; its revealed transcript carries the same badge.minted, checked below.
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
	seats, mints := read(revealedTranscript(t, ctx, s, round))
	if len(seats) != liveSeats || len(mints) != liveMints {
		t.Fatalf("the revealed transcript has %d badge.minted for %d seats, the live feed had %d for %d", len(mints), len(seats), liveMints, liveSeats)
	}

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
		// The server has no public_url: the card is registered at the listen address's origin
		// (publicSite), where this test fetched it just now.
		if want := s.url + "/.well-known/lent/" + table + "/" + strconv.Itoa(m.Seat) + ".json"; a.CardURI != want {
			t.Fatalf("seat %d's lent Badge is registered with card %s, want %s", m.Seat, a.CardURI, want)
		}
		if canon.FormatKey(a.Key) != st.SigningKey || a.Owner != house || !a.HouseOwned || a.Kind != badge.KindHouse {
			t.Fatalf("seat %d resolves to key %s owner %s kind %s; seat.taken %+v", m.Seat, canon.FormatKey(a.Key), a.Owner, a.Kind, st)
		}
	}

	// anchor-check still passes on the revealed transcript.
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

// watchFeed reads round's public feed (GET /v1/rounds/{round}/events, Server-Sent Events) until
// done holds of the event types seen so far, and returns how many seat.taken and badge.minted it
// saw. It fails the test when the feed ends first or ctx ends.
func watchFeed(t *testing.T, ctx context.Context, s *server, round string, done func(map[string]int) bool) (seats, mints int) {
	t.Helper()
	types := map[string]int{}
	after := int64(0)
	for {
		req, _ := http.NewRequestWithContext(ctx, "GET", s.url+"/v1/rounds/"+round+"/events?after="+strconv.FormatInt(after, 10), nil)
		r, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatalf("feed of %s: %v (types seen %v); logs:\n%s", round, err, types, s.logs)
		}
		if r.StatusCode != 200 {
			raw, _ := io.ReadAll(r.Body)
			r.Body.Close()
			t.Fatalf("feed of %s: %d %s", round, r.StatusCode, raw)
		}
		sc := bufio.NewScanner(r.Body)
		ended := ""
		for sc.Scan() {
			line := sc.Text()
			if strings.HasPrefix(line, "event: end") {
				ended = "end"
			}
			data, ok := strings.CutPrefix(line, "data: ")
			if !ok {
				continue
			}
			if ended != "" {
				ended = data
				break
			}
			var ev struct {
				Seq  int64  `json:"seq"`
				Type string `json:"type"`
			}
			if err := json.Unmarshal([]byte(data), &ev); err != nil {
				t.Fatalf("feed line %q: %v", data, err)
			}
			after = ev.Seq
			types[ev.Type]++
			if done(types) {
				r.Body.Close()
				return types["seat.taken"], types["badge.minted"]
			}
		}
		r.Body.Close()
		if ended != "" && !strings.Contains(ended, "later") {
			t.Fatalf("the feed of %s ended (%s) with types %v; logs:\n%s", round, ended, types, s.logs)
		}
		if ctx.Err() != nil {
			t.Fatalf("feed of %s: types %v when the test's time ran out; logs:\n%s", round, types, s.logs)
		}
	}
}
