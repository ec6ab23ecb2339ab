package dotdotdot

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"arena/actors"
	"arena/games"
	"arena/games/blitz"
	"arena/transport/dotdotdot/housemodel"
	"arena/transport/dotdotdot/housemodel/modelstub"
)

// otsEnvelope is what a stub model reads of the envelope in a request's user message.
type otsEnvelope struct {
	Round    string `json:"round"`
	Turn     int    `json:"turn"`
	Phase    string `json:"phase"`
	Exchange int    `json:"exchange"`
	Seat     int    `json:"seat"`
	State    struct {
		Me struct {
			Role string `json:"role"`
		} `json:"me"`
	} `json:"state"`
}

func envelopeOf(t *testing.T, r modelstub.Request) otsEnvelope {
	var e otsEnvelope
	if len(r.Messages) != 2 || r.Messages[1].Role != "user" || json.Unmarshal([]byte(r.Messages[1].Content), &e) != nil || e.Round == "" {
		t.Errorf("request is not [system, user envelope]: %.300s", r.Body)
	}
	return e
}

// echoOf is the echo of e as an answer's first members.
func echoOf(e otsEnvelope) string {
	s := fmt.Sprintf(`"round":%q,"turn":%d,"phase":%q`, e.Round, e.Turn, e.Phase)
	if e.Exchange > 0 {
		s += fmt.Sprintf(`,"exchange":%d`, e.Exchange)
	}
	return s
}

// playingAnswer is a model's good answer to e: a public line on talk, a 1-chip promise to seat
// 3 due this turn on commit, the echo alone otherwise.
func playingAnswer(e otsEnvelope) string {
	switch e.Phase {
	case "talk":
		return fmt.Sprintf(`{%s,"messages":[{"type":"public","text":"ots seat %d says hello, turn %d exchange %d","tone":"offer"}]}`, echoOf(e), e.Seat, e.Turn, e.Exchange)
	case "commit":
		return fmt.Sprintf(`{%s,"commitments":[{"payee":3,"chips":1,"due":%d,"condition":{"always":true}}]}`, echoOf(e), e.Turn)
	}
	return "{" + echoOf(e) + "}"
}

// otsHarness is a blitz harness whose product thinks its off-the-shelf seats on model (nil: no
// house model configured).
func otsHarness(t *testing.T, model HouseModel) *harness {
	t.Helper()
	h := newHarness(t)
	h.eng2 = blitz.NewEngine(blitz.DefaultFees())
	h.product.Model = model
	h.stop()
	h.start()
	return h
}

func stubModel(t *testing.T, answer func(modelstub.Request) modelstub.Reply) (*modelstub.Stub, HouseModel) {
	t.Helper()
	stub := modelstub.Start(answer)
	t.Cleanup(stub.Close)
	c, err := housemodel.New(housemodel.Config{URL: stub.URL, Model: "house-test", Key: "k-test"})
	if err != nil {
		t.Fatal(err)
	}
	return stub, c
}

// otsAgent is the Badge of off-the-shelf agent i in these tests.
func otsAgent(i int) string {
	return fmt.Sprintf("ccd:4221332d34e1694168c2a0c0b3fd0f27/cis-2:OtsAgent%d", i)
}

// otsGrant is the key grant of off-the-shelf agent i's owner token in these tests.
func otsGrant(i int) string {
	return OTSGrant(fmt.Sprintf("ots_%064x", i))
}

