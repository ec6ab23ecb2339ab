package warden

import (
	"encoding/json"
	"fmt"
	"io"
	"math/rand/v2"
	"strings"
	"testing"

	"arena/games/warden/claims"
	"arena/games/warden/dilemma"
	"arena/games/warden/feed"
	"arena/games/warden/feed/feedtest"
	"arena/storage"
)

// playMatches plays n random matches on the pure engines (Game I and Game II alternately), with
// the feed each publishes (feedtest).
func playMatches(t *testing.T, seed uint64, n int) []*feedtest.Played {
	t.Helper()
	r := rand.New(rand.NewPCG(seed, 22))
	var out []*feedtest.Played
	for i := range n {
		s := feedtest.Script{Game: []string{claims.GameID, dilemma.GameID}[i%2], MatchID: fmt.Sprintf("wm_%016x", r.Uint64()),
			Stake: claims.StakeFactor * (1 + r.Int64N(50)), Public: r.Uint64(), Secret: r.Uint64(), Texts: r.Uint64(),
			Ledger: uint64(2 * i)}
		for j := range s.Seed {
			s.Seed[j] = byte(r.IntN(256))
		}
		p, err := feedtest.Play(s)
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, p)
	}
	return out
}

// appendPlayed appends event i of p in its own transaction with the match's record, as the
// Warden would write it with the state change.
func (r *galleryRig) appendPlayed(p *feedtest.Played, i int) {
	r.t.Helper()
	storePlayed(r.t, r.store, p, i)
}

// storePlayed is appendPlayed on store: event i of p with its match's record, and the match's
// Ledger rows in match_settled's transaction (§12.2).
func storePlayed(t testing.TB, store *storage.Store, p *feedtest.Played, i int) {
	t.Helper()
	s := p.Script
	status := StatusLive
	if i < 4 {
		status = StatusStaking
	}
	m := Match{ID: s.MatchID, Game: s.Game, Stake: uint64(s.Stake), A: s.A.ContenderID, B: s.B.ContenderID, Status: status}
	if err := store.WardenUpdate(func(tx storage.WardenTx) error {
		if err := tx.Put("match/"+s.MatchID, m); err != nil {
			return err
		}
		if p.Feed[i].Type() == feed.TypeMatchSettled { // the Ledger rows in the same write (§12.2)
			if _, err := tx.AppendWardenMatch(ledgerRows(t, p)); err != nil {
				return err
			}
		}
		_, err := tx.AppendFeed(p.Feed[i])
		return err
	}); err != nil {
		t.Fatal(err)
	}
}

// ledgerRows are p's two Ledger rows (§12.1) from its match_finished figures.
func ledgerRows(t testing.TB, p *feedtest.Played) []storage.WardenRow {
	envs, err := p.Envelopes()
	if err != nil {
		t.Fatal(err)
	}
	var fin feed.MatchFinished
	if err := json.Unmarshal(envs[p.Reveals["match_finished"]].Data, &fin); err != nil {
		t.Fatal(err)
	}
	var started feed.MatchStarted
	if err := json.Unmarshal(envs[4].Data, &started); err != nil {
		t.Fatal(err)
	}
	s := p.Script
	house := 2*s.Stake - fin.Seats.A.PaidOut - fin.Seats.B.PaidOut
	rows := make([]storage.WardenRow, 2)
	for i, seat := range []string{"A", "B"} {
		me, them := s.A, s.B
		sr := fin.Seats.A
		share := house - house/2
		if i == 1 {
			me, them, sr, share = s.B, s.A, fin.Seats.B, house/2
		}
		var ref *string
		if sr.PaidOut > 0 {
			tx := "0x" + strings.Repeat("0", 63) + fmt.Sprint(i+1)
			ref = &tx
		}
		rows[i] = storage.WardenRow{RowID: "wl_" + s.MatchID + "_" + seat, MatchID: s.MatchID, Game: s.Game,
			RulesVersion: started.RulesVersion, Seat: seat, ContenderID: me.ContenderID, Name: me.Name,
			Temperament: me.Temperament, OpponentID: them.ContenderID, OpponentTemperament: them.Temperament,
			Stake: s.Stake, StakeRail: "dev-exact", StakeRef: "0x" + strings.Repeat("1", 64), GrossReturn: sr.GrossReturn,
			Rake: sr.Rake, PaidOut: sr.PaidOut, PayoutRef: ref, Net: sr.Net, Result: sr.Result, HouseShare: share,
			Stats: map[string]int64{}, StartedAt: envs[4].T, FinishedAt: envs[p.Reveals["match_finished"]].T,
			SettledAt: envs[p.Reveals["match_finished"]].T, SeedHash: started.SeedHash, LogHash: fin.LogHash, Network: "eip155:1337"}
	}
	return rows
}

