package verify

import (
	"bytes"
	"context"
	"crypto/ed25519"
	"encoding/hex"
	"encoding/json"
	"os"
	"strings"
	"testing"
	"time"

	"arena/chain/anchor"
	"arena/chain/ccd"
	"arena/games/blitz"
)

// The fixture is the revealed transcript of a Short practice round played on `arena serve`
// with the embedded devchain (captured by cmd/arena's anchor-check test helpers): 100 events,
// 14 anchors (opened, 6 exchanges, 5 commitments, turn, transcript).
const fixture = "testdata/short-round.json"

// blitzGame recomputes the fixture's reveal (games.Opener).
var blitzGame = blitz.NewEngine(blitz.DefaultFees())

func load(t testing.TB) (Transcript, []byte) {
	t.Helper()
	raw, err := os.ReadFile(fixture)
	if err != nil {
		t.Fatal(err)
	}
	tr, err := Parse(raw)
	if err != nil {
		t.Fatal(err)
	}
	return tr, raw
}

// fakeNode answers Status from a map; a missing hash is Absent.
type fakeNode map[[32]byte]ccd.Status

func (f fakeNode) Status(_ context.Context, tx [32]byte) (ccd.Status, error) { return f[tx], nil }

// chainOf is the chain the round's anchor events describe: each named transaction finalized,
// holding the 50 bytes its event records (kind, the round's number, seq, hash).
func chainOf(t testing.TB, tr Transcript) (fakeNode, map[uint32][32]byte) {
	t.Helper()
	n, err := anchor.ParseRound(tr.Round)
	if err != nil {
		t.Fatal(err)
	}
	node, txs := fakeNode{}, map[uint32][32]byte{}
	for _, e := range tr.Events {
		if !strings.HasPrefix(e.Type, "anchor.") && e.Type != "transcript.anchored" {
			continue
		}
		var p struct {
			Kind, Hash, Tx string
			Seq            uint32
		}
		if err := json.Unmarshal(e.Payload, &p); err != nil {
			t.Fatal(err)
		}
		k, err := anchor.ParseKind(p.Kind)
		if err != nil {
			t.Fatal(err)
		}
		var a = anchor.Anchor{Kind: k, Round: n, Seq: p.Seq}
		hex.Decode(a.Hash[:], []byte(p.Hash))
		data, err := a.Encode()
		if err != nil {
			t.Fatal(err)
		}
		var tx [32]byte
		hex.Decode(tx[:], []byte(p.Tx))
		node[tx] = ccd.Status{State: ccd.Finalized, Registered: true, Data: data}
		txs[p.Seq] = tx
	}
	return node, txs
}

func lines(r Report) string {
	var b strings.Builder
	for _, l := range r.Lines {
		b.WriteString(l.String() + "\n")
	}
	return b.String()
}

func TestCheckPassesOnTheRound(t *testing.T) {
	tr, _ := load(t)
	node, txs := chainOf(t, tr)
	r := Check(t.Context(), tr, Options{Game: blitzGame, Node: node, Wait: time.Second})
	if r.Failed() != 0 || len(txs) != 14 {
		t.Fatalf("%d failed, %d anchors:\n%s", r.Failed(), len(txs), lines(r))
	}
	want := map[string]int{"opened": 1, "exchange": 6, "commitment": 5, "turn": 1, "transcript": 1}
	got := map[string]int{}
	for _, l := range r.Lines {
		if strings.HasPrefix(l.Check, "anchor #") && strings.Contains(l.What, " holds kind ") {
			got[strings.Fields(l.Check)[2]]++
		}
	}
	for k, n := range want {
		if got[k] != n {
			t.Errorf("%s anchors checked on chain: %d, want %d\n%s", k, got[k], n, lines(r))
		}
	}
	// Short: the mid-round anchor follows the settle of turn min(3, 3−1) = 2.
	if !strings.Contains(lines(r), "(in the settle of turn min(3, turns−1)): tx ") {
		t.Errorf("no turn line:\n%s", lines(r))
	}
	for i := 1; i < len(r.Lines); i++ {
		if r.Lines[i].Pos < r.Lines[i-1].Pos {
			t.Fatalf("lines out of transcript order at %d:\n%s", i, lines(r))
		}
	}
}

