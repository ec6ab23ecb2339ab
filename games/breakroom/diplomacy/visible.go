package diplomacy

import (
	"encoding/json"

	"arena/games"
	"arena/games/breakroom"
	"arena/games/breakroom/diplomacy/board"
	"arena/games/canon"
)

// legal is §6.11's legal_actions for wire seat i in the current step.
func (m *match) legal(i int) []games.Action {
	act := func(name string, bounds map[string]any) games.Action {
		b, err := canon.Marshal(bounds)
		if err != nil { // unreachable
			b = []byte(`{}`)
		}
		return games.Action{Name: name, Bounds: b}
	}
	if m.step == stepPress {
		return []games.Action{
			act(ActionSend, map[string]any{"recipients": m.recipients(i), "max_message_chars": m.cfg.MaxMessageChars}),
			act(ActionBroadcast, map[string]any{"max_message_chars": m.cfg.MaxMessageChars}),
			act(ActionDone, map[string]any{}),
		}
	}
	p := m.seats[i].power
	b := map[string]any{"phase": m.st.Phase()}
	switch m.st.Kind {
	case board.Movement:
		b["units"] = unitNames(m.st.UnitsOf(p))
	case board.Retreats:
		b["retreats"] = m.ownDislodged(p)
	case board.Adjustments:
		if n := m.st.Builds(p); n > 0 {
			sites := []map[string]any{}
			for _, s := range m.st.BuildSites(p) {
				sites = append(sites, map[string]any{"province": s.Province, "army": s.Army, "fleet": s.Fleet})
			}
			b["builds"], b["sites"] = n, sites
		} else {
			b["removals"], b["units"] = -m.st.Adjustment(p), unitNames(m.st.UnitsOf(p))
		}
	}
	return []games.Action{act(ActionOrders, b)}
}

func unitNames(us []board.Unit) []string {
	out := []string{}
	for _, u := range us {
		out = append(out, letter(u.Type)+" "+string(u.Loc))
	}
	return out
}

func (m *match) ownDislodged(p board.Power) []map[string]any {
	out := []map[string]any{}
	for _, d := range m.st.Dislodged {
		if d.Unit.Power != p {
			continue
		}
		to := []string{}
		for _, l := range d.To {
			to = append(to, string(l))
		}
		out = append(out, map[string]any{"unit": letter(d.Unit.Type) + " " + string(d.Unit.Loc), "to": to})
	}
	return out
}

// state is visible_state (§6.12) for wire seat i, or the spectator's for i < 0: the board, the
// phase, the powers; for a seat also its own options, dislodged units, adjustment and the press
// it sent or received (a spectator sees the broadcasts). The press list keeps its newest entries
// that fit the frame and then says "truncated": true (§1.8).
func (m *match) state(i int) []byte {
	centres := m.st.Centres()
	powers := []map[string]any{}
	for k, s := range m.seats {
		_, gone := m.st.Eliminated[s.power]
		powers = append(powers, map[string]any{"seat": k, "power": string(s.power), "centres": centres[string(s.power)],
			"units": len(m.st.UnitsOf(s.power)), "civil_disorder": m.st.Disorder[s.power], "eliminated": gone})
	}
	units := map[string]any{}
	for _, p := range board.Powers() {
		units[string(p)] = unitNames(m.st.UnitsOf(p))
	}
	owners, _ := m.centresJSON()
	v := map[string]any{
		"game": GameID, "rules_version": RulesVersion, "round": m.round, "phase": m.st.Phase(), "step": m.step,
		"year": m.st.Year, "last_year": m.cfg.LastYear, "victory_centres": m.cfg.VictoryCentres,
		"powers": powers, "units": units, "centres": owners, "press_round": nil, "last_phase": nil,
	}
	switch {
	case i < 0:
		// The spectator's view is derived from public lines alone (§1.8): the latest press_round
		// marker of the phase, and no step (nothing public marks the press's end).
		delete(v, "step")
		if m.pressRound > 0 && m.st.Kind == board.Movement {
			v["press_round"] = m.pressRound
		}
	case m.step == stepPress && m.pressRound > 0:
		v["press_round"] = m.pressRound
	}
	if m.lastPhase != nil {
		v["last_phase"] = m.lastPhase
	}
	if i >= 0 {
		p := m.seats[i].power
		v["seat"], v["power"] = i, string(p)
		v["options"] = m.st.Options(p)
		v["dislodged"] = m.ownDislodged(p)
		v["adjustment"] = 0
		if m.st.Kind == board.Adjustments {
			v["adjustment"] = m.st.Adjustment(p)
		}
	}
	var items [][]byte
	for _, e := range m.press {
		if i >= 0 && e.from != i && e.to != nil && !containsInt(e.to, i) {
			continue
		}
		if i < 0 && e.to != nil {
			continue
		}
		var to any = "all"
		if e.to != nil {
			to = e.to
		}
		b, _ := canon.Marshal(map[string]any{"press_round": e.pressRound, "from": e.from, "to": to, "text": e.text})
		items = append(items, b)
	}
	v["press"] = []json.RawMessage{}
	rest, _ := canon.Marshal(v)
	n := breakroom.FitNewest(items, breakroom.StateBudget-len(rest)-len(`,"truncated":true`))
	press := []json.RawMessage{}
	for _, b := range items[len(items)-n:] {
		press = append(press, b)
	}
	v["press"] = press
	if n < len(items) {
		v["truncated"] = true
	}
	b, err := canon.Marshal(v)
	if err != nil { // unreachable
		return []byte(`{}`)
	}
	return b
}

