package blitz

import (
	"bytes"
	"encoding/hex"
	"encoding/json"
	"reflect"
	"strings"
	"testing"
	"time"

	"arena/games"
)

func TestManifestAndSetupValidation(t *testing.T) {
	e := NewEngine(DefaultFees())
	m := e.Manifest()
	if m.ID != "blitz" || len(m.Formats) != 2 || m.Formats[0] != (games.Format{Name: "blitz", MinSeats: 6, MaxSeats: 8, Turns: 5, Exchanges: 3}) ||
		m.Formats[1] != (games.Format{Name: "short", MinSeats: 3, MaxSeats: 3, Turns: 3, Exchanges: 2}) {
		t.Fatalf("manifest %+v", m)
	}
	bad := map[string]func(s *games.Setup){
		"format":          func(s *games.Setup) { s.Format = "long" },
		"seats":           func(s *games.Setup) { s.Seats = s.Seats[:5] },
		"round":           func(s *games.Setup) { s.Round = "9931" },
		"seat numbering":  func(s *games.Setup) { s.Seats[2].Seat = 9 },
		"duplicate agent": func(s *games.Setup) { s.Seats[2].Agent = s.Seats[1].Agent },
		"entry below 50": func(s *games.Setup) {
			s.Seats[0].Entry = 49 * ccd
			seatOpts(&s.Seats[0], func(o *SeatOptions) { o.Collateral = 20 * ccd })
		},
		"collateral 39%":  func(s *games.Setup) { seatOpts(&s.Seats[0], func(o *SeatOptions) { o.Collateral = 78 * ccd }) },
		"collateral 81%":  func(s *games.Setup) { seatOpts(&s.Seats[0], func(o *SeatOptions) { o.Collateral = 162 * ccd }) },
		"options unknown": func(s *games.Setup) { s.Options = json.RawMessage(`{"Mole":2}`) },
		"mole seat":       func(s *games.Setup) { s.Options = json.RawMessage(`{"mole":7}`) },
		"task kind":       func(s *games.Setup) { s.Options = json.RawMessage(`{"mole":1,"task":{"kind":"spy","named":[]}}`) },
		"named count":     func(s *games.Setup) { s.Options = json.RawMessage(`{"mole":1,"task":{"kind":"pair","named":[2]}}`) },
		"named the mole":  func(s *games.Setup) { s.Options = json.RawMessage(`{"mole":1,"task":{"kind":"breach","named":[1]}}`) },
	}
	for name, f := range bad {
		s := testSetup("blitz", 6, "")
		f(&s)
		if _, err := e.New(s, newTestKeys(6)); !isCode(err, games.CodeBadRequest, false) {
			t.Errorf("%s: %v", name, err)
		}
	}
	s := testSetup("blitz", 8, "")
	seatOpts(&s.Seats[0], func(o *SeatOptions) { o.Collateral = 80 * ccd }) // exactly 40%
	seatOpts(&s.Seats[1], func(o *SeatOptions) { o.Collateral = 160 * ccd })
	if _, err := e.New(s, newTestKeys(8)); err != nil {
		t.Fatalf("8 seats at the band's edges: %v", err)
	}
}

