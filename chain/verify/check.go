package verify

import (
	"context"
	"crypto/ed25519"
	"encoding/hex"
	"fmt"
	"sort"
	"strings"
	"time"

	"arena/chain/anchor"
	"arena/chain/ccd"
	"arena/games"
)

// Node is what Check asks of a Concordium node: a transaction's status and, once in a block,
// its DataRegistered bytes. *ccd.Client meets it.
type Node interface {
	Status(ctx context.Context, tx [32]byte) (ccd.Status, error)
}

// Follow finds where the registration of data (the 50 anchor bytes) landed when the
// transaction the transcript names is unknown to the node: the chain actor re-signed it under
// another hash (actors/anchors.Lookup over the arena's bbolt file). ok false: not known.
type Follow func(ctx context.Context, data []byte) (tx [32]byte, ok bool, err error)

// Options configure Check.
type Options struct {
	// Node is the chain; nil checks the transcript alone (every anchor line then says so and
	// fails: nothing was compared on chain).
	Node Node
	// Follow, optional, follows a re-signed transaction (see Follow).
	Follow Follow
	// Wait is how long Check waits for a transaction to be finalized (0: 30 s). A transaction
	// in a block but not yet final after Wait is compared as committed and the line says so.
	Wait time.Duration
	// Keys are signing keys by agent id, for the commitment signatures (§7.3). A payer with no
	// key here has its signature's form checked, not its validity.
	Keys map[string]ed25519.PublicKey
	// Game is the round's engine (the Blitz engine for a DOTDOTDOT round). Check asks it, through
	// the games contract, for what only the game knows: the anchors the round had to request
	// (games.AnchorPlanner), the commitment its reveal opens (games.Opener), and its own checks
	// (games.Verifier, Blitz's sealed commitments). Nil, or an engine without a planner or an
	// opener, fails the anchors or the open-round anchor line: nothing rebuilds them.
	Game games.Engine
	// Log, optional, is the round's input log (the arena's store holds it): Check replays it
	// (games.Replay) and compares the replayed transcript with t's, event for event.
	Log *Log
	// Now is the checker's clock, for a replay's seq (a showing cannot have started in the
	// future); nil: time.Now.
	Now func() time.Time
}

// Log is a round's input log for a replay: the engine that plays it, the Setup it was made from,
// the keys its seats signed with, and every logged input in order.
type Log struct {
	Engine games.Engine
	Setup  games.Setup
	Keys   games.Keyring
	Inputs []games.Logged
}

// Line is one check: OK or not, its name ("anchor #3 exchange", "commitment ...", "events",
// "open-round anchor") and what was compared. Pos is the index of the transcript event the
// check is about (the last event a hash covers), which orders the report.
type Line struct {
	Pos   int
	OK    bool
	Check string
	What  string
}

// String is the printed line: "ok   <check>: <what>" or "FAIL <check>: <what>".
func (l Line) String() string {
	tag := "ok  "
	if !l.OK {
		tag = "FAIL"
	}
	return tag + " " + l.Check + ": " + l.What
}

// Report is every check, in transcript order.
type Report struct {
	Round string
	Lines []Line
}

// Failed is the number of FAIL lines.
func (r Report) Failed() int {
	n := 0
	for _, l := range r.Lines {
		if !l.OK {
			n++
		}
	}
	return n
}

// FirstFail is the first FAIL line in transcript order, and false if none.
func (r Report) FirstFail() (Line, bool) {
	for _, l := range r.Lines {
		if !l.OK {
			return l, true
		}
	}
	return Line{}, false
}

