package adjudicate

import (
	"fmt"
	"sort"
	"strings"
	"testing"

	"arena/games/breakroom/diplomacy/board"
)

// DATC cases the data set lacks (6.D.16), marks "ignore" (6.B.7, 6.B.8, 6.B.15, 6.G.19 for 2023,
// 6.H.1–6.H.3), encodes apart from the DATC text (6.B.2, 6.G.11, 6.J.9, and 6.I.7 and 6.J.2,
// whose repeated orders a JSON object cannot hold) or checks less than the text says (6.D.31: the
// support is illegal, not just unhelpful), encoded here from the DATC v3.0 text in the data's own
// notation. A "!" before an order means the door must refuse it (board.ParseOrder).

type handCase struct {
	id        string
	start     []string          // the position, when not one unit per order
	main      []string          // for a retreat case: the movement phase before it
	orders    []string          // "ENG: F nth -> pic" or, with an expectation, "ENG: F nth -> pic = Fails"
	disbanded []string          // retreat cases: the units that must end disbanded
	disorder  []string          // build cases: the civil-disorder removals
	occupiers map[string]string // build cases: centre owners beyond the 1901 ones and the units'
	phase     string
}

func handOrders(lines []string) datcOrders {
	var o datcOrders
	for _, l := range lines {
		key, want, ok := strings.Cut(l, " = ")
		o.keys = append(o.keys, strings.TrimPrefix(key, "!"))
		if ok {
			w := want
			o.want = append(o.want, &w)
		} else {
			o.want = append(o.want, nil)
		}
	}
	return o
}

var handCases = []handCase{
	{id: "6.B.2", phase: "Main", orders: []string{"FRA: F gas -> spa = Succeeds"}},
	{id: "6.B.7", phase: "Main", orders: []string{
		"FRA: F por supports F mao -> spa = Succeeds", "FRA: F mao -> spa(nc) = Fails",
		"ITA: F lyo supports F wes -> spa(sc)", "ITA: F wes -> spa(sc) = Fails"}},
	{id: "6.B.8", phase: "Main", orders: []string{
		"FRA: F por supports F gas -> spa = Succeeds", "FRA: F gas -> spa(nc) = Fails",
		"ITA: F lyo supports F wes -> spa(sc)", "ITA: F wes -> spa(sc) = Fails"}},
	{id: "6.B.15", phase: "Main", orders: []string{
		"FRA: F por supports F mao -> spa = Succeeds", "ENG: F mao -> spa(nc) = Fails",
		"ITA: F lyo supports F wes -> spa(sc)", "ITA: F wes -> spa(sc) = Fails"}},
	{id: "6.D.16", phase: "Main", orders: []string{
		"ENG: A lon hold = Fails", "ENG: F nth convoys bel -> lon = Succeeds",
		"FRA: F eng supports A bel -> lon = Succeeds", "FRA: A bel -> lon = Succeeds"}},
	{id: "6.D.31", phase: "Main", orders: []string{
		"AUS: A rum -> arm = Fails", "TUR: F bla supports A rum -> arm = Fails"}},
	{id: "6.G.11", phase: "Main", orders: []string{
		"ENG: F nwy supports F nth -> ska = Succeeds", "ENG: F nth -> ska = Succeeds",
		"RUS: A swe -> nwy = Fails", "RUS: F ska convoys swe -> nwy = Fails", "RUS: F bar supports A swe -> nwy"}},
	{id: "6.G.19 (2023)", phase: "Main", orders: []string{
		"FRA: A mar -> spa = Fails", "FRA: F wes convoys mar -> spa = Fails",
		"ITA: F lyo convoys mar -> spa", "ITA: A spa -> mar = Fails"}},
	{id: "6.H.1", phase: "Retreat",
		main: []string{"AUS: F tri hold = Fails", "AUS: A ser hold = Succeeds", "TUR: F gre hold = Fails",
			"ITA: A ven supports A tyr -> tri", "ITA: A tyr -> tri = Succeeds", "ITA: F ion -> gre = Succeeds",
			"ITA: F aeg supports F ion -> gre"},
		orders:    []string{"AUS: F tri -> alb = Fails", "!AUS: A ser supports F tri -> alb = Fails", "TUR: F gre -> alb = Fails"},
		disbanded: []string{"AUS: F tri", "TUR: F gre"}},
	{id: "6.H.2", phase: "Retreat",
		main: []string{"ENG: A lvp -> edi = Succeeds", "ENG: F yor supports A lvp -> edi", "ENG: F nwy hold = Fails",
			"GER: A kie supports A ruh -> hol", "GER: A ruh -> hol = Succeeds", "RUS: F edi hold = Fails",
			"RUS: A swe supports A fin -> nwy", "RUS: A fin -> nwy = Succeeds", "RUS: F hol hold = Fails"},
		orders:    []string{"ENG: F nwy -> nth = Fails", "RUS: F edi -> nth = Fails", "!RUS: F hol supports F edi -> nth = Fails"},
		disbanded: []string{"ENG: F nwy", "RUS: F edi", "RUS: F hol"}},
	{id: "6.H.3", phase: "Retreat",
		main: []string{"ENG: F nth hold = Succeeds", "ENG: A hol hold = Fails",
			"GER: F kie supports A ruh -> hol", "GER: A ruh -> hol = Succeeds"},
		orders:    []string{"!ENG: A hol -> yor = Fails", "!ENG: F nth convoys hol -> yor = Fails"},
		disbanded: []string{"ENG: A hol"}},
	{id: "6.I.7", phase: "Build", start: []string{"RUS: F sev", "RUS: F stp(nc)"},
		orders: []string{"RUS: A mos build = Succeeds", "RUS: A mos build = Fails"}},
	// 6.J.2: the second removal of Paris is void, so the rule removes one more: F lyo is 3 from Paris
	// (the only centre France owns), A ruh 2.
	{id: "6.J.2", phase: "Build", start: []string{"ENG: F bre", "ITA: A mar", "FRA: A par", "FRA: F lyo", "FRA: A ruh"},
		orders: []string{"FRA: A par disband = Succeeds", "FRA: A par disband = Fails"}, disorder: []string{"FRA: F lyo"}},
	// 6.J.9: Russia owns only stp and sev, so Greece is another's; A gre is 3 from sev, either fleet 2
	// from stp by the nearer coast.
	{id: "6.J.9 (first)", phase: "Build", start: []string{"RUS: A gre", "RUS: A sev", "RUS: F bal"},
		occupiers: map[string]string{"war": "GER", "mos": "ENG", "gre": "TUR"}, disorder: []string{"RUS: A gre"}},
	{id: "6.J.9 (second)", phase: "Build", start: []string{"RUS: A gre", "RUS: A sev", "RUS: F ska"},
		occupiers: map[string]string{"war": "GER", "mos": "ENG", "gre": "TUR"}, disorder: []string{"RUS: A gre"}},
}

