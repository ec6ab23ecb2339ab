package dotdotdot

import (
	"encoding/json"
	"testing"
)

// A token exposed in a URL is revoked and its record handed to a fresh token: the old token is
// refused token_revoked everywhere, the new one opens the same record and its live seat, and
// both facts survive a restart. A token revoked already, or never issued, gets no replacement.
func TestExposedTokenIsRevokedAndReplaced(t *testing.T) {
	e := newDeskEnv(t, "", nil)
	ctx := deskCtx(t)
	old, err := e.a.RegisterWalkin(ctx, "Ines", "")
	if err != nil {
		t.Fatal(err)
	}
	deskPlayRound(t, e.a, mustJoin(t, e.a, old))
	j, err := e.a.JoinWalkin(ctx, old, JoinRequest{Format: "short"})
	if err != nil {
		t.Fatal(err)
	}
	open := deskMustPoll(t, e.a, old)

	fresh, err := e.a.RevokeExposed(ctx, old)
	if err != nil || fresh == "" || fresh == old {
		t.Fatalf("RevokeExposed: %q, %v", fresh, err)
	}
	_, err = e.a.WalkinRecord(ctx, old)
	deskWantCode(t, err, CodeTokenRevoked)
	_, err = e.a.NextMove(ctx, old, 0)
	deskWantCode(t, err, CodeTokenRevoked)
	if _, err := e.a.RevokeExposed(ctx, old); err == nil {
		t.Fatal("a revoked token was replaced a second time")
	}
	if _, err := e.a.RevokeExposed(ctx, "w_"+fresh[2:12]+"0123456789abcdef0123456789abcdef0"); err == nil {
		t.Fatal("a token never issued got a replacement")
	}
	r := deskRecord(t, e.a, fresh)
	if r.Name != "Ines" || r.Rounds != 1 || r.Live == nil || r.Live.Round != j.Round {
		t.Fatalf("the new token's record %+v", r)
	}
	again := deskMustPoll(t, e.a, fresh)
	if again.Prompt == nil || again.Prompt.Move != open.Prompt.Move {
		t.Fatalf("the new token's move %+v, want the open one %+v", again.Prompt, open.Prompt)
	}

	dir, clock := e.dir, e.clock
	e.stop()
	e2 := newDeskEnv(t, dir, clock)
	_, err = e2.a.WalkinRecord(ctx, old)
	deskWantCode(t, err, CodeTokenRevoked)
	if r := deskRecord(t, e2.a, fresh); r.Name != "Ines" || r.Rounds != 1 {
		t.Fatalf("after a restart the new token's record %+v", r)
	}
	// Exposed in turn, the new token hands the same record on again.
	third, err := e2.a.RevokeExposed(ctx, fresh)
	if err != nil {
		t.Fatal(err)
	}
	if r := deskRecord(t, e2.a, third); r.Name != "Ines" || r.Rounds != 1 {
		t.Fatalf("the third token's record %+v", r)
	}
}

func mustJoin(t *testing.T, a *Arena, token string) string {
	t.Helper()
	if _, err := a.JoinWalkin(deskCtx(t), token, JoinRequest{Format: "short"}); err != nil {
		t.Fatal(err)
	}
	return token
}

type accountJSON struct {
	Account  string `json:"account"`
	Rounds   int    `json:"rounds"`
	Practice int    `json:"practice"`
	Net      int64  `json:"net"`
	Last     []walkinRoundLine
	Claimed  []accountClaim `json:"claimed"`
}

