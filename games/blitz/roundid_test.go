package blitz

import (
	"encoding/json"
	"fmt"
	"testing"

	"arena/games"
	"arena/games/blitz/commitment"
)

// One rule for round ids (§3 "T-<n>", §5.5 the anchor's u64 round): New accepts exactly the
// rounds a commitment may name, so a round it opens never refuses every commitment
// bad_commitment; 2^64−1 (20 digits) is the largest, and a walk-in's commitment there seals.
func TestRoundIDOneRule(t *testing.T) {
	cases := []struct {
		round string
		n     uint64
		ok    bool
	}{
		{"T-1", 1, true},
		{"T-9931", 9931, true},
		{"T-1000000000000000000", 1e18, true}, // 19 digits: New took it, commitments refused it
		{"T-18446744073709551615", 1<<64 - 1, true},
		{"T-18446744073709551616", 0, false}, // 2^64
		{"T-99999999999999999999", 0, false},
		{"T-0", 0, false},
		{"T-01", 0, false},
		{"T-", 0, false},
		{"T-+1", 0, false},
		{"T--1", 0, false},
		{"T-1 ", 0, false},
		{"t-1", 0, false},
		{"T-١", 0, false}, // an Arabic-Indic digit
	}
	for _, c := range cases {
		n, ok := commitment.ParseRound(c.round)
		if ok != c.ok || n != c.n {
			t.Errorf("ParseRound(%q) = %d, %v; want %d, %v", c.round, n, ok, c.n, c.ok)
		}
		s := testSetup("blitz", 6, `{"mole":6,"task":{"kind":"broker","named":[]}}`)
		s.Round = c.round
		_, err := NewEngine(DefaultFees()).New(s, newTestKeys(6))
		if c.ok && err != nil {
			t.Errorf("New(round %q): %v", c.round, err)
		}
		if !c.ok {
			if ge, isGE := err.(*games.Error); !isGE || ge.Code != games.CodeBadRequest {
				t.Errorf("New(round %q) = %v, want bad_request", c.round, err)
			}
		}
	}
	// the largest round plays: a walk-in's commitment is filled with it and sealed
	for _, round := range []string{"T-1000000000000000000", "T-18446744073709551615"} {
		s := testSetup("blitz", 6, `{"mole":6,"task":{"kind":"broker","named":[]}}`)
		s.Round = round
		h := newHarness(t, s)
		h.to(1, "commit", 0)
		h.mustNoDrop(1, commitBody(`{"ref":"a","payee":2,"amount":3000000,"condition":{"always":true},"due":1}`))
		h.next()
		r := h.record("a")
		var c struct {
			Round string `json:"round"`
		}
		sealed := h.events("commitment.sealed")
		if len(sealed) != 2 {
			t.Fatalf("%s: commitment.sealed events %d, want 2", round, len(sealed))
		}
		var p struct {
			Commitment json.RawMessage `json:"commitment"`
		}
		if err := json.Unmarshal(sealed[1].Payload, &p); err != nil {
			t.Fatal(err)
		}
		if err := json.Unmarshal(p.Commitment, &c); err != nil || c.Round != round {
			t.Fatalf("%s: sealed commitment round %q (%v), record %+v", round, c.Round, err, r)
		}
	}
}

// A BYO commitment naming a 19- or 20-digit round is judged on its other members, not refused
// for its round: Parse and New share ParseRound.
func TestCommitmentRoundDigits(t *testing.T) {
	for _, round := range []string{"T-1000000000000000000", "T-18446744073709551615"} {
		raw := fmt.Sprintf(`{"v":1,"round":%q,"turn":1,"seq":1,"payer":%q,"payee":%q,"amount":1000000,"condition":{"always":true},"due":1,"sig":"ed25519:%0128d"}`,
			round, agentID(1), agentID(2), 0)
		if _, _, err := commitment.Parse([]byte(raw)); err != nil {
			t.Errorf("Parse with round %s: %v", round, err)
		}
	}
}
