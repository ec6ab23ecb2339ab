package market

import "encoding/json"

// The result views ("Result shapes"). Every field is written, null where it has no value, in
// the order declared here.

// holdingView is one Asset of an Inventory: what it holds, how much of that is Reserved behind
// open Exchanges, and what is Available.
type holdingView struct {
	AssetID   string `json:"assetId"`
	Quantity  int64  `json:"quantity"`
	Reserved  int64  `json:"reserved"`
	Available int64  `json:"available"`
}

type enrolmentView struct {
	Type       string        `json:"type"` // "enrolment"
	PlayerID   string        `json:"playerId"`
	EnrolledAt string        `json:"enrolledAt"`
	Holdings   []holdingView `json:"holdings"`
}

type inventoryView struct {
	PlayerID string        `json:"playerId"`
	Holdings []holdingView `json:"holdings"`
}

type transferView struct {
	TransferID string `json:"transferId"`
	ToPlayerID string `json:"toPlayerId"`
	AssetID    string `json:"assetId"`
	Quantity   int64  `json:"quantity"`
}

type tradingNameView struct {
	PlayerID    string  `json:"playerId"`
	TradingName *string `json:"tradingName"`
}

// exchangeView is an Exchange as one of its parties reads it. Rounds is null on a listing.
type exchangeView struct {
	ExchangeID        string          `json:"exchangeId"`
	ProposerPlayerID  string          `json:"proposerPlayerId"`
	CounterpartyID    string          `json:"counterpartyPlayerId"`
	Status            string          `json:"status"`
	ExchangeVersion   uint64          `json:"exchangeVersion"`
	Terms             json.RawMessage `json:"terms"`
	TermsHash         string          `json:"termsHash"`
	ExpiresAt         string          `json:"expiresAt"`
	CreatedAt         string          `json:"createdAt"`
	UpdatedAt         string          `json:"updatedAt"`
	LiveRound         uint64          `json:"liveRound"`
	RoundCount        uint64          `json:"roundCount"`
	AnsweringPlayerID *string         `json:"answeringPlayerId"`
	Approvals         []approvalView  `json:"approvals"`
	Rounds            []roundView     `json:"rounds"`
	NextRoundCursor   *string         `json:"nextRoundCursor"`
	RuleApplied       bool            `json:"ruleApplied"`
	RuleNote          *string         `json:"ruleNote"`
}

type roundView struct {
	RoundNumber    uint64          `json:"roundNumber"`
	AuthorPlayerID string          `json:"authorPlayerId"`
	Terms          json.RawMessage `json:"terms"`
	TermsHash      string          `json:"termsHash"`
	ExpiresAt      string          `json:"expiresAt"`
	CreatedAt      string          `json:"createdAt"`
	Outcome        *string         `json:"outcome"`
}

type approvalView struct {
	RoundNumber uint64 `json:"roundNumber"`
	PlayerID    string `json:"playerId"`
	ApprovedAt  string `json:"approvedAt"`
}

type listView struct {
	Exchanges  []exchangeView `json:"exchanges"`
	NextCursor *string        `json:"nextCursor"`
}

type statementView struct {
	PlayerID string      `json:"playerId"`
	Entries  []entryView `json:"entries"`
}

// entryView is one movement of the reader's own: direction "in" or "out" of its Inventory.
type entryView struct {
	EntryNumber  uint64  `json:"entryNumber"`
	RecordedAt   string  `json:"recordedAt"`
	Reason       string  `json:"reason"`
	Direction    string  `json:"direction"`
	AssetID      string  `json:"assetId"`
	Quantity     int64   `json:"quantity"`
	Counterparty *string `json:"counterparty"`
	TransferID   *string `json:"transferId"`
	ExchangeID   *string `json:"exchangeId"`
	CommandID    *string `json:"commandId"`
	RuleNote     *string `json:"ruleNote"`
}

func strPtr(s string) *string { return &s }

func optStr(s string) *string {
	if s == "" {
		return nil
	}
	return &s
}
