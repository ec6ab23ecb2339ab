package wire

import (
	"encoding/json"
	"strings"
	"testing"
)

// TestOutboundJSON: each server message is written with its type and v first, then the spec's
// members, optional ones left out when unset (breakroom-protocol-v0.md, "Server → Agent").
func TestOutboundJSON(t *testing.T) {
	ten := int64(10)
	for _, tc := range []struct {
		m    Outbound
		want string
	}{
		{Challenge{Nonce: "abc"}, `{"type":"challenge","v":0,"nonce":"abc"}`},
		{Queued{Game: "dilemma", Position: 3}, `{"type":"queued","v":0,"game":"dilemma","position":3}`},
		{Queued{Position: 1, Token: "tok"}, `{"type":"queued","v":0,"position":1,"token":"tok"}`},
		{Left{Game: "dilemma", Reason: "left"}, `{"type":"left","v":0,"game":"dilemma","reason":"left"}`},
		{Left{Game: "inference", Reason: "no_table", RefundedSats: &ten, Note: "n"},
			`{"type":"left","v":0,"game":"inference","reason":"no_table","refunded_sats":10,"note":"n"}`},
		{Seated{MatchID: "m_1", Seat: 2, TableSize: 4, RulesVersion: "dilemma-0.1", RulesURL: "https://b/rules/dilemma", Tier: "rookie",
			Players: []Player{{Seat: 0, Pubkey: "ab", Name: "Claude", DisplayName: "Claude", Reputation: Reputation{Matches: 12, Wins: 3, AvgRank: 2.6, BluffRate: 0.4, Caught: 5}},
				{Seat: 1, Pubkey: "house:1", Name: "", DisplayName: "Amber Otter", House: true},
				{Seat: 2, Pubkey: "cd", Name: "Bartender", DisplayName: "Bartender", Staff: true, Handle: "bar@b"}}},
			`{"type":"seated","v":0,"match_id":"m_1","seat":2,"table_size":4,"rules_version":"dilemma-0.1","rules_url":"https://b/rules/dilemma","tier":"rookie","players":[` +
				`{"seat":0,"pubkey":"ab","name":"Claude","display_name":"Claude","reputation":{"matches":12,"wins":3,"avg_rank":2.6,"bluff_rate":0.4,"caught":5,"timeouts":0}},` +
				`{"seat":1,"pubkey":"house:1","name":"","display_name":"Amber Otter","reputation":{"matches":0,"wins":0,"avg_rank":0,"bluff_rate":0,"caught":0,"timeouts":0},"house":true},` +
				`{"seat":2,"pubkey":"cd","name":"Bartender","display_name":"Bartender","handle":"bar@b","reputation":{"matches":0,"wins":0,"avg_rank":0,"bluff_rate":0,"caught":0,"timeouts":0},"staff":true}]}`},
		{YourTurn{MatchID: "m_1", Round: 12, Turn: 3, DeadlineMs: 10000, VisibleState: json.RawMessage(`{"game":"dilemma"}`), LegalActions: json.RawMessage(`[{"action":"cooperate"}]`)},
			`{"type":"your_turn","v":0,"match_id":"m_1","round":12,"turn":3,"deadline_ms":10000,"visible_state":{"game":"dilemma"},"legal_actions":[{"action":"cooperate"}]}`},
		{Event{MatchID: "m_1", Event: json.RawMessage(`{"seq":4,"t":"x","type":"action"}`)},
			`{"type":"event","v":0,"match_id":"m_1","event":{"seq":4,"t":"x","type":"action"}}`},
		{State{MatchID: "m_1", Status: StatusWaiting, Round: 2, VisibleState: json.RawMessage(`{"game":"dilemma"}`)},
			`{"type":"state","v":0,"match_id":"m_1","status":"waiting","round":2,"turn":0,"visible_state":{"game":"dilemma"},"legal_actions":[]}`},
		{Error{Code: "illegal_move", Detail: "no such action", MatchID: "m_1"},
			`{"type":"error","v":0,"code":"illegal_move","detail":"no such action","match_id":"m_1"}`},
		{Error{Code: "bad_request", Detail: "x"}, `{"type":"error","v":0,"code":"bad_request","detail":"x"}`},
		{FeedbackReceived{MatchID: "m_1"}, `{"type":"feedback_received","v":0,"match_id":"m_1"}`},
		{MatchEnd{MatchID: "m_1", YourRank: 2,
			Ranking:   []Rank{{Rank: 1, Seat: 3, Pubkey: "ab", Name: "A", Fields: json.RawMessage(`{"score":2.5}`)}, {Rank: 2, Seat: 0, Pubkey: "cd", Name: "B"}},
			ReplayURL: "https://b/r/m_1",
			NostrPost: NostrPost{Kind: 1, Content: "c", Tags: [][]string{{"t", "breakroom"}}},
			Feedback:  FeedbackInvite{Prompt: "p", MaxChars: 2000, OpenUntil: "2026-10-03T08:00:00.000Z", WS: json.RawMessage(`{"type":"feedback"}`), HTTP: "POST x"}},
			`{"type":"match_end","v":0,"match_id":"m_1","your_rank":2,"ranking":[{"rank":1,"seat":3,"pubkey":"ab","name":"A","score":2.5},{"rank":2,"seat":0,"pubkey":"cd","name":"B"}],` +
				`"replay_url":"https://b/r/m_1","nostr_post":{"kind":1,"content":"c","tags":[["t","breakroom"]]},` +
				`"feedback":{"prompt":"p","max_chars":2000,"open_until":"2026-10-03T08:00:00.000Z","ws":{"type":"feedback"},"http":"POST x"}}`},
	} {
		b, err := Encode(tc.m)
		if err != nil {
			t.Fatalf("%s: %v", tc.m.Type(), err)
		}
		if string(b) != tc.want {
			t.Errorf("%s:\n got %s\nwant %s", tc.m.Type(), b, tc.want)
		}
	}
}

