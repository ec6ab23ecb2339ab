package feed

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"strings"
	"testing"
	"time"
)

var (
	t0   = time.Date(2026, 11, 30, 3, 10, 4, 512_000_000, time.UTC)
	head = Head{At: t0, MatchID: "wm_7f3a9c21e0b4d856", Game: "warden.claims"}
	h64  = "630dcd2966c4336691125448bbb25b4ff412a49c732db2c8abc1b8581bd710dd"
	sha  = "sha256:" + h64
)

func i64(n int64) *int64   { return &n }
func str(s string) *string { return &s }

var prof = Profile{ContenderID: "0x19E7E376E7C213B7E7e7e46cc70A5dD086DAff2A", Name: "Quill", Temperament: "steadfast",
	Standing: Standing{Tier: "SOLVENT", Matches: 4, WinRateBps: 5000, NetTotal: 12000}}

// Every §15.3 type's data is exactly its public members, in JCS, under its type and round.
func TestEventData(t *testing.T) {
	tests := []struct {
		name  string
		ev    Event
		typ   string
		round int
		data  string
	}{
		{"match_opened", MatchOpened{Stake: 1000000, OpenUntil: t0.Add(10 * time.Minute), A: prof}.Event(head), TypeMatchOpened, 0,
			`{"open_until":"2026-11-30T03:20:04.512Z","seats":{"A":{"contender_id":"0x19E7E376E7C213B7E7e7e46cc70A5dD086DAff2A","name":"Quill","standing":{"matches":4,"net_total":12000,"tier":"SOLVENT","win_rate_bps":5000},"temperament":"steadfast"}},"stake":1000000}`},
		{"match_paired", MatchPaired{B: prof, StakeDeadline: t0.Add(2 * time.Minute)}.Event(head), TypeMatchPaired, 0,
			`{"seats":{"B":{"contender_id":"0x19E7E376E7C213B7E7e7e46cc70A5dD086DAff2A","name":"Quill","standing":{"matches":4,"net_total":12000,"tier":"SOLVENT","win_rate_bps":5000},"temperament":"steadfast"}},"stake_deadline":"2026-11-30T03:12:04.512Z"}`},
		{"stake_cleared", StakeCleared{Seat: "A", Amount: 1000000, Rail: "arc-exact", Network: "eip155:5042002", Ref: "0x" + h64}.Event(head), TypeStakeCleared, 0,
			`{"amount":1000000,"network":"eip155:5042002","rail":"arc-exact","ref":"0x` + h64 + `","seat":"A"}`},
		{"match_canceled", MatchCanceled{Reason: "stake_timeout", Refunds: []Refund{{Seat: "A", Amount: 1000000, Status: "queued"}}}.Event(head), TypeMatchCanceled, 0,
			`{"reason":"stake_timeout","refunds":[{"amount":1000000,"seat":"A","status":"queued"}]}`},
		{"refund_sent", RefundSent{Seat: "B", Amount: 5, Tx: "0x" + h64}.Event(head), TypeRefundSent, 0,
			`{"amount":5,"seat":"B","tx":"0x` + h64 + `"}`},
		{"match_started", MatchStarted{RulesVersion: "warden.claims/1", SeedHash: sha,
			Params:    Params{Rounds: 5, Valuation: &Range{2000, 8000, 100}, Pot: &PotParams{2000, 500, 4000, 4}, AskCeiling: "valuation", MessageMaxChars: 500, RakeBps: 500},
			Deadlines: map[string]int64{StepMessage: 20000, "reveal": 3000}}.Event(head), TypeMatchStarted, 0,
			`{"deadlines":{"negotiate.message":20000,"reveal":3000},"params":{"ask_ceiling":"valuation","message_max_chars":500,"pot":{"base_bps":2000,"cap_bps":4000,"max_steps":4,"step_bps":500},"rake_bps":500,"rounds":5,"valuation":{"max":8000,"min":2000,"step":100}},"rules_version":"warden.claims/1","seed_hash":"` + sha + `"}`},
		{"round_started", RoundStarted{Round: 2, Pot: Pot{200000, 50000, 400000}, Balances: Pair[int64]{1057000, 943000}}.Event(head), TypeRoundStarted, 2,
			`{"balances":{"A":1057000,"B":943000},"pot":{"base":200000,"cap":400000,"step":50000},"round":2}`},
		{"step_opened", StepOpened{Round: 2, Step: StepClaim, Deadline: t0}.Event(head), TypeStepOpened, 2,
			`{"deadline":"2026-11-30T03:10:04.512Z","round":2,"step":"negotiate.claim"}`},
		{"step_extended", StepExtended{Round: 2, Step: StepOffer, Deadline: t0, Reason: "server_restart"}.Event(head), TypeStepExtended, 2,
			`{"deadline":"2026-11-30T03:10:04.512Z","reason":"server_restart","round":2,"step":"offer"}`},
		{"message_sent", MessageSent{Round: 1, From: "A", To: "B", Length: 27}.Event(head), TypeMessageSent, 1,
			`{"from":"A","length":27,"round":1,"to":"B"}`},
		{"claim_sealed", Sealed{Round: 3, Seat: "B", Commitment: sha}.Claim(head), TypeClaimSealed, 3, `{"commitment":"` + sha + `","round":3,"seat":"B"}`},
		{"offer_sealed", Sealed{Round: 3, Seat: "A", Commitment: sha}.Offer(head), TypeOfferSealed, 3, `{"commitment":"` + sha + `","round":3,"seat":"A"}`},
		{"commit_sealed", Sealed{Round: 1, Seat: "A", Commitment: sha}.Commit(head), TypeCommitSealed, 1, `{"commitment":"` + sha + `","round":1,"seat":"A"}`},
		{"timeout", Timeout{Round: 4, Step: StepClaim, Seat: "B", DefaultApplied: "no_claim"}.Event(head), TypeTimeout, 4,
			`{"default_applied":"no_claim","round":4,"seat":"B","step":"negotiate.claim"}`},
		{"claims_published", ClaimsPublished{Round: 4, Claims: Pair[*int64]{i64(4300), nil}, Defaulted: Pair[bool]{false, true}}.Event(head), TypeClaimsPublished, 4,
			`{"claims":{"A":4300,"B":null},"defaulted":{"A":false,"B":true},"round":4,"salts":null}`},
		{"round_revealed", RoundRevealed{Round: 3, Valuations: Pair[int64]{5500, 6100}, Claims: Pair[*int64]{i64(6500), i64(6100)},
			Asks: Pair[int64]{5500, 6100}, Escalate: Pair[int64]{4, 0}, Pot: 400000, Contributions: Pair[int64]{200000, 200000},
			AskSum: 11600, Overshoot: true, Deviations: Pair[int64]{1000, 0}, Zeroed: str("A"), Payouts: Pair[int64]{0, 244000},
			Spill: 156000, Balances: Pair[int64]{791000, 1053000}, ClaimKind: Pair[string]{"bluff", "truthful"},
			Salts: Pair[Salts]{Salts{h64, h64}, Salts{h64, h64}}}.Event(head), TypeRoundRevealed, 3,
			`{"ask_sum":11600,"asks":{"A":5500,"B":6100},"balances":{"A":791000,"B":1053000},"claim_kind":{"A":"bluff","B":"truthful"},"claims":{"A":6500,"B":6100},"contributions":{"A":200000,"B":200000},"defaulted":{"A":false,"B":false},"deviations":{"A":1000,"B":0},"escalate":{"A":4,"B":0},"overshoot":true,"payouts":{"A":0,"B":244000},"pot":400000,"round":3,"salts":{"A":{"claim":"` + h64 + `","offer":"` + h64 + `"},"B":{"claim":"` + h64 + `","offer":"` + h64 + `"}},"spill":156000,"valuations":{"A":5500,"B":6100},"zeroed":"A"}`},
		{"choices_revealed", ChoicesRevealed{Round: 1, Choices: Pair[string]{"DEFECT", "COOPERATE"}, Outcome: "BETRAYAL",
			SharesBps: Pair[int64]{6500, 1500}, Gross: Pair[int64]{1300000, 300000}, House: 400000, Salts: Pair[string]{h64, h64}}.Event(head), TypeChoicesRevealed, 1,
			`{"choices":{"A":"DEFECT","B":"COOPERATE"},"defaulted":{"A":false,"B":false},"gross":{"A":1300000,"B":300000},"house":400000,"outcome":"BETRAYAL","round":1,"salts":{"A":"` + h64 + `","B":"` + h64 + `"},"shares_bps":{"A":6500,"B":1500}}`},
		{"match_finished", MatchFinished{Seats: Pair[SeatResult]{SeatResult{725000, 0, 725000, -275000, "loss"}, SeatResult{1005000, 250, 1004750, 4750, "win"}},
			House: 270250, Seed: h64, LogHash: sha}.Event(head), TypeMatchFinished, 0,
			`{"house":270250,"log_hash":"` + sha + `","seats":{"A":{"gross_return":725000,"net":-275000,"paid_out":725000,"rake":0,"result":"loss"},"B":{"gross_return":1005000,"net":4750,"paid_out":1004750,"rake":250,"result":"win"}},"seed":"` + h64 + `"}`},
		{"payout_sent", Payout{Seat: "B", Amount: 1004750, Tx: "0x" + h64}.Sent(head), TypePayoutSent, 0, `{"amount":1004750,"seat":"B","tx":"0x` + h64 + `"}`},
		{"payout_confirmed", Payout{Seat: "B", Amount: 1004750, Tx: "0x" + h64}.Confirmed(head), TypePayoutConfirmed, 0, `{"amount":1004750,"seat":"B","tx":"0x` + h64 + `"}`},
		{"match_settled", MatchSettled{LedgerRows: [2]uint64{1041, 1042}, LedgerHead: LedgerHead{1042, sha},
			StandingAfter: Pair[Standing]{Standing{"UNDERWATER", 1, 0, -275000}, Standing{"ELITE", 1, 10000, 4750}}}.Event(head), TypeMatchSettled, 0,
			`{"ledger_head":{"row_hash":"` + sha + `","seq":1042},"ledger_rows":[1041,1042],"standing_after":{"A":{"matches":1,"net_total":-275000,"tier":"UNDERWATER","win_rate_bps":0},"B":{"matches":1,"net_total":4750,"tier":"ELITE","win_rate_bps":10000}}}`},
		{"match_voided", MatchVoided{Reason: "operator"}.Event(head), TypeMatchVoided, 0, `{"reason":"operator","refunds":[]}`},
		{"messages_published", MessagesPublished{Messages: []Message{{1, "B", "A", "I hold more than you think."}}}.Event(head), TypeMessagesPublished, 0,
			`{"messages":[{"from":"B","round":1,"text":"I hold more than you think.","to":"A"}]}`},
		{"lobby", Lobby{Queues: []Queue{{"warden.claims", 1000000, 1}}, LiveMatches: 2}.Event(t0), TypeLobby, 0,
			`{"live_matches":2,"queues":[{"game":"warden.claims","stake":1000000,"waiting":1}]}`},
	}
	seen := map[string]bool{}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			env, err := tt.ev.Envelope(17)
			if err != nil {
				t.Fatal(err)
			}
			if env.Type != tt.typ || env.Round != tt.round || env.V != 1 || env.Seq != 17 || env.T != "2026-11-30T03:10:04.512Z" {
				t.Fatalf("envelope %+v", env)
			}
			if string(env.Data) != tt.data {
				t.Fatalf("data\n got %s\nwant %s", env.Data, tt.data)
			}
			seen[env.Type] = true
		})
	}
	for _, typ := range allTypes {
		if !seen[typ] {
			t.Errorf("type %s has no case", typ)
		}
	}
}

