package warden

import (
	"testing"
	"time"
)

// The queue pairs the first two distinct Contenders of one (game, stake), the earlier as seat A,
// in a STAKING match; a second entry of one Contender is already_queued; a Contender who left is
// never paired; another's ticket is forbidden; an entry past QueueTTL is expired and skipped.
func TestQueuePairsFIFO(t *testing.T) {
	r := newPlainRig(t)
	var skew time.Duration
	r.doors.Now = func() time.Time { return time.Now().Add(skew) }
	a, b, c, d := r.register(0x71, "shark"), r.register(0x72, "mirror"), r.register(0x73, "diplomat"), r.register(0x74, "wildcard")
	q := func(p player, stake int) answer {
		return r.do("POST", "/v1/warden/queue", p.token, map[string]any{"game": "warden.dilemma", "stake": stake}, nil)
	}
	qa := q(a, 5)
	if qa.status != 202 || qa.body["position"] != float64(1) {
		t.Fatalf("A queues: %d %v", qa.status, qa.body)
	}
	if again := q(a, 5); again.status != 409 || again.body["error"] != "already_queued" {
		t.Fatalf("A again: %d %v", again.status, again.body)
	}
	if other := q(c, 6); other.status != 202 { // another stake: no pairing
		t.Fatalf("C at another stake: %d %v", other.status, other.body)
	}
	qb := q(b, 5)
	if qb.status != 201 || qb.body["seat"] != "B" {
		t.Fatalf("B queues: %d %v", qb.status, qb.body)
	}
	id := qb.body["match_id"].(string)
	ticket := qa.body["ticket"].(string)
	st := r.do("GET", "/v1/warden/queue/"+ticket, a.token, nil, nil)
	if st.body["status"] != "matched" || st.body["match_id"] != id || st.body["seat"] != "A" {
		t.Fatalf("A's ticket: %d %v", st.status, st.body)
	}
	if got := r.do("GET", "/v1/warden/queue/"+ticket, b.token, nil, nil); got.status != 403 || got.body["error"] != "forbidden" {
		t.Fatalf("B reads A's ticket: %d %v", got.status, got.body)
	}
	m := r.matchRec(id)
	if m.A != a.wallet.String() || m.B != b.wallet.String() || m.Status != StatusStaking || m.StakeDeadline == 0 {
		t.Fatalf("match %+v", m)
	}
	if got := q(a, 5); got.status != 409 || got.body["error"] != "too_many_matches" {
		t.Fatalf("A queues while staking: %d %v", got.status, got.body)
	}
	if del := r.do("DELETE", "/v1/warden/queue/"+ticket, a.token, nil, nil); del.status != 409 || del.body["error"] != "wrong_state" {
		t.Fatalf("leave a matched ticket: %d %v", del.status, del.body)
	}

	// C waits at stake 7, leaves; D is not paired with C.
	qc := q(c, 7)
	if del := r.do("DELETE", "/v1/warden/queue/"+qc.body["ticket"].(string), c.token, nil, nil); del.status != 200 || del.body["status"] != "left" {
		t.Fatalf("C leaves: %d %v", del.status, del.body)
	}
	qd := q(d, 7)
	if qd.status != 202 {
		t.Fatalf("D after C left: %d %v", qd.status, qd.body)
	}
	// D's entry expires; C queues again later and waits (D is skipped).
	skew = QueueTTL + time.Second
	if st := r.do("GET", "/v1/warden/queue/"+qd.body["ticket"].(string), d.token, nil, nil); st.body["status"] != "expired" {
		t.Fatalf("D's ticket after the TTL: %v", st.body)
	}
	if qc2 := q(c, 7); qc2.status != 202 || qc2.body["position"] != float64(1) {
		t.Fatalf("C after D expired: %d %v", qc2.status, qc2.body)
	}
}
