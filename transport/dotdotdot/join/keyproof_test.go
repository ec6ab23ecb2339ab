package join

import (
	"bytes"
	"crypto/ed25519"
	"log/slog"
	"testing"
	"time"

	"github.com/labstack/echo/v4"

	"arena/games"
	"arena/transport/dotdotdot/codes"
)

// provingResolver is fakeResolver with the KeyProver hook, recording each proof.
type provingResolver struct {
	*fakeResolver
	proofs []string
	err    error // Proven's answer
}

func (p *provingResolver) Proven(agent string, key ed25519.PublicKey) error {
	p.proofs = append(p.proofs, agent+"|"+string(key))
	return p.err
}

// The door tells a KeyProver of a verified signature, with the key it verified, and only then.
func TestJoinTellsTheResolverOfAVerifiedSignature(t *testing.T) {
	v := newEnv(t)
	p := &provingResolver{fakeResolver: v.res}
	n := NewStoreNonces(v.db, func() time.Time { return v.now })
	v.e = echo.New()
	Mount(v.e, Options{Seater: v.seat, Resolver: p, Nonces: n, Now: func() time.Time { return v.now }})

	other := ed25519.NewKeyFromSeed(bytes.Repeat([]byte{7}, 32))
	if code, _ := v.do("POST", "/v1/join", signed(t, other, v.joinObj("nonce-proof-00000001")), nil); code == 200 {
		t.Fatal("a join signed with another key was seated")
	}
	if len(p.proofs) != 0 {
		t.Fatalf("a signature that does not verify was reported as proof: %q", p.proofs)
	}
	if code, body := v.do("POST", "/v1/join", signed(t, v.key, v.joinObj("nonce-proof-00000002")), nil); code != 200 {
		t.Fatalf("%d %v", code, body)
	}
	want := agentID + "|" + string(v.key.Public().(ed25519.PublicKey))
	if len(p.proofs) != 1 || p.proofs[0] != want {
		t.Fatalf("proofs %q, want one for %s", p.proofs, agentID)
	}
}

// A proof that cannot be saved refuses the join it proves (busy, retry): nothing is seated
// before the key's Badge is on record.
func TestJoinRefusedWhenTheProofIsNotSaved(t *testing.T) {
	v := newEnv(t)
	p := &provingResolver{fakeResolver: v.res, err: &games.Error{Code: "busy", Msg: "the key index could not be saved", Retry: true}}
	n := NewStoreNonces(v.db, func() time.Time { return v.now })
	v.e = echo.New()
	v.e.HTTPErrorHandler = codes.ErrorHandler(slog.New(slog.DiscardHandler))
	Mount(v.e, Options{Seater: v.seat, Resolver: p, Nonces: n, Now: func() time.Time { return v.now }})
	code, body := v.do("POST", "/v1/join", signed(t, v.key, v.joinObj("nonce-proof-00000003")), nil)
	wantRefusal(t, code, body, 503, "busy")
	if body["retry"] != true || len(v.seat.joins) != 0 {
		t.Fatalf("retry %v, %d seated", body["retry"], len(v.seat.joins))
	}
}
