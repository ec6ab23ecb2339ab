package diplomacy

import (
	"encoding/binary"
	"encoding/json"
	"slices"
	"strconv"

	"arena/games"
	"arena/games/breakroom"
	"arena/games/breakroom/diplomacy/adjudicate"
	"arena/games/breakroom/diplomacy/board"
	"arena/games/canon"
)

var _ games.HousePlayer = Engine{}

// HouseAnswer is the house policy (games.HousePlayer): done in press; for orders, the set
// HouseOrders draws with seed. It reads the prompt's HouseView, or the visible_state when the
// prompt came from elsewhere, and answers the same either way; a prompt it cannot read gets the
// empty order set (all hold, all disband, builds waived, removals by the civil-disorder rule).
func (Engine) HouseAnswer(p games.Prompt, seed uint64) json.RawMessage {
	for _, a := range p.Legal {
		if a.Name == ActionDone {
			return json.RawMessage(`{"action":"done"}`)
		}
	}
	v, ok := p.View.(HouseView)
	if !ok {
		var err error
		if v, err = houseViewOf(p.State); err != nil {
			return json.RawMessage(`{"action":"orders","orders":[]}`)
		}
	}
	b, err := canon.Marshal(map[string]any{"action": ActionOrders, "orders": HouseOrders(v.State, v.Power, seed)})
	if err != nil { // unreachable: a map of strings
		return json.RawMessage(`{"action":"orders","orders":[]}`)
	}
	return b
}

