package warden

import (
	"encoding/json"
	"testing"

	"arena/chain/evm/evmtest"
	"arena/games/warden/dilemma"
	"arena/games/warden/feed"
	"arena/storage"
)

// feedData decodes envelope e's data.
func feedData(t *testing.T, e feed.Envelope) map[string]any {
	t.Helper()
	var d map[string]any
	if err := json.Unmarshal(e.Data, &d); err != nil {
		t.Fatal(err)
	}
	return d
}

func feedTypesOf(envs []feed.Envelope) []string {
	out := make([]string, len(envs))
	for i, e := range envs {
		out[i] = e.Type
	}
	return out
}

// TestMatchFeedBeginsWithTheDoorsEvents: a match opened, joined and staked over the doors and
// played out has a match feed that begins match_opened (stake, open_until, seat A's profile),
// match_paired (seat B's profile, stake_deadline), stake_cleared for A then B (the stake,
// the rail, its network and each payment's transaction), then match_started (§15.3); and
// match_finished's log_hash is §15.5's hash over the feed from match_opened up to the event
// before it, as a verifier recomputes it from the served feed.
func TestMatchFeedBeginsWithTheDoorsEvents(t *testing.T) {
	chain := evmtest.Start(t)
	r := newPlayRig(t, chain)
	a, b, id, _ := r.live(dilemma.GameID, 0x77, 0x78)
	r.mustAct(a, id, 1, "commit", map[string]any{"choice": "COOPERATE"})
	r.mustAct(b, id, 1, "commit", map[string]any{"choice": "COOPERATE"})
	r.toDeadline(id) // the reveal pause
	envs, err := r.store.WardenMatchFeed(id, 0, 0)
	if err != nil {
		t.Fatal(err)
	}
	types := feedTypesOf(envs)
	want := []string{feed.TypeMatchOpened, feed.TypeMatchPaired, feed.TypeStakeCleared, feed.TypeStakeCleared, feed.TypeMatchStarted}
	if len(types) < len(want) {
		t.Fatalf("match feed %v", types)
	}
	for i, w := range want {
		if types[i] != w {
			t.Fatalf("match feed %v, want it to begin %v", types, want)
		}
	}
	opened := feedData(t, envs[0])
	seatA, _ := opened["seats"].(map[string]any)["A"].(map[string]any)
	if opened["stake"] != float64(testStake) || opened["open_until"] == "" || seatA["contender_id"] != a.wallet.String() ||
		seatA["temperament"] != "gambler" || seatA["standing"].(map[string]any)["tier"] == "" {
		t.Errorf("match_opened %s", envs[0].Data)
	}
	paired := feedData(t, envs[1])
	seatB, _ := paired["seats"].(map[string]any)["B"].(map[string]any)
	if seatB["contender_id"] != b.wallet.String() || seatB["temperament"] != "steadfast" || paired["stake_deadline"] == "" {
		t.Errorf("match_paired %s", envs[1].Data)
	}
	var m Match
	if err := r.store.WardenView(func(tx storage.WardenTx) error { _, err := tx.Get("match/"+id, &m); return err }); err != nil {
		t.Fatal(err)
	}
	for i, seat := range []string{"A", "B"} {
		p, err := r.store.WardenPayment(m.Stakes[seat])
		if err != nil {
			t.Fatal(err)
		}
		c := feedData(t, envs[2+i])
		if c["seat"] != seat || c["amount"] != float64(testStake) || c["rail"] != r.doors.Rail.ID || c["network"] != p.Network || c["ref"] != p.Tx || p.Tx == "" {
			t.Errorf("stake_cleared %d %s, payment %+v", i, envs[2+i].Data, p)
		}
	}
	fin := -1
	for i, e := range envs {
		if e.Type == feed.TypeMatchFinished {
			fin = i
		}
	}
	if fin < 0 {
		t.Fatalf("no match_finished in %v", types)
	}
	hash, err := feed.LogHash(envs[:fin])
	if err != nil {
		t.Fatal(err)
	}
	if got := feedData(t, envs[fin])["log_hash"]; got != hash {
		t.Fatalf("match_finished log_hash %v, the feed from match_opened hashes to %s", got, hash)
	}
}

// TestQueuePairingOpensAndPairsInTheFeed: a match the queue pairs is opened and paired in one
// write, so its feed begins match_opened (seat A, the earlier entry) then match_paired (seat B).
func TestQueuePairingOpensAndPairsInTheFeed(t *testing.T) {
	r := newPlainRig(t)
	a, b := r.register(0x79, "shark"), r.register(0x7a, "mirror")
	if qa := r.do("POST", "/v1/warden/queue", a.token, map[string]any{"game": "warden.dilemma", "stake": 5}, nil); qa.status != 202 {
		t.Fatalf("A queues: %d %v", qa.status, qa.body)
	}
	qb := r.do("POST", "/v1/warden/queue", b.token, map[string]any{"game": "warden.dilemma", "stake": 5}, nil)
	id, _ := qb.body["match_id"].(string)
	if qb.status != 201 || id == "" {
		t.Fatalf("B queues: %d %v", qb.status, qb.body)
	}
	envs, err := r.store.WardenMatchFeed(id, 0, 0)
	if err != nil {
		t.Fatal(err)
	}
	if got := feedTypesOf(envs); len(got) != 2 || got[0] != feed.TypeMatchOpened || got[1] != feed.TypeMatchPaired {
		t.Fatalf("match feed %v, want [match_opened match_paired]", got)
	}
	opened, paired := feedData(t, envs[0]), feedData(t, envs[1])
	if opened["stake"] != float64(5) || opened["seats"].(map[string]any)["A"].(map[string]any)["contender_id"] != a.wallet.String() ||
		paired["seats"].(map[string]any)["B"].(map[string]any)["contender_id"] != b.wallet.String() {
		t.Fatalf("match_opened %s, match_paired %s", envs[0].Data, envs[1].Data)
	}
}