func TestDraw(t *testing.T) {
	var seed [32]byte
	counts := map[string]int{}
	for i := 0; i < 600; i++ {
		seed[0], seed[1] = byte(i), byte(i>>8)
		mole, task := draw(seed, 6, false, 0, nil)
		if mole < 1 || mole > 6 || task.Kind == "veto" || task.Category != taskCategory[task.Kind] {
			t.Fatalf("seed %d: mole %d task %+v", i, mole, task)
		}
		if len(task.Named) != namedCount(task.Kind) {
			t.Fatalf("named %+v", task)
		}
		for _, n := range task.Named {
			if n == mole {
				t.Fatalf("named the mole: %+v", task)
			}
		}
		counts[task.Kind]++
		m2, t2 := draw(seed, 6, false, 0, nil)
		if m2 != mole || !reflect.DeepEqual(t2, task) {
			t.Fatal("draw not deterministic")
		}
	}
	if len(counts) != 8 {
		t.Fatalf("kinds drawn without a human: %v", counts)
	}
	sawVeto := false
	for i := 0; i < 300; i++ {
		seed[0], seed[1] = byte(i), byte(i>>8)
		_, task := draw(seed, 3, true, 0, nil)
		sawVeto = sawVeto || task.Kind == "veto"
		if task.Kind == "pair" && len(task.Named) != 2 {
			t.Fatalf("short pair %+v", task)
		}
	}
	if !sawVeto {
		t.Fatal("veto never drawn with a human seat")
	}
	// a fixed mole keeps the kind the seed would draw
	_, free := draw(seed, 6, false, 0, nil)
	_, fixed := draw(seed, 6, false, 2, nil)
	if free.Kind != fixed.Kind {
		t.Fatalf("fixing the mole changed the kind %s → %s", free.Kind, fixed.Kind)
	}
	// the first values of the stream, pinned so the draw cannot drift silently
	// (an independent SHA-256: python3 hashlib over 32 zero bytes ‖ "dotdotdot/v1/draw" ‖ 8 zero bytes)
	if v := newSource([32]byte{}).uint64(); v != 0x264baa4fbaca836c {
		t.Fatalf("stream starts %x", v)
	}
}

