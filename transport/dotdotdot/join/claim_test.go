package join

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"arena/games"
)

type claimCall struct{ token, agent, account string }

type fakeClaimer struct {
	calls []claimCall
	err   error
}

func (f *fakeClaimer) ClaimWalkin(_ context.Context, token, agent, account string) (json.RawMessage, error) {
	f.calls = append(f.calls, claimCall{token, agent, account})
	if f.err != nil {
		return nil, f.err
	}
	return json.RawMessage(`{"account":"` + account + `","rounds":3}`), nil
}

const claimToken = "w_abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQ"

func (v *env) claimObj(nonce string) map[string]any {
	return map[string]any{"agent": agentID, "walkin": claimToken, "issued_at": v.now.Add(-5 * time.Second).Format(time.RFC3339), "nonce": nonce}
}

// POST /v1/walkin/claim (§4.4) is checked as a join is: signed by the Badge's card key over the
// JCS of the object without sig, fresh, a nonce used once; the record goes to the owner the
// registry names, never to an account the body could name.
func TestClaimIsSignedAndGoesToTheBadgesOwner(t *testing.T) {
	v := newEnv(t)
	fc := &fakeClaimer{}
	v.claim = fc
	v.mount(t)
	code, body := v.do("POST", "/v1/walkin/claim", signed(t, v.key, v.claimObj("claim-nonce-0000001")), nil)
	if code != 200 || body["account"] != v.res.agents[agentID].Owner || body["agent"] != agentID {
		t.Fatalf("claim: %d %v", code, body)
	}
	if rec, _ := body["record"].(map[string]any); rec["rounds"] != float64(3) {
		t.Fatalf("claim answer lacks the account's record: %v", body)
	}
	if len(fc.calls) != 1 || fc.calls[0] != (claimCall{claimToken, agentID, v.res.agents[agentID].Owner}) {
		t.Fatalf("claimer calls %+v", fc.calls)
	}
	code, body = v.do("POST", "/v1/walkin/claim", signed(t, v.key, v.claimObj("claim-nonce-0000001")), nil)
	wantRefusal(t, code, body, 409, CodeReplayed)

	other := v.claimObj("claim-nonce-0000002")
	forged := signed(t, v.key, other)
	forged = []byte(strings.Replace(string(forged), claimToken, "w_"+strings.Repeat("Z", 43), 1))
	code, body = v.do("POST", "/v1/walkin/claim", forged, nil)
	wantRefusal(t, code, body, 422, CodeBadSignature)

	bad := v.claimObj("claim-nonce-0000003")
	bad["walkin"] = "not-a-token"
	code, body = v.do("POST", "/v1/walkin/claim", signed(t, v.key, bad), nil)
	wantRefusal(t, code, body, 401, "unknown_token")

	bad = v.claimObj("claim-nonce-0000004")
	bad["account"] = "ccd:4221332d34e1694168c2a0c0b3fd0f27:someoneElse"
	code, body = v.do("POST", "/v1/walkin/claim", signed(t, v.key, bad), nil)
	wantRefusal(t, code, body, 400, "bad_request")

	fc.err = games.Errorf("claimed", "spent")
	code, body = v.do("POST", "/v1/walkin/claim", signed(t, v.key, v.claimObj("claim-nonce-0000005")), nil)
	wantRefusal(t, code, body, 410, "claimed")
	if len(fc.calls) != 2 {
		t.Fatalf("refused claims reached the claimer: %+v", fc.calls)
	}
}
