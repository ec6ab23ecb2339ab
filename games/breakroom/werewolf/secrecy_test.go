package werewolf

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
	"time"

	"arena/games"
	"arena/games/breakroom"
)

// decision is one prompt's scripted answer, by index into what the prompt offers: the action
// (k mod the number of actions), its target (j mod the number of targets), a message where the
// action carries one, or a timeout.
type decision struct {
	timeout bool
	delay   time.Duration
	k, j    int
	message string
}

// bodyFor is d's body for prompt p, with the action moved on by shift (the flipped move).
func bodyFor(p games.Prompt, d decision, shift int) string {
	a := p.Legal[(d.k+shift)%len(p.Legal)]
	body := map[string]any{"action": a.Name}
	if ts := targetsOf(a); len(ts) > 0 {
		body["target"] = ts[(d.j+shift)%len(ts)]
	}
	if a.Name == ActionSay || d.message != "" && strings.Contains(string(a.Bounds), "max_message_chars") {
		body["message"] = d.message + "."
	}
	b, _ := json.Marshal(body)
	return string(b)
}

// observe plays a match of n seats from script, with prompt flip's move changed, and returns
// what each viewer (0 the spectators, v a seat) could observe at each step: the events it may
// read before the end, the prompts it got, and its view.
func observe(t *testing.T, n int, seed [32]byte, script []decision, flip int) (obs [][]string, bodies []string) {
	tb := newTable(t, setupN(n, seed, ""))
	record := func(st games.Step) {
		row := make([]string, n+1)
		for v := 0; v <= n; v++ {
			var b []byte
			for _, e := range st.Events {
				if e.Visibility.Shows(v, false) {
					b = fmt.Appendf(b, "%s %s %s\n", e.Type, e.At, e.Payload)
				}
			}
			for _, p := range st.Prompts {
				if p.Seat == v {
					lj, _ := json.Marshal(p.Legal)
					b = fmt.Appendf(b, "prompt %+v %s %s %s\n", p.Move, p.Deadline, lj, p.State.Bytes())
				}
			}
			b = append(b, tb.m.View(v).Bytes()...)
			row[v] = string(b)
		}
		obs = append(obs, row)
	}
	record(games.Step{Events: tb.evs, Prompts: tb.m.Prompts()})
	for k := 0; tb.m.phase == phasePlaying; k++ {
		d := script[k%len(script)]
		p := tb.open()
		var st games.Step
		if d.timeout && k != flip {
			st = tb.advance(p.Deadline)
			bodies = append(bodies, "timeout")
		} else {
			shift := 0
			if k == flip {
				shift = 1
			}
			body := bodyFor(p, d, shift)
			bodies = append(bodies, body)
			st = tb.play(breakroom.WireSeat(p.Seat), d.delay, body)
		}
		record(st)
	}
	return obs, bodies
}

