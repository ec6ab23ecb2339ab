package werewolf

import (
	"encoding/json"
	"math/rand/v2"
	"slices"
	"testing"

	"arena/games"
)

// promptSeen is one prompt as a test saw it open.
type promptSeen struct {
	seat, round int
	stage       string
	legal       []games.Action
}

// leftAt says the lines closing the phase at evs[i] (up to the next phase or end line) eliminate
// seat as "left".
func leftAt(evs []games.Event, i, seat int) bool {
	for _, e := range evs[i+1:] {
		switch e.Type {
		case "phase", "round_start", "game_over", "match_end", "match_abandoned":
			return false
		case "eliminated":
			var l struct {
				Seat int    `json:"seat"`
				How  string `json:"how"`
			}
			_ = json.Unmarshal(e.Payload, &l)
			if l.Seat == seat && l.How == HowLeft {
				return true
			}
		}
	}
	return false
}

// TestLogFollowsTheRules reads the whole log of many random matches (5 to 8 seats, timeouts,
// seats that leave, abandons, config variants) and re-derives, from the lines alone and §3's
// text, what each resolution must be: the roles are the seed's deal (§3.2); each inspection's
// is_wolf is the target's role; the pack's victim is the plurality of the living wolves' picks,
// a tie broken by KillTie over the tied seats ascending (no pick: no kill_private); dawn lists
// the victim unless it was protected or left; vote_result lists every vote in seat order and
// exiles only a strict plurality; each discussion pass starts at the first living seat at or
// after (round−1) mod seats; the doctor is never offered last night's protected seat (nor itself
// without doctor_self_protect); and no seat is prompted after its elimination.
func TestLogFollowsTheRules(t *testing.T) {
	rnd := rand.New(rand.NewPCG(77, 78))
	optsFor := []string{"", `{"doctor_self_protect":false}`, `{"doctor_repeat":true}`, `{"discussion_rounds":1,"max_rounds":3}`}
	kills, ties, exiles, protects := 0, 0, 0, 0
	for k := range 160 {
		n := 5 + k%4
		seed := randomSeed(rnd)
		opts := optsFor[k%len(optsFor)]
		abandon := 0
		if k%7 == 6 {
			abandon = 5 + rnd.IntN(40)
		}
		var prompts []promptSeen
		tb := randomMatch(t, n, seed, opts, rnd, abandon, false, func(tb *table, st games.Step) {
			for _, p := range st.Prompts {
				prompts = append(prompts, promptSeen{seat: p.Seat - 1, stage: tb.m.stage, round: tb.m.round, legal: p.Legal})
			}
		})
		cfg := tb.m.cfg
		roles := Deal(seed, cfg.Roles)
		alive := make([]bool, n)
		for i := range alive {
			alive[i] = true
		}
		var picks map[int]int // wolf → pick, this night
		protect := -1
		protected := map[int]int{} // round → the seat the doctor protected that night
		var votes []vote
		firstSpeaker := false // the next discussion line is the day's first speaker's
		for i, e := range tb.evs {
			var l struct {
				Round  int    `json:"round"`
				Phase  string `json:"phase"`
				Seat   int    `json:"seat"`
				Action string `json:"action"`
				Target *int   `json:"target"`
				IsWolf bool   `json:"is_wolf"`
				Role   string `json:"role"`
				Deaths []int  `json:"deaths"`
				Exiled *int   `json:"exiled"`
				How    string `json:"how"`
				Auto   string `json:"auto"`
				Votes  []struct {
					Seat   int  `json:"seat"`
					Target *int `json:"target"`
				} `json:"votes"`
			}
			if err := json.Unmarshal(e.Payload, &l); err != nil {
				t.Fatal(err)
			}
			switch e.Type {
			case "role_private":
				if l.Role != roles[l.Seat] {
					t.Fatalf("match %d: seat %d dealt %s, the seed deals %s", k, l.Seat, l.Role, roles[l.Seat])
				}
			case "phase":
				switch l.Phase {
				case PhaseNight:
					picks, protect = map[int]int{}, -1
				case PhaseVote:
					votes = votes[:0]
				case PhaseDiscussion:
					firstSpeaker = cfg.DiscussionRounds > 0
				}
			case "action", "timeout":
				if firstSpeaker {
					firstSpeaker = false
					want := -1
					for j := range n {
						if s := (l.Round - 1 + j) % n; alive[s] {
							want = s
							break
						}
					}
					if l.Seat != want {
						t.Fatalf("match %d day %d: the discussion opens with seat %d, want %d", k, l.Round, l.Seat, want)
					}
				}
			case "action_private", "timeout_private":
				if !alive[l.Seat] {
					t.Fatalf("match %d: dead seat %d acts: %s", k, l.Seat, e.Payload)
				}
				switch {
				case l.Action == ActionKill:
					picks[l.Seat] = *l.Target
				case l.Action == ActionProtect:
					protect = *l.Target
				case l.Action == ActionVote:
					votes = append(votes, vote{seat: l.Seat, target: *l.Target})
				case l.Action == ActionAbstain || l.Auto == ActionAbstain:
					votes = append(votes, vote{seat: l.Seat, target: -1})
				}
			case "inspect_result_private":
				if l.IsWolf != (roles[*l.Target] == RoleWolf) {
					t.Fatalf("match %d: inspection of seat %d (%s) says is_wolf %v", k, *l.Target, roles[*l.Target], l.IsWolf)
				}
			case "kill_private":
				counts, best := map[int]int{}, 0
				for w, p := range picks {
					if alive[w] {
						counts[p]++
						best = max(best, counts[p])
					}
				}
				var tied []int
				for s, c := range counts {
					if c == best {
						tied = append(tied, s)
					}
				}
				slices.Sort(tied)
				want := tied[0]
				if len(tied) > 1 {
					want = tied[KillTie(seed, l.Round, len(tied))]
					ties++
				}
				if *l.Target != want {
					t.Fatalf("match %d round %d: picks %v kill %d, want %d", k, l.Round, picks, *l.Target, want)
				}
				kills++
				picks[-1] = want // the victim, for dawn
			case "dawn":
				victim, ok := picks[-1]
				if !ok && len(picks) > 0 {
					for w := range picks {
						if w >= 0 && alive[w] {
							t.Fatalf("match %d round %d: wolves picked %v and no kill_private", k, l.Round, picks)
						}
					}
				}
				var want []int
				if ok && victim != protect && !leftAt(tb.evs, i, victim) {
					want = append(want, victim)
				}
				if ok && victim == protect {
					protects++
				}
				if !slices.Equal(l.Deaths, want) && !(len(l.Deaths) == 0 && len(want) == 0) {
					t.Fatalf("match %d round %d: dawn deaths %v, want %v (victim %d, protected %d)", k, l.Round, l.Deaths, want, victim, protect)
				}
				protected[l.Round] = protect
			case "eliminated":
				alive[l.Seat] = false
				if l.Role != roles[l.Seat] {
					t.Fatalf("match %d: seat %d eliminated as %s, dealt %s", k, l.Seat, l.Role, roles[l.Seat])
				}
			case "vote_result":
				if len(l.Votes) != len(votes) {
					t.Fatalf("match %d: vote_result %d votes, %d cast", k, len(l.Votes), len(votes))
				}
				counts := map[int]int{}
				for j, v := range l.Votes {
					tg := -1
					if v.Target != nil {
						tg = *v.Target
					}
					if v.Seat != votes[j].seat || tg != votes[j].target || j > 0 && v.Seat <= l.Votes[j-1].Seat {
						t.Fatalf("match %d: vote_result %v, cast %v", k, l.Votes, votes)
					}
					if tg >= 0 {
						counts[tg]++
					}
				}
				want, best, n := -1, 0, 0
				for s, c := range counts {
					switch {
					case c > best:
						want, best, n = s, c, 1
					case c == best:
						n++
					}
				}
				if n != 1 || want >= 0 && leftAt(tb.evs, i, want) {
					want = -1
				}
				got := -1
				if l.Exiled != nil {
					got = *l.Exiled
					exiles++
				}
				if got != want {
					t.Fatalf("match %d round %d: votes %v exile %d, want %d", k, l.Round, l.Votes, got, want)
				}
			}
		}
		// Prompts: the doctor's targets, and each discussion pass's first speaker.
		for _, p := range prompts {
			if p.stage != PhaseNight || roles[p.seat] != RoleDoctor {
				continue
			}
			last, ok := protected[p.round-1]
			for _, a := range p.legal {
				ts := targetsOf(a)
				if a.Name != ActionProtect {
					continue
				}
				if !cfg.DoctorSelfProtect && slices.Contains(ts, p.seat) {
					t.Fatalf("match %d: the doctor may protect itself with doctor_self_protect false: %v", k, ts)
				}
				if !cfg.DoctorRepeat && ok && last >= 0 && slices.Contains(ts, last) {
					t.Fatalf("match %d night %d: the doctor may protect seat %d again: %v", k, p.round, last, ts)
				}
				if cfg.DoctorSelfProtect && cfg.DoctorRepeat && !slices.Contains(ts, p.seat) {
					t.Fatalf("match %d night %d: the doctor may not protect itself: %v", k, p.round, ts)
				}
			}
		}
	}
	if kills == 0 || ties == 0 || exiles == 0 || protects == 0 {
		t.Fatalf("kills %d, kill ties %d, exiles %d, protected victims %d: the matches do not reach every case", kills, ties, exiles, protects)
	}
}