// leaks is the first secret of p not yet public when its feed held n events (event n−1 the
// newest) that text holds.
func leaks(p *feedtest.Played, n int, text string) (feedtest.Secret, bool) {
	for _, s := range p.Secrets {
		if s.Until >= n && strings.Contains(text, s.Text) {
			return s, true
		}
	}
	return feedtest.Secret{}, false
}

// TestGallerySecrecyScanOverTheDoors: 24 random matches of both games, their events appended
// interleaved as the Warden would; every event the global feed (?events=all) and each match feed
// serve is the event stored, and none holds a secret of its match not yet public at that event
// (a message's text before messages_published, the seed before match_finished, a salt before its
// round's reveal); nor does the public match view, read after every event of two of them, nor the
// global reads (leaderboard, Ledger, its head, temperaments, a Contender's standing), read
// every 40 events while the Ledger fills with each settled match's rows.
func TestGallerySecrecyScanOverTheDoors(t *testing.T) {
	r := newGalleryRig(t, &Gallery{LobbyEvery: -1, MaxPerClient: 64})
	played := playMatches(t, 7, 24)
	byID := map[string]*feedtest.Played{}
	want := map[string][]feed.Envelope{}
	total := 0
	for _, p := range played {
		byID[p.Script.MatchID] = p
		envs, err := p.Envelopes()
		if err != nil {
			t.Fatal(err)
		}
		want[p.Script.MatchID] = envs
		total += len(envs)
	}
	all := r.open("/v1/warden/feed?events=all", "")
	next := map[string]int{}
	reads := 0
	for appended := 0; appended < total; {
		for k, p := range played {
			id := p.Script.MatchID
			i := next[id]
			if i == len(p.Feed) {
				continue
			}
			r.appendPlayed(p, i)
			next[id], appended = i+1, appended+1
			if appended%40 == 0 { // the global reads: no secret of any match not yet public
				for _, path := range []string{"/v1/warden/leaderboard", "/v1/warden/ledger", "/v1/warden/ledger/head",
					"/v1/warden/temperaments", "/v1/warden/contenders/" + p.Script.A.ContenderID} {
					resp := r.get(path, "")
					b, _ := io.ReadAll(resp.Body)
					resp.Body.Close()
					if resp.StatusCode != 200 && resp.StatusCode != 404 {
						t.Fatalf("GET %s: %d %s", path, resp.StatusCode, b)
					}
					reads++
					for _, q := range played {
						if sec, bad := leaks(q, next[q.Script.MatchID], string(b)); bad {
							t.Fatalf("GET %s holds %s's %s %q before its moment: %s", path, q.Script.MatchID, sec.What, sec.Text, b)
						}
					}
				}
			}
			if k < 2 { // the public view, after each event
				resp := r.get("/v1/warden/matches/"+id, "")
				b, _ := io.ReadAll(resp.Body)
				resp.Body.Close()
				if resp.StatusCode != 200 {
					t.Fatalf("public view %s: %d %s", id, resp.StatusCode, b)
				}
				if s, bad := leaks(p, i+1, string(b)); bad {
					t.Fatalf("public view of %s after %d events holds the %s %q: %s", id, i+1, s.What, s.Text, b)
				}
			}
		}
	}
	if reads == 0 {
		t.Fatal("no global read was scanned")
	}
	if rows := 0; r.store.WardenRows(1, func(storage.WardenRow) error { rows++; return nil }) != nil || rows != 2*len(played) {
		t.Fatalf("%d Ledger rows, want %d", rows, 2*len(played))
	}
	resp := r.get("/v1/warden/leaderboard?limit=100", "")
	var board struct {
		Rows []map[string]any `json:"rows"`
	}
	if err := json.NewDecoder(resp.Body).Decode(&board); err != nil || len(board.Rows) != 2*len(played) {
		t.Fatalf("leaderboard after every match settled: %v, %d rows, want %d", err, len(board.Rows), 2*len(played))
	}
	resp.Body.Close()
	// The global feed: every event in commit order under the global seq, each the stored one.
	seen := map[string]int{}
	for g := 1; g <= total; g++ {
		msg := all.event()
		e := envOf(t, msg)
		i := seen[e.MatchID]
		seen[e.MatchID]++
		w := want[e.MatchID][i]
		if msg.ID != int64(g) || e.Seq != uint64(g) || e.Type != w.Type || string(e.Data) != string(w.Data) || e.T != w.T {
			t.Fatalf("global event %d: %+v, want %s event %d %+v", g, e, e.MatchID, i, w)
		}
		if s, bad := leaks(byID[e.MatchID], i+1, msg.Data); bad {
			t.Fatalf("global event %d (%s %d, %s) holds the %s %q", g, e.MatchID, i, e.Type, s.What, s.Text)
		}
	}
	// Each match's own feed: ids from 0, the stored events, then end.
	for _, p := range played {
		id := p.Script.MatchID
		s := r.open("/v1/warden/matches/"+id+"/feed", "")
		for i, w := range want[id] {
			msg := s.event()
			e := envOf(t, msg)
			if msg.ID != int64(i) || e.Seq != uint64(i) || e.Type != w.Type || string(e.Data) != string(w.Data) {
				t.Fatalf("%s event %d: %+v, want %+v", id, i, e, w)
			}
			if sec, bad := leaks(p, i+1, msg.Data); bad {
				t.Fatalf("%s event %d (%s) holds the %s %q", id, i, e.Type, sec.What, sec.Text)
			}
		}
		if end := s.event(); end.Event != "end" {
			t.Fatalf("%s: after its events %+v", id, end)
		}
		s.resp.Body.Close()
	}
}