// TestNonInterference: changing one seat's sealed move (a night action or a vote) changes
// nothing any seat it is not shown to, or a spectator, can observe (events, prompts, views)
// before the phase closes: no night action or sealed vote reaches a non-pack seat, a spectator
// or a public line before its time. A wolf's pick reaches the living pack at once, a seer's
// inspection and a doctor's protection only themselves. Many random scripts, tables of 5 to 8.
func TestNonInterference(t *testing.T) {
	rnd := rand.New(rand.NewPCG(5, 8))
	matches := 120
	if testing.Short() || raceOn {
		matches = 24
	}
	for k := range matches {
		n := 5 + k%4
		seed := randomSeed(rnd)
		script := make([]decision, 40+rnd.IntN(60))
		for i := range script {
			script[i] = decision{timeout: rnd.IntN(9) == 0, delay: time.Duration(1+rnd.IntN(9000)) * time.Millisecond,
				k: rnd.IntN(4), j: rnd.IntN(8)}
			if rnd.IntN(3) == 0 {
				script[i].message = "I trust seat " + fmt.Sprint(rnd.IntN(n))
			}
		}
		base, _ := observe(t, n, seed, script, -1)
		// Pick a sealed prompt with a choice to change, and learn whose it is by replaying to it.
		tb := newTable(t, setupN(n, seed, ""))
		flip, seat, stage, round := -1, -1, "", 0
		var pack []int
		for i := 0; tb.m.phase == phasePlaying; i++ {
			p := tb.open()
			d := script[i%len(script)]
			sealed := tb.m.stage != PhaseDiscussion
			choice := len(p.Legal) > 1 || len(targetsOf(p.Legal[0])) > 1
			if sealed && choice && !d.timeout && flip < 0 && rnd.IntN(6) == 0 {
				flip, seat, stage, round = i, breakroom.WireSeat(p.Seat), tb.m.stage, tb.m.round
				if tb.m.seats[seat].role == RoleWolf && stage == PhaseNight {
					pack = tb.m.livingPack()
				}
				break
			}
			if d.timeout {
				tb.advance(p.Deadline)
			} else {
				tb.play(breakroom.WireSeat(p.Seat), d.delay, bodyFor(p, d, 0))
			}
		}
		if flip < 0 {
			continue
		}
		flipped, bodies := observe(t, n, seed, script, flip)
		// The step that closes the flipped prompt's phase: its dawn or vote_result.
		closeLine := "dawn"
		if stage == PhaseVote {
			closeLine = "vote_result"
		}
		closeStep := -1
		for j := flip + 1; j < len(flipped) && closeStep < 0; j++ {
			if strings.Contains(flipped[j][0], closeLine+" ") && strings.Contains(flipped[j][0], fmt.Sprintf(`"round":%d`, round)) {
				closeStep = j
			}
		}
		if closeStep < 0 {
			t.Fatalf("match %d: the flipped prompt's phase never closes", k)
		}
		for j := 0; j < closeStep && j < len(base); j++ {
			for v := 0; v <= n; v++ {
				w := breakroom.WireSeat(v)
				if v >= 1 && (w == seat || slices.Contains(pack, w)) {
					continue
				}
				if base[j][v] != flipped[j][v] {
					t.Fatalf("match %d: seat %d's %s move at prompt %d (%s) shows to viewer %d at step %d, before its phase closes at %d:\n%s\n%s",
						k, seat, stage, flip, bodies[flip], v, j, closeStep, base[j][v], flipped[j][v])
				}
			}
		}
		if base[flip+1][breakroom.HouseSeat(seat)] == flipped[flip+1][breakroom.HouseSeat(seat)] {
			t.Fatalf("match %d: the flip does not show to its own seat", k)
		}
	}
}

// TestNightPromptsAlike: at night every living seat is prompted, each with the same deadline
// and a state of the same members whatever its role; a villager is offered only sleep, and the
// legal actions are §3.4's for each role.
func TestNightPromptsAlike(t *testing.T) {
	rnd := newRand(3)
	for k := range 40 {
		n := 5 + k%4
		tb := newTable(t, setupN(n, randomSeed(rnd), ""))
		var keys []string
		for i := 0; i < n; i++ {
			p := tb.open()
			seat := breakroom.WireSeat(p.Seat)
			if seat != i || tb.m.stage != PhaseNight {
				t.Fatalf("night 1 prompt %d is seat %d's in %s", i, seat, tb.m.stage)
			}
			if p.Deadline.Sub(tb.now) != 20*time.Second {
				t.Fatalf("seat %d's deadline is %v away", seat, p.Deadline.Sub(tb.now))
			}
			var st map[string]json.RawMessage
			if err := json.Unmarshal(p.State.Bytes(), &st); err != nil {
				t.Fatal(err)
			}
			var ks []string
			for key := range st {
				ks = append(ks, key)
			}
			slices.Sort(ks)
			if keys == nil {
				keys = ks
			} else if !slices.Equal(keys, ks) {
				t.Fatalf("seat %d (%s) has state members %v, seat 0 %v", seat, tb.m.seats[seat].role, ks, keys)
			}
			lj, _ := json.Marshal(p.Legal)
			var want string
			switch role := tb.m.seats[seat].role; role {
			case RoleVillager:
				want = `[{"action":"sleep"}]`
			case RoleSeer:
				want = `[{"action":"inspect","targets":` + seatsJSON(n, func(j int) bool { return j != seat }) + `},{"action":"sleep"}]`
			case RoleDoctor:
				want = `[{"action":"protect","targets":` + seatsJSON(n, func(int) bool { return true }) + `},{"action":"sleep"}]`
			case RoleWolf:
				want = `[{"action":"kill","targets":` + seatsJSON(n, func(j int) bool { return tb.m.seats[j].role != RoleWolf }) +
					`,"max_message_chars":280},{"action":"sleep","max_message_chars":280}]`
			}
			if string(lj) != want {
				t.Fatalf("seat %d (%s): legal_actions %s, §3.4 says %s", seat, tb.m.seats[seat].role, lj, want)
			}
			tb.do(seat, ActionSleep, -1)
		}
	}
}

