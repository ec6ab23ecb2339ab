package board

import (
	"encoding/csv"
	"os"
	"strings"
	"testing"
)

func readCSV(t *testing.T, name string) [][]string {
	t.Helper()
	f, err := os.Open("testdata/" + name)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	r := csv.NewReader(f)
	r.TrimLeadingSpace = true
	rows, err := r.ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	return rows[1:]
}

func TestCounts(t *testing.T) {
	ps := Provinces()
	if len(ps) != 76 {
		t.Fatalf("provinces = %d, want 76", len(ps))
	}
	kinds := map[Kind]int{}
	for _, p := range ps {
		kinds[p.Kind]++
	}
	if kinds[Land] != 14 || kinds[Sea] != 19 || kinds[Coastal] != 42 || kinds[Impassable] != 1 {
		t.Fatalf("kinds = %v, want 14 land, 19 sea, 42 coastal, 1 impassable", kinds)
	}
	if n := len(Centres()); n != 34 {
		t.Fatalf("centres = %d, want 34", n)
	}
	if n := len(StartingUnits()); n != 22 {
		t.Fatalf("starting units = %d, want 22", n)
	}
	want := map[Power]string{AUS: "bud tri vie", ENG: "edi lon lvp", FRA: "bre mar par", GER: "ber kie mun",
		ITA: "nap rom ven", RUS: "mos sev stp war", TUR: "ank con smy"}
	for p, w := range want {
		if got := strings.Join(HomeCentres(p), " "); got != w {
			t.Errorf("HomeCentres(%s) = %q, want %q", p, got, w)
		}
	}
	if HomeCentres("") != nil {
		t.Errorf("HomeCentres(\"\") not empty")
	}
}

func TestProvincesMatchDATC(t *testing.T) {
	rows := readCSV(t, "provinces.csv")
	if len(rows) != 76 {
		t.Fatalf("datc provinces = %d", len(rows))
	}
	for _, r := range rows {
		p, ok := Lookup(r[0])
		if !ok {
			t.Errorf("%s missing", r[0])
			continue
		}
		if p.Name != r[1] {
			t.Errorf("%s name %q, want %q", r[0], p.Name, r[1])
		}
		switch r[2] {
		case "":
			if p.Centre {
				t.Errorf("%s is a centre, DATC says not", r[0])
			}
		case "neutral":
			if !p.Centre || p.Home != "" {
				t.Errorf("%s: want neutral centre, got %+v", r[0], p)
			}
		default:
			if !p.Centre || string(p.Home) != r[2] {
				t.Errorf("%s: want home of %s, got %+v", r[0], r[2], p)
			}
		}
	}
	for _, r := range readCSV(t, "regions.csv") {
		p, _ := Lookup(r[0])
		if r[1] != "" {
			if !ValidLoc(Loc(r[0] + "/" + r[1] + "c")) {
				t.Errorf("coast %s/%sc not valid", r[0], r[1])
			}
			continue
		}
		want := map[string]Kind{"land": Land, "sea": Sea, "coast": Coastal}[r[2]]
		if r[0] == "swi" {
			want = Impassable
		}
		if len(p.Coasts) > 0 && r[2] == "land" { // DATC: the split province's own region is land, its coasts sea
			want = Coastal
		}
		if p.Kind != want {
			t.Errorf("%s kind %d, want %d (%s)", r[0], p.Kind, want, r[2])
		}
	}
}

func TestArmyAdjacencySymmetric(t *testing.T) {
	for p, ns := range army {
		k := byAbbr[p].kind
		if k != Land && k != Coastal {
			t.Errorf("army row for %s (kind %d)", p, k)
		}
		for q := range ns {
			if k := byAbbr[q].kind; k != Land && k != Coastal {
				t.Errorf("army %s - %s: target kind %d", p, q, k)
			}
			if !army[q][p] {
				t.Errorf("army %s - %s not symmetric", p, q)
			}
		}
	}
	for _, r := range provinceRows {
		if (r.kind == Land || r.kind == Coastal) && len(army[r.abbr]) == 0 {
			t.Errorf("%s has no army row", r.abbr)
		}
	}
}