// otsTable is a table of format with off-the-shelf seats at the seats of books (each with its
// playbook), house agents elsewhere, on the chat clock closing early, with options opts (nil:
// none) before the playbooks are added.
func otsTable(t *testing.T, h *harness, id, format string, n int, books map[int]blitz.Playbook, opts map[string]any) actors.TableSpec {
	t.Helper()
	pace := games.Pace{Name: "chat", CloseEarly: true, Steps: map[string]time.Duration{"scouting": time.Minute, "talk": time.Minute, "commit": time.Minute, "settle": time.Minute}}
	spec, _ := walkinTableSpec(id, "practice", format, n, pace, nil, nil)
	if opts != nil {
		spec.Options, _ = json.Marshal(opts)
	}
	for seat, pb := range books {
		if err := seatOTS(&spec, seat, OTSAgent{Agent: otsAgent(seat), Name: fmt.Sprintf("Shelf %d", seat),
			Owner: fmt.Sprintf("ccd:4221332d34e1694168c2a0c0b3fd0f27:owner%d", seat), Playbook: pb, Grant: otsGrant(seat)}); err != nil {
			t.Fatal(err)
		}
	}
	return spec
}

// scriptedSeats counts the round's agent.scripted events by seat.
func scriptedSeats(evs []games.Event) map[int]int {
	n := map[int]int{}
	for _, e := range evs {
		if e.Type != "agent.scripted" {
			continue
		}
		var p struct {
			Seat int `json:"seat"`
		}
		_ = json.Unmarshal(e.Payload, &p)
		n[p.Seat]++
	}
	return n
}

