// Package gametest is the conformance suite every engine runs (a test of its own package calls
// Run with a Case). It plays whole matches through the games contract only and checks what the
// contract promises of every game:
//
//   - determinism: the same Setup and inputs at the same instants give the same transcript,
//     prompts and views, byte for byte;
//   - replay: games.Replay of the match's input log gives the live match's events, views and
//     Result;
//   - a refused input changes nothing: a twin that never saw it plays on to the same bytes;
//   - secrecy: no value the Case names secret in a non-public line shows in a public event, in
//     the spectator's view, or in the view or prompts of a seat the line is not shown to, before
//     its reveal;
//   - numbering: every event's Round is Setup.Round and the Seqs run 1, 2, 3, … with no gap or
//     repeat, played out or abandoned;
//   - abandon: Abandon ends the match at once, returns every stake and refuses what follows, and
//     (a games.Narrator) its public transcript ends in words at an EndAbandoned event;
//   - money (Case.Stakes): Σ Payouts + House = Σ Entry, a seat's Pool within its payout,
//     standings rank every seat, ties share;
//   - no input panics the match (a seeded stream of hostile inputs here, and Fuzz for go test -fuzz);
//   - words (an engine that is a games.Narrator or games.Describer): every public event has a
//     line, a played-out match's public transcript has a Final event and a reveal card only from
//     it on, every prompt lists its answers, the Result has words, and no payload panics them.
//
// It uses package testing and nothing impure beyond it; the matches it plays are pure.
package gametest

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
	"time"

	"arena/games"
)

// Case is one engine under test.
type Case struct {
	Engine games.Engine
	Setup  games.Setup   // a valid Setup (Start, Seed, Seats set)
	Keys   games.Keyring // the seats' keys, or nil for a game that signs nothing
	// Answer is a legal body for prompt p, drawn from rnd; nil to leave the move unanswered.
	// Nil Answer uses the engine's house policy (games.HousePlayer).
	Answer func(p games.Prompt, rnd *rand.Rand) json.RawMessage
	// Secrets are the values a non-public event hides (a private line's text, a sealed choice),
	// each as it would appear in JSON and nowhere in public by chance before the end.
	Secrets func(e games.Event) []string
	// Relayed names the seats a non-public event's secrets reach before the reveal although its
	// Visibility does not show them the event (Blitz: a private message is sealed in the
	// transcript, §15, and relayed to its sender and addressee, §6). Nil: none beyond Visibility.
	Relayed func(e games.Event) []int
	// Reveal is the type of the event that reveals the secrets (Blitz round.revealed, Game II
	// choices_revealed); secrecy is checked up to it. Empty: up to the match's end.
	Reveal string
	// Stakes says the game moves money: the Result conserves the seats' entries.
	Stakes bool
	// Seeds are the seeds matches are played with (default: three).
	Seeds [][32]byte
}

// record is one match played through: every step's bytes and the input log.
type record struct {
	m     games.Match
	trace []byte // events and prompts of every step, as JSON, in order
	evs   []games.Event
	log   []games.Logged
}

func (c *Case) seeds() [][32]byte {
	if len(c.Seeds) > 0 {
		return c.Seeds
	}
	var out [][32]byte
	for i := range 3 {
		var s [32]byte
		s[0], s[31] = byte(i+1), 0xa5
		out = append(out, s)
	}
	return out
}

func (c *Case) setup(seed [32]byte) games.Setup {
	s := c.Setup
	s.Seed = seed
	return s
}

func (c *Case) answer(p games.Prompt, rnd *rand.Rand) json.RawMessage {
	if c.Answer != nil {
		return c.Answer(p, rnd)
	}
	if h, ok := c.Engine.(games.HousePlayer); ok {
		return h.HouseAnswer(p, rnd.Uint64())
	}
	return nil
}

// maxSteps bounds a match: a game that never ends fails rather than hangs.
const maxSteps = 100_000