// The scan is not vacuous: a match feed that did carry a message's text before its moment is
// caught by the same check.
func TestGallerySecrecyScanCatchesALeak(t *testing.T) {
	p := playMatches(t, 8, 1)[0]
	var msg feedtest.Secret
	for _, s := range p.Secrets {
		if s.What == "message" {
			msg = s
			break
		}
	}
	if msg.Text == "" {
		t.Fatal("the match sent no message")
	}
	leak, _ := json.Marshal(map[string]string{"text": msg.Text})
	if _, bad := leaks(p, msg.Until, string(leak)); !bad {
		t.Fatal("a message's text before messages_published was not caught")
	}
	if _, bad := leaks(p, msg.Until+1, string(leak)); bad {
		t.Fatal("a message's text after messages_published was called a leak")
	}
}

// TestGallerySecrecyScanOverMCP: the MCP global reads (warden_matches, warden_match_public,
// warden_leaderboard, warden_standing, warden_ledger, warden_temperaments), each paid at the
// global tier and called every 25 events while 8 random matches of both games are written
// interleaved, hold no secret of any match not yet public then.
func TestGallerySecrecyScanOverMCP(t *testing.T) {
	r := newMCPRig(t, 1_000_000)
	reader := r.register(0x61, "mirror")
	played := playMatches(t, 11, 8)
	total := 0
	for _, p := range played {
		total += len(p.Feed)
	}
	next := map[string]int{}
	n := byte(0)
	calls := 0
	for appended := 0; appended < total; {
		for _, p := range played {
			id := p.Script.MatchID
			i := next[id]
			if i == len(p.Feed) {
				continue
			}
			storePlayed(t, r.store, p, i)
			next[id], appended = i+1, appended+1
			if appended%25 != 0 {
				continue
			}
			for _, c := range []struct {
				tool string
				args map[string]any
			}{
				{"warden_matches", map[string]any{}},
				{"warden_match_public", map[string]any{"match_id": id}},
				{"warden_leaderboard", map[string]any{}},
				{"warden_standing", map[string]any{"contender_id": reader.wallet.String()}},
				{"warden_ledger", map[string]any{}},
				{"warden_temperaments", map[string]any{}},
			} {
				n++
				if n == 0 {
					t.Fatal("more reads than payment nonces")
				}
				res := r.callTool(c.tool, c.args, r.pay(reader, 1, n))
				if res.Meta[MetaPaymentResponse] == nil {
					t.Fatalf("%s was not paid and served: %+v", c.tool, res)
				}
				calls++
				text := res.Content[0].Text
				for _, q := range played {
					if sec, bad := leaks(q, next[q.Script.MatchID], text); bad {
						t.Fatalf("%s holds %s's %s %q before its moment: %s", c.tool, q.Script.MatchID, sec.What, sec.Text, text)
					}
				}
			}
		}
	}
	if calls < 30 {
		t.Fatalf("only %d MCP reads scanned", calls)
	}
}
