package blitz

import (
	"testing"
	"time"

	"arena/games"
)

// TestClocksAreTheSpecs: the agent clock is §5.3's and the chat clock §4.5's, each call a fresh
// value; a zero Pace runs on the agent clock with §5.3's response deadlines, and a pace that
// names some steps takes the agent clock's length for the others.
func TestClocksAreTheSpecs(t *testing.T) {
	a := AgentPace()
	if a.Name != "agent" || a.CloseEarly || a.Step("scouting") != 90*time.Second || a.Step("talk") != 15*time.Second ||
		a.Step("commit") != 25*time.Second || a.Step("settle") != 5*time.Second || len(a.Steps) != 4 {
		t.Errorf("agent clock %+v", a)
	}
	c := ChatPace()
	if c.Name != "chat" || !c.CloseEarly || c.Step("scouting") != 3*time.Minute || c.Step("talk") != 3*time.Minute ||
		c.Step("commit") != 3*time.Minute || c.Step("settle") != time.Second || len(c.Steps) != 4 {
		t.Errorf("chat clock %+v", c)
	}
	a.Steps["talk"] = time.Second
	if AgentPace().Step("talk") != 15*time.Second {
		t.Error("AgentPace shares its steps between calls")
	}

	want := clock{scouting: 90 * time.Second, talk: 15 * time.Second, commit: 25 * time.Second, settle: 5 * time.Second,
		talkResp: 13 * time.Second, commitResp: 20 * time.Second}
	if got := clockOf(games.Pace{}); got != want {
		t.Errorf("zero pace: %+v, want %+v", got, want)
	}
	if got := clockOf(AgentPace()); got != want {
		t.Errorf("agent pace: %+v, want %+v", got, want)
	}
	got := clockOf(games.Pace{Name: "chat", CloseEarly: true, Steps: map[string]time.Duration{"talk": time.Minute}})
	wantChat := clock{scouting: 90 * time.Second, talk: time.Minute, commit: 25 * time.Second, settle: 5 * time.Second,
		talkResp: time.Minute, commitResp: 25 * time.Second, closeEarly: true}
	if got != wantChat {
		t.Errorf("chat pace naming talk: %+v, want %+v", got, wantChat)
	}
}