func seatsJSON(n int, keep func(int) bool) string {
	var s []int
	for j := range n {
		if keep(j) {
			s = append(s, j)
		}
	}
	b, _ := json.Marshal(s)
	return string(b)
}

// TestRolesDoNotShow: swapping the roles of two non-wolf seats before the match opens (a
// villager and the seer, say) changes nothing any other seat, wolves included, or a spectator
// can observe (events, prompts with their legal actions and states, views) before the first
// dawn, the first point where a power's use may show: no role reaches another seat through a
// public line, a prompt's shape or timing, or a view.
func TestRolesDoNotShow(t *testing.T) {
	rnd := rand.New(rand.NewPCG(9, 10))
	for k := range 60 {
		n := 5 + k%4
		seed := randomSeed(rnd)
		script := make([]decision, n+2)
		for i := range script {
			script[i] = decision{timeout: rnd.IntN(9) == 0, delay: time.Duration(1+rnd.IntN(9000)) * time.Millisecond, k: rnd.IntN(4), j: rnd.IntN(8)}
			if rnd.IntN(2) == 0 {
				script[i].message = "psst"
			}
		}
		roles := Deal(seed, RolesFor(n))
		var power, plain []int
		for i, r := range roles {
			switch r {
			case RoleSeer, RoleDoctor:
				power = append(power, i)
			case RoleVillager:
				plain = append(plain, i)
			}
		}
		a, b := power[rnd.IntN(len(power))], plain[rnd.IntN(len(plain))]
		play := func(swap bool) [][]string {
			mm, err := Engine{}.New(setupN(n, seed, ""), nil)
			if err != nil {
				t.Fatal(err)
			}
			m := mm.(*match)
			if swap {
				m.seats[a].role, m.seats[b].role = m.seats[b].role, m.seats[a].role
			}
			tb := &table{t: t, m: m, now: t0}
			var obs [][]string
			record := func(st games.Step) bool {
				row := make([]string, n+1)
				dawn := false
				for v := 0; v <= n; v++ {
					var s []byte
					for _, e := range st.Events {
						dawn = dawn || e.Type == "dawn"
						if e.Visibility.Shows(v, false) {
							s = fmt.Appendf(s, "%s %s %s\n", e.Type, e.At, e.Payload)
						}
					}
					for _, p := range st.Prompts {
						if p.Seat == v {
							lj, _ := json.Marshal(p.Legal)
							s = fmt.Appendf(s, "prompt %+v %s %s %s\n", p.Move, p.Deadline, lj, p.State.Bytes())
						}
					}
					row[v] = string(append(s, tb.m.View(v).Bytes()...))
				}
				if !dawn {
					obs = append(obs, row)
				}
				return dawn
			}
			if record(tb.advance(t0)) {
				return obs
			}
			for i := 0; ; i++ {
				p := tb.open()
				d := script[i%len(script)]
				var st games.Step
				if d.timeout {
					st = tb.advance(p.Deadline)
				} else {
					st = tb.play(breakroom.WireSeat(p.Seat), d.delay, bodyFor(p, d, 0))
				}
				if record(st) {
					return obs
				}
			}
		}
		base, swapped := play(false), play(true)
		if len(base) != len(swapped) {
			t.Fatalf("match %d: %d steps before dawn, %d with seats %d and %d swapped", k, len(base), len(swapped), a, b)
		}
		for j := range base {
			for v := 0; v <= n; v++ {
				if w := breakroom.WireSeat(v); v >= 1 && (w == a || w == b) {
					continue
				}
				if base[j][v] != swapped[j][v] {
					t.Fatalf("match %d: swapping seats %d (%s) and %d (%s) shows to viewer %d at step %d:\n%s\n%s",
						k, a, roles[a], b, roles[b], v, j, base[j][v], swapped[j][v])
				}
			}
		}
	}
}
