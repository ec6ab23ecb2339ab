package dotdotdot

import (
	"errors"
	"testing"

	"arena/games"
)

// Two registrations of one name in different Unicode forms:
//
//	POST /v1/walkin {"name":"Jos\u00e9"}    (NFC: é is one code point)
//	POST /v1/walkin {"name":"Jose\u0301"}   (NFD: e + combining acute)
//
// would display alike ("José") on the weekly board and at a table, and
// GET /v1/walkin/name/José would answer one or the other depending on how the client encoded the
// URL. Names are unique case-insensitively precisely so that a name names one
// walk-in (docs/protocol-notes.md, actors: walk-in desk; §4.4 "a walk-in's public page"), and
// calls name a seat by display name (§9). Canonically equivalent Unicode strings are the same
// text, so the second registration is refused with name_taken.
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
