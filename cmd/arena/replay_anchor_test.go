package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// replayed polls the round's transcript until it lists n replay anchors with their transactions
// (the chain actor answers the showings actor after the start), and returns the body.
func replayed(t *testing.T, ctx context.Context, s *server, round string, n int) []byte {
	t.Helper()
	for {
		tr := s.call(ctx, "GET", "/v1/rounds/"+round+"/transcript", "", nil)
		var body struct {
			Replays []map[string]any `json:"replays"`
		}
		if tr.status == 200 && json.Unmarshal(tr.raw, &body) == nil && len(body.Replays) == n {
			return tr.raw
		}
		select {
		case <-ctx.Done():
			t.Fatalf("the transcript of %s never listed %d replay anchors: %d %.300s", round, n, tr.status, tr.raw)
		case <-time.After(100 * time.Millisecond):
		}
	}
}

// lobbyLists checks the lobby lists the showing at page (round, seq its start, 10×, hash) with its
// replay anchor registered in tx, in its JSON and its HTML, first running or shown and then, once
// every event has been shown, shown; and that the showing's page states the anchor's seq and hash.
func lobbyLists(t *testing.T, ctx context.Context, s *server, page, round string, seq int64, hash, tx string) {
	t.Helper()
	get := func(accept string) []byte {
		req, _ := http.NewRequestWithContext(ctx, "GET", s.url+"/", nil)
		req.Header.Set("Accept", accept)
		r, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer r.Body.Close()
		b, _ := io.ReadAll(r.Body)
		if r.StatusCode != 200 {
			t.Fatalf("GET / (%s): %d %.300s", accept, r.StatusCode, b)
		}
		return b
	}
	started := time.Unix(seq, 0).UTC().Format(time.RFC3339)
	type line struct {
		Page, Round, Started, Hash, Anchor, Tx string
		Seq                                    int64
		Speed                                  int
		Running                                bool
	}
	for {
		raw := get("application/json")
		var lobby struct {
			Showings []line `json:"showings"`
		}
		if err := json.Unmarshal(raw, &lobby); err != nil {
			t.Fatalf("the lobby's JSON: %v %.300s", err, raw)
		}
		if len(lobby.Showings) != 1 {
			t.Fatalf("the lobby lists %d showings, want 1: %.500s", len(lobby.Showings), raw)
		}
		got := lobby.Showings[0]
		want := line{Page: page, Round: round, Started: started, Hash: hash, Anchor: "registered", Tx: tx, Seq: seq, Speed: 10, Running: got.Running}
		if got != want {
			t.Fatalf("the lobby's showing %+v, want %+v", got, want)
		}
		html := string(get("text/html"))
		pill := `<span class="pill">shown</span>`
		if got.Running {
			pill = `<span class="pill live">showing</span>`
		}
		row := fmt.Sprintf(`<tr data-seq="%d"><td><a href="%s">%s</a> %s</td><td><a href="/r/%s">%s</a></td><td>10×</td><td>%s</td><td>registered, seq %d, tx <code>%s</code></td></tr>`,
			seq, page, page, pill, round, round, started, seq, tx)
		if !strings.Contains(html, row) {
			t.Fatalf("the lobby's HTML lacks the row %s\n%.3000s", row, html[strings.Index(html, "<h2>Showings"):])
		}
		if !got.Running {
			break
		}
		select {
		case <-ctx.Done():
			t.Fatal("the showing never ended on the lobby")
		case <-time.After(200 * time.Millisecond):
		}
	}
	r := s.call(ctx, "GET", page, "", nil)
	for _, want := range []string{fmt.Sprintf(`seq <span id="anchor-seq">%d</span>`, seq), `<code id="anchor-hash">` + hash + `</code>`, "<code>" + tx + "</code>"} {
		if r.status != 200 || !strings.Contains(string(r.raw), want) {
			t.Fatalf("the showing's page lacks %s: %d %.2000s", want, r.status, r.raw)
		}
	}
}