// TestOpenAnchorAndAnchors: a round with an off-the-shelf seat asks for its open-round anchor
// (kind opened, seq 1) at scouting's close, not when it opens (its playbook may change until
// then, §5.2), and round.opened announces it in public where scouting.started would; the
// anchors then run in order and the reveal recomputes the open-round anchor.
func TestOpenAnchorAndAnchors(t *testing.T) {
	s := testSetup("blitz", 6, `{"playbooks":{"2":{"style":"bold","dials":{"risk":3}}}}`)
	seatOpts(&s.Seats[1], func(o *SeatOptions) { o.Kind = "ots" })
	h := newHarness(t, s)
	if st := h.next(); len(st.Anchors) != 0 {
		t.Fatalf("anchors asked when the round opens: %+v", st.Anchors)
	}
	if ev := h.events("scouting.started"); len(ev) != 1 || strings.Contains(string(ev[0].Payload), "anchor") {
		t.Fatalf("scouting.started %+v", ev)
	}
	st := h.next()
	if len(st.Anchors) != 1 || st.Anchors[0].Kind != "opened" || st.Anchors[0].Seq != 1 {
		t.Fatalf("anchors at scouting's close %+v", st.Anchors)
	}
	if ev := h.events("round.opened"); len(ev) != 1 || ev[0].Visibility != "public" || ev[0].Phase != "scouting" ||
		string(ev[0].Payload) != `{"anchor":"sha256:`+hex.EncodeToString(st.Anchors[0].Hash[:])+`"}` {
		t.Fatalf("round.opened %+v", ev)
	}
	opened := st.Anchors[0].Hash
	// record it: anchor.opened, public
	body, _ := json.Marshal(games.AnchoredBody{Kind: "opened", Seq: 1, Hash: hex.EncodeToString(opened[:]), Tx: strings.Repeat("ab", 32)})
	if _, err := h.act(0, "anchored", string(body)); err != nil {
		t.Fatal(err)
	}
	if _, err := h.act(0, "anchored", string(body)); !isCode(err, games.CodeBadRequest, false) {
		t.Fatalf("recorded twice: %v", err)
	}
	if ev := h.events("anchor.opened"); len(ev) != 1 || ev[0].Visibility != "public" {
		t.Fatalf("anchor.opened %+v", ev)
	}
	var all []games.AnchorRequest
	all = append(all, st.Anchors...)
	h.to(1, "commit", 0)
	h.mustNoDrop(1, commitBody(c(2, 2*ccd, 1)))
	for _, x := range h.steps {
		all = append(all, x.Anchors...)
	}
	r := h.finish()
	all = all[:0]
	for _, x := range h.steps {
		all = append(all, x.Anchors...)
	}
	kinds := map[string]int{}
	for i, a := range all {
		if a.Seq != uint32(i+1) {
			t.Fatalf("anchor %d has seq %d", i, a.Seq)
		}
		kinds[a.Kind]++
	}
	if !reflect.DeepEqual(kinds, map[string]int{"opened": 1, "exchange": 15, "commitment": 1, "turn": 1, "transcript": 1}) {
		t.Fatalf("anchor kinds %v", kinds)
	}
	last := all[len(all)-1]
	if last.Kind != "transcript" || "sha256:"+hex.EncodeToString(last.Hash[:]) != r.TranscriptHash {
		t.Fatalf("transcript anchor %x vs %s", last.Hash, r.TranscriptHash)
	}
	// the reveal recomputes the open-round anchor
	var rev Reveal
	if err := json.Unmarshal(r.Reveal, &rev); err != nil {
		t.Fatal(err)
	}
	open, hsh, err := OpenAnchor(rev)
	if err != nil || hsh != opened || rev.OpenAnchor != "sha256:"+hex.EncodeToString(opened[:]) {
		t.Fatalf("OpenAnchor %x %v, opened %x", hsh, err, opened)
	}
	var o map[string]any
	_ = json.Unmarshal(open, &o)
	if o["seed"] != r.SeedHash || len(o["playbooks"].(map[string]any)) != 1 {
		t.Fatalf("open %s", open)
	}
	// tampering with any revealed value breaks it
	for name, f := range map[string]func(r *Reveal){
		"mole": func(r *Reveal) { r.Mole = r.Mole%6 + 1 },
		"task": func(r *Reveal) {
			r.Task.Kind = "ghost"
			r.Task.Named = nil
			if rev.Task.Kind == "ghost" {
				r.Task.Kind = "bank"
			}
		},
		"seed":     func(r *Reveal) { r.Seed = strings.Repeat("0", 64) },
		"playbook": func(r *Reveal) { r.Playbooks["2"] = json.RawMessage(`{"style":"meek"}`) },
	} {
		cp := rev
		cp.Task.Named = append([]int{}, rev.Task.Named...)
		cp.Playbooks = map[string]json.RawMessage{"2": rev.Playbooks["2"]}
		f(&cp)
		if _, h2, _ := OpenAnchor(cp); h2 == opened {
			t.Fatalf("tampered %s still matches", name)
		}
	}
	// the mid-round anchor is the transcript hash up to turn 3's settle
	var turnHash [32]byte
	for _, a := range all {
		if a.Kind == "turn" {
			turnHash = a.Hash
		}
	}
	var upTo []games.Event
	for _, e := range mustEvents(h.m.Events()) {
		if e.Turn > 3 {
			break
		}
		upTo = append(upTo, e)
	}
	if th, _ := TranscriptHash(upTo); th != "sha256:"+hex.EncodeToString(turnHash[:]) {
		t.Fatalf("turn anchor %x vs %s over %d events", turnHash, th, len(upTo))
	}
}

