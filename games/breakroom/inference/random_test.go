package inference

import (
	"encoding/json"
	"math/rand/v2"
	"strconv"
	"testing"
	"time"

	"arena/games"
	"arena/games/breakroom"
)

// randomMatch plays a whole match of n seats (seed and deal key from rnd) with rnd choosing
// every seat's conduct: any legal action with a random legal amount, talk, missed deadlines
// (some seats reach the strike limit and sit out), dropped connections (away deadlines) and
// returns, and illegal moves now and then, each of which must be refused with its code and
// change nothing (refused). abandonAt > 0 abandons the match after that many prompts. after
// is called after every step that changed the match.
func randomMatch(t testing.TB, n int, opts string, rnd *rand.Rand, abandonAt int, after func(tb *table)) *table {
	t.Helper()
	tb := newTable(t, setupN(n, randomSeed(rnd), randomSeed(rnd), opts))
	if after != nil {
		after(tb)
	}
	texts := []string{"Too rich for you?", "I never bluff.", "line one\nline two", "日本語も話せます", "🙂"}
	for prompts := 0; tb.m.phase == phasePlaying; prompts++ {
		if abandonAt > 0 && prompts == abandonAt {
			st := tb.m.Abandon(tb.now.Add(time.Duration(rnd.IntN(900))*time.Millisecond), "server_shutdown")
			tb.evs = append(tb.evs, st.Events...)
			if after != nil {
				after(tb)
			}
			return tb
		}
		p := tb.open()
		seat := breakroom.WireSeat(p.Seat)
		for i := range tb.m.seats {
			if tb.m.seats[i].sittingOut && rnd.IntN(4) == 0 {
				_ = tb.presence(i, false)
			}
		}
		if rnd.IntN(8) == 0 {
			_ = tb.presence(seat, true)
		} else if tb.m.seats[seat].away && rnd.IntN(2) == 0 {
			_ = tb.presence(seat, false)
		}
		p = tb.open()
		if rnd.IntN(6) == 0 {
			refused(t, tb, p, rnd)
		}
		left := p.Deadline.Sub(tb.now)
		body := randomLegal(p, rnd)
		switch k := rnd.IntN(10); {
		case k < 2:
			tb.expire(seat)
		case k < 4:
			body["message"] = texts[rnd.IntN(len(texts))]
			b, _ := json.Marshal(body)
			tb.play(seat, time.Duration(1+rnd.Int64N(int64(left/time.Millisecond)-1))*time.Millisecond, string(b))
		default:
			b, _ := json.Marshal(body)
			tb.play(seat, time.Duration(1+rnd.IntN(2000))*time.Millisecond%left, string(b))
		}
		if after != nil {
			after(tb)
		}
	}
	return tb
}

// randomLegal is a legal move for p: any of its actions, a raise by any amount within its
// bounds, a call with or without its amount.
func randomLegal(p games.Prompt, rnd *rand.Rand) map[string]any {
	a := p.Legal[rnd.IntN(len(p.Legal))]
	body := map[string]any{"action": a.Name}
	var bd struct {
		Amount int64 `json:"amount"`
		Min    int64 `json:"min"`
		Max    int64 `json:"max"`
	}
	_ = json.Unmarshal(a.Bounds, &bd)
	switch a.Name {
	case ActionRaise:
		body["amount"] = bd.Min + rnd.Int64N(bd.Max-bd.Min+1)
	case ActionCall:
		if rnd.IntN(2) == 0 {
			body["amount"] = bd.Amount
		}
	}
	return body
}

// illegal is a move p must refuse, with the code it must carry.
type illegal struct {
	body string
	code string
}