// TestEncodeFrameLimit: an outbound message over 8 KB is refused (J31), one at the limit is not.
func TestEncodeFrameLimit(t *testing.T) {
	head := len(`{"type":"challenge","v":0,"nonce":""}`)
	if _, err := Encode(Challenge{Nonce: strings.Repeat("a", MaxFrame-head)}); err != nil {
		t.Fatalf("a frame of exactly %d bytes: %v", MaxFrame, err)
	}
	if _, err := Encode(Challenge{Nonce: strings.Repeat("a", MaxFrame-head+1)}); err == nil {
		t.Fatal("a frame over the limit was written")
	}
	if _, err := Encode(MatchEnd{Ranking: []Rank{{Fields: json.RawMessage(`[1]`)}}}); err == nil {
		t.Fatal("ranking fields that are no object were written")
	}
}

// TestErrorFrameCutsLongEchoes: an error naming a match_id and a detail each longer than a whole
// frame still encodes within MaxFrame, its code intact and its echoes cut on a character
// boundary.
func TestErrorFrameCutsLongEchoes(t *testing.T) {
	long := strings.Repeat("é", 5000)
	b, err := Encode(ErrorOf("unknown_match", "no match "+long, long))
	if err != nil {
		t.Fatalf("encode: %v", err)
	}
	var m struct {
		Code    string `json:"code"`
		Detail  string `json:"detail"`
		MatchID string `json:"match_id"`
	}
	if err := json.Unmarshal(b, &m); err != nil {
		t.Fatal(err)
	}
	if m.Code != "unknown_match" || !strings.HasSuffix(m.Detail, "é…") || !strings.HasSuffix(m.MatchID, "é…") {
		t.Fatalf("error frame %.200s", b)
	}
	if len(m.Detail) > MaxErrorDetail+len("…") || len(m.MatchID) > MaxErrorMatchID+len("…") {
		t.Fatalf("echoes of %d and %d bytes", len(m.Detail), len(m.MatchID))
	}
}
