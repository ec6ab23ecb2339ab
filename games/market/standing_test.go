package market

import (
	"encoding/json"
	"strings"
	"testing"
)

type standingOut struct {
	GameID       string `json:"gameId"`
	StateVersion uint64 `json:"stateVersion"`
	Prices       []struct {
		AssetID   string `json:"assetId"`
		UnitPrice int64  `json:"unitPrice"`
	} `json:"prices"`
	Players []struct {
		PlayerID    string  `json:"playerId"`
		PlayerName  string  `json:"playerName"`
		TradingName *string `json:"tradingName"`
		Wealth      int64   `json:"wealth"`
	} `json:"players"`
}

// readStanding is public to any authenticated caller, enrolled or not; wealth is priced from
// the configured Unit Prices (Reserved goods still count), sorted by wealth then playerId.
func TestStandingPublicAndPriced(t *testing.T) {
	st, a, b, _, x := twoPlayers(t)
	must(t, st, "owner-b", t0, respondBody("yes", x.ExchangeID, 1, x.TermsHash, "approve"), nil)
	var s standingOut
	r := must(t, st, "owner-nobody", t0, `{"protocolVersion":2,"action":"readStanding"}`, &s)
	if s.GameID != "test-market" || s.StateVersion != r.StateVersion || len(s.Prices) != 4 || s.Prices[1].AssetID != "wood" || s.Prices[1].UnitPrice != 4 {
		t.Fatalf("standing: %+v", s)
	}
	// a: 140 credits + 10 wood·4 + 5 stone·7 + 1 medal·100 = 315; b: 60 + 30·4 + 35 + 100 = 315;
	// c: 100 + 80 + 35 + 100 = 315. A tie all round: by playerId.
	if len(s.Players) != 3 {
		t.Fatalf("players %+v", s.Players)
	}
	for i, p := range s.Players {
		if p.Wealth != 315 || i > 0 && p.PlayerID < s.Players[i-1].PlayerID {
			t.Fatalf("players %+v", s.Players)
		}
	}
	must(t, st, "owner-a", t0, transferBody("gift", b, "stone", 1), nil)
	must(t, st, "owner-a", t0, `{"protocolVersion":2,"commandId":"n","action":"setTradingName","tradingName":"  Marlow's Yard  "}`, nil)
	must(t, st, "owner-z", t0, `{"protocolVersion":2,"action":"readStanding"}`, &s)
	if s.Players[0].PlayerID != b || s.Players[0].Wealth != 322 || s.Players[2].PlayerID != a || s.Players[2].Wealth != 308 ||
		s.Players[2].PlayerName != "Marlow's Yard" || *s.Players[2].TradingName != "Marlow's Yard" || s.Players[0].TradingName != nil ||
		s.Players[0].PlayerName != DerivedName(b) {
		t.Fatalf("after a transfer and a name: %+v", s.Players)
	}
	refused(t, st, "", t0, `{"protocolVersion":2,"action":"readStanding"}`, CodeAuthenticationRequired)
	refused(t, st, "owner-z", t0, `{"protocolVersion":2,"action":"readStanding","gameId":"x"}`, CodeMalformedRequest)
}

// Names: a claim yields to the Player the market already calls that; two colliding claims
// both yield; two colliding derived names both take a fragment; fragments grow until no two
// printed names are equal, compared case-folded.
func TestPlayerNames(t *testing.T) {
	p := func(id, name string) *Player { return &Player{ID: id, TradingName: name} }
	derived := DerivedName("pl_1")
	twin := derivedTwins()
	cases := []struct {
		name    string
		players []*Player
		bare    []bool // whether each keeps its name without a fragment
	}{
		{"no collision", []*Player{p("pl_1", ""), p("pl_2", "Marlow's Yard")}, []bool{true, true}},
		{"a claim of another's derived name yields", []*Player{p("pl_1", ""), p("pl_2", derived)}, []bool{true, false}},
		{"case-folded claim yields", []*Player{p("pl_2", strings.ToUpper(derived)), p("pl_1", "")}, []bool{false, true}},
		{"two claims both yield", []*Player{p("pl_1", "Yard"), p("pl_2", "yard")}, []bool{false, false}},
		{"two derived both take a fragment", []*Player{p(twin[0], ""), p(twin[1], "")}, []bool{false, false}},
		{"two derived and a claim", []*Player{p(twin[0], ""), p("pl_3", DerivedName(twin[0])), p(twin[1], "")}, []bool{false, false, false}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got := playerNames(c.players)
			seen := map[string]bool{}
			for i, n := range got {
				base := c.players[i].TradingName
				if base == "" {
					base = DerivedName(c.players[i].ID)
				}
				if (n == base) != c.bare[i] {
					t.Errorf("%s printed %q (base %q), bare want %v", c.players[i].ID, n, base, c.bare[i])
				}
				if !c.bare[i] && !strings.HasPrefix(n, base+" [") {
					t.Errorf("%q: not the base and a fragment in brackets", n)
				}
				if seen[strings.ToLower(n)] {
					t.Errorf("%q printed twice", n)
				}
				seen[strings.ToLower(n)] = true
			}
		})
	}
	// Many Players over 4,096 derived names: every printed name distinct, and a claim copying a
	// fragmented label yields again.
	var many []*Player
	for i := range 3000 {
		many = append(many, p("pl_"+strings.Repeat("k", i%7)+string(rune('a'+i%26))+itoa(i), ""))
	}
	names := playerNames(many)
	many = append(many, p("pl_claimant", names[0]+" [x]"), p("pl_copy", names[0]))
	names = playerNames(many)
	seen := map[string]bool{}
	for _, n := range names {
		if seen[strings.ToLower(n)] {
			t.Fatalf("%q printed twice among %d", n, len(names))
		}
		seen[strings.ToLower(n)] = true
	}
}

// derivedTwins are two Player IDs of one derived name.
func derivedTwins() [2]string {
	first := map[string]string{}
	for i := 0; ; i++ {
		id := "pl_" + itoa(i)
		if o, ok := first[DerivedName(id)]; ok {
			return [2]string{o, id}
		}
		first[DerivedName(id)] = id
	}
}

func itoa(i int) string {
	b, _ := json.Marshal(i)
	return string(b)
}

// Wealth saturates at 2^53−1: a configured price and Starting Asset of 2^40 each (both within
// Config's bounds) value a Player beyond int64, and the Standing prints the bound, never a
// wrapped figure; a Player below it is valued exactly.
func TestStandingWealthSaturates(t *testing.T) {
	cfg := Config{GameID: "rich", Assets: []Asset{{ID: "gold", UnitPrice: 1 << 40}, {ID: "tin", UnitPrice: 1}},
		StartingAssets: []Holding{{"gold", 1 << 40}, {"tin", 5}}}
	st := newMarket(t, cfg)
	enrol(t, st, "owner-rich")
	var v struct {
		Players []struct {
			Wealth int64 `json:"wealth"`
		} `json:"players"`
	}
	if err := jsonUnmarshal(Standing(st, t0), &v); err != nil || len(v.Players) != 1 || v.Players[0].Wealth != maxQuantity {
		t.Fatalf("wealth %+v (%v), want %d", v, err, int64(maxQuantity))
	}
	if w := wealth(&Inventory{Holdings: map[string]int64{"gold": 3, "tin": 7}}, cfg.Assets); w != 3<<40+7 {
		t.Fatalf("wealth %d, want %d", w, int64(3<<40+7))
	}
}
