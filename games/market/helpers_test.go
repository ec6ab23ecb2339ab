package market

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"time"
)

// t0 is the instant the test markets open at.
var t0 = time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)

// testConfig is a small market: three tradeable Assets, one that is not, Starting Assets.
func testConfig() Config {
	return Config{
		GameID: "test-market",
		Assets: []Asset{{ID: "credits", UnitPrice: 1}, {ID: "wood", UnitPrice: 4}, {ID: "stone", UnitPrice: 7},
			{ID: "medal", UnitPrice: 100, NonTransferable: true}},
		StartingAssets: []Holding{{"credits", 100}, {"wood", 20}, {"stone", 5}, {"medal", 1}},
	}
}

var testSeed = [32]byte{1, 2, 3}

func newMarket(tb testing.TB, cfg Config) *State {
	tb.Helper()
	st, err := NewState(cfg, testSeed)
	if err != nil {
		tb.Fatal(err)
	}
	return st
}

// reply is a decoded response envelope.
type reply struct {
	ProtocolVersion int             `json:"protocolVersion"`
	OK              bool            `json:"ok"`
	StateVersion    uint64          `json:"stateVersion"`
	Result          json.RawMessage `json:"result"`
	Error           *struct {
		Code    string `json:"code"`
		Message string `json:"message"`
	} `json:"error"`
	raw []byte
}

func (r reply) code() string {
	if r.Error == nil {
		return ""
	}
	return r.Error.Code
}

// do applies body for owner at now, commits the Delta and decodes the response.
func do(tb testing.TB, st *State, owner string, now time.Time, body string) reply {
	tb.Helper()
	s := Apply(st, owner, []byte(body), now)
	st.Commit(s.Delta)
	var r reply
	if err := json.Unmarshal(s.Response, &r); err != nil {
		tb.Fatalf("response %s: %v", s.Response, err)
	}
	r.raw = s.Response
	return r
}

// must is do that fails the test on a refusal, decoding the result into v (when non-nil).
func must(tb testing.TB, st *State, owner string, now time.Time, body string, v any) reply {
	tb.Helper()
	r := do(tb, st, owner, now, body)
	if !r.OK {
		tb.Fatalf("%s: refused %s: %s", body, r.code(), r.raw)
	}
	if v != nil {
		if err := json.Unmarshal(r.Result, v); err != nil {
			tb.Fatalf("result %s: %v", r.Result, err)
		}
	}
	return r
}

// refused is do that fails the test unless the response is the refusal code.
func refused(tb testing.TB, st *State, owner string, now time.Time, body, code string) reply {
	tb.Helper()
	r := do(tb, st, owner, now, body)
	if r.OK || r.code() != code {
		tb.Fatalf("%s: got %s, want refusal %s", body, r.raw, code)
	}
	return r
}

func enrol(tb testing.TB, st *State, owner string) string {
	tb.Helper()
	var e struct {
		PlayerID string `json:"playerId"`
	}
	must(tb, st, owner, t0, `{"protocolVersion":2,"commandId":"enroll-1","action":"enroll"}`, &e)
	return e.PlayerID
}

// exView is the decoded Exchange view.
type exView struct {
	ExchangeID        string          `json:"exchangeId"`
	ProposerPlayerID  string          `json:"proposerPlayerId"`
	CounterpartyID    string          `json:"counterpartyPlayerId"`
	Status            string          `json:"status"`
	ExchangeVersion   uint64          `json:"exchangeVersion"`
	Terms             json.RawMessage `json:"terms"`
	TermsHash         string          `json:"termsHash"`
	ExpiresAt         string          `json:"expiresAt"`
	LiveRound         uint64          `json:"liveRound"`
	RoundCount        uint64          `json:"roundCount"`
	AnsweringPlayerID *string         `json:"answeringPlayerId"`
	Approvals         []struct {
		RoundNumber uint64 `json:"roundNumber"`
		PlayerID    string `json:"playerId"`
	} `json:"approvals"`
	Rounds []struct {
		RoundNumber    uint64          `json:"roundNumber"`
		AuthorPlayerID string          `json:"authorPlayerId"`
		Terms          json.RawMessage `json:"terms"`
		TermsHash      string          `json:"termsHash"`
		Outcome        *string         `json:"outcome"`
	} `json:"rounds"`
	NextRoundCursor *string `json:"nextRoundCursor"`
	RuleApplied     bool    `json:"ruleApplied"`
	RuleNote        *string `json:"ruleNote"`
}

func goods(pairs ...any) string {
	var b strings.Builder
	b.WriteByte('[')
	for i := 0; i < len(pairs); i += 2 {
		if i > 0 {
			b.WriteByte(',')
		}
		fmt.Fprintf(&b, `{"assetId":%q,"quantity":%d}`, pairs[i], pairs[i+1])
	}
	b.WriteByte(']')
	return b.String()
}

func proposeBody(cmd, counterparty, offered, requested, expires string) string {
	return fmt.Sprintf(`{"protocolVersion":2,"commandId":%q,"action":"proposeExchange","counterpartyPlayerId":%q,"offered":%s,"requested":%s,"expiresAt":%q}`,
		cmd, counterparty, offered, requested, expires)
}

func respondBody(cmd, id string, version uint64, hash, decision string) string {
	return fmt.Sprintf(`{"protocolVersion":2,"commandId":%q,"action":"respondToExchange","exchangeId":%q,"exchangeVersion":%d,"termsHash":%q,"decision":%q}`,
		cmd, id, version, hash, decision)
}

func counterBody(cmd, id string, version uint64, hash, offered, requested, expires string) string {
	return fmt.Sprintf(`{"protocolVersion":2,"commandId":%q,"action":"counterExchange","exchangeId":%q,"exchangeVersion":%d,"termsHash":%q,"offered":%s,"requested":%s,"expiresAt":%q}`,
		cmd, id, version, hash, offered, requested, expires)
}

func cancelBody(cmd, id string, version uint64) string {
	return fmt.Sprintf(`{"protocolVersion":2,"commandId":%q,"action":"cancelExchange","exchangeId":%q,"exchangeVersion":%d}`, cmd, id, version)
}

func transferBody(cmd, to, asset string, q int64) string {
	return fmt.Sprintf(`{"protocolVersion":2,"commandId":%q,"action":"transfer","toPlayerId":%q,"assetId":%q,"quantity":%d}`, cmd, to, asset, q)
}

const later = "2026-03-01T13:00:00.000Z"

// holdingsOf reads owner's Inventory as assetId → {quantity, reserved}.
func holdingsOf(tb testing.TB, st *State, owner string) map[string][2]int64 {
	tb.Helper()
	var inv struct {
		Holdings []holdingView `json:"holdings"`
	}
	must(tb, st, owner, t0, `{"protocolVersion":2,"action":"readInventory"}`, &inv)
	out := map[string][2]int64{}
	for _, h := range inv.Holdings {
		if h.Available != h.Quantity-h.Reserved {
			tb.Fatalf("holding %+v: available is not quantity − reserved", h)
		}
		out[h.AssetID] = [2]int64{h.Quantity, h.Reserved}
	}
	return out
}

func jsonUnmarshal(b []byte, v any) error { return json.Unmarshal(b, v) }