// play plays a match of seed to its end: at each deadline Advance, then an answer to each open
// prompt (seeded by the seed), a millisecond later. hostile, when set, is called before each
// answer with the match and the instant: it may send inputs that must be refused, and must
// leave the match as it was.
func (c *Case) play(t testing.TB, seed [32]byte, hostile func(m games.Match, at time.Time)) record {
	t.Helper()
	s := c.setup(seed)
	m, err := c.Engine.New(s, c.Keys)
	if err != nil {
		t.Fatalf("New: %v", err)
	}
	rnd := rand.New(rand.NewPCG(uint64(seed[0]), uint64(seed[31])))
	r := record{m: m}
	add := func(l games.Logged, st games.Step) {
		r.log = append(r.log, l)
		r.evs = append(r.evs, st.Events...)
		r.trace = appendStep(t, r.trace, st)
	}
	for n := 0; ; n++ {
		if n > maxSteps {
			t.Fatalf("seed %x: no end after %d deadlines", seed[:2], maxSteps)
		}
		dl, ok := m.Deadline()
		if !ok {
			return r
		}
		add(games.Logged{Op: games.OpAdvance, At: dl}, m.Advance(dl))
		at := dl.Add(time.Millisecond)
		for _, p := range m.Prompts() {
			if hostile != nil {
				hostile(m, at)
			}
			body := c.answer(p, rnd)
			if body == nil {
				continue
			}
			in := games.Input{Seat: p.Seat, Kind: "answer", Move: p.Move, Body: body}
			st, err := m.Act(at, in)
			if err != nil {
				continue // a policy's answer may be refused (its move closed early): nothing changed
			}
			add(games.Logged{Op: games.OpAct, At: at, Input: in}, st)
		}
	}
}

func appendStep(t testing.TB, b []byte, st games.Step) []byte {
	t.Helper()
	ev, err := json.Marshal(st.Events)
	if err != nil {
		t.Fatalf("events do not marshal: %v", err)
	}
	b = append(append(b, ev...), '\n')
	for _, p := range st.Prompts {
		b = fmt.Appendf(b, "%d %d/%s/%d/%d %s %v ", p.Seat, p.Move.Turn, p.Move.Phase, p.Move.Exchange,
			p.Move.StateID, p.Deadline.UTC().Format(time.RFC3339Nano), games.Names(p.Legal))
		b = append(append(b, p.State.Bytes()...), '\n')
	}
	return b
}

// views is every viewer's View (spectator and each seat), as bytes.
func (c *Case) views(m games.Match) []byte {
	var b []byte
	for v := 0; v <= len(c.Setup.Seats); v++ {
		b = fmt.Appendf(b, "view %d: ", v)
		b = append(append(b, m.View(v).Bytes()...), '\n')
	}
	return b
}

// Run runs the whole suite on c.
func Run(t *testing.T, c Case) {
	t.Run("Determinism", func(t *testing.T) { Determinism(t, c) })
	t.Run("Replay", func(t *testing.T) { Replay(t, c) })
	t.Run("RefusedChangesNothing", func(t *testing.T) { RefusedChangesNothing(t, c) })
	t.Run("Secrecy", func(t *testing.T) { Secrecy(t, c) })
	t.Run("Numbering", func(t *testing.T) { Numbering(t, c) })
	t.Run("Abandon", func(t *testing.T) { Abandon(t, c) })
	t.Run("Hostile", func(t *testing.T) { Hostile(t, c) })
	t.Run("Words", func(t *testing.T) { Words(t, c) })
}