// Restore(Snapshot()) and the same inputs give byte-identical events; two runs of the same
// inputs are identical.
func TestSnapshotRestoreDeterminism(t *testing.T) {
	run := func(cut int) ([]byte, *harness) {
		h := newHarness(t, testSetup("blitz", 7, ""))
		playHouse(h, 42, func() bool { return cut > 0 && h.m.Phase().Turn >= cut })
		return nil, h
	}
	_, a := run(0)
	_, b := run(0)
	ja, _ := json.Marshal(mustEvents(a.m.Events()))
	jb, _ := json.Marshal(mustEvents(b.m.Events()))
	if !bytes.Equal(ja, jb) {
		t.Fatal("two runs differ")
	}
	_, half := run(3)

	snap, err := half.m.Snapshot()
	if err != nil {
		t.Fatal(err)
	}
	gm, err := NewEngine(DefaultFees()).Restore(snap, half.keys)
	if err != nil {
		t.Fatal(err)
	}
	r := gm.(*Match)
	j1, _ := json.Marshal(mustEvents(half.m.Events()))
	j2, _ := json.Marshal(mustEvents(r.Events()))
	p1, _ := json.Marshal(half.m.Prompts())
	p2, _ := json.Marshal(r.Prompts())
	if !bytes.Equal(j1, j2) || !bytes.Equal(p1, p2) || len(p1) < 100 {
		t.Fatalf("restored match differs (events %d/%d bytes, prompts %d/%d)", len(j1), len(j2), len(p1), len(p2))
	}
	// both continue with the same inputs
	hr := &harness{t: t, m: r, keys: half.keys, now: half.now}
	playHouse(half, 42, nil)
	playHouse(hr, 42, nil)
	j1, _ = json.Marshal(mustEvents(half.m.Events()))
	j2, _ = json.Marshal(mustEvents(hr.m.Events()))
	if !bytes.Equal(j1, j2) {
		t.Fatal("continued matches differ")
	}
	if !bytes.Equal(j1, ja) {
		t.Fatal("a snapshot and restore in the middle changed the round")
	}
	if _, err := NewEngine(DefaultFees()).Restore([]byte(`{"v":2}`), half.keys); err == nil {
		t.Fatal("bad snapshot restored")
	}
}

func TestStaleAnswers(t *testing.T) {
	h := newHarness(t, testSetup("blitz", 6, `{"mole":6,"task":{"kind":"broker","named":[]}}`))
	h.to(1, "talk", 2)
	wrong := games.Input{Seat: 1, Kind: "answer", Move: games.Move{Turn: 1, Phase: "talk", Exchange: 1}, Body: json.RawMessage(`{}`)}
	if _, err := h.m.Act(h.now, wrong); !isCode(err, CodeStale, false) {
		t.Fatalf("wrong move: %v", err)
	}
	if _, err := h.act(1, "answer", `{"round":"T-7","turn":1,"phase":"talk","exchange":1}`); !isCode(err, CodeStale, false) {
		t.Fatalf("body names another move: %v", err)
	}
	late := games.Input{Seat: 1, Kind: "answer", Move: h.m.Phase(), Body: json.RawMessage(`{}`)}
	if _, err := h.m.Act(h.now.Add(13*time.Second+time.Millisecond), late); !isCode(err, CodeStale, false) {
		t.Fatalf("past the 13 s deadline: %v", err)
	}
	h.mustNoDrop(1, `{"round":"T-7","turn":1,"phase":"talk","exchange":2}`)
	if _, err := h.act(1, "answer", `{}`); !isCode(err, CodeStale, false) {
		t.Fatalf("twice: %v", err)
	}
	if _, err := h.act(9, "answer", `{}`); !isCode(err, games.CodeNotSeated, false) {
		t.Fatalf("seat 9: %v", err)
	}
	for _, body := range []string{`[]`, `{"messages":"x"}`, `{"messages":[],"Messages":[]}`, `{"bogus":1}`, `{} {}`, `nul`, `{"seat":3}`, `{"v":2}`} {
		if _, err := h.act(2, "answer", body); !isCode(err, games.CodeBadRequest, false) {
			t.Fatalf("%s: %v", body, err)
		}
	}
	if _, err := h.m.Act(h.now, games.Input{Seat: 2, Kind: "answer", Move: h.m.Phase(), Body: make([]byte, maxBody+1)}); !isCode(err, games.CodeBadRequest, false) {
		t.Fatalf("huge body: %v", err)
	}
	if _, err := h.act(2, "dance", `{}`); !isCode(err, games.CodeBadRequest, false) {
		t.Fatalf("unknown kind: %v", err)
	}
	// deadlines: BYO response deadline 13 s of a 15 s exchange, 20 s of a 25 s commit (§5.3)
	h.to(1, "commit", 0)
	p := h.m.Prompts()[0]
	if d, _ := h.m.Deadline(); d.Sub(p.Deadline) != 5*time.Second {
		t.Fatalf("commit prompt deadline %v, phase end %v", p.Deadline, d)
	}
}

