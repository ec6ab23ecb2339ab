package diplomacy

import (
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"testing"

	"arena/games"
	"arena/games/breakroom"
)

func (tb *table) timeout() {
	tb.t.Helper()
	o := tb.m.open
	if o == nil {
		tb.t.Fatal("no open prompt to time out")
	}
	tb.now = o.deadline
	tb.evs = append(tb.evs, tb.m.Advance(o.deadline).Events...)
}

// TestCivilDisorder: three order sets missed in a row put a power in civil disorder (logged
// after the phase's adjudication, never prompted again, its units hold); a request from its key
// brings it back at the next phase, with its strikes reset.
func TestCivilDisorder(t *testing.T) {
	tb := newTable(t, setup(seq0(), `{"press_rounds":0}`)) // seat 0 is FRA
	hold := func(seats ...int) {
		for _, s := range seats {
			tb.play(s, orders())
		}
	}
	for phase := 0; phase < 3; phase++ { // S1901M, F1901M (nobody moves: no winter), S1902M
		tb.timeout()
		hold(1, 2, 3, 4)
	}
	cd := tb.lines("civil_disorder")
	if len(cd) != 1 || cd[0]["seat"] != 0.0 || cd[0]["power"] != "FRA" || cd[0]["on"] != true || cd[0]["round"] != 3.0 {
		t.Fatalf("civil_disorder %v", cd)
	}
	var strikes []float64
	for _, l := range tb.lines("timeout_private") {
		strikes = append(strikes, l["strikes"].(float64))
		if l["auto"] != "hold" {
			t.Errorf("timeout auto %v", l["auto"])
		}
	}
	if len(strikes) != 3 || strikes[2] != 3 {
		t.Fatalf("strikes %v", strikes)
	}
	// F1902M: FRA is not prompted; its units hold in the orders line.
	if tb.m.open.seat != 1 {
		t.Fatalf("F1902M opens with seat %d, want 1 (FRA is in civil disorder)", tb.m.open.seat)
	}
	if _, err := tb.m.Act(tb.now, games.Input{Seat: 1, Kind: KindPresence, Body: json.RawMessage(`{"away":false}`)}); err != nil {
		t.Fatalf("presence: %v", err)
	}
	hold(1, 2, 3, 4)
	ol := tb.lines("orders")
	if got := ol[len(ol)-1]["orders"].(map[string]any)["FRA"]; strings.Join(toStrings(got), ",") != "F bre H,A mar H,A par H" {
		t.Errorf("FRA's orders in F1902M: %v", got)
	}
	cd = tb.lines("civil_disorder")
	if len(cd) != 2 || cd[1]["on"] != false || cd[1]["seat"] != 0.0 || cd[1]["round"] != 5.0 {
		t.Fatalf("back from civil disorder: %v", cd)
	}
	if tb.m.open.seat != 0 || tb.m.seats[0].strikes != 0 || tb.m.st.Disorder["FRA"] {
		t.Fatalf("S1903M: open seat %d, FRA strikes %d, disorder %v", tb.m.open.seat, tb.m.seats[0].strikes, tb.m.st.Disorder["FRA"])
	}
}

func toStrings(v any) []string {
	var out []string
	for _, x := range v.([]any) {
		out = append(out, x.(string))
	}
	return out
}

// TestRefusals: each refusal carries the protocol's code, leaves the turn open and writes nothing.
func TestRefusals(t *testing.T) {
	tb := newTable(t, setup(seq0(), ""))
	o := tb.m.open
	at := o.opened.Add(1)
	try := func(seat int, move games.Move, body, code, detail string) {
		t.Helper()
		st, err := tb.m.Act(at, games.Input{Seat: breakroom.HouseSeat(seat), Kind: "answer", Move: move, Body: json.RawMessage(body)})
		var ge *games.Error
		if !errors.As(err, &ge) || ge.Code != code || !strings.Contains(err.Error(), detail) {
			t.Errorf("%s: err %v, want %s %q", body, err, code, detail)
		}
		if len(st.Events) != 0 || tb.m.open != o {
			t.Errorf("%s: a refusal changed the match", body)
		}
	}
	mv := o.prompt.Move
	try(1, mv, `{"action":"done"}`, breakroom.CodeNotYourTurn, "not seat 1's turn")
	try(0, breakroom.MoveOf(1, 5), `{"action":"done"}`, breakroom.CodeStaleTurn, "not the open turn")
	try(0, mv, `[1]`, breakroom.CodeBadRequest, "JSON object")
	try(0, mv, `{"action":"orders","orders":[]}`, breakroom.CodeIllegalMove, "legal are send, broadcast, done")
	try(0, mv, `{"action":"send","recipient":0,"message":"hi"}`, breakroom.CodeIllegalMove, "recipient must be one of [1 2 3 4]")
	try(0, mv, `{"action":"send","recipient":"1","message":"hi"}`, breakroom.CodeIllegalMove, "recipient")
	try(0, mv, `{"action":"send","recipient":1}`, breakroom.CodeBadMessage, "required")
	try(0, mv, `{"action":"broadcast","message":"`+strings.Repeat("x", 501)+`"}`, breakroom.CodeBadMessage, "")
	// To the orders of S1901M.
	for tb.m.step == stepPress {
		tb.play(tb.m.open.seat, `{"action":"done"}`)
	}
	o = tb.m.open
	at, mv = o.opened.Add(1), o.prompt.Move
	try(0, mv, `{"action":"done"}`, breakroom.CodeIllegalMove, "legal is orders")
	try(0, mv, `{"action":"orders","orders":"A par - bur"}`, breakroom.CodeIllegalMove, "list of order strings")
	try(0, mv, `{"action":"orders","orders":["A par - bur","A par - pic"]}`, breakroom.CodeIllegalMove, "a second order for the unit at par")
	try(0, mv, `{"action":"orders","orders":["A lon - wal"]}`, breakroom.CodeIllegalMove, "FRA has no army at lon")
}