// TestOTSRoundPlaysOnTheHouseModel: a Blitz round with two off-the-shelf seats (1, drawn mole,
// and 2) and four house seats plays to the reveal with every ots move thought on the house model
// over the chat-completions wire: no agent.scripted for seats 1 and 2 (each house seat has its
// own), their lines and promises in the transcript, their commitments signed with the key the
// arena holds for their Badges (OTSKey) and sealed. Each request carries the envelope the seat
// received and the seat's playbook and dials; only the mole's carry the mole playbook. The
// playbooks are the reveal's and commit in the open-round anchor (the game's Opener recomputes
// the announced anchor from the reveal), seat.taken says kind ots, and the round's settlement
// charges each ots seat the table and inference fees (§14).
func TestOTSRoundPlaysOnTheHouseModel(t *testing.T) {
	var mu sync.Mutex
	perSeat := map[int]int{}
	stub, model := stubModel(t, func(r modelstub.Request) modelstub.Reply {
		e := envelopeOf(t, r)
		mu.Lock()
		perSeat[e.Seat]++
		mu.Unlock()
		return modelstub.Reply{Content: playingAnswer(e), Delay: 5 * time.Millisecond}
	})
	h := otsHarness(t, model)
	books := map[int]blitz.Playbook{
		1: {Text: "Promise small, keep every promise, and ask seat 3 to back you.", Dials: blitz.Dials{Boldness: 2, Trust: 7, Chatter: 4}},
		2: {Text: "Talk a lot; trust nobody who has breached.", Dials: blitz.Dials{Boldness: 6, Trust: 1, Chatter: 9}},
	}
	spec := otsTable(t, h, "ots-round", "blitz", 6, books, map[string]any{"mole": 1})
	round := h.open(spec)
	h.waitEvent("round.revealed", and(roundIs(round), typeIs("round.revealed")))
	ctx := context.Background()
	evs, revealed, err := h.arena.Transcript(ctx, round)
	if err != nil || !revealed {
		t.Fatalf("transcript: %v revealed %v", err, revealed)
	}
	sc := scriptedSeats(evs)
	if sc[1] != 0 || sc[2] != 0 {
		t.Fatalf("ots seats announced scripted: %v", sc)
	}
	for seat := 3; seat <= 6; seat++ {
		if sc[seat] < 1 { // at scouting, then talk and commit of each turn it is alive
			t.Fatalf("house seat %d: no agent.scripted (%v)", seat, sc)
		}
	}
	lines, sealed := map[int]int{}, map[int]int{}
	var reveal blitz.Reveal
	var settled struct {
		Fees map[string]int64 `json:"fees"`
	}
	for _, e := range evs {
		switch e.Type {
		case "seat.taken":
			var p struct {
				Seat       int    `json:"seat"`
				Agent      string `json:"agent"`
				Kind       string `json:"kind"`
				Human      bool   `json:"human"`
				SigningKey string `json:"signing_key"`
			}
			_ = json.Unmarshal(e.Payload, &p)
			if p.Seat <= 2 {
				want := "ed25519:" + fmt.Sprintf("%x", []byte(h.arena.OTSSigningKey(otsAgent(p.Seat), otsGrant(p.Seat))))
				if p.Kind != "ots" || !p.Human || p.Agent != otsAgent(p.Seat) || p.SigningKey != want {
					t.Fatalf("seat.taken of ots seat %d: %s (want key %s)", p.Seat, e.Payload, want)
				}
			}
		case "message.public":
			var p struct {
				From int    `json:"from"`
				Text string `json:"text"`
			}
			_ = json.Unmarshal(e.Payload, &p)
			if strings.HasPrefix(p.Text, fmt.Sprintf("ots seat %d says hello", p.From)) {
				lines[p.From]++
			}
		case "commitment.sealed":
			var p struct {
				Payer int `json:"payer"`
				Payee int `json:"payee"`
			}
			if e.Visibility == games.Public && json.Unmarshal(e.Payload, &p) == nil && p.Payee == 3 && p.Payer <= 2 {
				sealed[p.Payer]++
			}
		case "round.revealed":
			if err := json.Unmarshal(e.Payload, &reveal); err != nil {
				t.Fatal(err)
			}
		case "round.settled":
			_ = json.Unmarshal(e.Payload, &settled)
		}
	}
	for seat := 1; seat <= 2; seat++ {
		if lines[seat] != 15 || sealed[seat] != 5 {
			t.Fatalf("ots seat %d: %d lines (want 15: three exchanges of five turns), %d promises to seat 3 sealed (want 5)", seat, lines[seat], sealed[seat])
		}
		if got, want := string(reveal.Playbooks[fmt.Sprint(seat)]), string(books[seat].JSON()); got != want {
			t.Fatalf("reveal.playbooks[%d] = %s, want %s", seat, got, want)
		}
		fees := blitz.DefaultFees()
		if got := settled.Fees[fmt.Sprint(seat)]; got != fees.Table+fees.Inference {
			t.Fatalf("seat %d paid fees %d, want table + inference %d (%v)", seat, got, fees.Table+fees.Inference, settled.Fees)
		}
	}
	if len(reveal.Playbooks) != 2 || reveal.Mole != 1 {
		t.Fatalf("reveal: mole %d, playbooks %v", reveal.Mole, reveal.Playbooks)
	}
	op, err := blitz.NewEngine(blitz.DefaultFees()).Open(evs)
	if err != nil || !op.Found || op.Hash == [32]byte{} || "sha256:"+fmt.Sprintf("%x", op.Hash) != op.Stated || op.Stated != op.Announced {
		t.Fatalf("open-round anchor from the reveal: %+v %v", op, err)
	}
	reqs := stub.Requests()
	for _, r := range reqs {
		e := envelopeOf(t, r)
		sys := r.Messages[0].Content
		pb := books[e.Seat]
		dials := fmt.Sprintf("boldness %d", pb.Dials.Boldness)
		if r.Model != "house-test" || r.Auth != "Bearer k-test" || !strings.Contains(sys, pb.Text) || !strings.Contains(sys, dials) {
			t.Fatalf("request for seat %d: model %q auth %q system %q", e.Seat, r.Model, r.Auth, sys)
		}
		if isMole := strings.Contains(sys, housemodel.MolePlaybook); isMole != (e.State.Me.Role == "mole") || isMole != (e.Seat == 1) {
			t.Fatalf("seat %d (role %q): mole playbook given %v", e.Seat, e.State.Me.Role, isMole)
		}
	}
	if mu.Lock(); perSeat[1] != 21 || perSeat[2] != 21 || len(reqs) != 42 {
		t.Fatalf("model asked %v (%d requests), want 21 moves a seat", perSeat, len(reqs))
	}
	mu.Unlock()
}