func TestMessagesAndInbox(t *testing.T) {
	h := newHarness(t, testSetup("blitz", 6, `{"mole":6,"task":{"kind":"broker","named":[]}}`))
	st := h.next() // scouting: the notice
	for _, p := range st.Prompts {
		if len(p.Inbox) != 1 || !strings.Contains(string(p.Inbox[0]), `"type":"notice"`) {
			t.Fatalf("scouting inbox %s", p.Inbox)
		}
	}
	h.to(1, "talk", 1)
	var msgs []string
	for i := 0; i < 9; i++ {
		msgs = append(msgs, `{"type":"public","text":"p`+itoa(i)+`","tone":"offer"}`)
	}
	for i := 0; i < 9; i++ {
		msgs = append(msgs, priv(2+i%2, "q"+itoa(i)))
	}
	msgs = append(msgs, `{"type":"public","text":"`+strings.Repeat("a", 601)+`"}`, `{"type":"public","text":"x","tone":"shout"}`,
		`{"type":"private","to":1,"text":"self"}`, `{"type":"whisper","text":"x"}`, `{"type":"public","text":"x","Text":"y"}`)
	d := h.answer(1, `{"messages":[`+strings.Join(msgs, ",")+`]}`)
	if len(d) != 7 {
		t.Fatalf("dropped %d: %+v", len(d), d)
	}
	if n := len(h.events("message.public")); n != 8 {
		t.Fatalf("public %d", n)
	}
	if n := len(h.events("talking")); n != 8 || h.events("message.private")[0].Visibility != "sealed" {
		t.Fatalf("talking %d", n)
	}
	st = h.next() // exchange 2: last exchange's lines delivered
	for _, p := range st.Prompts {
		pub, pv := 0, 0
		for _, it := range p.Inbox {
			s := string(it)
			switch {
			case strings.Contains(s, `"type":"public"`):
				pub++
			case strings.Contains(s, `"type":"private"`):
				pv++
				if !strings.Contains(s, `"to":`+itoa(p.Seat)) {
					t.Fatalf("seat %d got %s", p.Seat, s)
				}
			}
		}
		wantPub, wantPriv := 8, 0
		switch p.Seat {
		case 1:
			wantPub = 0
		case 2, 3:
			wantPriv = 4
		}
		if pub != wantPub || pv != wantPriv {
			t.Fatalf("seat %d inbox pub %d priv %d", p.Seat, pub, pv)
		}
		var s stateObject
		_ = json.Unmarshal(p.State.Bytes(), &s)
		if len(s.Talking) != 2 || s.Format.Exchanges != 3 || s.Format.Turns != 5 || s.Format.Seats != 6 || s.TaskCategory != "influence" || s.Bounty != 60*ccd {
			t.Fatalf("state %+v", s)
		}
		if s.Pattern[0].PrivateSent != 8 || s.Pattern[1].PrivateReceived != 4 {
			t.Fatalf("pattern %+v", s.Pattern)
		}
	}
}

func TestStateMe(t *testing.T) {
	s := testSetup("blitz", 6, `{"mole":6,"task":{"kind":"broker","named":[]}}`)
	h := newHarness(t, s)
	h.to(1, "talk", 1)
	if _, err := h.act(1, "accuse", `{"seat":3}`); err != nil {
		t.Fatal(err)
	}
	h.to(1, "commit", 0)
	h.mustNoDrop(1, commitBody(c(2, 10*ccd, 3)))
	h.to(2, "talk", 1)
	var me, mole stateObject
	for _, p := range h.m.Prompts() {
		st, _ := decodeState(p.State)
		if p.Seat == 1 {
			me = st
		}
		if p.Seat == 6 {
			mole = st
		}
	}
	id := h.m.Commitments()[0].ID
	if me.Me.Collateral != 100*ccd || me.Me.Unlocked != 95*ccd || me.Me.Locks[id] != 5*ccd || me.Me.Budget != 85*ccd ||
		len(me.Me.Open) != 1 || me.Me.Open[0].Amount != 10*ccd || me.Me.Levers != (leverView{Calls: 2, Veto: 1, Accusation: 1}) ||
		me.Me.Role != "player" || me.Me.Task != nil || me.Me.Accusation != 3 {
		t.Fatalf("me %+v", me.Me)
	}
	if mole.Me.Role != "mole" || mole.Me.Task == nil || mole.Me.Task.Kind != "broker" || mole.Me.Levers.Accusation != 0 {
		t.Fatalf("mole %+v", mole.Me)
	}
	if a := me.Agents[0]; a.Collateral != 100 || len(a.Commitments) != 1 || a.Commitments[0].Payee != 2 {
		t.Fatalf("agents[0] %+v", a)
	}
}