var allTypes = []string{TypeMatchOpened, TypeMatchPaired, TypeStakeCleared, TypeMatchCanceled, TypeRefundSent,
	TypeMatchStarted, TypeRoundStarted, TypeStepOpened, TypeStepExtended, TypeMessageSent, TypeClaimSealed,
	TypeOfferSealed, TypeCommitSealed, TypeTimeout, TypeClaimsPublished, TypeRoundRevealed, TypeChoicesRevealed,
	TypeMatchFinished, TypePayoutSent, TypePayoutConfirmed, TypeMatchSettled, TypeMatchVoided,
	TypeMessagesPublished, TypeLobby}

// The envelope is §15.2's, members in that order, round left out outside a round.
func TestEnvelopeJSON(t *testing.T) {
	env, err := MatchVoided{Reason: "operator"}.Event(head).Envelope(3)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := json.Marshal(env)
	want := `{"v":1,"seq":3,"t":"2026-11-30T03:10:04.512Z","match_id":"wm_7f3a9c21e0b4d856","game":"warden.claims","type":"match_voided","data":{"reason":"operator","refunds":[]}}`
	if string(b) != want {
		t.Fatalf("got  %s\nwant %s", b, want)
	}
}

// A constructor refuses fields outside their closed lists or formats: the Event is empty and
// says why; so is the zero Event.
func TestEventRefusals(t *testing.T) {
	tests := []struct {
		name string
		ev   Event
	}{
		{"seat C", Sealed{Round: 1, Seat: "C", Commitment: sha}.Claim(head)},
		{"commitment not a hash", Sealed{Round: 1, Seat: "A", Commitment: "my ask is 6100"}.Offer(head)},
		{"commitment upper hex", Sealed{Round: 1, Seat: "A", Commitment: "sha256:" + strings.ToUpper(h64)}.Commit(head)},
		{"step", StepOpened{Round: 1, Step: "claim"}.Event(head)},
		{"extension reason", StepExtended{Round: 1, Step: StepOffer, Reason: "because"}.Event(head)},
		{"message from", MessageSent{Round: 1, From: "a", To: "B"}.Event(head)},
		{"timeout default", Timeout{Round: 1, Step: StepOffer, Seat: "A", DefaultApplied: "ask 5000"}.Event(head)},
		{"zeroed", RoundRevealed{Round: 1, Zeroed: str("neither"), ClaimKind: Pair[string]{"none", "none"}, Salts: Pair[Salts]{Salts{h64, h64}, Salts{h64, h64}}}.Event(head)},
		{"salt short", RoundRevealed{Round: 1, ClaimKind: Pair[string]{"none", "none"}, Salts: Pair[Salts]{Salts{h64, "ab"}, Salts{h64, h64}}}.Event(head)},
		{"choice", ChoicesRevealed{Round: 1, Choices: Pair[string]{"cooperate", "DEFECT"}, Outcome: "BETRAYAL", Salts: Pair[string]{h64, h64}}.Event(head)},
		{"seed", MatchFinished{Seats: Pair[SeatResult]{SeatResult{Result: "win"}, SeatResult{Result: "loss"}}, Seed: "xx", LogHash: sha}.Event(head)},
		{"cancel reason", MatchCanceled{Reason: "bored"}.Event(head)},
		{"refund status", MatchVoided{Reason: "x", Refunds: []Refund{{Seat: "A", Status: "maybe"}}}.Event(head)},
		{"tx with a space", Payout{Seat: "A", Amount: 1, Tx: "0x 12"}.Sent(head)},
		{"tx empty", RefundSent{Seat: "A", Amount: 1}.Event(head)},
		{"seed hash", MatchStarted{SeedHash: h64}.Event(head)},
		{"row hash", MatchSettled{}.Event(head)},
		{"messages from", MessagesPublished{Messages: []Message{{1, "X", "A", "t"}}}.Event(head)},
		{"beyond 2^53", RoundStarted{Round: 1, Pot: Pot{Base: 1 << 60}}.Event(head)},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if tt.ev.Err() == nil || tt.ev.Type() != "" {
				t.Fatalf("accepted: %q %v", tt.ev.Type(), tt.ev.Err())
			}
			if _, err := tt.ev.Envelope(1); err == nil {
				t.Fatal("an envelope of a refused event")
			}
		})
	}
	if _, err := (Event{}).Envelope(1); !errors.Is(err, ErrEmpty) {
		t.Fatalf("zero event: %v", err)
	}
}

