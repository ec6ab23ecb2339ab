package market

import (
	"fmt"
	"slices"
	"strings"
	"time"
)

// Config is one deployment's market: its Assets with their Unit Prices, the Starting Assets
// every Player is issued at Enrolment, and its hidden Game Rules (game-master-protocol-v2.md
// "Enrolment", "readStanding is public data", "Game Rules and the story line"). It is given to
// NewState once and stored in the State; a State never changes its Config.
type Config struct {
	// GameID is the Standing's gameId.
	GameID string `json:"gameId"`
	// Assets are the Assets this game defines, each once. An Asset ID may not start with '@'
	// (the reserved system Inventory IDs do).
	Assets []Asset `json:"assets"`
	// StartingAssets are issued from @issuance to each new Player, in this order, one Ledger
	// entry each. Quantities ≥ 1; each Asset once.
	StartingAssets []Holding `json:"startingAssets"`
	// Rules are the hidden Game Rules, matched in this order inside a Settlement.
	Rules []Rule `json:"rules"`
}

// Asset is one Asset the game defines.
type Asset struct {
	ID string `json:"id"`
	// UnitPrice is the configured price the Standing values one unit at (any unit of account,
	// ≥ 0); never what an Exchange settled at.
	UnitPrice int64 `json:"unitPrice"`
	// NonTransferable Assets are held and priced but may not be transferred or named in Terms:
	// a transfer or Round naming one is refused unknown_asset, as an undefined one is.
	NonTransferable bool `json:"nonTransferable,omitempty"`
}

// Holding is a quantity of one Asset (≥ 1 wherever it is given).
type Holding struct {
	AssetID  string `json:"assetId"`
	Quantity int64  `json:"quantity"`
}

// Rule is one hidden Game Rule: while active it matches Settlements whose Terms carry at least
// When's goods, and moves Moves in that same Settlement, drawing one of Lines for the firing.
type Rule struct {
	// ID names the rule to the operator: it appears in the Ledger and the Admin view only.
	ID string `json:"id"`
	// ActiveFrom and ActiveUntil bound the window the rule is active in, as
	// ActiveFrom ≤ settlement instant < ActiveUntil; a zero bound is open.
	ActiveFrom  time.Time `json:"activeFrom"`
	ActiveUntil time.Time `json:"activeUntil"`
	// When is the match condition on the live Round's Terms.
	When Match `json:"when"`
	// Moves are applied in order: a grant issues from @issuance to the party, a withdrawal
	// takes from the party into @treasury. At least one.
	Moves []RuleMove `json:"moves"`
	// Lines is the pool of story lines; one is drawn per firing. Empty: the firing's ruleNote
	// is null.
	Lines []string `json:"lines"`
}

// Match is a Rule's condition: the Terms' offered carry at least each of Offered (Asset and
// quantity), and their requested at least each of Requested. An empty Match matches every
// Settlement.
type Match struct {
	Offered   []Holding `json:"offered"`
	Requested []Holding `json:"requested"`
}

// RuleMove is one movement a firing Rule makes.
type RuleMove struct {
	// Kind is "grant" or "withdrawal".
	Kind string `json:"kind"`
	// Party is "proposer" or "counterparty": the Exchange's role, whoever wrote the live Round.
	Party    string `json:"party"`
	AssetID  string `json:"assetId"`
	Quantity int64  `json:"quantity"`
}

// maxConfigQuantity bounds every configured quantity and price, so sums over a large market stay
// far inside int64 and inside JSON's safe integers.
const maxConfigQuantity = 1 << 40

// validate reports the first thing wrong with c, naming its path.
func (c Config) validate() error {
	if c.GameID == "" {
		return fmt.Errorf("market: config gameId: empty")
	}
	if len(c.Assets) == 0 {
		return fmt.Errorf("market: config assets: none")
	}
	seen := map[string]bool{}
	for i, a := range c.Assets {
		switch {
		case a.ID == "" || strings.HasPrefix(a.ID, "@"):
			return fmt.Errorf("market: config assets[%d].id %q: empty or reserved", i, a.ID)
		case seen[a.ID]:
			return fmt.Errorf("market: config assets[%d].id %q: twice", i, a.ID)
		case a.UnitPrice < 0 || a.UnitPrice > maxConfigQuantity:
			return fmt.Errorf("market: config assets[%d].unitPrice %d: out of range", i, a.UnitPrice)
		}
		seen[a.ID] = true
	}
	checkHoldings := func(path string, hs []Holding) error {
		once := map[string]bool{}
		for i, h := range hs {
			switch {
			case !seen[h.AssetID]:
				return fmt.Errorf("market: config %s[%d].assetId %q: not an asset", path, i, h.AssetID)
			case once[h.AssetID]:
				return fmt.Errorf("market: config %s[%d].assetId %q: twice", path, i, h.AssetID)
			case h.Quantity < 1 || h.Quantity > maxConfigQuantity:
				return fmt.Errorf("market: config %s[%d].quantity %d: out of range", path, i, h.Quantity)
			}
			once[h.AssetID] = true
		}
		return nil
	}
	if err := checkHoldings("startingAssets", c.StartingAssets); err != nil {
		return err
	}
	ids := map[string]bool{}
	for i, r := range c.Rules {
		p := fmt.Sprintf("rules[%d]", i)
		if r.ID == "" || ids[r.ID] {
			return fmt.Errorf("market: config %s.id %q: empty or twice", p, r.ID)
		}
		ids[r.ID] = true
		if !r.ActiveFrom.IsZero() && !r.ActiveUntil.IsZero() && !r.ActiveFrom.Before(r.ActiveUntil) {
			return fmt.Errorf("market: config %s: activeFrom not before activeUntil", p)
		}
		if err := checkHoldings(p+".when.offered", r.When.Offered); err != nil {
			return err
		}
		if err := checkHoldings(p+".when.requested", r.When.Requested); err != nil {
			return err
		}
		if len(r.Moves) == 0 {
			return fmt.Errorf("market: config %s.moves: none", p)
		}
		for j, m := range r.Moves {
			q := fmt.Sprintf("%s.moves[%d]", p, j)
			switch {
			case m.Kind != moveGrant && m.Kind != moveWithdrawal:
				return fmt.Errorf("market: config %s.kind %q: want grant or withdrawal", q, m.Kind)
			case m.Party != partyProposer && m.Party != partyCounterparty:
				return fmt.Errorf("market: config %s.party %q: want proposer or counterparty", q, m.Party)
			case !seen[m.AssetID]:
				return fmt.Errorf("market: config %s.assetId %q: not an asset", q, m.AssetID)
			case m.Quantity < 1 || m.Quantity > maxConfigQuantity:
				return fmt.Errorf("market: config %s.quantity %d: out of range", q, m.Quantity)
			}
		}
		if slices.Contains(r.Lines, "") {
			return fmt.Errorf("market: config %s.lines: an empty line", p)
		}
	}
	return nil
}

const (
	moveGrant         = "grant"
	moveWithdrawal    = "withdrawal"
	partyProposer     = "proposer"
	partyCounterparty = "counterparty"
)

// asset returns the configured Asset id, if the game defines it.
func (c Config) asset(id string) (Asset, bool) {
	for _, a := range c.Assets {
		if a.ID == id {
			return a, true
		}
	}
	return Asset{}, false
}
