package main

import (
	"context"
	"crypto/ed25519"
	"encoding/hex"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"time"

	"arena/actors/anchors"
	"arena/chain/ccd"
	"arena/chain/devchain"
	"arena/chain/verify"
	"arena/config"
	"arena/games"
	"arena/games/canon"
	"arena/storage"
)

var anchorCheckCommand = command{
	summary: "check a revealed round's anchors on chain: anchor-check [--node HOST:PORT] TRANSCRIPT",
	run: func(ctx context.Context, args []string) int {
		return anchorCheckMain(ctx, args, os.Getenv, os.Stdout, os.Stderr)
	},
}

const anchorCheckUsage = `usage: arena anchor-check [--node HOST:PORT] [--tls] [--data DIR] [--keys FILE] [--wait D] [--game ID] TRANSCRIPT

Checks a revealed round against the chain (§5.5, §11.4, §11.5). TRANSCRIPT is a file holding
the body of GET /v1/rounds/{round}/transcript, or that URL on a running server. For every anchor
the round had to register (opened, exchange, commitment, turn, transcript) it rebuilds the kind,
seq and hash from the events, compares them with the anchor.<kind> event, fetches the named
transaction from the node, decodes its 50 DataRegistered bytes and compares all four fields.
It recomputes the open-round anchor from the revealed salts and every sealed commitment's id
from its canonical bytes. Every replay anchor the body lists ("replays": a showing of the
recorded round, registered when it started) must carry the recorded transcript's hash (the
events up to the reveal), the round's number and, as seq, a Unix second after the reveal, and
its transaction must hold exactly that on chain. The checks are the round's game's (its engine in the bracket arena
serve hosts: the game the transcript's first event names in its payload's "game", or --game).
One line per check ("ok" or "FAIL"), then a summary line.

  --node HOST:PORT  the Concordium node's gRPC API (env ARENA_CHAIN_NODE; for a URL, else the
                    "chain_node" member of the server's /healthz when it has one; else, with
                    --data, the data dir's embedded devchain, run for the check)
  --tls             dial the node with TLS
  --data DIR        the arena's data dir (the server stopped, or a copy): a transaction the node
                    does not know is followed to its re-signed replacement through DIR/arena.db
                    (opened read-only); with no node given, DIR/devchain is the chain
  --keys FILE       JSON {"<agent id>": "ed25519:<hex>"}: verify those payers' commitment sigs
  --wait D          how long to wait for each transaction to be finalized (default 30s)
  --game ID         the round's game (a hosted game's id: blitz, warden.dilemma, ...), for a
                    transcript whose first event does not name it

Exit 0 when every check passed, 1 on any FAIL, 2 when the transcript or node could not be read.
`