func TestFleetAdjacencySymmetricByCoast(t *testing.T) {
	for l, ns := range fleet {
		if !ValidLoc(l) {
			t.Errorf("fleet row %s invalid", l)
		}
		r := byAbbr[l.Province()]
		if r.kind != Sea && r.kind != Coastal {
			t.Errorf("fleet row %s kind %d", l, r.kind)
		}
		if len(r.coasts) > 0 && l.Coast() == "" {
			t.Errorf("fleet row %s lacks its coast", l)
		}
		for m := range ns {
			if !ValidLoc(m) || (len(byAbbr[m.Province()].coasts) > 0 && m.Coast() == "") {
				t.Errorf("fleet %s - %s: bad target", l, m)
			}
			if !fleet[m][l] {
				t.Errorf("fleet %s - %s not symmetric", l, m)
			}
			// Two coastal provinces are fleet-adjacent only if they share a land border too.
			if r.kind == Coastal && byAbbr[m.Province()].kind == Coastal && !ArmyAdjacent(l, m) {
				t.Errorf("fleet %s - %s without a land border", l, m)
			}
		}
	}
	for _, r := range provinceRows {
		if r.kind == Sea && len(fleet[Loc(r.abbr)]) == 0 {
			t.Errorf("%s has no fleet row", r.abbr)
		}
	}
}

// Every border in the (incomplete, §6.7) DATC borders.csv is in the tables with a matching kind:
// "land" army only, "sea" fleet only, "coast" both.
func TestBordersCSVContained(t *testing.T) {
	for _, r := range readCSV(t, "borders.csv") {
		// DATC writes coasts as bul(sc); the map writes bul/sc.
		fix := strings.NewReplacer("(", "/", ")", "")
		a, b, terr := Loc(fix.Replace(r[0])), Loc(fix.Replace(r[1])), r[2]
		if terr != "land" && !FleetAdjacent(a, b) {
			t.Errorf("borders.csv %s,%s,%s: no fleet move", a, b, terr)
		}
		if terr != "sea" && !ArmyAdjacent(a, b) {
			t.Errorf("borders.csv %s,%s,%s: no army move", a, b, terr)
		}
	}
	// The borders §6.7 names as missing from that file.
	for _, e := range [][2]Loc{{"bot", "fin"}, {"bot", "lvn"}, {"bot", "stp/sc"}, {"bot", "swe"}, {"tus", "tys"}, {"mao", "spa/sc"}} {
		if !FleetAdjacent(e[0], e[1]) {
			t.Errorf("fleet %s - %s missing", e[0], e[1])
		}
	}
	for _, e := range [][2]Loc{{"gal", "ukr"}, {"lvn", "war"}} {
		if !ArmyAdjacent(e[0], e[1]) {
			t.Errorf("army %s - %s missing", e[0], e[1])
		}
	}
}

func fleetSet(l Loc) string {
	var s []string
	for _, m := range FleetNeighbours(l) {
		s = append(s, string(m))
	}
	return strings.Join(s, " ")
}

