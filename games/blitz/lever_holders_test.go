package blitz

import (
	"encoding/json"
	"reflect"
	"slices"
	"strings"
	"testing"

	"arena/games"
)

// leverSetup is six seats, mole 6 (broker), each seat's levers as §12 would have the product
// set them: 1 a walk-in (own), 2 and 5 house seats (none: still walk-in bodies the arena
// signs), 3 the one human's agent at AI speed (agent), 4 a human seat at a table of several
// (human), 6 a walk-in (the mole).
func leverSetup(t *testing.T) games.Setup {
	t.Helper()
	s := testSetup("blitz", 6, `{"mole":6,"task":{"kind":"broker","named":[]}}`)
	set := func(seat int, kind string, walkin, human bool, levers string) {
		seatOpts(&s.Seats[seat-1], func(o *SeatOptions) { o.Kind, o.Walkin, o.Human, o.Levers = kind, walkin, human, levers })
	}
	set(1, "walkin", true, true, LeversOwn)
	set(2, "house", true, false, LeversNone)
	set(3, "byo", true, true, LeversAgent)
	set(4, "byo", true, true, LeversHuman)
	set(5, "house", true, false, LeversNone)
	set(6, "walkin", true, true, LeversOwn)
	return s
}

// TestLeverHoldersAnswerAccusation: an accusation in an answer goes through the seat's lever
// only for a walk-in and an agent holding its human's lever (§12); a house seat's and a
// human-held seat's are ignored, not dropped, and the prompt lists accusation only where it
// applies. A house seat's accusation moves no stake: its payout is its entry less the bounty.
func TestLeverHoldersAnswerAccusation(t *testing.T) {
	h := newHarness(t, leverSetup(t))
	h.to(1, "talk", 1)
	for _, p := range h.m.Prompts() {
		has := slices.Contains(games.Names(p.Legal), "accusation")
		if want := p.Seat == 1 || p.Seat == 3; has != want {
			t.Fatalf("seat %d legal %v: accusation listed %v, want %v", p.Seat, games.Names(p.Legal), has, want)
		}
	}
	for seat := 1; seat <= 5; seat++ {
		if d := h.answer(seat, `{"accusation":6}`); len(d) != 0 {
			t.Fatalf("seat %d: dropped %+v (an accusation a seat may not carry is ignored, §12)", seat, d)
		}
	}
	var sealed []int
	for _, e := range h.events("accusation.sealed") {
		var p struct{ Seat, On int }
		if err := json.Unmarshal(e.Payload, &p); err != nil || p.On != 6 {
			t.Fatalf("accusation.sealed %s", e.Payload)
		}
		sealed = append(sealed, p.Seat)
	}
	if !reflect.DeepEqual(sealed, []int{1, 3}) {
		t.Fatalf("accusations sealed by seats %v, want [1 3]", sealed)
	}
	r := h.finish()
	acc := h.m.Accusations()
	if len(acc) != 2 || acc[0].Seat != 1 || acc[1].Seat != 3 || !acc[0].Correct || !acc[1].Correct {
		t.Fatalf("accusations resolved %+v", acc)
	}
	// Entry 200, bounty 10: collateral 100 + budget 90, untouched by any stake; the human seat
	// pays the 20 CCD table fee (§14).
	for seat, want := range map[int]int64{2: 190 * ccd, 4: 170 * ccd, 5: 190 * ccd} {
		if r.Payouts[seat] != want {
			t.Fatalf("seat %d payout %d, want %d: no accusation of its moved a stake", seat, r.Payouts[seat], want)
		}
	}
}

// TestLeverHoldersLeverInputs: lever inputs are the human's (§12). A house seat has none
// (refused, and me.levers all 0); a walk-in and a human seat hold all three; where the agent
// holds the accusation, the human's accuse is ai_speed (retry false) and its call and veto
// stay its own.
func TestLeverHoldersLeverInputs(t *testing.T) {
	h := newHarness(t, leverSetup(t))
	h.to(1, "talk", 1)
	for _, kind := range []string{"call", "accuse"} {
		body := map[string]string{"call": `{"text":"seat 6?"}`, "accuse": `{"seat":6}`}[kind]
		if _, err := h.act(2, kind, body); !isCode(err, CodeRefused, false) {
			t.Fatalf("house seat %s: %v", kind, err)
		}
	}
	if _, err := h.act(3, "accuse", `{"seat":6}`); !isCode(err, CodeAISpeed, false) {
		t.Fatalf("the human's accuse where its agent holds it: %v", err)
	}
	for _, seat := range []int{1, 3, 4} {
		if _, err := h.act(seat, "call", `{"text":"watch seat 6"}`); err != nil {
			t.Fatalf("seat %d call: %v", seat, err)
		}
	}
	for _, seat := range []int{1, 4} {
		if _, err := h.act(seat, "accuse", `{"seat":6}`); err != nil {
			t.Fatalf("seat %d accuse: %v", seat, err)
		}
	}
	h.to(1, "commit", 0)
	var me struct {
		Me struct {
			Levers struct{ Calls, Veto, Accusation int }
		}
	}
	for _, p := range h.m.Prompts() {
		if p.Seat != 2 {
			continue
		}
		if err := json.Unmarshal(p.State.Bytes(), &me); err != nil {
			t.Fatal(err)
		}
	}
	if me.Me.Levers.Calls != 0 || me.Me.Levers.Veto != 0 || me.Me.Levers.Accusation != 0 {
		t.Fatalf("house seat's me.levers %+v, want none", me.Me.Levers)
	}
	h.mustNoDrop(2, commitBody(`{"ref":"h","payee":1,"chips":2,"condition":{"always":true},"due":2}`))
	h.mustNoDrop(3, commitBody(`{"ref":"g","payee":1,"chips":2,"condition":{"always":true},"due":2}`))
	if _, err := h.act(2, "veto", `{"ref":"h"}`); !isCode(err, CodeRefused, false) {
		t.Fatalf("house seat veto: %v", err)
	}
	if _, err := h.act(3, "veto", `{"ref":"g"}`); err != nil {
		t.Fatalf("the human's veto where its agent holds the accusation: %v", err)
	}
}