// Determinism: two plays of each seed give the same bytes, and the seeds' transcripts differ.
func Determinism(t testing.TB, c Case) {
	var first []byte
	for i, seed := range c.seeds() {
		a, b := c.play(t, seed, nil), c.play(t, seed, nil)
		if len(a.evs) == 0 {
			t.Fatalf("seed %d: the match made no events", i)
		}
		if !bytes.Equal(a.trace, b.trace) || !bytes.Equal(c.views(a.m), c.views(b.m)) {
			t.Fatalf("seed %d: two plays of the same inputs differ", i)
		}
		ra, oka := a.m.Result()
		rb, okb := b.m.Result()
		if !oka || !okb {
			t.Fatalf("seed %d: no result at the end", i)
		}
		ja, _ := json.Marshal(ra)
		jb, _ := json.Marshal(rb)
		if !bytes.Equal(ja, jb) {
			t.Fatalf("seed %d: results differ:\n%s\n%s", i, ja, jb)
		}
		c.checkResult(t, ra)
		if i == 0 {
			first = a.trace
		} else if bytes.Equal(first, a.trace) && len(c.seeds()) > 1 {
			t.Logf("seed %d plays the same as seed 0", i)
		}
	}
}

// checkResult holds a finished match's Result to the contract.
func (c *Case) checkResult(t testing.TB, r games.Result) {
	t.Helper()
	seats := map[int]bool{}
	for i, s := range r.Standings {
		seats[s.Seat] = true
		switch {
		case i == 0 && s.Rank != 1:
			t.Fatalf("standings %v: the first rank is not 1", r.Standings)
		case i > 0 && s.Score > r.Standings[i-1].Score:
			t.Fatalf("standings %v: not best first", r.Standings)
		case i > 0 && s.Score == r.Standings[i-1].Score && s.Rank != r.Standings[i-1].Rank:
			t.Fatalf("standings %v: equal scores, different ranks", r.Standings)
		case i > 0 && s.Score < r.Standings[i-1].Score && s.Rank != i+1:
			t.Fatalf("standings %v: rank %d at place %d", r.Standings, s.Rank, i+1)
		}
	}
	if len(seats) != len(c.Setup.Seats) {
		t.Fatalf("standings %v: %d seats ranked of %d", r.Standings, len(seats), len(c.Setup.Seats))
	}
	if r.Seed == "" || r.SeedHash == "" {
		t.Fatalf("result without its seed or seed hash: %+v", r)
	}
	if c.Stakes {
		var stakes, paid int64
		for _, s := range c.Setup.Seats {
			stakes += s.Entry
		}
		for _, p := range r.Payouts {
			paid += p
		}
		if paid+r.House != stakes || r.Unit == "" {
			t.Fatalf("payouts %v + house %d = %d, stakes %d (unit %q)", r.Payouts, r.House, paid+r.House, stakes, r.Unit)
		}
	}
	for seat, amt := range r.Pool {
		if p, ok := r.Payouts[seat]; !ok || amt <= 0 || amt > p {
			t.Fatalf("pool %v: seat %d's %d is not a part of its payout %d", r.Pool, seat, amt, p)
		}
	}
}

// Replay: games.Replay of each play's input log gives its events, views and Result exactly.
func Replay(t testing.TB, c Case) {
	for i, seed := range c.seeds() {
		live := c.play(t, seed, nil)
		m, evs, err := games.Replay(c.Engine, c.setup(seed), c.Keys, live.log)
		if err != nil {
			t.Fatalf("seed %d: replay: %v", i, err)
		}
		a, _ := json.Marshal(live.evs)
		b, _ := json.Marshal(evs)
		if !bytes.Equal(a, b) {
			t.Fatalf("seed %d: the replay's %d events are not the live match's %d", i, len(evs), len(live.evs))
		}
		if !bytes.Equal(c.views(live.m), c.views(m)) {
			t.Fatalf("seed %d: the replayed match's views differ", i)
		}
		ra, _ := live.m.Result()
		rb, ok := m.Result()
		ja, _ := json.Marshal(ra)
		jb, _ := json.Marshal(rb)
		if !ok || !bytes.Equal(ja, jb) {
			t.Fatalf("seed %d: the replayed result differs", i)
		}
		// The log as a store keeps it replays the same.
		head, _ := json.Marshal(games.LogHead{V: 1, Setup: c.setup(seed)})
		var entries [][]byte
		for _, l := range live.log {
			b, err := json.Marshal(l)
			if err != nil {
				t.Fatal(err)
			}
			entries = append(entries, b)
		}
		m2, err := games.ReplayLog(c.Engine, head, entries, c.Keys)
		if err != nil || !bytes.Equal(c.views(live.m), c.views(m2)) {
			t.Fatalf("seed %d: the encoded log does not replay to the same match: %v", i, err)
		}
		// Replayed to any point, the match then plays on as the live one did.
		cut := len(live.log) / 2
		mid, _, err := games.Replay(c.Engine, c.setup(seed), c.Keys, live.log[:cut])
		if err != nil {
			t.Fatal(err)
		}
		var rest []games.Event
		for _, l := range live.log[cut:] {
			st, err := games.Apply(mid, l)
			if err != nil {
				t.Fatalf("seed %d: input %d refused after a replay to %d: %v", i, cut, cut, err)
			}
			rest = append(rest, st.Events...)
		}
		_, head2, _ := games.Replay(c.Engine, c.setup(seed), c.Keys, live.log[:cut])
		all, _ := json.Marshal(append(head2, rest...))
		if !bytes.Equal(a, all) {
			t.Fatalf("seed %d: replayed to input %d and played on, the transcript differs", i, cut)
		}
	}
}