func TestFamousCoasts(t *testing.T) {
	want := map[Loc]string{
		"spa/nc": "gas mao por",
		"spa/sc": "lyo mao mar por wes",
		"stp/nc": "bar nwy",
		"stp/sc": "bot fin lvn",
		"bul/ec": "bla con rum",
		"bul/sc": "aeg con gre",
		"con":    "aeg ank bla bul/ec bul/sc smy",
		"kie":    "bal ber den hel hol",
		"den":    "bal hel kie nth ska swe",
		"swe":    "bal bot den fin nwy ska",
	}
	for l, w := range want {
		if got := fleetSet(l); got != w {
			t.Errorf("fleet %s -> %q, want %q", l, got, w)
		}
	}
	yes := [][2]Loc{{"spa/sc", "wes"}, {"spa/nc", "mao"}, {"stp/nc", "bar"}, {"bar", "stp/nc"}, {"stp/sc", "bot"}, {"bul/ec", "bla"}, {"bul/sc", "aeg"}, {"kie", "ber"}, {"kie", "den"}, {"ber", "kie"}, {"den", "swe"}, {"con", "bla"}, {"con", "aeg"}}
	no := [][2]Loc{{"spa/nc", "wes"}, {"spa/sc", "gas"}, {"spa", "mao"}, {"stp/nc", "bot"}, {"stp/sc", "bar"}, {"stp/nc", "nwg"}, {"bul/ec", "aeg"}, {"bul/sc", "bla"}, {"bul/ec", "gre"}, {"ber", "den"}, {"kie", "swe"}, {"ank", "smy"}, {"rom", "ven"}, {"swi", "mar"}}
	for _, e := range yes {
		if !FleetAdjacent(e[0], e[1]) {
			t.Errorf("fleet %s - %s should be adjacent", e[0], e[1])
		}
	}
	for _, e := range no {
		if FleetAdjacent(e[0], e[1]) {
			t.Errorf("fleet %s - %s should not be adjacent", e[0], e[1])
		}
	}
	// StP/nc touches NWG in no edition of the map; its only seas are BAR (and nwy by land coast).
	if got := FleetCoastsTo("nwg", "stp"); got != nil {
		t.Errorf("nwg reaches stp coasts %v", got)
	}
	if got := FleetCoastsTo("mao", "spa"); len(got) != 2 {
		t.Errorf("mao reaches spa coasts %v, want both", got)
	}
	if got := FleetCoastsTo("con", "bul"); len(got) != 2 {
		t.Errorf("con reaches bul coasts %v, want both", got)
	}
	if got := FleetCoastsTo("wes", "spa"); len(got) != 1 || got[0] != "spa/sc" {
		t.Errorf("wes reaches spa coasts %v, want spa/sc", got)
	}
	armyYes := [][2]Loc{{"kie", "den"}, {"kie", "ber"}, {"den", "swe"}, {"con", "bul"}, {"con", "ank"}, {"con", "smy"}, {"stp/nc", "mos"}, {"spa", "por"}}
	armyNo := [][2]Loc{{"ber", "den"}, {"con", "aeg"}, {"swi", "mar"}, {"mar", "swi"}, {"lon", "bel"}, {"nwy", "den"}}
	for _, e := range armyYes {
		if !ArmyAdjacent(e[0], e[1]) {
			t.Errorf("army %s - %s should be adjacent", e[0], e[1])
		}
	}
	for _, e := range armyNo {
		if ArmyAdjacent(e[0], e[1]) {
			t.Errorf("army %s - %s should not be adjacent", e[0], e[1])
		}
	}
}

func TestStartingUnitsValid(t *testing.T) {
	seen := map[string]bool{}
	for _, u := range StartingUnits() {
		p, ok := Lookup(u.Loc.Province())
		if !ok || !ValidLoc(u.Loc) {
			t.Fatalf("bad start %+v", u)
		}
		if p.Home != u.Power {
			t.Errorf("%+v not on its home centre", u)
		}
		if u.Type == Fleet && len(FleetNeighbours(u.Loc)) == 0 || u.Type == Army && len(ArmyNeighbours(u.Loc.Province())) == 0 {
			t.Errorf("%+v cannot move", u)
		}
		seen[u.Loc.Province()] = true
	}
	if len(seen) != 22 {
		t.Errorf("starting provinces = %d", len(seen))
	}
	if !seen["stp"] || StartingUnits()[17].Loc != "stp/sc" {
		t.Errorf("F stp/sc missing")
	}
}

func TestValidLoc(t *testing.T) {
	for l, want := range map[Loc]bool{"stp": true, "stp/nc": true, "stp/ec": false, "bul/ec": true, "bul/nc": false, "par/nc": false, "xyz": false, "": false, "spa/": false, "swi": true} {
		if ValidLoc(l) != want {
			t.Errorf("ValidLoc(%q) = %v", l, !want)
		}
	}
}
