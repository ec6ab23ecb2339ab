package werewolf

import (
	"encoding/json"
	"math/rand/v2"
	"slices"
	"testing"

	"arena/games"
	"arena/games/breakroom"
)

// packEntry is one visible_state.pack_night entry.
type packEntry struct {
	Seat   int    `json:"seat"`
	Action string `json:"action"`
	Target *int   `json:"target"`
	Auto   bool   `json:"auto"`
}

// TestPackNightInTheState: a wolf that reads only its prompts' states (an HTTP or MCP agent gets
// no event stream) still sees what §3.3 lets the pack see: each living wolf's prompt state
// carries pack_night, the pack's moves of this night so far in prompt order, exactly the wolves'
// action_private and timeout_private lines of the night it has received (kill with its target,
// sleep, a missed deadline as an auto sleep). Every other seat's state, and a dead wolf's, has
// pack_night null. Random matches of 7 and 8 seats (two wolves), with timeouts.
func TestPackNightInTheState(t *testing.T) {
	rnd := rand.New(rand.NewPCG(31, 32))
	checked := 0
	for k := range 60 {
		n := 7 + k%2
		var evs []games.Event
		randomMatch(t, n, randomSeed(rnd), "", rnd, 0, false, func(tb *table, st games.Step) {
			evs = append(evs, st.Events...)
			for _, p := range st.Prompts {
				seat := breakroom.WireSeat(p.Seat)
				var s struct {
					PackNight *[]packEntry `json:"pack_night"`
				}
				if err := json.Unmarshal(p.State.Bytes(), &s); err != nil {
					t.Fatal(err)
				}
				if tb.m.seats[seat].role != RoleWolf {
					if s.PackNight != nil {
						t.Fatalf("match %d: %s seat %d's state has pack_night %v", k, tb.m.seats[seat].role, seat, *s.PackNight)
					}
					continue
				}
				if s.PackNight == nil {
					t.Fatalf("match %d: wolf %d's state has no pack_night", k, seat)
				}
				if tb.m.stage != PhaseNight {
					continue
				}
				// The pack's night lines this wolf has received since tonight's phase line.
				var want []packEntry
				for _, e := range evs {
					if e.Type == "phase" {
						want = want[:0]
					}
					if (e.Type != "action_private" && e.Type != "timeout_private") || !e.Visibility.Shows(p.Seat, false) {
						continue
					}
					var l struct {
						Seat   int    `json:"seat"`
						Action string `json:"action"`
						Auto   string `json:"auto"`
						Target *int   `json:"target"`
					}
					_ = json.Unmarshal(e.Payload, &l)
					if tb.m.seats[l.Seat].role != RoleWolf {
						continue
					}
					pe := packEntry{Seat: l.Seat, Action: l.Action, Target: l.Target}
					if e.Type == "timeout_private" {
						pe = packEntry{Seat: l.Seat, Action: l.Auto, Auto: true}
					}
					want = append(want, pe)
				}
				if !slices.EqualFunc(*s.PackNight, want, func(a, b packEntry) bool {
					return a.Seat == b.Seat && a.Action == b.Action && a.Auto == b.Auto && (a.Target == nil) == (b.Target == nil) && (a.Target == nil || *a.Target == *b.Target)
				}) {
					t.Fatalf("match %d round %d: wolf %d's pack_night %+v, the pack's lines tonight %+v", k, tb.m.round, seat, *s.PackNight, want)
				}
				if len(want) > 0 {
					checked++
				}
			}
			// A dead wolf's view holds no pack_night.
			for i, s := range tb.m.seats {
				if s.role == RoleWolf && !s.alive {
					var v struct {
						PackNight *[]packEntry `json:"pack_night"`
					}
					_ = json.Unmarshal(tb.m.View(breakroom.HouseSeat(i)).Bytes(), &v)
					if v.PackNight != nil {
						t.Fatalf("match %d: dead wolf %d's view has pack_night %v", k, i, *v.PackNight)
					}
				}
			}
		})
	}
	if checked == 0 {
		t.Fatal("no wolf was prompted after a packmate: the test does not reach the case")
	}
}