// hostileInputs are inputs no game accepts at any point: no seat, an unknown kind, a stale move,
// bodies that are not JSON.
func (c *Case) hostileInputs(m games.Match, rnd *rand.Rand) []games.Input {
	n := len(c.Setup.Seats)
	var open games.Move
	if ps := m.Prompts(); len(ps) > 0 {
		open = ps[rnd.IntN(len(ps))].Move
	}
	bodies := []string{`{`, `[1,`, `{"a":`, `"` + strings.Repeat("a", 300), `{"action":"x"}}`, "\xff"} // not JSON
	return []games.Input{
		{Seat: 0, Kind: "answer", Move: open, Body: json.RawMessage(`{}`)},
		{Seat: n + 1 + rnd.IntN(5), Kind: "answer", Move: open, Body: json.RawMessage(`{}`)},
		{Seat: 1 + rnd.IntN(n), Kind: "answer", Move: games.Move{Turn: 999, Phase: "nope"}, Body: json.RawMessage(`{}`)},
		{Seat: 1 + rnd.IntN(n), Kind: "answer", Move: open, Body: json.RawMessage(bodies[rnd.IntN(len(bodies))])},
		{Seat: 1 + rnd.IntN(n), Kind: "no-such-kind", Move: open, Body: json.RawMessage(`{}`)},
	}
}

// RefusedChangesNothing: a play that is sent hostile inputs before every answer (each one must be
// refused, or be one the game takes) gives the same bytes as a play that never saw them, and the
// views just after a refusal are the views just before.
func RefusedChangesNothing(t testing.TB, c Case) {
	seed := c.seeds()[0]
	rnd := rand.New(rand.NewPCG(7, 11))
	refused := 0
	hostile := func(m games.Match, at time.Time) {
		for _, in := range c.hostileInputs(m, rnd) {
			before := c.views(m)
			st, err := m.Act(at, in)
			if err == nil {
				t.Fatalf("hostile input %+v (body %q) accepted: %d events", in, in.Body, len(st.Events))
			}
			if len(st.Events)+len(st.Prompts)+len(st.Anchors) > 0 {
				t.Fatalf("a refused input's step is not empty: %+v", st)
			}
			var ge *games.Error
			if !asError(err, &ge) || ge.Code == "" {
				t.Fatalf("refusal %v is not a *games.Error with a code", err)
			}
			if !bytes.Equal(before, c.views(m)) {
				t.Fatalf("refused input %+v changed a view", in)
			}
			refused++
		}
	}
	clean, dirty := c.play(t, seed, nil), c.play(t, seed, hostile)
	if refused == 0 {
		t.Fatal("no hostile input was sent")
	}
	if !bytes.Equal(clean.trace, dirty.trace) || !bytes.Equal(c.views(clean.m), c.views(dirty.m)) {
		t.Fatalf("%d refused inputs changed the match", refused)
	}
}