// editReplay returns a copy of the transcript body with its first replay changed by edit.
func editReplay(t *testing.T, raw []byte, edit func(r map[string]any)) []byte {
	t.Helper()
	var body map[string]json.RawMessage
	if err := json.Unmarshal(raw, &body); err != nil {
		t.Fatal(err)
	}
	dec := json.NewDecoder(bytes.NewReader(body["replays"]))
	dec.UseNumber()
	var rs []map[string]any
	if err := dec.Decode(&rs); err != nil {
		t.Fatal(err)
	}
	edit(rs[0])
	b, err := json.Marshal(rs)
	if err != nil {
		t.Fatal(err)
	}
	body["replays"] = b
	out, err := json.Marshal(body)
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// A showing of a recorded round on `arena serve` with the embedded devchain: `arena ops showing`
// starts it and prints its page; the arena registers its replay anchor (§5.5 kind 5), which the
// round's transcript then lists beside its events; `arena anchor-check` fetches its transaction
// from the devchain and finds kind replay, the round's number, seq the start's Unix second and
// the recorded transcript's hash, and passes. Forged listings (the hash, the round, a start
// before the reveal) fail on the replay's line. A showing of a round still being played is
// refused with not_revealed.
func TestShowingReplayAnchorChecksOnChain(t *testing.T) {
	bin := buildArena(t)
	s := startServer(t, bin, filepath.Join(t.TempDir(), "data"))
	ctx, cancel := context.WithTimeout(t.Context(), 120*time.Second)
	defer cancel()
	round, _ := playPractice(t, ctx, s, "short")
	before := revealedTranscript(t, ctx, s, round)

	var out, errb bytes.Buffer
	start := time.Now().Unix()
	if code := opsMain(ctx, []string{"showing", round, "--speed", "10", "--server", s.url, "--data", s.data}, os.Getenv, &out, &errb); code != 0 ||
		!strings.HasPrefix(out.String(), "showing "+round+" at 10× from ") {
		t.Fatalf("arena ops showing: exit %d\n%s%s", code, out.String(), errb.String())
	}
	page := strings.TrimSpace(out.String()[strings.LastIndex(out.String(), ": ")+2:])
	if !strings.HasPrefix(page, s.url+"/r/"+round+"/showings/") {
		t.Fatalf("the showing's page %q", page)
	}
	if r := s.call(ctx, "GET", strings.TrimPrefix(page, s.url), "", nil); r.status != 200 || !bytes.Contains(r.raw, []byte("shown again")) {
		t.Fatalf("GET %s: %d %.300s", page, r.status, r.raw)
	}

	raw := replayed(t, ctx, s, round, 1)
	var body struct {
		Events  []json.RawMessage `json:"events"`
		Replays []struct {
			Showing, Round, Hash, Tx string
			Seq                      int64
			Speed                    int
		} `json:"replays"`
	}
	if err := json.Unmarshal(raw, &body); err != nil {
		t.Fatal(err)
	}
	var prior struct {
		Events []json.RawMessage `json:"events"`
	}
	_ = json.Unmarshal(before, &prior)
	rp := body.Replays[0]
	if rp.Round != round || rp.Speed != 10 || rp.Seq < start || rp.Seq > time.Now().Unix() || len(rp.Tx) != 64 ||
		strings.TrimPrefix(page, s.url) != rp.Showing || len(body.Events) != len(prior.Events) {
		t.Fatalf("replay %+v (started ≥ %d, page %s); the showing must leave the %d events as they were (now %d)", rp, start, page, len(prior.Events), len(body.Events))
	}

	lobbyLists(t, ctx, s, rp.Showing, round, rp.Seq, rp.Hash, rp.Tx)

	code, checked, errOut := runAnchorCheck(ctx, nil, "--node", s.chain, s.url+"/v1/rounds/"+round+"/transcript")
	want := fmt.Sprintf("ok   replay #1 (showing %s): tx %s… holds kind replay, round %s, seq %d ", rp.Showing, rp.Tx[:12], strings.TrimPrefix(round, "T-"), rp.Seq)
	if code != 0 || firstFail(checked) != "" || !strings.Contains(checked, want) {
		t.Fatalf("anchor-check of the transcript with its replay: exit %d, want a line %q\n%s%s", code, want, checked, errOut)
	}
	t.Logf("%s", want)

	dir := t.TempDir()
	env := map[string]string{"ARENA_CHAIN_NODE": s.chain}
	for _, c := range []struct {
		name string
		edit func(r map[string]any)
		says string
	}{
		{"hash", func(r map[string]any) { r["hash"] = strings.Repeat("0", 64) }, "the recorded transcript's"},
		{"round", func(r map[string]any) { r["round"] = "T-1" + strings.TrimPrefix(round, "T-") }, "names round"},
		{"seq", func(r map[string]any) { r["seq"] = json.Number("1000000000") }, "is before the round's reveal"},
		{"tx", func(r map[string]any) { r["tx"] = strings.Repeat("ab", 32) }, "tx abababababab"},
	} {
		p := filepath.Join(dir, c.name+".json")
		if err := os.WriteFile(p, editReplay(t, raw, c.edit), 0o600); err != nil {
			t.Fatal(err)
		}
		code, out, errOut := runAnchorCheck(ctx, env, "--wait", "2s", p)
		first := firstFail(out)
		if code != 1 || !strings.HasPrefix(first, "FAIL replay #1 ") || !strings.Contains(first, c.says) {
			t.Errorf("forged %s: exit %d, first FAIL %q, want the replay's line saying %q\n%s%s", c.name, code, first, c.says, out, errOut)
			continue
		}
		t.Logf("forged %s: %s", c.name, first)
	}

	// A round being played has no recording to show.
	reg := s.call(ctx, "POST", "/v1/walkin", "", map[string]any{"name": fmt.Sprintf("Replay Walker %d", walkers.Add(1)), "model": "test"})
	tok, _ := reg.body["token"].(string)
	join := s.call(ctx, "POST", "/v1/walkin/join", tok, map[string]any{"table": "practice", "format": "short"})
	live, _ := join.body["round"].(string)
	if live == "" {
		t.Fatalf("join %d %s", join.status, join.raw)
	}
	out.Reset()
	errb.Reset()
	if code := opsMain(ctx, []string{"showing", live, "--server", s.url, "--data", s.data}, os.Getenv, &out, &errb); code != 1 ||
		!strings.Contains(errb.String(), "only a revealed round's recording can be shown") || !strings.Contains(errb.String(), "409 not_revealed") {
		t.Fatalf("arena ops showing of a round being played: exit %d\n%s%s", code, out.String(), errb.String())
	}
}

// `arena ops showing` needs exactly one round; anything else is a usage error (exit 2) that asks
// no server.
func TestOpsShowingUsage(t *testing.T) {
	for _, args := range [][]string{{"showing"}, {"showing", "T-1", "T-2"}, {"showing", "T-1", "--speed", "x"}} {
		var out, errb bytes.Buffer
		env := func(k string) string {
			return map[string]string{"ARENA_OPERATOR_TOKEN": "t", "ARENA_SERVER": "http://127.0.0.1:1"}[k]
		}
		if code := opsMain(t.Context(), args, env, &out, &errb); code != 2 || !strings.Contains(errb.String(), "usage: arena ops") {
			t.Errorf("arena ops %q: exit %d, stderr %q", args, code, errb.String())
		}
	}
}
