package config

import (
	"io"
	"strings"
	"testing"
	"time"
)

// TestBreakroomPaceFromEverySource: the Break Room section's clocks and public URL from flags
// and the environment; unset, nothing is overridden.
func TestBreakroomPaceFromEverySource(t *testing.T) {
	c, err := Load("serve", nil, env(nil), io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	if c.Breakroom.Pace != (BreakroomPace{}) || c.Breakroom.PublicURL != "" {
		t.Fatalf("Break Room overrides by default: %+v", c.Breakroom)
	}
	c, err = Load("serve", []string{"--breakroom-lobby-wait", "2s", "--breakroom-turn", "800ms"},
		env(map[string]string{"ARENA_BREAKROOM_PACE_HOUSE_AFTER": "1s", "ARENA_BREAKROOM_PACE_HOUSE_PAUSE": "5ms",
			"ARENA_BREAKROOM_PACE_AWAY": "300ms", "ARENA_BREAKROOM_PUBLIC_URL": "https://br.example"}), io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	p := c.Breakroom.Pace
	if durOf(p.LobbyWait) != 2*time.Second || durOf(p.Turn) != 800*time.Millisecond || durOf(p.HouseAfter) != time.Second ||
		durOf(p.HousePause) != 5*time.Millisecond || durOf(p.Away) != 300*time.Millisecond || c.Breakroom.PublicURL != "https://br.example" {
		t.Fatalf("Break Room section: %+v", c.Breakroom)
	}
}

// TestBreakroomRefused: a clock that is not positive, an away deadline past the turn's, a public
// URL that is no http(s) origin.
func TestBreakroomRefused(t *testing.T) {
	for name, tc := range map[string]struct {
		args []string
		want string
	}{
		"zero lobby wait":  {[]string{"--breakroom-lobby-wait", "0s"}, "breakroom.pace.lobby_wait"},
		"negative turn":    {[]string{"--breakroom-turn", "-1s"}, "breakroom.pace.turn"},
		"away past turn":   {[]string{"--breakroom-turn", "1s", "--breakroom-away", "2s"}, "breakroom.pace.away"},
		"public url ftp":   {[]string{"--breakroom-public-url", "ftp://br.example"}, "ARENA_BREAKROOM_PUBLIC_URL"},
		"public url query": {[]string{"--breakroom-public-url", "https://br.example/?x=1"}, "breakroom.public_url"},
	} {
		t.Run(name, func(t *testing.T) {
			_, err := Load("serve", tc.args, env(nil), io.Discard)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("err = %v, want one naming %q", err, tc.want)
			}
		})
	}
}
