package dotdotdot

import (
	"errors"
	"testing"

	"arena/games"
)

// Found by tester T1 against a running `arena serve`:
//
//	POST /v1/walkin {"name":"Jos\u00e9"}    → 201 (NFC: é is one code point)
//	POST /v1/walkin {"name":"Jose\u0301"}   → 201 (NFD: e + combining acute)
//
// Both walk-ins display as "José", on the weekly board and at a table, and
// GET /v1/walkin/name/José answers one or the other depending on how the client's keyboard
// encoded the URL. Names are unique case-insensitively precisely so that a name names one
// walk-in (docs/protocol-notes.md, actors: walk-in desk; §4.4 "a walk-in's public page"), and
// calls name a seat by display name (§9). Canonically equivalent Unicode strings are the same
// text. Right behaviour: the second registration is refused with name_taken.
func TestHostileNameCanonicalTwin(t *testing.T) {
	e := newDeskEnv(t, "", nil)
	ctx := deskCtx(t)
	if _, err := e.a.RegisterWalkin(ctx, "Jos\u00e9", ""); err != nil {
		t.Fatal(err)
	}
	_, err := e.a.RegisterWalkin(ctx, "Jose\u0301", "")
	var ge *games.Error
	if !errors.As(err, &ge) || ge.Code != CodeNameTaken {
		t.Fatalf("second \"José\" (NFD) registered beside the NFC one: err %v, want name_taken", err)
	}
}
