package verify

import (
	"bytes"
	"encoding/hex"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"arena/chain/anchor"
	"arena/chain/ccd"
	"arena/games"
	"arena/games/blitz"
)

// recordedHash is the fixture's recorded transcript hash, computed the product's way
// (blitz.TranscriptHash over the events up to and including round.revealed), and the reveal's
// instant.
func recordedHash(t *testing.T, tr Transcript) ([32]byte, time.Time) {
	t.Helper()
	var evs []games.Event
	var at time.Time
	for _, e := range gameEvents(tr.Events) {
		evs = append(evs, e)
		if e.Type == "round.revealed" {
			at, _ = time.Parse(time.RFC3339Nano, e.At)
			break
		}
	}
	id, err := blitz.TranscriptHash(evs)
	if err != nil {
		t.Fatal(err)
	}
	var h [32]byte
	if _, err := hex.Decode(h[:], []byte(strings.TrimPrefix(id, "sha256:"))); err != nil {
		t.Fatal(err)
	}
	return h, at
}

// replayOn registers a on the fake node under a fresh transaction hash and returns the record a
// transcript would list for it, with the anchor's own round, seq and hash.
func replayOn(t *testing.T, node fakeNode, a anchor.Anchor, tag byte) Replay {
	t.Helper()
	data, err := a.Encode()
	if err != nil {
		t.Fatal(err)
	}
	var tx [32]byte
	tx[0], tx[31] = 0xee, tag
	node[tx] = ccd.Status{State: ccd.Finalized, Registered: true, Data: data}
	return Replay{Showing: "s" + string('a'+rune(tag)), Round: anchor.RoundID(a.Round), Seq: a.Seq,
		Hash: hex.EncodeToString(a.Hash[:]), Tx: hex.EncodeToString(tx[:]), Speed: 2}
}

// replayLines are the report's replay lines.
func replayLines(r Report) []Line {
	var out []Line
	for _, l := range r.Lines {
		if strings.HasPrefix(l.Check, "replay #") {
			out = append(out, l)
		}
	}
	return out
}

// A showing's replay anchor (§5.5 kind 5) checks: the recorded transcript's hash, the round's
// number, seq the Unix second it started (after the reveal), on chain as registered. A forged
// one fails on its own line: the hash or the round wrong on chain or in the listing, a start
// before the reveal or in the future, a transcript with no reveal, a listing of another round.
func TestReplayAnchorsCheck(t *testing.T) {
	tr, _ := load(t)
	node, _ := chainOf(t, tr)
	n, _ := anchor.ParseRound(tr.Round)
	h, revealed := recordedHash(t, tr)
	start := uint32(revealed.Unix() + 3600)
	now := func() time.Time { return revealed.Add(2 * time.Hour) }
	good := anchor.Anchor{Kind: anchor.Replay, Round: n, Seq: start, Hash: h}

	tr.Replays = []Replay{replayOn(t, node, good, 1)}
	r := Check(t.Context(), tr, Options{Game: blitzGame, Node: node, Wait: time.Second, Now: now})
	ls := replayLines(r)
	if r.Failed() != 0 || len(ls) != 1 || !ls[0].OK || ls[0].Pos != len(tr.Events) {
		t.Fatalf("a good replay anchor: %d failed, replay lines %v\n%s", r.Failed(), ls, lines(r))
	}
	wantLine := "ok   replay #1 (showing sb): tx ee0000000000… holds kind replay, round " + anchor.RoundID(n)[2:] + ", seq "
	if !strings.HasPrefix(ls[0].String(), wantLine) || !strings.Contains(ls[0].What, "events 1–99") {
		t.Errorf("line %q, want it to start %q and cover events 1–99", ls[0], wantLine)
	}

	wrongHash := good
	wrongHash.Hash[0] ^= 0xff
	wrongRound := good
	wrongRound.Round++
	early := good
	early.Seq = uint32(revealed.Unix() - 60)
	late := good
	late.Seq = uint32(now().Add(time.Hour).Unix())
	unrevealed := tr
	unrevealed.Events = tr.Events[:98]
	cases := []struct {
		name   string
		tr     Transcript
		replay func() Replay
		says   string
	}{
		{"wrong hash on chain and listed", tr, func() Replay { return replayOn(t, node, wrongHash, 2) }, "the recorded transcript's (events 1–99) is"},
		{"wrong hash on chain, listed right", tr, func() Replay {
			r := replayOn(t, node, wrongHash, 3)
			r.Hash = hex.EncodeToString(h[:])
			return r
		}, "on chain: hash "},
		{"wrong round on chain, listed right", tr, func() Replay {
			r := replayOn(t, node, wrongRound, 4)
			r.Round = tr.Round
			return r
		}, "on chain: round "},
		{"wrong round listed", tr, func() Replay { return replayOn(t, node, wrongRound, 5) }, "names round"},
		{"before the reveal", tr, func() Replay { return replayOn(t, node, early, 6) }, "is before the round's reveal"},
		{"in the future", tr, func() Replay { return replayOn(t, node, late, 7) }, "is in the future"},
		{"no such transaction", tr, func() Replay {
			r := replayOn(t, node, good, 8)
			r.Tx = strings.Repeat("ab", 32)
			return r
		}, "tx abababababab"},
		{"unrevealed round", unrevealed, func() Replay { return replayOn(t, node, good, 9) }, "an unrevealed round has no recording to show"},
	}
	for _, c := range cases {
		x := c.tr
		x.Replays = []Replay{c.replay()}
		r := Check(t.Context(), x, Options{Game: blitzGame, Node: node, Wait: 200 * time.Millisecond, Now: now})
		ls := replayLines(r)
		if len(ls) != 1 || ls[0].OK || !strings.Contains(ls[0].What, c.says) {
			t.Errorf("%s: replay lines %v, want one FAIL saying %q", c.name, ls, c.says)
			continue
		}
		t.Logf("%s: %s", c.name, ls[0])
	}
}

// Parse reads the "replays" member of a served transcript body.
func TestParseReadsReplays(t *testing.T) {
	_, raw := load(t)
	var body map[string]json.RawMessage
	if err := json.Unmarshal(raw, &body); err != nil {
		t.Fatal(err)
	}
	body["replays"] = json.RawMessage(`[{"showing":"s1","round":"T-1","seq":1800000000,"hash":"` + strings.Repeat("0", 64) + `","tx":"` + strings.Repeat("1", 64) + `","speed":4}]`)
	b, _ := json.Marshal(body)
	tr, err := Parse(b)
	if err != nil {
		t.Fatal(err)
	}
	want := Replay{Showing: "s1", Round: "T-1", Seq: 1800000000, Hash: strings.Repeat("0", 64), Tx: strings.Repeat("1", 64), Speed: 4}
	if len(tr.Replays) != 1 || tr.Replays[0] != want || !bytes.Contains(raw, []byte(tr.Events[0].Type)) {
		t.Fatalf("replays %+v, want [%+v]", tr.Replays, want)
	}
}
