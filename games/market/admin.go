package market

import (
	"maps"
	"slices"
	"time"
)

// AdminView is the operator's projection (game-master-protocol-v2.md "Result shapes",
// "Privacy"): every Player and system Inventory, every Exchange under the Rounds bound, the
// Ledger with its game-wide sequence and mechanism names, and a summary of the Commands. It
// carries no Owner ID and no caller-supplied Command ID (ADR-0018): those stay private
// persistence and Statement data.
type AdminView struct {
	GameID       string          `json:"gameId"`
	GeneratedAt  string          `json:"generatedAt"`
	StateVersion uint64          `json:"stateVersion"`
	Players      []AdminPlayer   `json:"players"`
	System       []AdminHoldings `json:"system"`
	Exchanges    []AdminExchange `json:"exchanges"`
	Ledger       []AdminRow      `json:"ledger"`
	Commands     []AdminCommand  `json:"commands"`
}

// AdminPlayer is one Player: ID, enrolment, Trading Name ("" none), derived name, Holdings and
// Reserved by Asset.
type AdminPlayer struct {
	PlayerID    string           `json:"playerId"`
	EnrolledAt  string           `json:"enrolledAt"`
	TradingName string           `json:"tradingName"`
	DerivedName string           `json:"derivedName"`
	Holdings    map[string]int64 `json:"holdings"`
	Reserved    map[string]int64 `json:"reserved"`
}

// AdminHoldings is a system Inventory (@treasury, @issuance): @issuance's balances are minus
// what it issued.
type AdminHoldings struct {
	InventoryID string           `json:"inventoryId"`
	Holdings    map[string]int64 `json:"holdings"`
}

// AdminExchange is one Exchange with its 100 most recent Rounds, their Approvals, both parties'
// stored rule signals and the rules that fired in its Settlement.
type AdminExchange struct {
	ExchangeID       string         `json:"exchangeId"`
	ProposerPlayerID string         `json:"proposerPlayerId"`
	CounterpartyID   string         `json:"counterpartyPlayerId"`
	Status           string         `json:"status"`
	ExchangeVersion  uint64         `json:"exchangeVersion"`
	RoundCount       uint64         `json:"roundCount"`
	Rounds           []roundView    `json:"rounds"`
	Approvals        []approvalView `json:"approvals"`
	ProposerRule     Signal         `json:"proposerRule"`
	CounterpartyRule Signal         `json:"counterpartyRule"`
	RulesFired       []string       `json:"rulesFired"`
	CreatedAt        string         `json:"createdAt"`
	UpdatedAt        string         `json:"updatedAt"`
}

// AdminRow is one Ledger entry as the operator reads it: the game-wide sequence, the mechanism
// reason, and the rule that moved it; the issuing Player but not its Command ID.
type AdminRow struct {
	Sequence     uint64  `json:"sequence"`
	At           string  `json:"at"`
	StateVersion uint64  `json:"stateVersion"`
	Reason       string  `json:"reason"`
	From         string  `json:"from"`
	To           string  `json:"to"`
	AssetID      string  `json:"assetId"`
	Quantity     int64   `json:"quantity"`
	TransferID   string  `json:"transferId,omitempty"`
	ExchangeID   string  `json:"exchangeId,omitempty"`
	RuleID       string  `json:"ruleId,omitempty"`
	RuleNote     *string `json:"ruleNote,omitempty"`
	IssuerID     string  `json:"issuerPlayerId,omitempty"`
}

// AdminCommand summarizes one command record without its Command ID.
type AdminCommand struct {
	PlayerID     string `json:"playerId"`
	Action       string `json:"action"`
	OK           bool   `json:"ok"`
	StateVersion uint64 `json:"stateVersion"`
	At           string `json:"at"`
}

// Admin is the Admin projection of st at now.
func Admin(st *State, now time.Time) AdminView {
	t := newTxn(st, now)
	v := AdminView{GameID: st.cfg.GameID, GeneratedAt: formatTime(now), StateVersion: st.version,
		Players: []AdminPlayer{}, Exchanges: []AdminExchange{}, Ledger: []AdminRow{}, Commands: []AdminCommand{}}
	for _, id := range st.order {
		p, inv := st.players[id], st.invs[id]
		v.Players = append(v.Players, AdminPlayer{PlayerID: id, EnrolledAt: formatTime(p.EnrolledAt), TradingName: p.TradingName,
			DerivedName: DerivedName(id), Holdings: maps.Clone(inv.Holdings), Reserved: maps.Clone(inv.Reserved)})
	}
	for _, id := range []string{Treasury, Issuance} {
		v.System = append(v.System, AdminHoldings{InventoryID: id, Holdings: maps.Clone(st.invs[id].Holdings)})
	}
	for _, id := range st.exOrder {
		x := st.exs[id]
		pv := t.exchangeView(x, x.Proposer, 0, maxRoundWindow, true)
		v.Exchanges = append(v.Exchanges, AdminExchange{ExchangeID: id, ProposerPlayerID: x.Proposer, CounterpartyID: x.Counterparty,
			Status: x.Status, ExchangeVersion: x.Version, RoundCount: uint64(len(x.Rounds)), Rounds: pv.Rounds, Approvals: pv.Approvals,
			ProposerRule: x.ProposerRule, CounterpartyRule: x.CounterRule, RulesFired: slices.Clone(x.RulesFired),
			CreatedAt: formatTime(x.CreatedAt), UpdatedAt: formatTime(x.UpdatedAt)})
	}
	for _, r := range st.ledger {
		v.Ledger = append(v.Ledger, AdminRow{Sequence: r.Sequence, At: formatTime(r.At), StateVersion: r.StateVersion, Reason: r.Reason,
			From: r.From, To: r.To, AssetID: r.AssetID, Quantity: r.Quantity, TransferID: r.TransferID, ExchangeID: r.ExchangeID,
			RuleID: r.RuleID, RuleNote: r.RuleNote, IssuerID: r.Issuer})
	}
	for _, k := range st.cmdOrder {
		c := st.cmds[k]
		v.Commands = append(v.Commands, AdminCommand{PlayerID: c.Player, Action: c.Action, OK: c.OK, StateVersion: c.StateVersion, At: formatTime(c.At)})
	}
	return v
}