func TestDarkSetAndCleared(t *testing.T) {
	h := newHarness(t, allByo(testSetup("blitz", 6, `{"mole":6,"task":{"kind":"broker","named":[]}}`)))
	for turn := 1; turn <= 2; turn++ {
		h.to(turn, "talk", 1)
		for s := 2; s <= 6; s++ {
			h.talk(s, `{"type":"public","text":"here"}`)
		}
		h.mustNoDrop(1, `{}`) // an empty answer is an empty turn
	}
	h.to(3, "talk", 1)
	dk := h.events("agent.dark")
	if len(dk) != 1 || !strings.Contains(string(dk[0].Payload), `"seat":1`) || dk[0].Turn != 2 {
		t.Fatalf("dark %+v", dk)
	}
	h.talk(1, `{"type":"public","text":"back"}`)
	dk = h.events("agent.dark")
	if len(dk) != 2 || !strings.Contains(string(dk[1].Payload), `"dark":false`) || h.account(1).Dark {
		t.Fatalf("cleared %+v", dk)
	}
}

func TestCloseEarly(t *testing.T) {
	s := testSetup("short", 3, `{"mole":3,"task":{"kind":"ghost","named":[]}}`)
	s.Pace = games.Pace{Name: "chat", CloseEarly: true, Steps: map[string]time.Duration{"scouting": 3 * time.Minute, "talk": 3 * time.Minute, "commit": 3 * time.Minute, "settle": time.Second}}
	h := newHarness(t, s)
	h.next()
	for i := 0; i < 40; i++ {
		if _, ok := h.m.Deadline(); !ok {
			break
		}
		ps := h.m.Prompts()
		if len(ps) == 0 {
			t.Fatalf("no prompts at %+v", h.m.Phase())
		}
		for _, p := range ps {
			h.mustNoDrop(p.Seat, `{}`)
		}
	}
	if _, ok := h.m.Result(); !ok {
		t.Fatal("close-early round did not finish on answers alone")
	}
	if !h.now.Equal(t0) {
		t.Fatalf("clock moved: %v", h.now)
	}
}

// Garbage in, codes out: nothing panics and a refused input changes nothing.
func TestGarbageInputs(t *testing.T) {
	h := newHarness(t, testSetup("blitz", 6, `{"mole":6,"task":{"kind":"broker","named":[]}}`))
	bodies := []string{``, `null`, `{}`, `[]`, `"x"`, `{"seat":"x"}`, `{"text":1}`, `{"pending_id":[]}`, `{"seat":-1}`,
		`{"seat":99999999999999999999}`, `{"commitments":[null,1,"x",[],{}]}`, `{"messages":[null,1,{"type":"private","to":{}}]}`,
		`{"kind":"opened","seq":1,"hash":"00","tx":"zz"}`, "\xff\xfe", `{"accusation":"6"}`}
	kinds := []string{"answer", "call", "veto", "accuse", "anchored", ""}
	for turn := 0; turn < 4; turn++ {
		for _, k := range kinds {
			for _, b := range bodies {
				for _, seat := range []int{-1, 0, 1, 6, 7} {
					before := len(mustEvents(h.m.Events()))
					_, err := h.act(seat, k, b)
					if err != nil && len(mustEvents(h.m.Events())) != before {
						t.Fatalf("refused %s %q from %d changed the transcript", k, b, seat)
					}
					if err != nil {
						if _, ok := err.(*games.Error); !ok {
							t.Fatalf("%s %q: error %T is not *games.Error", k, b, err)
						}
					}
				}
			}
		}
		h.next()
	}
}