// Each of the four fields differing on chain fails that anchor's line, and only it.
func TestCheckComparesAllFourFieldsOnChain(t *testing.T) {
	tr, _ := load(t)
	cases := []struct {
		field  string
		offset int
		value  byte
		says   string
	}{
		{"kind", 5, byte(anchor.Turn), "kind turn, want exchange"},
		{"round", 13, 0x7f, "round "},
		{"seq", 17, 0x63, "seq 99, want 3"},
		{"hash", 49, 0x00, "hash "},
	}
	for _, c := range cases {
		node, txs := chainOf(t, tr)
		st := node[txs[3]] // seq 3: the second exchange of turn 1
		st.Data = bytes.Clone(st.Data)
		if st.Data[c.offset] == c.value {
			c.value++
		}
		st.Data[c.offset] = c.value
		node[txs[3]] = st
		r := Check(t.Context(), tr, Options{Game: blitzGame, Node: node, Wait: time.Second})
		f, ok := r.FirstFail()
		if r.Failed() != 1 || !ok || f.Check != "anchor #3 exchange" || !strings.Contains(f.What, "on chain: "+c.says) {
			t.Errorf("%s changed on chain: %d failed, first %q\n%s", c.field, r.Failed(), f, lines(r))
		}
	}
}

// A transaction the node does not know fails, unless Follow names the re-signed one.
func TestCheckFollowsAReSignedAnchor(t *testing.T) {
	tr, _ := load(t)
	node, txs := chainOf(t, tr)
	old := txs[2]
	st := node[old]
	delete(node, old)
	r := Check(t.Context(), tr, Options{Game: blitzGame, Node: node, Wait: 300 * time.Millisecond})
	if f, _ := r.FirstFail(); r.Failed() != 1 || f.Check != "anchor #2 exchange" || !strings.Contains(f.What, "absent on the node") {
		t.Fatalf("unknown tx: %d failed, first %q", r.Failed(), f)
	}
	var re [32]byte
	re[0] = 0xee
	node[re] = st
	var asked []byte
	follow := func(_ context.Context, data []byte) ([32]byte, bool, error) {
		asked = data
		return re, true, nil
	}
	r = Check(t.Context(), tr, Options{Game: blitzGame, Node: node, Follow: follow, Wait: time.Second})
	if r.Failed() != 0 || !bytes.Equal(asked, st.Data) || !strings.Contains(lines(r), "(re-signed as ee0000000000…)") {
		t.Fatalf("follow: %d failed, asked %x, want %x\n%s", r.Failed(), asked, st.Data, lines(r))
	}
}

func TestCheckRefusesARejectedOrUnfinalizedAnchor(t *testing.T) {
	tr, _ := load(t)
	node, txs := chainOf(t, tr)
	node[txs[1]] = ccd.Status{State: ccd.Finalized, Rejected: true, Reason: "out_of_energy"}
	node[txs[4]] = ccd.Status{State: ccd.Received}
	r := Check(t.Context(), tr, Options{Game: blitzGame, Node: node, Wait: 200 * time.Millisecond})
	out := lines(r)
	if r.Failed() != 2 || !strings.Contains(out, "FAIL anchor #1 opened") || !strings.Contains(out, "out_of_energy") ||
		!strings.Contains(out, "FAIL anchor #4 ") || !strings.Contains(out, "received on the node after 200ms") {
		t.Fatalf("%d failed:\n%s", r.Failed(), out)
	}
}

// A reveal whose salt was changed no longer recomputes to the anchor announced before turn 1.
func TestCheckRecomputesTheOpenAnchor(t *testing.T) {
	tr, _ := load(t)
	node, _ := chainOf(t, tr)
	for i, e := range tr.Events {
		if e.Type == "round.revealed" {
			var p map[string]any
			json.Unmarshal(e.Payload, &p)
			p["salts"].(map[string]any)["mole"] = strings.Repeat("ab", 32)
			tr.Events[i].Payload, _ = json.Marshal(p)
			tr.Events[i].raw = nil
		}
	}
	r := Check(t.Context(), tr, Options{Game: blitzGame, Node: node, Wait: time.Second})
	out := lines(r)
	if !strings.Contains(out, "FAIL open-round anchor: recomputed from the revealed salts") ||
		!strings.Contains(out, "FAIL anchor #1 opened") {
		t.Fatalf("a forged salt:\n%s", out)
	}
}