// HouseOrders is the house bot's order set for power p in s, drawn with breakroom.Rand keyed by
// seed (8 bytes, big-endian), so the same state and seed give the same set (§1.6). Every order is
// kept only if s.CheckOrders accepts the set with it, so the set always passes the door (§6.7).
//
//   - Movement: first, one time in three, a convoy when p has one (houseConvoy): a fleet of p at
//     sea convoys an army of p from a coast beside it to another coast beside it that no unit of
//     p stands on, the army ordered "via convoy"; both orders are kept only if the door takes
//     both. Then each other unit, in province order, holds one time in ten, supports an earlier
//     own unit's move or hold (one it can reach the destination or place of) two times in ten,
//     and otherwise (or when it has none to support) moves to a neighbour (§6.12 options) that
//     no unit of p is moving to already: three times in four to a supply centre p does not own
//     when one is in reach, else to any. A move the door refuses becomes a hold.
//   - Retreats: each dislodged unit retreats to a drawn place of its list, or disbands when the
//     list is empty.
//   - Adjustments: builds on drawn free home centres (a fleet one time in three where a fleet can
//     be built), as many as allowed; removals of drawn units, as many as required.
func HouseOrders(s State, p board.Power, seed uint64) []string {
	var key [8]byte
	binary.BigEndian.PutUint64(key[:], seed)
	label := "diplomacy/house/" + s.Phase() + "/" + string(p)
	draw := func(sub string, n int) int { return int(breakroom.Rand(key[:], label+"/"+sub, uint64(n))) }
	set := []string{}
	try := func(text string) bool {
		if _, err := s.CheckOrders(p, append(append([]string(nil), set...), text)); err != nil {
			return false
		}
		set = append(set, text)
		return true
	}
	switch s.Kind {
	case board.Movement:
		options := s.Options(p)
		taken := map[string]bool{}
		dest := map[string]string{} // province -> the province its unit moves to, "" for a hold
		if c, ok := houseConvoy(s, p, draw); ok && tryAll(&set, s, p, c.fleet, c.army) {
			taken[c.to] = true
			dest[c.from], dest[c.at] = c.to, ""
		}
		for _, u := range s.UnitsOf(p) {
			self := letter(u.Type) + " " + string(u.Loc)
			if _, ordered := dest[u.Loc.Province()]; ordered {
				continue
			}
			switch k := draw(string(u.Loc)+"/act", 10); {
			case k == 0:
				try(self + " H")
				dest[u.Loc.Province()] = ""
				continue
			case k <= 2:
				// Support an earlier own unit: its move when its destination is in reach, or it
				// in place when it holds.
				var help []string
				for _, w := range s.UnitsOf(p) {
					if w.Loc.Province() >= u.Loc.Province() {
						break
					}
					other := letter(w.Type) + " " + string(w.Loc)
					if d, ok := dest[w.Loc.Province()]; ok {
						if d != "" && reach(options[self], d) {
							help = append(help, self+" S "+other+" - "+d)
						}
					} else if reach(options[self], w.Loc.Province()) {
						help = append(help, self+" S "+other)
					}
				}
				if len(help) > 0 && try(help[draw(string(u.Loc)+"/support", len(help))]) {
					continue
				}
			}
			var all, want []string
			for _, to := range options[self] {
				prov := board.Loc(to).Province()
				if taken[prov] {
					continue
				}
				all = append(all, to)
				if r, _ := board.Lookup(prov); r.Centre && s.Owners[prov] != p {
					want = append(want, to)
				}
			}
			pool := all
			if len(want) > 0 && draw(string(u.Loc)+"/greed", 4) > 0 {
				pool = want
			}
			if len(pool) > 0 {
				to := pool[draw(string(u.Loc)+"/to", len(pool))]
				if try(self + " - " + to) {
					taken[board.Loc(to).Province()] = true
					dest[u.Loc.Province()] = board.Loc(to).Province()
					continue
				}
			}
			try(self + " H")
			dest[u.Loc.Province()] = ""
		}
	case board.Retreats:
		for _, d := range s.Dislodged {
			if d.Unit.Power != p {
				continue
			}
			self := letter(d.Unit.Type) + " " + string(d.Unit.Loc)
			if len(d.To) > 0 && try(self+" R "+string(d.To[draw(string(d.Unit.Loc)+"/to", len(d.To))])) {
				continue
			}
			try(self + " D")
		}
	case board.Adjustments:
		if n := s.Builds(p); n > 0 {
			sites := s.BuildSites(p)
			breakroom.Shuffle(key[:], label+"/sites", sites)
			for _, site := range sites[:n] {
				if len(site.Fleet) > 0 && draw(site.Province+"/fleet", 3) == 0 &&
					try("B F "+site.Fleet[draw(site.Province+"/coast", len(site.Fleet))]) {
					continue
				}
				try("B A " + site.Province)
			}
		} else if n := -s.Adjustment(p); n > 0 {
			units := s.UnitsOf(p)
			breakroom.Shuffle(key[:], label+"/removals", units)
			for _, u := range units[:min(n, len(units))] {
				try("D " + letter(u.Type) + " " + string(u.Loc))
			}
		}
	}
	return set
}

// convoyPlan is one convoy of the house's: the fleet's order and the army's, the army's province
// (from), the fleet's (at) and the destination (to).
type convoyPlan struct {
	fleet, army  string
	from, at, to string
}

// houseConvoy draws the house's convoy for p in s (HouseOrders): one time in three, one of the
// convoys a fleet of p at sea can give to an army of p on a coast adjacent to it, to another
// coast adjacent to it with no unit of p on it; ok is false when none is drawn or none exists.
func houseConvoy(s State, p board.Power, draw func(string, int) int) (convoyPlan, bool) {
	if draw("convoy", 3) != 0 {
		return convoyPlan{}, false
	}
	own := map[string]board.Unit{}
	for _, u := range s.UnitsOf(p) {
		own[u.Loc.Province()] = u
	}
	var all []convoyPlan
	for _, f := range s.UnitsOf(p) {
		if r, _ := board.Lookup(f.Loc.Province()); f.Type != board.Fleet || r.Kind != board.Sea {
			continue
		}
		var coasts []string
		for _, l := range board.FleetNeighbours(f.Loc) {
			if r, _ := board.Lookup(l.Province()); r.Kind == board.Coastal && !slices.Contains(coasts, l.Province()) {
				coasts = append(coasts, l.Province())
			}
		}
		for _, from := range coasts {
			a, ok := own[from]
			if !ok || a.Type != board.Army {
				continue
			}
			for _, to := range coasts {
				if _, mine := own[to]; to == from || mine {
					continue
				}
				all = append(all, convoyPlan{
					fleet: "F " + string(f.Loc) + " C A " + from + " - " + to,
					army:  "A " + from + " - " + to + " via convoy",
					from:  from, at: f.Loc.Province(), to: to,
				})
			}
		}
	}
	if len(all) == 0 {
		return convoyPlan{}, false
	}
	return all[draw("convoy/which", len(all))], true
}

