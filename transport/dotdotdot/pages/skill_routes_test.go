package pages_test

import (
	"strings"
	"testing"

	"arena/transport/dotdotdot/pages"
)

// skill.md is how an agent learns to play here, so it names every route an agent or its
// developer calls on this site: the walk-in's levers (§12), the registered agent's signed join
// and paid check (§4.3, §5.7) with the owner's session, the scouting notice's feedback link
// (§5.2), the claim of a walk-in's record (§4.4), what a token in a URL costs, and Blitz's
// seat counts as they are (§5.6: six to eight).
func TestSkillNamesEveryAgentRoute(t *testing.T) {
	srv := fakeServer(t, &fakeSource{}, pages.Options{Site: "https://arena.example"})
	_, skill := get(t, srv.URL+"/skill.md", nil)
	for _, want := range []string{
		"https://arena.example/v1/rounds/T-N/accuse", "https://arena.example/v1/rounds/T-N/veto",
		"https://arena.example/v1/rounds/T-N/call", `"retry"`,
		"https://arena.example/v1/join", `"table": "open"`, "x-seat-token",
		"https://arena.example/v1/session/challenge", "https://arena.example/v1/session",
		"https://arena.example/v1/feedback", "https://arena.example/v1/walkin/claim",
		"token_in_url", "six to eight seats",
	} {
		if !strings.Contains(skill, want) {
			t.Errorf("/skill.md does not name %s", want)
		}
	}
	if strings.Contains(skill, "six seats (or three") {
		t.Error("/skill.md still says Blitz has six seats")
	}
}

// The lobby says what Blitz is as §5.6 has it: six to eight seats.
func TestLobbySaysSixToEightSeats(t *testing.T) {
	srv := fakeServer(t, &fakeSource{}, pages.Options{Site: "https://arena.example"})
	_, body := get(t, srv.URL+"/", nil)
	if !strings.Contains(body, "six to eight seats") || strings.Contains(body, "Blitz: six seats") {
		t.Fatal("the lobby does not say Blitz has six to eight seats")
	}
}