// TestOTSFallsBackWhenTheModelCannot: an off-the-shelf seat whose model fails a move in each way
// it can answers that move from the fallback policy, and the game says so in public
// (agent.scripted {seat, turn, phase}, once per phase). On Short (two exchanges a turn): content
// that is not JSON (scouting), a refusal (turn 1 exchange 1), no answer until the move's model
// deadline, a scheduled message on the arena's clock (exchange 2), an answer the game refuses
// whole (turn 1 commit), an answer naming another move (turn 2 exchange 1), a body that is not a
// chat-completions response (exchange 2), an error status (turn 2 commit). A slow answer in
// time (turn 3 exchange 1) and the good answers after it are the seat's own: nothing is
// announced for turn 3.
func TestOTSFallsBackWhenTheModelCannot(t *testing.T) {
	hung := make(chan struct{}, 1)
	_, model := stubModel(t, func(r modelstub.Request) modelstub.Reply {
		e := envelopeOf(t, r)
		switch at := fmt.Sprintf("%d/%s/%d", e.Turn, e.Phase, e.Exchange); at {
		case "0/scouting/0":
			return modelstub.Reply{Content: "Sure! Here is my move: {" + echoOf(e) + "}"}
		case "1/talk/1":
			return modelstub.Reply{Refusal: "I can't help with deceiving other players."}
		case "1/talk/2":
			hung <- struct{}{}
			return modelstub.Reply{Hang: true}
		case "1/commit/0":
			return modelstub.Reply{Content: "{" + echoOf(e) + `,"commitments":"one chip to seat 3"}`}
		case "2/talk/1":
			e.Turn = 3
			return modelstub.Reply{Content: playingAnswer(e)}
		case "2/talk/2":
			return modelstub.Reply{Raw: []byte("<html>bad gateway</html>")}
		case "2/commit/0":
			return modelstub.Reply{Status: 500, Raw: []byte(`{"error":{"message":"overloaded","type":"server_error"}}`)}
		case "3/talk/1":
			return modelstub.Reply{Content: playingAnswer(e), Delay: 50 * time.Millisecond}
		}
		return modelstub.Reply{Content: playingAnswer(e)}
	})
	h := otsHarness(t, model)
	spec := otsTable(t, h, "ots-fallback", "short", 3, map[int]blitz.Playbook{1: blitz.DefaultPlaybook()}, map[string]any{"mole": 2})
	round := h.open(spec)
	select {
	case <-hung:
	case <-time.After(waitMax):
		t.Fatal("the model was never asked turn 1 exchange 2")
	}
	h.clock.Advance(otsLimit("talk") + time.Second) // past the move's model deadline, inside the exchange
	h.waitEvent("round.revealed", and(roundIs(round), typeIs("round.revealed")))
	evs, _, err := h.arena.Transcript(context.Background(), round)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	own := map[int]int{}
	fallbackLines := map[int]int{}
	for _, e := range evs {
		var p struct {
			Seat  int    `json:"seat"`
			From  int    `json:"from"`
			Turn  int    `json:"turn"`
			Phase string `json:"phase"`
			Text  string `json:"text"`
		}
		_ = json.Unmarshal(e.Payload, &p)
		switch {
		case e.Type == "agent.scripted" && p.Seat == 1:
			if e.Visibility != games.Public {
				t.Fatalf("agent.scripted is %s", e.Visibility)
			}
			got = append(got, fmt.Sprintf("%d/%s", p.Turn, p.Phase))
		case e.Type == "message.public" && p.From == 1 && strings.HasPrefix(p.Text, "ots seat 1 says hello"):
			own[e.Turn]++
		case e.Type == "message.public" && p.From == 1:
			fallbackLines[e.Turn]++
		}
	}
	if want := []string{"0/scouting", "1/talk", "1/commit", "2/talk", "2/commit"}; fmt.Sprint(got) != fmt.Sprint(want) {
		t.Fatalf("seat 1 agent.scripted at %v, want %v", got, want)
	}
	// Turns 1 and 2 were answered by the fallback policy (a public line each exchange); turn 3
	// by the model.
	if fallbackLines[1] != 2 || fallbackLines[2] != 2 || fallbackLines[3] != 0 || own[1] != 0 || own[2] != 0 || own[3] != 2 {
		t.Fatalf("seat 1's lines: fallback %v, the model's %v", fallbackLines, own)
	}
}