// The log hash is SHA-256 over JCS(envelope) ‖ "\n" per event, in order (§15.5).
func TestLogHash(t *testing.T) {
	a, _ := RoundStarted{Round: 1, Pot: Pot{1, 2, 3}}.Event(head).Envelope(0)
	b, _ := StepOpened{Round: 1, Step: StepMessage, Deadline: t0}.Event(head).Envelope(1)
	got, err := LogHash([]Envelope{a, b})
	if err != nil {
		t.Fatal(err)
	}
	lines := `{"data":{"balances":{"A":0,"B":0},"pot":{"base":1,"cap":3,"step":2},"round":1},"game":"warden.claims","match_id":"wm_7f3a9c21e0b4d856","round":1,"seq":0,"t":"2026-11-30T03:10:04.512Z","type":"round_started","v":1}` + "\n" +
		`{"data":{"deadline":"2026-11-30T03:10:04.512Z","round":1,"step":"negotiate.message"},"game":"warden.claims","match_id":"wm_7f3a9c21e0b4d856","round":1,"seq":1,"t":"2026-11-30T03:10:04.512Z","type":"step_opened","v":1}` + "\n"
	sum := sha256.Sum256([]byte(lines))
	if want := "sha256:" + hex.EncodeToString(sum[:]); got != want {
		t.Fatalf("got %s want %s", got, want)
	}
	if _, err := LogHash([]Envelope{{Data: json.RawMessage(`{`)}}); err == nil {
		t.Fatal("an envelope that is not JSON hashed")
	}
}

// Global is the global feed's list (§15.3).
func TestGlobal(t *testing.T) {
	for _, typ := range allTypes {
		want := map[string]bool{TypeMatchOpened: true, TypeMatchPaired: true, TypeMatchStarted: true, TypeMatchFinished: true,
			TypeMatchSettled: true, TypeMatchCanceled: true, TypeLobby: true}[typ]
		if Global(typ) != want {
			t.Errorf("Global(%s) = %v", typ, !want)
		}
	}
}