func asError(err error, target **games.Error) bool {
	for err != nil {
		if ge, ok := err.(*games.Error); ok {
			*target = ge
			return true
		}
		u, ok := err.(interface{ Unwrap() error })
		if !ok {
			return false
		}
		err = u.Unwrap()
	}
	return false
}

// secret is a value a non-public event hides, the event's visibility, and the seats it is
// relayed to besides (Case.Relayed).
type secret struct {
	val     string
	vis     games.Visibility
	relayed []int
}

// hiddenFrom says viewer (0: a spectator) may not hold s before the reveal.
func (s secret) hiddenFrom(viewer int) bool {
	return !s.vis.Shows(viewer, false) && !slices.Contains(s.relayed, viewer)
}

// Secrecy: before the reveal (Case.Reveal, else the match's end), no secret of a non-public
// event (Case.Secrets) shows in a public event, in the spectator's view, or in the view or a
// prompt (its state and inbox) of a seat the event is neither shown (Visibility.Shows) nor
// relayed to (Case.Relayed): games.Match.View, a seat never sees another seat's private or
// sealed value before its reveal.
func Secrecy(t testing.TB, c Case) {
	for i, seed := range c.seeds() {
		m, err := c.Engine.New(c.setup(seed), c.Keys)
		if err != nil {
			t.Fatal(err)
		}
		rnd := rand.New(rand.NewPCG(uint64(seed[0]), uint64(seed[31])))
		var secrets []secret
		revealed := false
		leaks := func(viewer int, where string, b []byte) {
			for _, sec := range secrets {
				if sec.val != "" && (viewer < 0 || sec.hiddenFrom(viewer)) && bytes.Contains(b, []byte(sec.val)) {
					t.Fatalf("seed %d: secret %s (%s) in %s before the reveal", i, sec.val, sec.vis, where)
				}
			}
		}
		check := func(st games.Step) {
			for _, e := range st.Events {
				switch {
				case revealed:
				case c.Reveal != "" && e.Type == c.Reveal:
					revealed = true
				case e.Visibility == games.Public:
					leaks(-1, "public event "+e.Type, e.Payload)
				case c.Secrets != nil:
					var relayed []int
					if c.Relayed != nil {
						relayed = c.Relayed(e)
					}
					for _, v := range c.Secrets(e) {
						secrets = append(secrets, secret{v, e.Visibility, relayed})
					}
				}
			}
			if _, done := m.Result(); done {
				revealed = true
			}
			if revealed {
				return
			}
			leaks(0, "the spectator's view", m.View(0).Bytes())
			for v := 1; v <= len(c.Setup.Seats); v++ {
				leaks(v, fmt.Sprintf("seat %d's view", v), m.View(v).Bytes())
			}
			for _, p := range st.Prompts {
				where := fmt.Sprintf("seat %d's prompt", p.Seat)
				leaks(p.Seat, where, p.State.Bytes())
				for _, in := range p.Inbox {
					leaks(p.Seat, where+"'s inbox", in)
				}
			}
		}
		for n := 0; n < maxSteps; n++ {
			dl, ok := m.Deadline()
			if !ok {
				break
			}
			check(m.Advance(dl))
			at := dl.Add(time.Millisecond)
			for _, p := range m.Prompts() {
				if body := c.answer(p, rnd); body != nil {
					if st, err := m.Act(at, games.Input{Seat: p.Seat, Kind: "answer", Move: p.Move, Body: body}); err == nil {
						check(st)
					}
				}
			}
		}
		if c.Secrets != nil && len(secrets) == 0 {
			t.Errorf("seed %d: the play hid no secret to look for", i)
		}
	}
}

