// Package board is the standard Diplomacy map as pure data (breakroom-games §6.2): the 75 playable
// provinces plus impassable Switzerland, their kinds, the split coasts of Spain, St Petersburg and
// Bulgaria, the 34 supply centres with each power's home centres, the 1901 units, and the adjacency
// tables for armies (by province) and fleets (by coast). Names are the DATC short names (`adr` …
// `yor`, `stp/nc`). It holds no adjudication.
//
// Pure: no I/O, clock or randomness; every accessor returns a fresh copy.
package board

import (
	"sort"
	"strings"
)

// Kind is a province's terrain.
type Kind uint8

// Province kinds: Land is inland (armies only), Sea fleets only, Coastal both, Impassable none.
const (
	Land Kind = iota + 1
	Sea
	Coastal
	Impassable
)

// Coast names one coast of a split-coast province (§6.2).
type Coast string

// The three coast names.
const (
	NC Coast = "nc"
	SC Coast = "sc"
	EC Coast = "ec"
)

// Power is a three-letter power code (§6.1).
type Power string

// The seven powers of the standard map.
const (
	AUS Power = "AUS"
	ENG Power = "ENG"
	FRA Power = "FRA"
	GER Power = "GER"
	ITA Power = "ITA"
	RUS Power = "RUS"
	TUR Power = "TUR"
)

// Powers lists the seven powers in code order.
func Powers() []Power { return []Power{AUS, ENG, FRA, GER, ITA, RUS, TUR} }

// UnitType is an army or a fleet.
type UnitType uint8

// Unit types.
const (
	Army UnitType = iota + 1
	Fleet
)

// Loc is a place a unit can stand: a province short name, or `prov/coast` for a fleet on a split coast.
type Loc string

// Province is the province part of l (`stp/nc` -> `stp`).
func (l Loc) Province() string {
	p, _, _ := strings.Cut(string(l), "/")
	return p
}

// Coast is the coast part of l, or "" when l names no coast.
func (l Loc) Coast() Coast {
	_, c, _ := strings.Cut(string(l), "/")
	return Coast(c)
}

// Unit is one unit on the board.
type Unit struct {
	Power Power
	Type  UnitType
	Loc   Loc
}

// Province describes one province.
type Province struct {
	Abbr   string  // DATC short name
	Name   string  // full English name
	Kind   Kind    // terrain
	Centre bool    // supply centre
	Home   Power   // owning power's home centre, "" when neutral or not a centre
	Coasts []Coast // split coasts, nil for all but bul, spa, stp
}

var (
	byAbbr = map[string]provinceRow{}
	army   = map[string]map[string]bool{}
	fleet  = map[Loc]map[Loc]bool{}
)

func init() {
	for _, r := range provinceRows {
		byAbbr[r.abbr] = r
	}
	for p, s := range armyRows {
		army[p] = map[string]bool{}
		for _, q := range strings.Fields(s) {
			army[p][q] = true
		}
	}
	for l, s := range fleetRows {
		fleet[l] = map[Loc]bool{}
		for _, m := range strings.Fields(s) {
			fleet[l][Loc(m)] = true
		}
	}
}

func (r provinceRow) public() Province {
	return Province{Abbr: r.abbr, Name: r.name, Kind: r.kind, Centre: r.centre, Home: r.home,
		Coasts: append([]Coast(nil), r.coasts...)}
}

// Provinces returns all 76 provinces (75 playable and swi) in short-name order.
func Provinces() []Province {
	out := make([]Province, len(provinceRows))
	for i, r := range provinceRows {
		out[i] = r.public()
	}
	return out
}

// Lookup returns the province with short name abbr (lowercase), and whether it exists.
func Lookup(abbr string) (Province, bool) {
	r, ok := byAbbr[abbr]
	if !ok {
		return Province{}, false
	}
	return r.public(), true
}

// ValidLoc reports whether l names a province, or a coast that province has.
func ValidLoc(l Loc) bool {
	r, ok := byAbbr[l.Province()]
	if !ok {
		return false
	}
	c := l.Coast()
	if c == "" {
		return !strings.Contains(string(l), "/")
	}
	for _, k := range r.coasts {
		if k == c {
			return true
		}
	}
	return false
}

// Centres returns the 34 supply centres in short-name order.
func Centres() []string {
	var out []string
	for _, r := range provinceRows {
		if r.centre {
			out = append(out, r.abbr)
		}
	}
	return out
}

// HomeCentres returns p's home centres in short-name order (none for an unknown power).
func HomeCentres(p Power) []string {
	var out []string
	for _, r := range provinceRows {
		if r.centre && r.home == p && p != "" {
			out = append(out, r.abbr)
		}
	}
	return out
}

// StartingUnits returns the 22 units of spring 1901, by power then province.
func StartingUnits() []Unit { return append([]Unit(nil), startRows...) }

// ArmyAdjacent reports whether an army can move from province a to province b without a convoy.
// Coasts are ignored (`stp/nc` counts as `stp`).
func ArmyAdjacent(a, b Loc) bool { return army[a.Province()][b.Province()] }

// ArmyNeighbours returns the provinces an army in p can reach without a convoy, sorted.
func ArmyNeighbours(p string) []string {
	var out []string
	for q := range army[p] {
		out = append(out, q)
	}
	sort.Strings(out)
	return out
}

// FleetAdjacent reports whether a fleet at location a can move to location b. Both must name the
// exact coast on split-coast provinces (`spa/sc`, not `spa`).
func FleetAdjacent(a, b Loc) bool { return fleet[a][b] }

// FleetNeighbours returns the locations a fleet at l can reach, sorted.
func FleetNeighbours(l Loc) []Loc {
	var out []Loc
	for m := range fleet[l] {
		out = append(out, m)
	}
	sort.Slice(out, func(i, j int) bool { return out[i] < out[j] })
	return out
}

// FleetCoastsTo returns the coasts of province to (as locations) that a fleet at from can reach:
// one element for an ordinary coastal or sea province, up to two for a split-coast province.
// It serves the door checks of §6.7 (4.B.1–4.B.3).
func FleetCoastsTo(from Loc, to string) []Loc {
	var out []Loc
	for _, m := range FleetNeighbours(from) {
		if m.Province() == to {
			out = append(out, m)
		}
	}
	return out
}