// View is viewer's visible_state: a seat's (viewer ≥ 1) with its open prompt's state when it has
// one, else the spectator's (0, or a seat the match does not have).
func (m *match) View(viewer int) games.Doc {
	if viewer < 1 || viewer > len(m.seats) {
		return games.RawDoc(m.state(-1))
	}
	if o := m.open; o != nil && o.seat == breakroom.WireSeat(viewer) {
		return o.prompt.State
	}
	return games.RawDoc(m.state(breakroom.WireSeat(viewer)))
}

// HouseView is a prompt's View for a house player in the same process: the rules state, the
// seat's power and the step.
type HouseView struct {
	State State
	Power board.Power
	Step  string
}

// ranking is match_end.ranking (§6.10): {rank, seat, pubkey, name, score, power, centres, units,
// solo, eliminated_year, civil_disorder}, best first.
func (m *match) ranking() []map[string]any {
	var seats []board.Power
	for _, s := range m.seats {
		seats = append(seats, s.power)
	}
	out := []map[string]any{}
	for _, st := range m.st.Standings(seats) {
		s := m.seats[st.Seat]
		var year any
		if st.EliminatedYear != 0 {
			year = st.EliminatedYear
		}
		out = append(out, map[string]any{"rank": st.Rank, "seat": st.Seat, "pubkey": s.pubkey, "name": s.name,
			"score": st.Centres, "power": string(st.Power), "centres": st.Centres, "units": st.Units,
			"solo": st.Solo, "eliminated_year": year, "civil_disorder": st.Disorder})
	}
	return out
}

// Unit is the unit of Result: supply centres, a ranking score that moves no money.
const Unit = "centres"

// Result, once done: Standings by centres with §6.10's ranks (elimination year among powers with
// none); Payouts every seat's Entry back and House 0; the seed, its hash and the transcript hash;
// Reveal {"ranking": the end line's ranking}; Abandoned the reason of an abandoned match.
func (m *match) Result() (games.Result, bool) {
	if m.phase != phaseDone {
		return games.Result{}, false
	}
	payouts := map[int]int64{}
	for _, s := range m.setup.Seats {
		payouts[s.Seat] = s.Entry
	}
	var seats []board.Power
	for _, s := range m.seats {
		seats = append(seats, s.power)
	}
	var standings []games.Standing
	for _, st := range m.st.Standings(seats) {
		standings = append(standings, games.Standing{Seat: breakroom.HouseSeat(st.Seat), Rank: st.Rank, Score: float64(st.Centres)})
	}
	reveal, _ := canon.Marshal(map[string]any{"ranking": m.ranking()})
	return games.Result{
		Standings: standings, Unit: Unit, Payouts: payouts,
		SeedHash: breakroom.SeedHash(m.setup.Seed), Seed: breakroom.SeedHex(m.setup.Seed),
		TranscriptHash: m.thash, Reveal: reveal, Abandoned: m.abandoned,
	}, true
}