// illegalFor draws a move p must refuse (§1.3): an action not offered, a raise out of bounds or
// without an amount, a call for another amount, a bad message, a body that is not an object.
func illegalFor(p games.Prompt, rnd *rand.Rand) illegal {
	offered := map[string]json.RawMessage{}
	for _, a := range p.Legal {
		offered[a.Name] = a.Bounds
	}
	var cands []illegal
	for _, a := range []string{ActionCheck, ActionCall, ActionFold, ActionRaise, "bet", "all_in", ""} {
		if _, ok := offered[a]; !ok {
			cands = append(cands, illegal{`{"action":"` + a + `"}`, breakroom.CodeIllegalMove})
		}
	}
	cands = append(cands, illegal{`{"amount":3}`, breakroom.CodeIllegalMove}, illegal{`[1,2]`, breakroom.CodeBadRequest},
		illegal{`{"action":7}`, breakroom.CodeBadRequest})
	if b, ok := offered[ActionRaise]; ok {
		var bd struct{ Min, Max int64 }
		_ = json.Unmarshal(b, &bd)
		for _, amt := range []string{"0", strconv.FormatInt(bd.Max+1, 10), "-1", "2.5", `"3"`, "null", "1.0", "{}"} {
			cands = append(cands, illegal{`{"action":"raise","amount":` + amt + `}`, breakroom.CodeBadAmount})
		}
		// A number past ±(2^53−1) is refused by the strict body decoder (breakroom.ParseBody).
		cands = append(cands, illegal{`{"action":"raise","amount":1e400}`, breakroom.CodeBadRequest})
		cands = append(cands, illegal{`{"action":"raise"}`, breakroom.CodeBadAmount},
			illegal{`{"action":"raise","amount":1,"message":"\u0007"}`, breakroom.CodeBadMessage})
	}
	if b, ok := offered[ActionCall]; ok {
		var bd struct{ Amount int64 }
		_ = json.Unmarshal(b, &bd)
		cands = append(cands, illegal{`{"action":"call","amount":` + strconv.FormatInt(bd.Amount+1, 10) + `}`, breakroom.CodeBadAmount})
	}
	long := make([]byte, 281)
	for i := range long {
		long[i] = 'a'
	}
	first := p.Legal[0].Name
	cands = append(cands, illegal{`{"action":"` + first + `","message":"` + string(long) + `"}`, breakroom.CodeBadMessage},
		illegal{`{"action":"` + first + `","message":5}`, breakroom.CodeBadMessage})
	return cands[rnd.IntN(len(cands))]
}

// refused sends p's seat an illegal move (and a move from another seat, and one for a stale
// turn) and checks each is refused with its code and changes nothing: the same views, prompts,
// deadline and no event.
func refused(t testing.TB, tb *table, p games.Prompt, rnd *rand.Rand) {
	t.Helper()
	before := snapshot(tb)
	try := func(in games.Input, code string) {
		t.Helper()
		st, err := tb.m.Act(tb.now, in)
		var ge *games.Error
		if err == nil || !asGamesError(err, &ge) || ge.Code != code {
			t.Fatalf("%s from seat %d: %v (%+v), want %s", in.Body, in.Seat, err, st, code)
		}
		if len(st.Events) > 0 || len(st.Prompts) > 0 || snapshot(tb) != before {
			t.Fatalf("refused %s changed the match", in.Body)
		}
	}
	il := illegalFor(p, rnd)
	try(games.Input{Seat: p.Seat, Kind: "answer", Move: p.Move, Body: json.RawMessage(il.body)}, il.code)
	other := 1 + (p.Seat % len(tb.m.seats))
	try(games.Input{Seat: other, Kind: "answer", Move: p.Move, Body: json.RawMessage(`{"action":"fold"}`)}, breakroom.CodeNotYourTurn)
	r, turn, _ := breakroom.RoundTurn(p.Move)
	try(games.Input{Seat: p.Seat, Kind: "answer", Move: breakroom.MoveOf(r, turn+1), Body: json.RawMessage(`{"action":"fold"}`)}, breakroom.CodeStaleTurn)
	try(games.Input{Seat: len(tb.m.seats) + 1, Kind: "answer", Move: p.Move, Body: json.RawMessage(`{"action":"fold"}`)}, breakroom.CodeNotSeated)
}

// snapshot is every view and the open prompt, as bytes.
func snapshot(tb *table) string {
	s := string(tb.m.View(0).Bytes())
	for v := 1; v <= len(tb.m.seats); v++ {
		s += string(tb.m.View(v).Bytes())
	}
	for _, p := range tb.m.Prompts() {
		b, _ := json.Marshal(p.Legal)
		s += string(b) + p.Deadline.String() + string(p.State.Bytes())
	}
	dl, ok := tb.m.Deadline()
	return s + dl.String() + strconv.FormatBool(ok) + strconv.FormatInt(tb.m.seq, 10)
}

func asGamesError(err error, target **games.Error) bool {
	for err != nil {
		if e, ok := err.(*games.Error); ok {
			*target = e
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

// randomSeed is 32 bytes drawn from rnd.
func randomSeed(rnd *rand.Rand) [32]byte {
	var s [32]byte
	for i := range s {
		s[i] = byte(rnd.Uint32())
	}
	return s
}

func newRand(k uint64) *rand.Rand { return rand.New(rand.NewPCG(k, k^0x9e3779b97f4a7c15)) }