// Numbering: every event of a match, played out or abandoned halfway, carries Round =
// Setup.Round and a Seq that runs 1, 2, 3, … in the order the steps made them, with no gap and
// no repeat (§15: the store keys a line by (round, seq), and chain/verify checks the same).
func Numbering(t testing.TB, c Case) {
	for i, seed := range c.seeds() {
		live := c.play(t, seed, nil)
		c.numbered(t, fmt.Sprintf("seed %d", i), live.evs)
		cut := len(live.log) / 2
		m, evs, err := games.Replay(c.Engine, c.setup(seed), c.Keys, live.log[:cut])
		if err != nil {
			t.Fatalf("seed %d: replay: %v", i, err)
		}
		evs = append(evs, m.Abandon(live.log[max(cut-1, 0)].At, "server_shutdown").Events...)
		c.numbered(t, fmt.Sprintf("seed %d, abandoned after input %d", i, cut), evs)
	}
}

// numbered fails t unless evs are numbered 1, 2, 3, … in Setup.Round.
func (c *Case) numbered(t testing.TB, what string, evs []games.Event) {
	t.Helper()
	var last int64
	for j, e := range evs {
		if e.Seq != last+1 {
			t.Fatalf("%s: event %d (%s): seq %d after %d, want %d", what, j, e.Type, e.Seq, last, last+1)
		}
		if e.Round != c.Setup.Round {
			t.Fatalf("%s: event %d (%s): round %q, want Setup.Round %q", what, j, e.Type, e.Round, c.Setup.Round)
		}
		last = e.Seq
	}
}

// Abandon: a match abandoned halfway is done at once (no deadline, Result with the reason, every
// stake returned), refuses every answer after, abandons once, and replays with its abandon.
func Abandon(t testing.TB, c Case) {
	seed := c.seeds()[0]
	live := c.play(t, seed, nil)
	cut := len(live.log) / 2
	m, before, err := games.Replay(c.Engine, c.setup(seed), c.Keys, live.log[:cut])
	if err != nil {
		t.Fatal(err)
	}
	at := live.log[max(cut-1, 0)].At
	ps := m.Prompts()
	st := m.Abandon(at, "server_shutdown")
	if len(st.Events) == 0 {
		t.Fatal("Abandon wrote no event")
	}
	if n, ok := c.Engine.(games.Narrator); ok {
		abandonWords(t, n, before, st.Events)
	}
	if _, ok := m.Deadline(); ok {
		t.Fatal("an abandoned match still has a deadline")
	}
	r, ok := m.Result()
	if !ok || r.Abandoned != "server_shutdown" {
		t.Fatalf("abandoned result %v %+v", ok, r)
	}
	c.checkResult(t, r)
	if c.Stakes {
		for _, s := range c.Setup.Seats {
			if r.Payouts[s.Seat] != s.Entry {
				t.Fatalf("seat %d: paid %d on abandon, staked %d", s.Seat, r.Payouts[s.Seat], s.Entry)
			}
		}
	}
	for _, p := range ps {
		if body := c.answer(p, rand.New(rand.NewPCG(1, 2))); body != nil {
			if _, err := m.Act(at, games.Input{Seat: p.Seat, Kind: "answer", Move: p.Move, Body: body}); err == nil {
				t.Fatalf("an answer accepted after Abandon")
			}
		}
	}
	if again := m.Abandon(at, "again"); len(again.Events) > 0 {
		t.Fatal("a second Abandon wrote events")
	}
	log := append(slices.Clone(live.log[:cut]), games.Logged{Op: games.OpAbandon, At: at, Reason: "server_shutdown"})
	m2, _, err := games.Replay(c.Engine, c.setup(seed), c.Keys, log)
	if err != nil {
		t.Fatal(err)
	}
	r2, _ := m2.Result()
	ja, _ := json.Marshal(r)
	jb, _ := json.Marshal(r2)
	if !bytes.Equal(ja, jb) {
		t.Fatal("an abandon replays to another result")
	}
}