// anchorCheckMain is `arena anchor-check`; getenv, stdout and stderr are injected for tests.
func anchorCheckMain(ctx context.Context, args []string, getenv func(string) string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("arena anchor-check", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	node := fs.String("node", "", "")
	useTLS := fs.Bool("tls", false, "")
	data := fs.String("data", "", "")
	keysFile := fs.String("keys", "", "")
	wait := fs.Duration("wait", 30*time.Second, "")
	game := fs.String("game", "", "")
	pos, err := parseInterspersed(fs, args) // flags before or after the transcript
	if err != nil {
		if errors.Is(err, flag.ErrHelp) {
			fmt.Fprint(stdout, anchorCheckUsage)
			return 0
		}
		fmt.Fprintf(stderr, "arena anchor-check: %v\n%s", err, anchorCheckUsage)
		return 2
	}
	if len(pos) != 1 {
		fmt.Fprint(stderr, "arena anchor-check: want one TRANSCRIPT (a file or a URL)\n"+anchorCheckUsage)
		return 2
	}
	src := pos[0]
	raw, err := readTranscript(ctx, src)
	if err != nil {
		fmt.Fprintf(stderr, "arena anchor-check: %v\n", err)
		return 2
	}
	t, err := verify.Parse(raw)
	if err != nil {
		fmt.Fprintf(stderr, "arena anchor-check: %v\n", err)
		return 2
	}
	bracket, err := newBracket()
	if err != nil {
		fmt.Fprintf(stderr, "arena anchor-check: %v\n", err)
		return 2
	}
	eng, err := engineFor(bracket, t, *game)
	if err != nil {
		fmt.Fprintf(stderr, "arena anchor-check: %v\n", err)
		return 2
	}
	opts := verify.Options{Wait: *wait, Game: eng}
	if *keysFile != "" {
		if opts.Keys, err = readKeys(*keysFile); err != nil {
			fmt.Fprintf(stderr, "arena anchor-check: %v\n", err)
			return 2
		}
	}
	addr := *node
	if addr == "" {
		addr = config.ClientEnv(getenv).ChainNode
	}
	if addr == "" && isURL(src) {
		addr = healthzNode(ctx, src)
	}
	if addr == "" && *data != "" {
		// The data dir's embedded devchain, run here: the server must be stopped (its lock).
		dir := filepath.Join(*data, "devchain")
		if _, err := os.Stat(filepath.Join(dir, "devchain.db")); err == nil {
			n, err := devchain.Start(ctx, devchain.Options{Dir: dir})
			if err != nil {
				fmt.Fprintf(stderr, "arena anchor-check: start the devchain of %s (is the server still running? give --node): %v\n", *data, err)
				return 2
			}
			defer n.Stop()
			addr = n.Addr()
		}
	}
	if addr == "" {
		fmt.Fprint(stderr, "arena anchor-check: no chain node: give --node HOST:PORT (arena serve prints \"arena: chain node HOST:PORT\" at start), or --data DIR of a stopped server\n")
		return 2
	}
	c, err := ccd.Dial(ctx, addr, *useTLS)
	if err != nil {
		fmt.Fprintf(stderr, "arena anchor-check: dial %s: %v\n", addr, err)
		return 2
	}
	defer c.Close()
	// The dial is lazy: ask the node once, so an unreachable node is one error, not a FAIL
	// per anchor.
	pctx, pcancel := context.WithTimeout(ctx, 10*time.Second)
	_, err = c.Network(pctx)
	pcancel()
	if err != nil {
		fmt.Fprintf(stderr, "arena anchor-check: the node at %s does not answer: %v\n", addr, err)
		return 2
	}
	opts.Node = c
	if *data != "" {
		db, err := storage.Open(filepath.Join(*data, "arena.db"), storage.Options{ReadOnly: true})
		if err != nil {
			fmt.Fprintf(stderr, "arena anchor-check: --data: open %s read-only (is the server still running?): %v\n", filepath.Join(*data, "arena.db"), err)
			return 2
		}
		defer db.Close()
		opts.Follow = followIn(db)
	}
	rep := verify.Check(ctx, t, opts)
	for _, l := range rep.Lines {
		fmt.Fprintln(stdout, l.String())
	}
	if n := rep.Failed(); n > 0 {
		fmt.Fprintf(stdout, "anchor-check %s: %d of %d checks FAILED\n", rep.Round, n, len(rep.Lines))
		return 1
	}
	fmt.Fprintf(stdout, "anchor-check %s: all %d checks passed (node %s)\n", rep.Round, len(rep.Lines), addr)
	return 0
}

// engineFor is the engine anchor-check checks t with: the bracket's engine of game when it is
// set (--game), else of the game t's first event names (its payload's "game" member: Blitz's
// round.created, Game II's match_started). Errors: a game the bracket does not host (naming the
// hosted ones), a transcript that names none.
func engineFor(b *games.Bracket, t verify.Transcript, game string) (games.Engine, error) {
	hosted := func() string {
		var ids []string
		for _, m := range b.Manifests() {
			ids = append(ids, m.ID)
		}
		return strings.Join(ids, ", ")
	}
	if game != "" {
		e, ok := b.Engine(game)
		if !ok {
			return nil, fmt.Errorf("--game %q: this arena hosts %s", game, hosted())
		}
		return e, nil
	}
	var first struct {
		Game string `json:"game"`
	}
	if len(t.Events) > 0 {
		_ = json.Unmarshal(t.Events[0].Payload, &first) // a payload that is not an object names no game
	}
	if first.Game == "" {
		return nil, fmt.Errorf("round %s: the transcript's first event names no game (payload \"game\"): give --game (one of %s)", t.Round, hosted())
	}
	e, ok := b.Engine(first.Game)
	if !ok {
		return nil, fmt.Errorf("round %s names game %q, which this arena does not host (%s)", t.Round, first.Game, hosted())
	}
	return e, nil
}

// followIn follows a re-signed anchor through the chain actor's index in st (anchors.Lookup).
func followIn(st *storage.Store) verify.Follow {
	return func(_ context.Context, data []byte) ([32]byte, bool, error) {
		var tx [32]byte
		l, ok, err := anchors.Lookup(st, data)
		if err != nil || !ok {
			return tx, false, err
		}
		b, err := hex.DecodeString(l.Tx)
		if err != nil || len(b) != 32 {
			return tx, false, fmt.Errorf("chain index: tx %q is not a hash", l.Tx)
		}
		copy(tx[:], b)
		return tx, true, nil
	}
}

func isURL(s string) bool { return strings.HasPrefix(s, "http://") || strings.HasPrefix(s, "https://") }

// readTranscript reads a file, or GETs a URL (at most 64 MiB, 30 s).
func readTranscript(ctx context.Context, src string) ([]byte, error) {
	if !isURL(src) {
		return os.ReadFile(src)
	}
	ctx, cancel := context.WithTimeout(ctx, 30*time.Second)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, src, nil)
	if err != nil {
		return nil, err
	}
	r, err := linkClient.Do(req)
	if err != nil {
		return nil, err
	}
	defer r.Body.Close()
	b, err := io.ReadAll(io.LimitReader(r.Body, 64<<20))
	if err != nil {
		return nil, err
	}
	if r.StatusCode != http.StatusOK {
		return nil, fmt.Errorf("GET %s: %d %.200s", src, r.StatusCode, b)
	}
	return b, nil
}

// healthzNode asks the server of a transcript URL for its chain node: the "chain_node" member
// of /healthz, "" when the server does not report one.
func healthzNode(ctx context.Context, src string) string {
	u, err := url.Parse(src)
	if err != nil {
		return ""
	}
	u.Path, u.RawQuery = "/healthz", ""
	ctx, cancel := context.WithTimeout(ctx, 5*time.Second)
	defer cancel()
	req, _ := http.NewRequestWithContext(ctx, http.MethodGet, u.String(), nil)
	r, err := linkClient.Do(req)
	if err != nil {
		return ""
	}
	defer r.Body.Close()
	var h struct {
		ChainNode string `json:"chain_node"`
	}
	_ = json.NewDecoder(io.LimitReader(r.Body, 1<<16)).Decode(&h)
	return h.ChainNode
}

// readKeys reads {"<agent id>": "ed25519:<64 hex>"}.
func readKeys(path string) (map[string]ed25519.PublicKey, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var m map[string]string
	if err := json.Unmarshal(b, &m); err != nil {
		return nil, fmt.Errorf("--keys %s: %w", path, err)
	}
	out := make(map[string]ed25519.PublicKey, len(m))
	for agent, k := range m {
		pub, err := canon.ParseKey(k)
		if err != nil {
			return nil, fmt.Errorf("--keys %s: %s: %w", path, agent, err)
		}
		out[agent] = pub
	}
	return out, nil
}
