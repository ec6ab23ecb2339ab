package main

import (
	"regexp"
	"strings"
	"testing"
	"time"

	"arena/actors/dotdotdot"
	"arena/config"
)

// dp is d as a config override.
func dp(d time.Duration) *config.Duration { c := config.Duration(d); return &c }

// TestPacesOfConfig: every configured clock reaches dotdotdot.Paces; with nothing configured the
// server runs the spec's.
func TestPacesOfConfig(t *testing.T) {
	d := pacesOf(config.Default().Dotdotdot.Pace).WithDefaults()
	if d.HostedStart != 10*time.Minute || d.WalkinTopUp != 2*time.Minute || d.Agent.Step("scouting") != 90*time.Second ||
		d.Agent.Step("talk") != 15*time.Second || d.Agent.Step("commit") != 25*time.Second || d.Agent.Step("settle") != 5*time.Second ||
		d.Chat.Step("scouting") != 3*time.Minute || d.Chat.Step("talk") != 3*time.Minute || d.Chat.Step("commit") != 3*time.Minute ||
		d.Chat.Step("settle") != time.Second || !d.Chat.CloseEarly || d.Agent.CloseEarly {
		t.Fatalf("defaults %+v", d)
	}
	p := pacesOf(config.Pace{ChatMove: dp(20 * time.Second), AgentTalk: dp(6 * time.Second),
		AgentCommit: dp(8 * time.Second), Scouting: dp(30 * time.Second),
		WalkinTopUp: dp(45 * time.Second), HostedStart: dp(3 * time.Minute)})
	if p.Chat.Name != "chat" || !p.Chat.CloseEarly || p.Chat.Step("scouting") != 20*time.Second || p.Chat.Step("talk") != 20*time.Second || p.Chat.Step("commit") != 20*time.Second {
		t.Errorf("chat %+v", p.Chat)
	}
	if p.Agent.Name != "agent" || p.Agent.CloseEarly || p.Agent.Step("scouting") != 30*time.Second || p.Agent.Step("talk") != 6*time.Second || p.Agent.Step("commit") != 8*time.Second {
		t.Errorf("agent %+v", p.Agent)
	}
	if p.WalkinTopUp != 45*time.Second || p.HostedStart != 3*time.Minute {
		t.Errorf("top-up %v, hosted start %v", p.WalkinTopUp, p.HostedStart)
	}
	// Settle is not configured: it stays the spec's, and a registered agent's table cuts it to
	// one talk exchange.
	if w := p.WithDefaults(); w.Chat.Step("settle") != time.Second || w.Agent.Step("settle") != 5*time.Second {
		t.Errorf("settle chat %v agent %v", w.Chat.Step("settle"), w.Agent.Step("settle"))
	}
	cfg := config.Default()
	cfg.Dotdotdot.Pace = config.Pace{AgentTalk: dp(1500 * time.Millisecond), AgentCommit: dp(2 * time.Second), Scouting: dp(time.Second)}
	if a := agentPace(cfg); a.Name != "agent" || a.CloseEarly || a.Step("scouting") != time.Second || a.Step("talk") != 1500*time.Millisecond ||
		a.Step("commit") != 2*time.Second || a.Step("settle") != 1500*time.Millisecond {
		t.Errorf("join pace %+v", a)
	}
	if a := agentPace(config.Default()); a.Step("scouting") != 90*time.Second || a.Step("talk") != 15*time.Second ||
		a.Step("commit") != 25*time.Second || a.Step("settle") != 5*time.Second {
		t.Errorf("default join pace %+v", a)
	}
}

// TestServeHelpNamesTheDefaultPaces: the defaults `arena serve -h` names for the clocks are the
// ones a server runs on (dotdotdot.DefaultPaces), so the help cannot drift from the one
// statement of them.
func TestServeHelpNamesTheDefaultPaces(t *testing.T) {
	var out strings.Builder
	if _, err := config.Load("arena serve", []string{"-h"}, func(string) string { return "" }, &out); err == nil {
		t.Fatal("-h did not stop")
	}
	def := dotdotdot.DefaultPaces()
	for flag, want := range map[string]time.Duration{
		"chat-move":     def.Chat.Step("talk"),
		"scouting":      def.Agent.Step("scouting"),
		"walkin-top-up": def.WalkinTopUp,
		"hosted-start":  def.HostedStart,
	} {
		m := regexp.MustCompile(`-` + flag + ` value\n[^\n]*\(default ([^)]+)\)`).FindStringSubmatch(out.String())
		if m == nil {
			t.Errorf("-%s names no default in:\n%s", flag, out.String())
			continue
		}
		if got, err := time.ParseDuration(m[1]); err != nil || got != want {
			t.Errorf("-%s: help says default %s, the server runs %v", flag, m[1], want)
		}
	}
}