// A claim merges a walk-in's record into the account's, once: the token is spent (claimed on
// every call, a second claim included), a walk-in in a round cannot be claimed until it is
// over, and a second walk-in adds to the same account.
func TestClaimMergesOnceAndSpendsTheToken(t *testing.T) {
	e := newDeskEnv(t, "", nil)
	ctx := deskCtx(t)
	const account = "ccd:4221332d34e1694168c2a0c0b3fd0f27:3kBx2bQuKBbmbvLdg8mWvymNmjW7M1bsZ3qHHzPxJzUbZzXafA"
	const agent = "ccd:4221332d34e1694168c2a0c0b3fd0f27/cis-2:JyP9TuVfyJhJganGq2W8d"
	a, _ := e.a.RegisterWalkin(ctx, "Juno", "")
	b, _ := e.a.RegisterWalkin(ctx, "Kai", "")
	first := deskPlayRound(t, e.a, mustJoin(t, e.a, a))
	deskPlayRound(t, e.a, mustJoin(t, e.a, b))
	mustJoin(t, e.a, b)
	_, err := e.a.ClaimWalkin(ctx, b, agent, account)
	deskWantCode(t, err, CodeInARound)

	out, err := e.a.ClaimWalkin(ctx, a, agent, account)
	if err != nil {
		t.Fatal(err)
	}
	var ac accountJSON
	if err := json.Unmarshal(out, &ac); err != nil {
		t.Fatal(err)
	}
	want := first.Result.Payouts[1] - walkinEntry
	if ac.Account != account || ac.Rounds != 1 || ac.Practice != 1 || ac.Net != want || len(ac.Last) != 1 ||
		len(ac.Claimed) != 1 || ac.Claimed[0].Name != "Juno" || ac.Claimed[0].Agent != agent {
		t.Fatalf("account after the claim %s", out)
	}
	_, err = e.a.ClaimWalkin(ctx, a, agent, account)
	deskWantCode(t, err, CodeClaimed)
	_, err = e.a.WalkinRecord(ctx, a)
	deskWantCode(t, err, CodeClaimed)
	_, err = e.a.JoinWalkin(ctx, a, JoinRequest{Format: "short"})
	deskWantCode(t, err, CodeClaimed)

	deskPlayRound(t, e.a, b)
	out, err = e.a.ClaimWalkin(ctx, b, agent, account)
	if err != nil {
		t.Fatal(err)
	}
	ac = accountJSON{}
	_ = json.Unmarshal(out, &ac)
	if ac.Rounds != 3 || ac.Practice != 3 || len(ac.Claimed) != 2 || len(ac.Last) != 3 {
		t.Fatalf("account after the second claim %s", out)
	}
	for i := 1; i < len(ac.Last); i++ {
		if ac.Last[i].Ended.After(ac.Last[i-1].Ended) {
			t.Fatalf("rounds not newest first: %s", out)
		}
	}
	dir, clock := e.dir, e.clock
	e.stop()
	e2 := newDeskEnv(t, dir, clock)
	_, err = e2.a.NextMove(ctx, a, 0)
	deskWantCode(t, err, CodeClaimed)
}

// A claim that crashed after the account's record was written and before the token was marked
// claimed merges nothing twice when it is claimed again.
func TestClaimRetriedAfterACrashMergesOnce(t *testing.T) {
	e := newDeskEnv(t, "", nil)
	ctx := deskCtx(t)
	const account = "ccd:4221332d34e1694168c2a0c0b3fd0f27:3kBx2bQuKBbmbvLdg8mWvymNmjW7M1bsZ3qHHzPxJzUbZzXafA"
	tok, _ := e.a.RegisterWalkin(ctx, "Lior", "")
	deskPlayRound(t, e.a, mustJoin(t, e.a, tok))
	if _, err := e.a.ClaimWalkin(ctx, tok, "agent", account); err != nil {
		t.Fatal(err)
	}
	hash, _ := walkinTokenHash(tok)
	// The crash: the claimed mark never reached the disk.
	if err := e.db.Walkins().Delete("revoked/" + hash); err != nil {
		t.Fatal(err)
	}
	dir, clock := e.dir, e.clock
	e.stop()
	e2 := newDeskEnv(t, dir, clock)
	out, err := e2.a.ClaimWalkin(ctx, tok, "agent", account)
	if err != nil {
		t.Fatal(err)
	}
	var ac accountJSON
	_ = json.Unmarshal(out, &ac)
	if ac.Rounds != 1 || len(ac.Claimed) != 1 {
		t.Fatalf("the retried claim merged twice: %s", out)
	}
	_, err = e2.a.WalkinRecord(ctx, tok)
	deskWantCode(t, err, CodeClaimed)
}
