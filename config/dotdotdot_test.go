package config

import (
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// writeFile writes body to a file in a test's temp dir and returns its path.
func writeFile(t *testing.T, name, body string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(p, []byte(body), 0o600); err != nil {
		t.Fatal(err)
	}
	return p
}

// durOf is *d as a time.Duration, -1 when d is unset.
func durOf(d *Duration) time.Duration {
	if d == nil {
		return -1
	}
	return time.Duration(*d)
}

// TestDotdotdotPaceAndAgentFromEverySource: the DOTDOTDOT section's instance agent and clocks
// come from the file's dotdotdot section, the environment and flags under their names of
// before the section; what none sets stays unset.
func TestDotdotdotPaceAndAgentFromEverySource(t *testing.T) {
	const agent = TestnetChain + "/cis-2:2rSzdzSTqWnb"
	file := writeFile(t, "d.json", `{"dotdotdot":{"pace":{"agent_talk":"6s","agent_commit":"8s","chat_move":"1m"}}}`)
	c, err := Load("serve", []string{"--config", file, "--scouting", "30s", "--walkin-top-up", "45s"},
		env(map[string]string{"ARENA_AGENT": agent, "ARENA_PACE_CHAT_MOVE": "20s", "ARENA_PACE_HOSTED_START": "3m"}), io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	p := c.Dotdotdot.Pace
	if c.Dotdotdot.InstanceAgent != agent {
		t.Errorf("instance agent %q", c.Dotdotdot.InstanceAgent)
	}
	for name, got := range map[string][2]time.Duration{
		"chat_move":     {durOf(p.ChatMove), 20 * time.Second}, // the environment over the file
		"agent_talk":    {durOf(p.AgentTalk), 6 * time.Second},
		"agent_commit":  {durOf(p.AgentCommit), 8 * time.Second},
		"scouting":      {durOf(p.Scouting), 30 * time.Second},
		"walkin_top_up": {durOf(p.WalkinTopUp), 45 * time.Second},
		"hosted_start":  {durOf(p.HostedStart), 3 * time.Minute},
	} {
		if got[0] != got[1] {
			t.Errorf("%s = %v, want %v", name, got[0], got[1])
		}
	}
	c, err = Load("serve", []string{"--config", writeFile(t, "a.json", `{"dotdotdot":{"pace":{"agent_talk":"6s"}}}`)}, env(nil), io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	if p := c.Dotdotdot.Pace; durOf(p.AgentTalk) != 6*time.Second || p.ChatMove != nil || p.AgentCommit != nil || p.Scouting != nil || p.WalkinTopUp != nil || p.HostedStart != nil {
		t.Errorf("one step set, others %+v", p)
	}
}

// TestTopLevelPaceAndAgentStillRead: a config file that names instance_agent and pace at its
// top level, as files did before the DOTDOTDOT section held them, sets the same settings.
func TestTopLevelPaceAndAgentStillRead(t *testing.T) {
	const agent = TestnetChain + "/cis-2:2rSzdzSTqWnb"
	file := writeFile(t, "old.json", `{"instance_agent":"`+agent+`","pace":{"agent_talk":"1500ms","agent_commit":"2s","scouting":"1s"},"dotdotdot":{"public_url":"https://arena.example"}}`)
	c, err := Load("serve", []string{"--config", file}, env(nil), io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	p := c.Dotdotdot.Pace
	if c.Dotdotdot.InstanceAgent != agent || c.Dotdotdot.PublicURL != "https://arena.example" ||
		durOf(p.AgentTalk) != 1500*time.Millisecond || durOf(p.AgentCommit) != 2*time.Second || durOf(p.Scouting) != time.Second || p.ChatMove != nil {
		t.Errorf("dotdotdot %+v, pace %+v", c.Dotdotdot, p)
	}
}

// TestDotdotdotSettingsRefused: a setting named at the top level and in the section, an unknown
// pace member in either place, and a zero or negative clock from any source are refused, each
// naming what was wrong.
func TestDotdotdotSettingsRefused(t *testing.T) {
	const agent = TestnetChain + "/cis-2:2rSzdzSTqWnb"
	tests := []struct {
		name string
		args []string
		env  map[string]string
		want string
	}{
		{"pace twice", []string{"--config", writeFile(t, "p.json", `{"pace":{"scouting":"1s"},"dotdotdot":{"pace":{"agent_talk":"2s"}}}`)}, nil, "name it once, as dotdotdot.pace"},
		{"agent twice", []string{"--config", writeFile(t, "g.json", `{"instance_agent":"`+agent+`","dotdotdot":{"instance_agent":"`+agent+`"}}`)}, nil, "name it once, as dotdotdot.instance_agent"},
		{"unknown top-level pace member", []string{"--config", writeFile(t, "u.json", `{"pace":{"chat_mov":"1m"}}`)}, nil, "unknown setting"},
		{"unknown section pace member", []string{"--config", writeFile(t, "v.json", `{"dotdotdot":{"pace":{"chat_mov":"1m"}}}`)}, nil, "unknown setting"},
		{"zero in the file", []string{"--config", writeFile(t, "z.json", `{"dotdotdot":{"pace":{"agent_talk":"0s"}}}`)}, nil, "dotdotdot.pace.agent_talk"},
		{"zero at the top level", []string{"--config", writeFile(t, "y.json", `{"pace":{"agent_commit":"0s"}}`)}, nil, "dotdotdot.pace.agent_commit"},
		{"negative in the environment", nil, map[string]string{"ARENA_PACE_HOSTED_START": "-1s"}, "ARENA_PACE_HOSTED_START"},
		{"zero flag", []string{"--walkin-top-up", "0s"}, nil, "dotdotdot.pace.walkin_top_up"},
		{"bad agent in the section", []string{"--config", writeFile(t, "b.json", `{"dotdotdot":{"instance_agent":"arena-1"}}`)}, nil, "dotdotdot.instance_agent"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Load("serve", tt.args, env(tt.env), io.Discard)
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("err = %v, want one containing %q", err, tt.want)
			}
		})
	}
}