// TestSpectatorView: the spectator's view has no seat or own field and shows only the
// broadcasts; a seat's view shows the press it sent or received.
func TestSpectatorView(t *testing.T) {
	tb := newTable(t, setup(seq0(), ""))
	tb.play(0, `{"action":"send","recipient":1,"message":"private one"}`)
	tb.play(0, `{"action":"broadcast","message":"open one"}`)
	spec := string(tb.m.View(0).Bytes())
	var top map[string]json.RawMessage
	if err := json.Unmarshal([]byte(spec), &top); err != nil {
		t.Fatal(err)
	}
	for _, own := range []string{"seat", "power", "options", "dislodged", "adjustment"} {
		if _, ok := top[own]; ok {
			t.Errorf("spectator view has %q: %s", own, spec)
		}
	}
	if strings.Contains(spec, "private one") {
		t.Errorf("spectator view holds the private press: %s", spec)
	}
	if !strings.Contains(spec, "open one") {
		t.Errorf("spectator view lacks the broadcast: %s", spec)
	}
	if v := string(tb.m.View(2).Bytes()); !strings.Contains(v, "private one") || !strings.Contains(v, `"seat":1`) {
		t.Errorf("recipient's view: %s", v)
	}
	if v := string(tb.m.View(3).Bytes()); strings.Contains(v, "private one") {
		t.Errorf("a third seat sees the private press: %s", v)
	}
}

// TestPressBudget: a press list too long for the frame keeps its newest entries and says
// "truncated": true (§1.8), and the state stays within breakroom.StateBudget.
func TestPressBudget(t *testing.T) {
	tb := newTable(t, setup(seq0(), `{"press_rounds":1}`))
	for k := 0; k < 15; k++ {
		tb.play(tb.m.open.seat, `{"action":"broadcast","message":"`+strings.Repeat(string(rune('a'+k)), 500)+`"}`)
	}
	st := tb.m.open.prompt.State.Bytes()
	if len(st) > breakroom.StateBudget || !strings.Contains(string(st), `"truncated":true`) || !strings.Contains(string(st), strings.Repeat("o", 500)) {
		t.Fatalf("state of %d bytes (budget %d), truncated? %v", len(st), breakroom.StateBudget, strings.Contains(string(st), "truncated"))
	}
	if strings.Contains(string(st), strings.Repeat("a", 500)) {
		t.Error("the oldest broadcast was kept and a newer one dropped")
	}
}

// TestCivilDisorderCountsOrderSetsOnly: civil disorder comes after three order sets missed in a
// row (§6.10), never from press: a seat that lets every press turn of five press rounds time out
// but orders every phase keeps its strikes at 0 and is prompted throughout; a seat that misses
// everything is put in civil disorder after its third missed order set, not its third timeout.
func TestCivilDisorderCountsOrderSetsOnly(t *testing.T) {
	tb := newTable(t, setup(seq0(), `{"press_rounds":5}`)) // seat 0 is FRA, seat 1 silent in press
	for phase := 0; phase < 4; phase++ {
		for tb.m.step == stepPress {
			switch tb.m.open.seat {
			case 0:
				tb.timeout() // FRA misses everything
			case 1:
				tb.timeout() // seat 1 never writes
			default:
				tb.play(tb.m.open.seat, `{"action":"done"}`)
			}
		}
		for tb.m.step == stepOrders && tb.m.open != nil {
			if tb.m.open.seat == 0 {
				tb.timeout()
			} else {
				tb.play(tb.m.open.seat, orders())
			}
		}
		cd := tb.lines("civil_disorder")
		if phase < 2 && len(cd) != 0 {
			t.Fatalf("phase %d: civil_disorder %v before FRA's third missed order set", phase, cd)
		}
		if phase >= 2 && (len(cd) != 1 || cd[0]["seat"] != 0.0 || cd[0]["on"] != true) {
			t.Fatalf("phase %d: civil_disorder %v, want FRA's alone after its third missed order set", phase, cd)
		}
		if tb.m.seats[1].strikes != 0 || tb.m.st.Disorder[tb.m.seats[1].power] {
			t.Fatalf("phase %d: the seat silent in press has %d strikes, disorder %v", phase, tb.m.seats[1].strikes, tb.m.st.Disorder[tb.m.seats[1].power])
		}
	}
	var fra []float64
	for _, l := range tb.lines("timeout_private") {
		if l["seat"] == 0.0 {
			fra = append(fra, l["strikes"].(float64))
		}
	}
	// FRA: 5 press timeouts at strike 0, its first order set; 5 at 1, the second; 5 at 2, the third.
	want := []float64{0, 0, 0, 0, 0, 1, 1, 1, 1, 1, 1, 2, 2, 2, 2, 2, 2, 3}
	if fmt.Sprint(fra) != fmt.Sprint(want) {
		t.Fatalf("FRA's timeout strikes %v, want %v", fra, want)
	}
}