// TestOTSWithNoModelPlaysTheFallback: with no house model configured every off-the-shelf move is
// answered from the fallback policy at once, and every phase says so (scouting, then talk and
// commit of each of the three turns on Short), and the round plays to the reveal.
func TestOTSWithNoModelPlaysTheFallback(t *testing.T) {
	h := otsHarness(t, nil)
	spec := otsTable(t, h, "ots-nomodel", "short", 3, map[int]blitz.Playbook{2: blitz.DefaultPlaybook()}, map[string]any{"mole": 1})
	round := h.open(spec)
	h.waitEvent("round.revealed", and(roundIs(round), typeIs("round.revealed")))
	evs, _, err := h.arena.Transcript(context.Background(), round)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, e := range evs {
		var p struct {
			Seat  int    `json:"seat"`
			Turn  int    `json:"turn"`
			Phase string `json:"phase"`
		}
		if e.Type == "agent.scripted" && json.Unmarshal(e.Payload, &p) == nil && p.Seat == 2 {
			got = append(got, fmt.Sprintf("%d/%s", p.Turn, p.Phase))
		}
	}
	if want := []string{"0/scouting", "1/talk", "1/commit", "2/talk", "2/commit", "3/talk", "3/commit"}; fmt.Sprint(got) != fmt.Sprint(want) {
		t.Fatalf("seat 2 agent.scripted at %v, want %v", got, want)
	}
}