// abandonWords: the public transcript of an abandoned match ends at its last public event, which
// Final names EndAbandoned (no event before it is Final), and every public event Abandon wrote
// has words of its own, not its type alone, so a live feed says why the match ended.
func abandonWords(t testing.TB, n games.Narrator, before, abandon []games.Event) {
	t.Helper()
	pub := games.Redact(append(slices.Clone(before), abandon...), 0, false)
	if len(pub) == 0 {
		t.Fatal("an abandoned match has no public event")
	}
	for i, e := range pub {
		end := n.Final(e)
		if last := i == len(pub)-1; last && end != games.EndAbandoned || !last && end != "" {
			t.Fatalf("abandoned match: public event %d of %d (%s) is Final %q", i+1, len(pub), e.Type, end)
		}
	}
	names := n.Names(pub)
	for _, e := range games.Redact(abandon, 0, false) {
		if line := n.Narrate(e, names); line == "" || line == e.Type {
			t.Fatalf("abandoned match: %s has no words (%q)", e.Type, line)
		}
	}
}

// Words: an engine that puts itself in words does so for every match played through, the same
// words each time. A games.Narrator narrates every public event (not ""), its public transcript
// has a Final event, and RevealPanel lays out a card (a lead) for the whole public transcript
// and none for the events before its first Final one. A games.Describer lists at least one named
// answer for every prompt and describes the Result (not ""). Neither panics on a payload, a state
// or a reveal it cannot read.
func Words(t testing.TB, c Case) {
	n, isN := c.Engine.(games.Narrator)
	d, isD := c.Engine.(games.Describer)
	if !isN && !isD {
		return
	}
	for i, seed := range c.seeds() {
		var prompts []games.Prompt
		r := c.play(t, seed, func(m games.Match, _ time.Time) {
			if len(prompts) < 200 {
				prompts = append(prompts, m.Prompts()...)
			}
		})
		res, done := r.m.Result()
		if !done {
			t.Fatalf("seed %d: the match has no Result", i)
		}
		if isN {
			pub := games.Redact(r.evs, 0, false)
			names := n.Names(pub)
			first := -1
			for j, e := range pub {
				line := n.Narrate(e, names)
				if line == "" || line != n.Narrate(e, names) {
					t.Fatalf("seed %d: public event %s has no line, or two", i, e.Type)
				}
				if end := n.Final(e); first < 0 && end != "" {
					if end != games.EndRevealed {
						t.Fatalf("seed %d: a match played out ends %q at %s, want %q", i, end, e.Type, games.EndRevealed)
					}
					first = j
				}
			}
			if first < 0 {
				t.Fatalf("seed %d: no public event is Final", i)
			}
			if p, ok := n.RevealPanel(pub, names); !ok || len(p.Lead) == 0 {
				t.Fatalf("seed %d: no reveal card for the whole public transcript", i)
			}
			if _, ok := n.RevealPanel(pub[:first], names); ok {
				t.Fatalf("seed %d: a reveal card before the Final event", i)
			}
			for _, e := range pub {
				for _, junk := range []string{``, `null`, `[]`, `{"seat":"x","mole":"y","seats":[1]}`, `{`} {
					e.Payload = json.RawMessage(junk)
					n.Narrate(e, names)
					n.Names([]games.Event{e})
					n.RevealPanel([]games.Event{e}, names)
				}
			}
		}
		if isD {
			for _, p := range prompts {
				forms := d.DescribeAnswers(p)
				if len(forms) == 0 || forms[0].Name == "" {
					t.Fatalf("seed %d: prompt %+v lists no answer", i, p.Move)
				}
				d.DescribeState(p.State, p.Seat)
			}
			if d.DescribeResult(res) == "" {
				t.Fatalf("seed %d: the Result has no words", i)
			}
			for _, junk := range []string{`null`, `[]`, `{"agents":1,"me":[]}`, `{`} {
				d.DescribeState(games.RawDoc([]byte(junk)), 1)
				d.DescribeResult(games.Result{Payouts: map[int]int64{1: 1}, Reveal: json.RawMessage(junk)})
			}
			d.DescribeAnswers(games.Prompt{})
		}
	}
}