func FuzzAnswer(f *testing.F) {
	f.Add(`{"messages":[{"type":"public","text":"hi"}]}`, 1)
	f.Add(`{"commitments":[{"payee":2,"chips":3,"condition":{"and":[{"always":true},{"not":{"survives":[2,1]}}]},"due":1}]}`, 2)
	f.Add(`{"accusation":3}`, 4)
	f.Fuzz(func(t *testing.T, body string, seat int) {
		h := newHarness(t, testSetup("blitz", 6, `{"mole":6,"task":{"kind":"broker","named":[]}}`))
		h.to(1, "talk", 1)
		_, _ = h.act(seat, "answer", body)
		h.to(1, "commit", 0)
		_, _ = h.act(seat, "answer", body)
		_, _ = h.act(seat, "accuse", body)
		_, _ = h.act(seat, "veto", body)
		_, _ = h.act(seat, "call", body)
		h.finish()
	})
}

// An empty (whitespace) answer is taken and survives Snapshot/Restore.
func TestSnapshotEmptyAnswer(t *testing.T) {
	h := newHarness(t, testSetup("short", 3, ""))
	h.to(1, "talk", 1)
	h.mustNoDrop(1, "  \n")
	h.talk(2, `{"type":"public","text":"hi"}`)
	snap, err := h.m.Snapshot()
	if err != nil {
		t.Fatal(err)
	}
	gm, err := NewEngine(DefaultFees()).Restore(snap, h.keys)
	if err != nil {
		t.Fatal(err)
	}
	a, _ := json.Marshal(mustEvents(h.m.Events()))
	b, _ := json.Marshal(mustEvents(gm.(*Match).Events()))
	if !bytes.Equal(a, b) {
		t.Fatal("restored events differ")
	}
}

func TestScripted(t *testing.T) {
	s := testSetup("blitz", 6, "")
	seatOpts(&s.Seats[2], func(o *SeatOptions) { o.Kind, o.Walkin = "ots", false })
	h := newHarness(t, s)
	h.to(1, "talk", 1)
	if _, err := h.act(1, "scripted", ""); !isCode(err, games.CodeBadRequest, false) {
		t.Fatalf("walk-in scripted: %v", err)
	}
	if _, err := h.m.Act(h.now, games.Input{Seat: 3, Kind: "scripted", Move: games.Move{Turn: 1, Phase: "commit"}}); !isCode(err, CodeStale, false) {
		t.Fatalf("other move: %v", err)
	}
	if _, err := h.m.Act(h.now, games.Input{Seat: 3, Kind: "scripted", Move: h.m.Phase()}); err != nil {
		t.Fatal(err)
	}
	if ev := h.events("agent.scripted"); len(ev) != 1 || ev[0].Visibility != "public" || string(ev[0].Payload) != `{"phase":"talk","seat":3,"turn":1}` {
		t.Fatalf("agent.scripted %+v", ev)
	}
}

// A seat as records written before games.Seat.Options stored it (kind, human, walkin and
// collateral among the seat's members) decodes to the same SeatOptions the new form carries.
func TestSeatOptionsOfOldRecords(t *testing.T) {
	var s games.Seat
	old := `{"seat":1,"agent":"a","name":"A","kind":"ots","human":true,"walkin":false,"entry":200000000,"collateral":100000000,"rating":1500}`
	if err := json.Unmarshal([]byte(old), &s); err != nil {
		t.Fatal(err)
	}
	o, err := SeatOptionsOf(s)
	want := SeatOptions{Kind: "ots", Human: true, Collateral: 100 * ccd, Rating: 1500}
	if err != nil || o != want {
		t.Fatalf("old seat's options %+v, %v; want %+v", o, err, want)
	}
	if _, err := SeatOptionsOf(games.Seat{Options: json.RawMessage(`{"Kind":"ots"}`)}); err == nil {
		t.Fatal("options with a member Blitz does not name were accepted")
	}
}