// Check runs every check on t (§5.5, §11.4, §11.5) and returns the lines in transcript order.
// The checks: the events are numbered 1..n and all of t's round; the commitment the reveal
// opens recomputes (games.Opener; Blitz's open-round anchor) to the reveal's statement and to
// the one announced before play; the game's own checks pass (games.Verifier; Blitz: every
// sealed commitment's id is the SHA-256 of its canonical bytes, its terms agree with the public
// record, its signature verifies where a key is known); every anchor the game's plan says the
// arena had to request (games.AnchorPlanner) was recorded with the rebuilt kind, seq and hash,
// and the transaction it names holds, on chain, 50 bytes that decode to that kind, the round's
// number, that seq and that hash; and every replay anchor t lists (a showing of the recorded
// round, checkReplays) carries the recorded transcript's hash, the round and a plausible start,
// and is on chain as such.
func Check(ctx context.Context, t Transcript, o Options) Report {
	if o.Wait <= 0 {
		o.Wait = 30 * time.Second
	}
	r := Report{Round: t.Round}
	add := func(pos int, ok bool, check, format string, a ...any) {
		r.Lines = append(r.Lines, Line{Pos: pos, OK: ok, Check: check, What: fmt.Sprintf(format, a...)})
	}
	n, err := anchor.ParseRound(t.Round)
	if err != nil {
		add(0, false, "round", "%v", err)
		return r
	}
	cs := canonical(t.Events)
	checkNumbering(t, cs, add)
	planner, _ := o.Game.(games.AnchorPlanner)
	switch {
	case o.Game == nil:
		add(0, false, "anchors", "no game given that plans the round's anchors (Options.Game)")
	case planner == nil:
		add(0, false, "anchors", "game %s plans no anchors (it is no games.AnchorPlanner)", o.Game.Manifest().ID)
	}
	exp, recs := plan(t.Events, cs, planner)
	opener, _ := o.Game.(games.Opener)
	var rev revealed
	if o.Game != nil && opener == nil {
		add(len(t.Events), false, "open-round anchor", "game %s opens no commitment at its reveal (it is no games.Opener)", o.Game.Manifest().ID)
	} else {
		rev = checkReveal(t, opener, add)
	}
	if o.Log != nil {
		checkReplay(t, cs, *o.Log, add)
	}
	if len(exp) > 0 && exp[0].kind == anchor.Opened {
		if rev.ok {
			exp[0].hash, exp[0].known = rev.open, true
		} else {
			exp[0].missing = "no reveal to recompute it from"
		}
	}
	if v, ok := o.Game.(games.Verifier); ok {
		for _, f := range v.Verify(t.Round, gameEvents(t.Events), o.Keys) {
			add(f.Pos, f.OK, f.Check, "%s", f.What)
		}
	}

	bySeq := map[uint32][]recorded{}
	for _, rc := range recs {
		bySeq[rc.seq] = append(bySeq[rc.seq], rc)
	}
	for _, e := range exp {
		name := fmt.Sprintf("anchor #%d %s", e.seq, e.kind)
		got := bySeq[e.seq]
		delete(bySeq, e.seq)
		switch {
		case len(got) == 0 && e.kind == anchor.Commitment:
			// §5.5: an arena MAY anchor exchanges only.
			add(e.pos, true, name, "%s: not anchored (an arena MAY anchor exchanges only, §5.5)", e.what)
			continue
		case len(got) == 0:
			add(e.pos, false, name, "%s: no %s event with seq %d in the transcript", e.what, eventType(e.kind), e.seq)
			continue
		case len(got) > 1:
			add(got[1].pos, false, name, "recorded %d times (events %d and %d)", len(got), got[0].pos+1, got[1].pos+1)
			continue
		}
		checkAnchor(ctx, o, n, e, got[0], add, name)
	}
	var extra []uint32
	for s := range bySeq {
		extra = append(extra, s)
	}
	sort.Slice(extra, func(i, j int) bool { return extra[i] < extra[j] })
	for _, s := range extra {
		rc := bySeq[s][0]
		add(rc.pos, false, fmt.Sprintf("anchor #%d %s", s, rc.kind), "event %d records an anchor the round never requested (%d were)", rc.pos+1, len(exp))
	}
	checkReplays(ctx, t, cs, n, o, add)
	sort.SliceStable(r.Lines, func(i, j int) bool { return r.Lines[i].Pos < r.Lines[j].Pos })
	return r
}