// TestDATCByHand runs the hand-encoded cases and checks that each order marked "!" is refused at
// the door and every other parses.
func TestDATCByHand(t *testing.T) {
	for _, h := range handCases {
		t.Run(h.id, func(t *testing.T) {
			phase := map[string]board.Phase{"Main": board.Movement, "Retreat": board.Retreats, "Build": board.Adjustments}[h.phase]
			for _, l := range h.orders {
				key, _, _ := strings.Cut(l, " = ")
				_, text := splitKey(strings.TrimPrefix(key, "!"), h.phase)
				_, err := board.ParseOrder(phase, text)
				if refuse := strings.HasPrefix(key, "!"); refuse != (err != nil) {
					t.Errorf("%s: refused=%v (%v), want refused=%v", key, err != nil, err, refuse)
				}
			}
			c := datcCase{Name: h.id, Phase: h.phase, Start: h.start, Orders: handOrders(h.orders), Occupiers: h.occupiers}
			if h.main != nil {
				m := handOrders(h.main)
				c.Preceding = &datcMain{Orders: m}
			}
			if h.disorder != nil {
				c.Disorder = h.disorder
			}
			if h.phase == "Build" && c.Orders.keys == nil {
				c.Orders = datcOrders{}
			}
			for _, b := range runCase(t, c) {
				t.Error(b)
			}
			if h.disbanded != nil {
				mv, _ := runMain(t, nil, c.Preceding.Orders)
				out := Retreats(mv.Dislodged, accepted(parseAll(c.Orders, "Retreat", board.Retreats)))
				var got, want []string
				for _, u := range out.Disbanded {
					got = append(got, fmt.Sprint(u))
				}
				for _, s := range h.disbanded {
					want = append(want, fmt.Sprint(unitOf(t, s)))
				}
				sort.Strings(got)
				sort.Strings(want)
				if strings.Join(got, ",") != strings.Join(want, ",") || len(out.Retreated) != 0 {
					t.Errorf("disbanded %v, retreated %v; want disbanded %v and no retreat", got, out.Retreated, want)
				}
			}
		})
	}
	if len(handCases) != 15 {
		t.Errorf("%d hand cases, want 15", len(handCases))
	}
}