// tryAll appends texts to *set when the door (s.CheckOrders) takes the set with all of them, and
// reports whether it did; otherwise *set is unchanged.
func tryAll(set *[]string, s State, p board.Power, texts ...string) bool {
	next := append(append([]string(nil), *set...), texts...)
	if _, err := s.CheckOrders(p, next); err != nil {
		return false
	}
	*set = next
	return true
}

// houseViewOf reads a HouseView from a seat's visible_state (§6.12): the phase, the units of
// every power, the centres' owners and the seat's own dislodged units, which is all HouseOrders
// reads. The power is the only played one in the State it returns.
func houseViewOf(state games.Doc) (HouseView, error) {
	var v struct {
		Phase     string              `json:"phase"`
		Step      string              `json:"step"`
		Power     string              `json:"power"`
		Units     map[string][]string `json:"units"`
		Centres   map[string][]string `json:"centres"`
		Dislodged []struct {
			Unit string   `json:"unit"`
			To   []string `json:"to"`
		} `json:"dislodged"`
	}
	if err := json.Unmarshal(state.Bytes(), &v); err != nil {
		return HouseView{}, err
	}
	bad := func() (HouseView, error) {
		return HouseView{}, games.Errorf(games.CodeBadRequest, "not a Diplomacy seat's visible_state")
	}
	if len(v.Phase) != 6 || v.Power == "" {
		return bad()
	}
	p := board.Power(v.Power)
	s := State{Cfg: RulesConfig{Powers: []board.Power{p}}, Owners: map[string]board.Power{},
		Disorder: map[board.Power]bool{}, Eliminated: map[board.Power]int{}}
	s.Season = map[byte]Season{'S': Spring, 'F': Fall, 'W': Winter}[v.Phase[0]]
	s.Kind = map[byte]board.Phase{'M': board.Movement, 'R': board.Retreats, 'A': board.Adjustments}[v.Phase[5]]
	year, err := strconv.Atoi(v.Phase[1:5])
	if err != nil || s.Season == 0 || s.Kind == 0 {
		return bad()
	}
	s.Year = year
	unit := func(pw board.Power, text string) (board.Unit, bool) {
		if len(text) < 3 || text[1] != ' ' {
			return board.Unit{}, false
		}
		t := map[byte]board.UnitType{'A': board.Army, 'F': board.Fleet}[text[0]]
		l := board.Loc(text[2:])
		return board.Unit{Power: pw, Type: t, Loc: l}, t != 0 && board.ValidLoc(l)
	}
	for pw, us := range v.Units {
		for _, text := range us {
			u, ok := unit(board.Power(pw), text)
			if !ok {
				return bad()
			}
			s.Units = append(s.Units, u)
		}
	}
	sortUnits(s.Units)
	for pw, cs := range v.Centres {
		if pw == "neutral" {
			continue
		}
		for _, c := range cs {
			s.Owners[c] = board.Power(pw)
		}
	}
	for _, d := range v.Dislodged {
		u, ok := unit(p, d.Unit)
		if !ok {
			return bad()
		}
		dl := adjudicate.Dislodgement{Unit: u}
		for _, to := range d.To {
			dl.To = append(dl.To, board.Loc(to))
		}
		s.Dislodged = append(s.Dislodged, dl)
	}
	return HouseView{State: s, Power: p, Step: v.Step}, nil
}

// reach reports whether one of the places in options is in province prov.
func reach(options []string, prov string) bool {
	for _, o := range options {
		if board.Loc(o).Province() == prov {
			return true
		}
	}
	return false
}