// TestJoinOTSSeatsTheAgents: JoinOTS opens one Practice table with the off-the-shelf agents in
// seats 1 and 2 on the ots channel (kind ots, their Badges and names, not lent), house agents in
// the others, and each playbook in the table's options by seat; a Badge already seated, a Badge
// named twice, a bad playbook, no agent and a table with no house seat left are refused with
// their codes and open nothing.
func TestJoinOTSSeatsTheAgents(t *testing.T) {
	h := otsHarness(t, nil)
	ctx := context.Background()
	pb := blitz.Playbook{Text: "steady", Dials: blitz.Dials{Boldness: 1, Trust: 2, Chatter: 3}}
	ags := []OTSAgent{{Agent: otsAgent(1), Name: "Shelf One", Owner: "ccd:4221332d34e1694168c2a0c0b3fd0f27:own1", Playbook: pb, Grant: otsGrant(1)},
		{Agent: otsAgent(2), Name: "Shelf Two", Owner: "ccd:4221332d34e1694168c2a0c0b3fd0f27:own2", Playbook: blitz.DefaultPlaybook(), Grant: otsGrant(2)}}
	r, err := h.arena.JoinOTS(ctx, OTSJoin{Agents: ags, Table: "practice", Format: "blitz"})
	if err != nil {
		t.Fatal(err)
	}
	if r.Round == "" || fmt.Sprint(r.Seats) != "[1 2]" || r.Format != "blitz" || r.Status != "seated" {
		t.Fatalf("reply %+v", r)
	}
	st, err := h.arena.Stored(r.Table)
	if err != nil {
		t.Fatal(err)
	}
	if len(st.Seats) != 6 {
		t.Fatalf("%d seats", len(st.Seats))
	}
	for i, s := range st.Seats {
		if i < 2 {
			o, _ := blitz.SeatOptionsOf(s.Seat)
			if s.Channel != ChannelOTS || s.Kind != "ots" || s.Lent || s.Seat.Agent != ags[i].Agent || s.Seat.Name != ags[i].Name ||
				o.Kind != "ots" || !o.Human || !o.Walkin || o.Owner != ags[i].Owner {
				t.Fatalf("seat %d: %+v %+v", i+1, s, o)
			}
			continue
		}
		if s.Channel != actors.ChannelHouse || s.Kind != "house" {
			t.Fatalf("seat %d: %+v", i+1, s)
		}
	}
	var opts struct {
		Playbooks map[string]json.RawMessage `json:"playbooks"`
	}
	if err := json.Unmarshal(st.Options, &opts); err != nil || string(opts.Playbooks["1"]) != string(pb.JSON()) ||
		string(opts.Playbooks["2"]) != string(blitz.DefaultPlaybook().JSON()) || len(opts.Playbooks) != 2 {
		t.Fatalf("options %s (%v)", st.Options, err)
	}
	for _, c := range []struct {
		j    OTSJoin
		code string
	}{
		{OTSJoin{Agents: ags[:1], Table: "practice"}, CodeInARound},
		{OTSJoin{Agents: []OTSAgent{{Agent: otsAgent(3), Name: "A", Playbook: blitz.DefaultPlaybook(), Grant: otsGrant(3)}, {Agent: otsAgent(3), Name: "B", Playbook: blitz.DefaultPlaybook(), Grant: otsGrant(3)}}, Table: "practice"}, games.CodeBadRequest},
		{OTSJoin{Agents: []OTSAgent{{Agent: otsAgent(3), Name: "A", Playbook: blitz.Playbook{Dials: blitz.Dials{Trust: 11}}, Grant: otsGrant(3)}}, Table: "practice"}, games.CodeBadRequest},
		{OTSJoin{Table: "practice"}, games.CodeBadRequest},
		{OTSJoin{Agents: []OTSAgent{{Agent: otsAgent(3), Name: "A", Playbook: blitz.DefaultPlaybook()}}, Table: "practice"}, games.CodeBadRequest},
		{OTSJoin{Agents: []OTSAgent{{Agent: otsAgent(3), Name: "A", Playbook: blitz.DefaultPlaybook(), Grant: otsGrant(3)}, {Agent: otsAgent(4), Name: "B", Playbook: blitz.DefaultPlaybook(), Grant: otsGrant(4)}, {Agent: otsAgent(5), Name: "C", Playbook: blitz.DefaultPlaybook(), Grant: otsGrant(5)}}, Table: "practice", Format: "short"}, games.CodeBadRequest},
		{OTSJoin{Agents: []OTSAgent{{Agent: otsAgent(3), Name: "A", Playbook: blitz.DefaultPlaybook(), Grant: otsGrant(3)}}, Table: "open"}, CodeBadTable},
	} {
		_, err := h.arena.JoinOTS(ctx, c.j)
		if ge, ok := err.(*games.Error); !ok || ge.Code != c.code {
			t.Errorf("JoinOTS(%+v): %v, want %s", c.j, err, c.code)
		}
	}
	ts, err := h.arena.Tables(ctx)
	if err != nil || len(ts) != 1 {
		t.Fatalf("%d tables (%v), want the one", len(ts), err)
	}
}

