package main

import (
	"testing"
	"time"

	"arena/config"
)

// TestPacesOfConfig: every configured clock reaches dotdotdot.Paces; the defaults are the spec's.
func TestPacesOfConfig(t *testing.T) {
	d := config.Default().Pace
	if time.Duration(d.HostedStart) != 10*time.Minute || time.Duration(d.Scouting) != 90*time.Second {
		t.Fatalf("defaults %+v", d)
	}
	p := pacesOf(config.Pace{ChatMove: config.Duration(20 * time.Second), AgentTalk: config.Duration(6 * time.Second),
		AgentCommit: config.Duration(8 * time.Second), Scouting: config.Duration(30 * time.Second),
		WalkinTopUp: config.Duration(45 * time.Second), HostedStart: config.Duration(3 * time.Minute)})
	if p.Chat.Name != "chat" || !p.Chat.CloseEarly || p.Chat.Step("scouting") != 20*time.Second || p.Chat.Step("talk") != 20*time.Second || p.Chat.Step("commit") != 20*time.Second {
		t.Errorf("chat %+v", p.Chat)
	}
	if p.Agent.Name != "agent" || p.Agent.CloseEarly || p.Agent.Step("scouting") != 30*time.Second || p.Agent.Step("talk") != 6*time.Second || p.Agent.Step("commit") != 8*time.Second {
		t.Errorf("agent %+v", p.Agent)
	}
	if p.WalkinTopUp != 45*time.Second || p.HostedStart != 3*time.Minute {
		t.Errorf("top-up %v, hosted start %v", p.WalkinTopUp, p.HostedStart)
	}
}