func TestCheckCommitmentSignatures(t *testing.T) {
	tr, _ := load(t)
	node, _ := chainOf(t, tr)
	var payer string
	for _, e := range tr.Events {
		if e.Type == "commitment.sealed" && e.Visibility == "sealed" {
			var p struct {
				Commitment struct {
					Payer string `json:"payer"`
				} `json:"commitment"`
			}
			json.Unmarshal(e.Payload, &p)
			payer = p.Commitment.Payer
			break
		}
	}
	other, _, _ := ed25519.GenerateKey(nil)
	r := Check(t.Context(), tr, Options{Game: blitzGame, Node: node, Wait: time.Second, Keys: map[string]ed25519.PublicKey{payer: other}})
	f, _ := r.FirstFail()
	if r.Failed() == 0 || !strings.HasPrefix(f.Check, "commitment ") || !strings.Contains(f.What, "signature does not verify") {
		t.Fatalf("a wrong key for %s: first FAIL %q\n%s", payer, f, lines(r))
	}
}

func TestCheckWithoutRevealOrNode(t *testing.T) {
	tr, _ := load(t)
	cut := tr
	for i, e := range tr.Events {
		if e.Type == "round.revealed" {
			cut.Events = tr.Events[:i]
		}
	}
	r := Check(t.Context(), cut, Options{Game: blitzGame})
	out := lines(r)
	for _, want := range []string{"FAIL open-round anchor: no round.revealed event", "FAIL anchor #1 opened: the open-round anchor, recomputed from the reveal: the hash cannot be rebuilt",
		"FAIL anchor #13 exchange: turn 3 exchange 2, events 81–84: tx 32864fd11982… not fetched (no chain node)"} {
		if !strings.Contains(out, want) {
			t.Errorf("missing %q in\n%s", want, out)
		}
	}
}

func TestParse(t *testing.T) {
	tr, raw := load(t)
	var body struct {
		Events json.RawMessage `json:"events"`
	}
	json.Unmarshal(raw, &body)
	bare, err := Parse(body.Events)
	if err != nil || bare.Round != tr.Round || len(bare.Events) != len(tr.Events) {
		t.Fatalf("bare array: %v, %s, %d events", err, bare.Round, len(bare.Events))
	}
	for _, bad := range []string{"", "{", `{"events":[]}`, `[1]`, `{"round":"T-1","events":{}}`} {
		if _, err := Parse([]byte(bad)); err == nil {
			t.Errorf("Parse(%q) accepted", bad)
		}
	}
}

// FuzzCheck: no input panics Check (the node and the follow answer with what the fuzzer
// chose too).
func FuzzCheck(f *testing.F) {
	raw, err := os.ReadFile(fixture)
	if err != nil {
		f.Fatal(err)
	}
	f.Add(raw, []byte("DDDA"))
	f.Add([]byte(`{"round":"T-1","events":[{"seq":1,"round":"T-1","type":"round.created","payload":{"format":{"turns":1}}},{"seq":2,"type":"anchor.turn","payload":{"kind":"turn","seq":1,"hash":"00","tx":"`+strings.Repeat("0", 64)+`"}}]}`), []byte{})
	f.Add([]byte(`[{"seq":1,"round":"T-9","type":"phase.started","phase":"settle","turn":0},{"type":"turn.started"},{"type":"round.revealed","payload":{"salts":null}}]`), []byte("x"))
	f.Add([]byte(`{"round":"T-3","events":[{"seq":1,"round":"T-3","type":"round.revealed","at":"2026-11-30T05:42:24.485Z"}],"replays":[{"showing":"s","round":"T-3","seq":1800000000,"hash":"`+strings.Repeat("a", 64)+`","tx":"`+strings.Repeat("0", 64)+`"},{"round":"T-3","seq":0,"hash":"","tx":""}]}`), []byte("DDDA\x01\x05"))
	f.Fuzz(func(t *testing.T, raw, data []byte) {
		tr, err := Parse(raw)
		if err != nil {
			return
		}
		node := constNode{ccd.Status{State: ccd.Finalized, Registered: true, Data: data}}
		follow := func(context.Context, []byte) ([32]byte, bool, error) { return [32]byte{1}, true, nil }
		ctx, cancel := context.WithTimeout(context.Background(), time.Second)
		defer cancel()
		_ = Check(ctx, tr, Options{Game: blitzGame, Node: node, Follow: follow, Wait: 10 * time.Millisecond})
	})
}

type constNode struct{ st ccd.Status }

func (c constNode) Status(context.Context, [32]byte) (ccd.Status, error) { return c.st, nil }