// TestEditPlaybookUntilScoutingEnds: JoinOTS hands each seat a playbook token; with it the
// owner's human changes that seat's playbook while scouting lasts (the game's playbook.set, its
// canonical bytes in the reply), a token this arena did not make or that names another seat's
// MAC is unknown_token, and once scouting has closed (round.opened: the anchor is taken) the
// playbook is locked.
func TestEditPlaybookUntilScoutingEnds(t *testing.T) {
	h := otsHarness(t, nil)
	ctx := context.Background()
	pace := games.Pace{Name: "test", Steps: map[string]time.Duration{"scouting": time.Minute, "talk": time.Minute, "commit": time.Minute, "settle": time.Minute}}
	r, err := h.arena.JoinOTS(ctx, OTSJoin{Agents: []OTSAgent{{Agent: otsAgent(1), Name: "Shelf One", Playbook: blitz.DefaultPlaybook(), Grant: otsGrant(1)},
		{Agent: otsAgent(2), Name: "Shelf Two", Playbook: blitz.DefaultPlaybook(), Grant: otsGrant(2)}}, Table: "practice", Format: "short", Pace: pace})
	if err != nil {
		t.Fatal(err)
	}
	if len(r.PlaybookTokens) != 2 || r.PlaybookTokens[0] == r.PlaybookTokens[1] || !strings.HasPrefix(r.PlaybookTokens[0], "pb_"+r.Table+".1.") {
		t.Fatalf("tokens %v", r.PlaybookTokens)
	}
	h.waitEvent("scouting.started", and(roundIs(r.Round), typeIs("scouting.started")))
	reply, err := h.arena.EditPlaybook(ctx, r.PlaybookTokens[1], []byte(`{"text":"Trust seat 1.","dials":{"trust":9}}`))
	want := blitz.Playbook{Text: "Trust seat 1.", Dials: blitz.Dials{Boldness: 5, Trust: 9, Chatter: 5}}.JSON()
	if err != nil || string(reply) != `{"playbook":`+string(want)+`}` {
		t.Fatalf("edit: %s %v", reply, err)
	}
	h.waitEvent("playbook.set", and(roundIs(r.Round), typeIs("playbook.set"), func(e games.Event) bool { return e.Visibility == "private:2" }))
	forged := r.PlaybookTokens[0][:len(r.PlaybookTokens[0])-32] + strings.Repeat("0", 32)
	otherSeat := strings.Replace(r.PlaybookTokens[0], "."+"1"+".", ".2.", 1)
	for _, tok := range []string{"", "pb_", "w_abc", forged, otherSeat, r.PlaybookTokens[0] + "0"} {
		if _, err := h.arena.EditPlaybook(ctx, tok, []byte(`{}`)); codeOf(err) != CodeUnknownPlaybookToken {
			t.Errorf("token %q: %v", tok, err)
		}
	}
	if _, err := h.arena.EditPlaybook(ctx, r.PlaybookTokens[0], []byte(`{"dials":{"chatter":-1}}`)); codeOf(err) != games.CodeBadRequest {
		t.Fatalf("bad playbook: %v", err)
	}
	h.clock.Advance(time.Minute + time.Second)
	h.waitEvent("round.opened", and(roundIs(r.Round), typeIs("round.opened")))
	if _, err := h.arena.EditPlaybook(ctx, r.PlaybookTokens[0], []byte(`{}`)); codeOf(err) != blitz.CodePlaybookLocked {
		t.Fatalf("after scouting: %v", err)
	}
}

func codeOf(err error) string {
	var ge *games.Error
	if errors.As(err, &ge) {
		return ge.Code
	}
	return fmt.Sprint(err)
}