// Hostile: a seeded stream of inputs of every shape, at every deadline, never panics the match
// (Act returns, refusal or not) and the match still ends.
func Hostile(t testing.TB, c Case) {
	rnd := rand.New(rand.NewPCG(3, 5))
	seed := c.seeds()[0]
	m, err := c.Engine.New(c.setup(seed), c.Keys)
	if err != nil {
		t.Fatal(err)
	}
	for n := 0; n < maxSteps; n++ {
		dl, ok := m.Deadline()
		if !ok {
			return
		}
		m.Advance(dl)
		at := dl.Add(time.Millisecond)
		for range 20 {
			actSafely(t, m, at, randomInput(rnd, len(c.Setup.Seats), m))
		}
		for _, p := range m.Prompts() {
			if body := c.answer(p, rnd); body != nil {
				actSafely(t, m, at, games.Input{Seat: p.Seat, Kind: "answer", Move: p.Move, Body: mutate(rnd, body)})
			}
		}
	}
	t.Fatal("the match under hostile input never ended")
}

func actSafely(t testing.TB, m games.Match, at time.Time, in games.Input) {
	t.Helper()
	defer func() {
		if r := recover(); r != nil {
			t.Fatalf("Act(%+v, body %q) panicked: %v", in, in.Body, r)
		}
	}()
	_, _ = m.Act(at, in)
}

// randomInput is an input of any seat, kind and move, with a body of random JSON-ish bytes.
func randomInput(rnd *rand.Rand, seats int, m games.Match) games.Input {
	kinds := []string{"answer", "anchored", "call", "veto", "accuse", "", "x"}
	in := games.Input{Seat: rnd.IntN(seats+3) - 1, Kind: kinds[rnd.IntN(len(kinds))]}
	if ps := m.Prompts(); len(ps) > 0 && rnd.IntN(2) == 0 {
		in.Move = ps[rnd.IntN(len(ps))].Move
	} else {
		in.Move = games.Move{Turn: rnd.IntN(8) - 1, Phase: []string{"talk", "commit", "scouting", ""}[rnd.IntN(4)], Exchange: rnd.IntN(4)}
	}
	pieces := []string{`{`, `}`, `[`, `]`, `"a"`, `:`, `,`, `1`, `-0`, `1e999`, `null`, `true`, `"\u0000"`, `"é"`,
		`"action"`, `"text"`, `"commitments"`, `"messages"`, `"body"`, "\xff"}
	var b []byte
	for range rnd.IntN(12) {
		b = append(b, pieces[rnd.IntN(len(pieces))]...)
	}
	in.Body = b
	return in
}

// mutate changes a legal body a little: a byte flipped, cut short, or left whole.
func mutate(rnd *rand.Rand, body json.RawMessage) json.RawMessage {
	b := bytes.Clone(body)
	switch rnd.IntN(3) {
	case 0:
		if len(b) > 0 {
			b[rnd.IntN(len(b))] ^= byte(1 + rnd.IntN(255))
		}
	case 1:
		b = b[:rnd.IntN(len(b)+1)]
	}
	return b
}

// Fuzz is a fuzz target over c: each input is a seed for a stream of hostile inputs (as Hostile)
// and one mutated body; no input may panic the match. Call it from a FuzzXxx of the engine's
// package: func FuzzConformance(f *testing.F) { gametest.Fuzz(f, theCase()) }.
func Fuzz(f *testing.F, c Case) {
	f.Add(uint64(1), []byte(`{}`))
	f.Add(uint64(2), []byte(`{"action":"x"}`))
	f.Fuzz(func(t *testing.T, s uint64, body []byte) {
		rnd := rand.New(rand.NewPCG(s, s>>7))
		m, err := c.Engine.New(c.setup(c.seeds()[0]), c.Keys)
		if err != nil {
			t.Fatal(err)
		}
		for n := 0; n < 8; n++ {
			dl, ok := m.Deadline()
			if !ok {
				return
			}
			m.Advance(dl)
			at := dl.Add(time.Millisecond)
			for _, p := range m.Prompts() {
				actSafely(t, m, at, games.Input{Seat: p.Seat, Kind: "answer", Move: p.Move, Body: body})
			}
			actSafely(t, m, at, randomInput(rnd, len(c.Setup.Seats), m))
		}
	})
}