// TestLeverHoldersEarlierRecords: a seat written before SeatOptions.Levers (empty) keeps the
// rule it was played under, so its input log replays to the same bytes: any Human or Walkin
// seat holds the levers, in its answers too.
func TestLeverHoldersEarlierRecords(t *testing.T) {
	s := testSetup("blitz", 6, `{"mole":6,"task":{"kind":"broker","named":[]}}`)
	seatOpts(&s.Seats[1], func(o *SeatOptions) { o.Kind = "house" }) // Walkin, Levers ""
	h := newHarness(t, s)
	h.to(1, "talk", 1)
	h.mustNoDrop(2, `{"accusation":6}`)
	if ev := h.events("accusation.sealed"); len(ev) != 1 || !strings.Contains(string(ev[0].Payload), `"seat":2`) {
		t.Fatalf("accusation.sealed %v", ev)
	}
	if _, err := h.act(2, "call", `{"text":"hi"}`); err != nil {
		t.Fatal(err)
	}
}

// TestLeverHoldersValidated: Levers is one of own, human, agent, none (or empty).
func TestLeverHoldersValidated(t *testing.T) {
	s := testSetup("blitz", 6, "")
	seatOpts(&s.Seats[0], func(o *SeatOptions) { o.Levers = "owner" })
	if _, err := NewEngine(DefaultFees()).New(s, newTestKeys(6)); err == nil || !strings.Contains(err.Error(), "levers") {
		t.Fatalf("New with levers %q: %v", "owner", err)
	}
}

// TestVetoAfterItsPhaseClosed: on the chat clock a walk-in's commit answer, the last one in,
// closes the phase (it holds no veto window: its answer is its human's word), so its veto of
// what it sent comes when the commitment is sealed or refused: not_now with retry false, as
// the same request can never succeed (§12). A veto naming a commitment not yet sent keeps
// retry true.
func TestVetoAfterItsPhaseClosed(t *testing.T) {
	s := testSetup("short", 3, `{"mole":3,"task":{"kind":"broker","named":[]}}`)
	s.Pace = ChatPace()
	seatOpts(&s.Seats[0], func(o *SeatOptions) { o.Human, o.Levers = true, LeversOwn })
	for i := 1; i < 3; i++ {
		seatOpts(&s.Seats[i], func(o *SeatOptions) { o.Kind, o.Levers = "house", LeversNone })
	}
	h := newHarness(t, s)
	h.to(1, "commit", 0)
	h.mustNoDrop(2, `{}`)
	h.mustNoDrop(3, `{}`)
	h.mustNoDrop(1, commitBody(`{"ref":"a","payee":2,"chips":4,"condition":{"always":true},"due":2}`,
		`{"ref":"b","payee":3,"chips":500,"condition":{"always":true},"due":2}`))
	if mv := h.m.Phase(); mv.Turn != 2 || mv.Phase != "talk" {
		t.Fatalf("the walk-in's answer left the move at %+v, want turn 2 talk", mv)
	}
	a := h.record("a")
	if rj := h.m.Rejections(); len(rj) != 1 || rj[0].Ref != "b" || rj[0].Code != CodeInsufficientUnlocked {
		t.Fatalf("rejections %+v", rj)
	}
	for _, body := range []string{`{"ref":"a"}`, `{"pending_id":"` + a.ID + `"}`, `{"ref":"b"}`} {
		if _, err := h.act(1, "veto", body); !isCode(err, CodeNotNow, false) {
			t.Fatalf("veto %s after its phase closed: %v", body, err)
		}
	}
	if _, err := h.act(1, "veto", `{"ref":"c"}`); !isCode(err, CodeNotNow, true) {
		t.Fatalf("veto of a commitment not yet sent: %v", err)
	}
	if len(h.events("commitment.vetoed")) != 0 {
		t.Fatal("a refused veto vetoed")
	}
}