// checkAnchor compares one recorded anchor with the rebuilt one, then with the chain.
func checkAnchor(ctx context.Context, o Options, round uint64, e *expected, rc recorded, add func(int, bool, string, string, ...any), name string) {
	if e.missing != "" {
		add(e.pos, false, name, "%s: the hash cannot be rebuilt: %s", e.what, e.missing)
		return
	}
	want := e.hash
	if e.alt != nil { // a turn anchor: the recorded hash must be one of the settle's prefixes
		h, ok := parseID(rc.hash)
		if _, in := e.alt[h]; !ok || !in {
			add(e.pos, false, name, "%s: event %d records hash %s, which is no prefix hash ending in that settle", e.what, rc.pos+1, short(rc.hash))
			return
		}
		want = h
		e.what = fmt.Sprintf("events 1–%d (%s)", e.alt[h]+1, e.within)
	}
	wantHex := hex.EncodeToString(want[:])
	switch {
	case rc.kind != e.kind.String():
		add(e.pos, false, name, "%s: event %d records kind %q, want %q", e.what, rc.pos+1, rc.kind, e.kind)
		return
	case rc.hash != wantHex:
		add(e.pos, false, name, "%s: event %d records hash %s, recomputed %s", e.what, rc.pos+1, short(rc.hash), short(wantHex))
		return
	}
	var tx [32]byte
	if b, err := hex.DecodeString(rc.tx); err != nil || len(b) != 32 {
		add(e.pos, false, name, "%s: event %d names no transaction hash (%q)", e.what, rc.pos+1, rc.tx)
		return
	} else {
		copy(tx[:], b)
	}
	if o.Node == nil {
		add(e.pos, false, name, "%s: tx %s not fetched (no chain node)", e.what, short(rc.tx))
		return
	}
	data, _ := anchor.Anchor{Kind: e.kind, Round: round, Seq: e.seq, Hash: want}.Encode()
	st, via, err := fetch(ctx, o, tx, data)
	if err != nil {
		add(e.pos, false, name, "%s: tx %s: %v", e.what, short(rc.tx), err)
		return
	}
	if !st.Registered {
		add(e.pos, false, name, "%s: tx %s%s is %s, not a registered datum (rejected %v %s)", e.what, short(rc.tx), via, st.State, st.Rejected, st.Reason)
		return
	}
	a, err := anchor.Decode(st.Data)
	if err != nil {
		add(e.pos, false, name, "%s: tx %s%s registered %x: %v", e.what, short(rc.tx), via, st.Data, err)
		return
	}
	var diff []string
	if a.Kind != e.kind {
		diff = append(diff, fmt.Sprintf("kind %s, want %s", a.Kind, e.kind))
	}
	if a.Round != round {
		diff = append(diff, fmt.Sprintf("round %d, want %d", a.Round, round))
	}
	if a.Seq != e.seq {
		diff = append(diff, fmt.Sprintf("seq %d, want %d", a.Seq, e.seq))
	}
	if a.Hash != want {
		diff = append(diff, fmt.Sprintf("hash %s, want %s", short(hex.EncodeToString(a.Hash[:])), short(wantHex)))
	}
	if rc.seq != e.seq {
		diff = append(diff, fmt.Sprintf("event %d records seq %d", rc.pos+1, rc.seq))
	}
	if len(diff) > 0 {
		add(e.pos, false, name, "%s: tx %s%s on chain: %s", e.what, short(rc.tx), via, strings.Join(diff, "; "))
		return
	}
	fin := ""
	if st.State != ccd.Finalized {
		fin = " (" + st.State.String() + ", not yet final)"
	}
	add(e.pos, true, name, "%s: tx %s%s%s holds kind %s, round %d, seq %d, hash %s", e.what, short(rc.tx), via, fin, a.Kind, a.Round, a.Seq, short(wantHex))
}

// fetch waits up to o.Wait for tx to be finalized; a tx the node does not know is followed
// through o.Follow to its re-signed replacement. via names the replacement for the line.
func fetch(ctx context.Context, o Options, tx [32]byte, data []byte) (st ccd.Status, via string, err error) {
	ctx, cancel := context.WithTimeout(ctx, o.Wait)
	defer cancel()
	followed := false
	for {
		st, err = o.Node.Status(ctx, tx)
		if err != nil {
			if ctx.Err() != nil && st.State != ccd.Absent {
				return st, via, nil
			}
			return st, via, err
		}
		if st.State == ccd.Absent && !followed && o.Follow != nil {
			followed = true
			if nt, ok, ferr := o.Follow(ctx, data); ferr == nil && ok && nt != tx {
				tx, via = nt, " (re-signed as "+short(hex.EncodeToString(nt[:]))+")"
				continue
			}
		}
		if st.State == ccd.Finalized {
			return st, via, nil
		}
		select {
		case <-ctx.Done():
			if st.State == ccd.Committed {
				return st, via, nil
			}
			return st, via, fmt.Errorf("%s on the node after %v", st.State, o.Wait)
		case <-time.After(100 * time.Millisecond):
		}
	}
}

// checkNumbering: events numbered 1..n in order, all of the transcript's round, every one
// canonicalizable (the hashes run over JCS). One line: ok, or the first offending event.
func checkNumbering(t Transcript, cs [][]byte, add func(int, bool, string, string, ...any)) {
	for i, e := range t.Events {
		switch {
		case e.Seq != int64(i+1):
			add(i, false, "events", "event %d (%s) has seq %d, want %d", i+1, e.Type, e.Seq, i+1)
			return
		case e.Round != t.Round:
			add(i, false, "events", "event %d (%s) is of round %q, the transcript of %q", i+1, e.Type, e.Round, t.Round)
			return
		case cs[i] == nil:
			add(i, false, "events", "event %d (%s) has no canonical form (JCS)", i+1, e.Type)
			return
		}
	}
	add(0, true, "events", "%d events of %s, numbered 1–%d", len(t.Events), t.Round, len(t.Events))
}

// eventType is the transcript event that records an anchor of kind k: anchor.<kind>, but
// transcript.anchored for the final transcript hash (§15).
func eventType(k anchor.Kind) string {
	if k == anchor.Transcript {
		return "transcript.anchored"
	}
	return "anchor." + k.String()
}