// TestOTSSeatThinksAgainAfterARestart: the arena stops while the house model is thinking an
// off-the-shelf move (turn 1 exchange 2); after the restart the table redelivers the open move,
// the ots channel asks the model again, with the seat's playbook as before, and takes its
// answer: the round plays to the reveal with every move of the seat the model's, the
// interrupted one once.
func TestOTSSeatThinksAgainAfterARestart(t *testing.T) {
	var mu sync.Mutex
	hung := make(chan struct{}, 1)
	seen := map[string]int{}
	stub, model := stubModel(t, func(r modelstub.Request) modelstub.Reply {
		e := envelopeOf(t, r)
		at := fmt.Sprintf("%d/%s/%d", e.Turn, e.Phase, e.Exchange)
		mu.Lock()
		seen[at]++
		n := seen[at]
		mu.Unlock()
		if at == "1/talk/2" && n == 1 {
			hung <- struct{}{}
			return modelstub.Reply{Hang: true}
		}
		return modelstub.Reply{Content: playingAnswer(e)}
	})
	h := otsHarness(t, model)
	pb := blitz.Playbook{Text: "Remember me after a restart.", Dials: blitz.DefaultPlaybook().Dials}
	round := h.open(otsTable(t, h, "ots-restart", "short", 3, map[int]blitz.Playbook{1: pb}, map[string]any{"mole": 2}))
	select {
	case <-hung:
	case <-time.After(waitMax):
		t.Fatal("the model was never asked turn 1 exchange 2")
	}
	h.stop()
	h.start()
	h.waitEvent("round.revealed", and(roundIs(round), typeIs("round.revealed")))
	evs, _, err := h.arena.Transcript(context.Background(), round)
	if err != nil {
		t.Fatal(err)
	}
	if sc := scriptedSeats(evs); sc[1] != 0 {
		t.Fatalf("seat 1 announced scripted %d times", sc[1])
	}
	lines := 0
	for _, e := range evs {
		var p struct {
			From int    `json:"from"`
			Text string `json:"text"`
		}
		if e.Type == "message.public" && json.Unmarshal(e.Payload, &p) == nil && p.From == 1 {
			if !strings.HasPrefix(p.Text, "ots seat 1 says hello") {
				t.Fatalf("seat 1 said %q: not the model's", p.Text)
			}
			lines++
		}
	}
	mu.Lock()
	again := seen["1/talk/2"]
	mu.Unlock()
	if lines != 6 || again != 2 {
		t.Fatalf("seat 1: %d lines (want 6), turn 1 exchange 2 asked %d times (want 2: before and after the restart)", lines, again)
	}
	for _, r := range stub.Requests() {
		if !strings.Contains(r.Messages[0].Content, pb.Text) {
			t.Fatalf("a request without the seat's playbook: %.200s", r.Messages[0].Content)
		}
	}
}

// TestOTSWithNoModelPaysNoInferenceFee: with no house model configured an off-the-shelf seat
// never thinks on one, so its round charges it the table fee alone (§14).
func TestOTSWithNoModelPaysNoInferenceFee(t *testing.T) {
	h := otsHarness(t, nil)
	spec := otsTable(t, h, "ots-nofee", "short", 3, map[int]blitz.Playbook{1: blitz.DefaultPlaybook()}, nil)
	round := h.open(spec)
	ev := h.waitEvent("round.settled", and(roundIs(round), typeIs("round.settled")))
	var p struct {
		Fees map[string]int64 `json:"fees"`
	}
	if err := json.Unmarshal(ev.Payload, &p); err != nil || len(p.Fees) != 1 || p.Fees["1"] != blitz.DefaultFees().Table {
		t.Fatalf("round.settled fees %s, want seat 1's table fee %d alone", ev.Payload, blitz.DefaultFees().Table)
	}
}

// TestOTSModelDeadline: the model is given §5.3's BYO deadline for the phase from delivery (13 s
// for a talk exchange or scouting, 20 s at commit), never past one second before the envelope's
// deadline, and half the time left on a move shorter than two seconds.
func TestOTSModelDeadline(t *testing.T) {
	for _, c := range []struct {
		phase string
		left  time.Duration // the envelope's deadline, from delivery
		want  time.Duration // the model's, from delivery
	}{
		{"talk", 13 * time.Second, 12 * time.Second},              // the agent clock's talk exchange
		{"commit", 20 * time.Second, 19 * time.Second},            // the agent clock's commit
		{"talk", 3 * time.Minute, 13 * time.Second},               // the chat clock: held to §5.3's
		{"commit", 3 * time.Minute, 20 * time.Second},             // likewise
		{"scouting", 90 * time.Second, 13 * time.Second},          // scouting as a talk exchange
		{"talk", 1500 * time.Millisecond, 750 * time.Millisecond}, // a short move: half of it
		{"talk", -time.Second, -time.Second / 2},                  // past: no time (the fallback at once)
	} {
		p := games.Prompt{Move: games.Move{Turn: 1, Phase: c.phase}, Deadline: t0.Add(c.left)}
		if got := otsBy(t0, p).Sub(t0); got != c.want {
			t.Errorf("%s, %v left: the model has %v, want %v", c.phase, c.left, got, c.want)
		}
	}
}
