package dilemma

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"testing"
	"time"

	"arena/games"
	"arena/games/breakroom"
)

// decision is one prompt's scripted answer.
type decision struct {
	timeout bool
	delay   time.Duration
	action  string
	message string
}

// observe plays a match of n seats from script, with prompt flip's action flipped, and returns
// what each viewer (0 the spectators, v a seat) could observe at each step: the events it may
// read before the end, the prompts it got, and its view. closeStep is the step at which prompt
// flip's iteration closed; last the step that ended the match.
func observe(t *testing.T, n int, seed [32]byte, script []decision, flip int) (obs [][][]byte, closeStep, last int) {
	tb := newTable(t, setupN(n, seed, `{"stop_one_in":3,"max_iterations":6}`))
	record := func(st games.Step) {
		row := make([][]byte, n+1)
		for v := 0; v <= n; v++ {
			var b []byte
			for _, e := range st.Events {
				if e.Visibility.Shows(v, false) {
					b = fmt.Appendf(b, "%s %s %s\n", e.Type, e.At, e.Payload)
				}
			}
			for _, p := range st.Prompts {
				if p.Seat == v {
					b = fmt.Appendf(b, "prompt %+v %s %s\n", p.Move, p.Deadline, p.State.Bytes())
				}
			}
			b = append(b, tb.m.View(v).Bytes()...)
			row[v] = b
		}
		obs = append(obs, row)
	}
	closeStep = -1
	var flipIter [2]int
	for k := 0; tb.m.phase == phasePlaying; k++ {
		d := script[k%len(script)]
		p := tb.open()
		var st games.Step
		if d.timeout {
			st = tb.m.Advance(p.Deadline)
			tb.now = p.Deadline
		} else {
			action := d.action
			if k == flip {
				action = map[string]string{ActionCooperate: ActionDefect, ActionDefect: ActionCooperate}[action]
				flipIter = [2]int{tb.m.round, tb.m.iteration}
			}
			body := map[string]string{"action": action}
			if d.message != "" {
				body["message"] = d.message
			}
			b, _ := json.Marshal(body)
			at := tb.now.Add(d.delay)
			var err error
			st, err = tb.m.Act(at, games.Input{Seat: p.Seat, Kind: "answer", Move: p.Move, Body: b})
			if err != nil {
				t.Fatal(err)
			}
			tb.now = at
		}
		record(st)
		if closeStep < 0 && flipIter[0] > 0 {
			for _, e := range st.Events {
				if e.Type == "iteration_end" && bytes.Contains(e.Payload, fmt.Appendf(nil, `"iteration":%d,"round":%d}`, flipIter[1], flipIter[0])) {
					closeStep = len(obs) - 1
				}
			}
		}
	}
	return obs, closeStep, len(obs) - 1
}

// TestNonInterference: flipping one seat's sealed choice changes nothing any other seat or a
// spectator can observe before the match ends (public lines, its events, prompts and views),
// but for its opponent from the moment that iteration closes: no sealed choice is visible to
// another seat, or in public, before its time. Many random scripts, tables of 3 to 6.
func TestNonInterference(t *testing.T) {
	rnd := rand.New(rand.NewPCG(5, 8))
	for k := range 24 {
		n := 3 + k%4
		seed := randomSeed(rnd)
		script := make([]decision, 50+rnd.IntN(50))
		for i := range script {
			script[i] = decision{timeout: rnd.IntN(7) == 0, delay: time.Duration(1+rnd.IntN(9000)) * time.Millisecond,
				action: []string{ActionCooperate, ActionDefect}[rnd.IntN(2)]}
			if rnd.IntN(4) == 0 {
				script[i].message = "I will cooperate if you do."
			}
		}
		base, _, _ := observe(t, n, seed, script, -1)
		flip := rnd.IntN(len(base) - 1)
		for script[flip%len(script)].timeout {
			flip = (flip + 1) % (len(base) - 1)
		}
		// Which seat and opponent the flipped prompt belongs to: replay to it.
		tb := newTable(t, setupN(n, seed, `{"stop_one_in":3,"max_iterations":6}`))
		for i := 0; i < flip; i++ {
			d := script[i%len(script)]
			p := tb.open()
			if d.timeout {
				tb.expire(breakroom.WireSeat(p.Seat))
			} else {
				tb.play(breakroom.WireSeat(p.Seat), d.delay, `{"action":"`+d.action+`"}`)
			}
		}
		seat := breakroom.WireSeat(tb.open().Seat)
		opp := tb.m.seats[seat].rounds[tb.m.round-1].opp
		flipped, closeStep, last := observe(t, n, seed, script, flip)
		if len(flipped) != len(base) || closeStep < 0 {
			t.Fatalf("match %d: the flipped match has %d steps (close at %d), the base %d", k, len(flipped), closeStep, len(base))
		}
		for j := 0; j < last; j++ {
			for v := 0; v <= n; v++ {
				w := breakroom.WireSeat(v)
				if v >= 1 && (w == seat || w == opp && j >= closeStep) {
					continue
				}
				if !bytes.Equal(base[j][v], flipped[j][v]) {
					t.Fatalf("match %d: seat %d's choice at prompt %d (opponent %d) shows to viewer %d at step %d (closed at %d):\n%s\n%s",
						k, seat, flip, opp, v, j, closeStep, base[j][v], flipped[j][v])
				}
			}
		}
		if bytes.Equal(base[last][0], flipped[last][0]) || bytes.Equal(base[closeStep][breakroom.HouseSeat(opp)], flipped[closeStep][breakroom.HouseSeat(opp)]) {
			t.Fatalf("match %d: the flip does not show in the ranking, or to the opponent at the close", k)
		}
	}
}
