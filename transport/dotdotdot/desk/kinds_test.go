package desk_test

import (
	"context"
	"encoding/json"
	"log/slog"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/labstack/echo/v4"

	"arena/actors/dotdotdot"
	"arena/games/rating"
	"arena/transport/dotdotdot/codes"
	"arena/transport/dotdotdot/desk"
	"arena/transport/dotdotdot/desk/desktest"
)

// kindsFake is the fake desk with a rated table gathering and two rated Badges.
type kindsFake struct{ *desktest.Fake }

var fakeStartsBy = time.Date(2026, 9, 9, 14, 2, 0, 0, time.UTC)

func (kindsFake) Gatherings(context.Context) ([]dotdotdot.Gathering, error) {
	return []dotdotdot.Gathering{{Kind: "rated", Format: "blitz", Table: "r01", Seats: 6, Players: []string{"Ada"}, StartsBy: fakeStartsBy}}, nil
}

func (kindsFake) Ratings() ([]dotdotdot.RatingRecord, error) {
	return []dotdotdot.RatingRecord{
		{Agent: "ccd:c/cis-2:A", Name: "Ada", Rating: rating.Rating{Rating: 1649.03, RD: 228.07, Volatility: 0.06}, Display: 1649, Rounds: 3, Last: "T-3"},
		{Agent: "ccd:c/cis-2:B", Name: "Basil", Rating: rating.Rating{Rating: 1350.97, RD: 228.07, Volatility: 0.06}, Display: 1351, Rounds: 3, Last: "T-3"},
	}, nil
}

func kindsGet(t *testing.T, e *echo.Echo, path string) (int, []byte) {
	t.Helper()
	rec := httptest.NewRecorder()
	e.ServeHTTP(rec, httptest.NewRequest("GET", path, strings.NewReader("")))
	return rec.Code, rec.Body.Bytes()
}

// GET /v1/tables/kinds lists every kind with its rules and the agent tables gathering;
// GET /v1/ratings the rated Badges with the method; both refuse a query they do not take.
func TestKindsAndRatingsRoutes(t *testing.T) {
	e := echo.New()
	e.HTTPErrorHandler = codes.ErrorHandler(slog.New(slog.DiscardHandler))
	desk.Mount(e, kindsFake{desktest.New()}, desk.Options{})
	code, body := kindsGet(t, e, "/v1/tables/kinds")
	var k struct {
		Kinds     []dotdotdot.TableKind
		Gathering []dotdotdot.Gathering
	}
	if err := json.Unmarshal(body, &k); err != nil || code != 200 {
		t.Fatalf("%d %s %v", code, body, err)
	}
	byKind := map[string]dotdotdot.TableKind{}
	for _, x := range k.Kinds {
		byKind[x.Kind] = x
	}
	if len(k.Kinds) != 9 || byKind["rated"].ScoutingS != 60 || !byKind["rated"].Rated || byKind["gated"].ScoutingS != 30 ||
		byKind["practice"].ScoutingS != 90 || !byKind["open"].Escrow || byKind["free"].Stakes != "none" {
		t.Fatalf("kinds %s", body)
	}
	if len(k.Gathering) != 1 || k.Gathering[0].Table != "r01" || !k.Gathering[0].StartsBy.Equal(fakeStartsBy) {
		t.Fatalf("gathering %s", body)
	}
	code, body = kindsGet(t, e, "/v1/ratings")
	var r struct {
		Method  string
		Ratings []dotdotdot.RatingRecord
	}
	if err := json.Unmarshal(body, &r); err != nil || code != 200 || !strings.HasPrefix(r.Method, "Glicko-2") ||
		len(r.Ratings) != 2 || r.Ratings[0].Display != 1649 || r.Ratings[1].RD != 228.07 {
		t.Fatalf("%d %s %v", code, body, err)
	}
	if !strings.Contains(string(body), `"rd":228.07`) || !strings.Contains(string(body), `"volatility":0.06`) {
		t.Fatalf("ratings members %s", body)
	}
	for _, p := range []string{"/v1/tables/kinds?x=1", "/v1/ratings?limit=5"} {
		if code, body := kindsGet(t, e, p); code != 400 {
			t.Fatalf("%s: %d %s", p, code, body)
		}
	}
}

// A desk without Kinds mounts neither route.
func TestKindsRoutesNeedKinds(t *testing.T) {
	e := echo.New()
	e.HTTPErrorHandler = codes.ErrorHandler(slog.New(slog.DiscardHandler))
	desk.Mount(e, desktest.New(), desk.Options{})
	if code, _ := kindsGet(t, e, "/v1/ratings"); code != 404 {
		t.Fatalf("/v1/ratings on a desk without ratings: %d", code)
	}
}
