package config

import (
	"crypto/ed25519"
	"encoding/hex"
	"errors"
	"flag"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"arena/chain/badge"
)

func env(m map[string]string) func(string) string {
	return func(k string) string { return m[k] }
}

func TestDefaultsRunWithZeroSetup(t *testing.T) {
	c, err := Load("serve", nil, env(nil), io.Discard)
	if err != nil {
		t.Fatalf("Load with nothing set: %v", err)
	}
	if c.Addr != ":8080" || c.DataDir != "./data" || c.DBPath() != filepath.Join("data", "arena.db") {
		t.Errorf("defaults: addr %q data %q db %q", c.Addr, c.DataDir, c.DBPath())
	}
	if c.ChainNode != "" {
		t.Errorf("chain node %q, want embedded devchain (empty)", c.ChainNode)
	}
	// No clock is overridden: the tables run the spec's (cmd/arena TestPacesOfConfig checks the
	// values a server runs on).
	if c.Dotdotdot.Pace != (Pace{}) {
		t.Errorf("pace overrides by default: %+v", c.Dotdotdot.Pace)
	}
	if c.HTTP.MaxBody != 65536 || time.Duration(c.HTTP.LongPoll) != 30*time.Second {
		t.Errorf("http defaults: %+v", c.HTTP)
	}
}

func TestPrecedenceFlagsOverEnvOverFile(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "arena.json")
	if err := os.WriteFile(file, []byte(`{"addr":"127.0.0.1:1001","data_dir":"/from/file","log_level":"warn","pace":{"chat_move":"2m"}}`), 0o600); err != nil {
		t.Fatal(err)
	}
	e := env(map[string]string{"ARENA_ADDR": "127.0.0.1:1002", "ARENA_CONFIG": file, "ARENA_LOG_FORMAT": "json"})
	c, err := Load("serve", []string{"--addr", "127.0.0.1:1003"}, e, io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	if c.Addr != "127.0.0.1:1003" {
		t.Errorf("addr %q, want the flag's", c.Addr)
	}
	if c.DataDir != "/from/file" || c.LogLevel != "warn" || c.Dotdotdot.Pace.ChatMove == nil || time.Duration(*c.Dotdotdot.Pace.ChatMove) != 2*time.Minute {
		t.Errorf("file values lost: %+v", c)
	}
	if c.LogFormat != "json" {
		t.Errorf("log format %q, want env's json", c.LogFormat)
	}
	// Without the flag, the environment wins over the file.
	c, err = Load("serve", nil, e, io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	if c.Addr != "127.0.0.1:1002" {
		t.Errorf("addr %q, want env's", c.Addr)
	}
	// --config wins over ARENA_CONFIG.
	other := filepath.Join(dir, "other.json")
	os.WriteFile(other, []byte(`{"data_dir":"/other"}`), 0o600)
	c, err = Load("serve", []string{"--config", other}, e, io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	if c.DataDir != "/other" {
		t.Errorf("data dir %q, want from --config file", c.DataDir)
	}
}

func TestLoadRefuses(t *testing.T) {
	dir := t.TempDir()
	write := func(name, body string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(body), 0o600); err != nil {
			t.Fatal(err)
		}
		return p
	}
	tests := []struct {
		name string
		args []string
		env  map[string]string
		want string
	}{
		{"bad addr flag", []string{"--addr", "8080"}, nil, "HOST:PORT"},
		{"port out of range", []string{"--addr", ":70000"}, nil, "port"},
		{"empty data dir", []string{"--data", " "}, map[string]string{}, "data_dir"},
		{"unknown flag", []string{"--adr", ":1"}, nil, "flag provided but not defined"},
		{"positional", []string{"extra"}, nil, "unexpected argument"},
		{"unknown file member", []string{"--config", write("u.json", `{"adr":":1"}`)}, nil, "unknown setting"},
		{"trailing file data", []string{"--config", write("t.json", `{"addr":":1"} {}`)}, nil, "trailing"},
		{"bare number duration", []string{"--config", write("d.json", `{"pace":{"chat_move":180}}`)}, nil, "duration"},
		{"missing file", []string{"--config", filepath.Join(dir, "nope.json")}, nil, "read"},
		{"bad env duration", nil, map[string]string{"ARENA_PACE_CHAT_MOVE": "soon"}, "ARENA_PACE_CHAT_MOVE"},
		{"zero duration", []string{"--chat-move", "0s"}, nil, "pace.chat_move"},
		{"long poll over 30s", []string{"--long-poll", "31s"}, nil, "at most 30s"},
		{"bad log format", []string{"--log-format", "xml"}, nil, "log_format"},
		{"short operator token", []string{"--operator-token", "abc"}, nil, "at least 16"},
		{"bad agent id", []string{"--agent", "arena-1"}, nil, "CAIP-19"},
		{"agent id outside base58", []string{"--agent", TestnetChain + "/cis-2:2rSzdzSTqWn0"}, nil, "base58"},
		{"body cap too small", []string{"--max-body", "10"}, nil, "max_body"},
		{"body cap not a number", []string{"--max-body", "64k"}, nil, "byte count"},
		{"chain node without port", []string{"--chain-node", "node.example"}, nil, "chain_node"},
		{"tls without a node", []string{"--chain-tls=true"}, nil, "chain_tls"},
		{"tls not a bool", []string{"--chain-node", "n:20000", "--chain-tls=maybe"}, nil, "true or false"},
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

func TestValidateReportsEveryProblem(t *testing.T) {
	c := Default()
	c.Addr = "nope"
	c.LogLevel = "loud"
	err := c.Validate()
	if err == nil || !strings.Contains(err.Error(), "addr") || !strings.Contains(err.Error(), "log_level") {
		t.Fatalf("err = %v, want both addr and log_level named", err)
	}
}

func TestHelp(t *testing.T) {
	var out strings.Builder
	_, err := Load("serve", []string{"-h"}, env(nil), &out)
	if !errors.Is(err, flag.ErrHelp) {
		t.Fatalf("err = %v, want flag.ErrHelp", err)
	}
	for _, want := range []string{"-addr", "ARENA_ADDR", "-data", "ARENA_DATA", "-config"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("usage lacks %q", want)
		}
	}
}

func TestProvisionGeneratesOnceAndKeeps(t *testing.T) {
	c := Default()
	c.DataDir = filepath.Join(t.TempDir(), "data")
	s1, err := Provision(c)
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range []string{c.KeyPath(), c.TokenPath()} {
		fi, err := os.Stat(p)
		if err != nil {
			t.Fatal(err)
		}
		if fi.Mode().Perm() != 0o600 {
			t.Errorf("%s mode %v, want 0600", p, fi.Mode().Perm())
		}
	}
	if fi, _ := os.Stat(c.DataDir); fi.Mode().Perm() != 0o700 {
		t.Errorf("data dir mode %v, want 0700", fi.Mode().Perm())
	}
	s2, err := Provision(c)
	if err != nil {
		t.Fatal(err)
	}
	if !s1.InstanceKey.Equal(s2.InstanceKey) || s1.OperatorToken != s2.OperatorToken || s1.InstanceAgent != s2.InstanceAgent {
		t.Fatal("second start changed the instance's secrets")
	}
	if !strings.HasPrefix(s1.OperatorToken, "op_") || len(s1.OperatorToken) != 3+48 {
		t.Errorf("operator token %q", s1.OperatorToken)
	}
	tok, err := ReadOperatorToken(c.DataDir)
	if err != nil || tok != s1.OperatorToken {
		t.Errorf("ReadOperatorToken = %q, %v", tok, err)
	}
	if s1.InstanceAgent != DeriveAgent(s1.InstanceKey.Public().(ed25519.PublicKey)) {
		t.Error("agent id is not derived from the key")
	}
}

func TestProvisionUsesGivenTokenAndKey(t *testing.T) {
	c := Default()
	c.DataDir = t.TempDir()
	c.OperatorToken = "given-token-0123456789"
	c.Dotdotdot.InstanceAgent = TestnetChain + "/cis-2:2rSzdzSTqWnb" // addresses.json: <12802,0> token 01
	seed := make([]byte, 32)
	seed[0] = 7
	os.WriteFile(c.KeyPath(), []byte(hex.EncodeToString(seed)+"\n"), 0o600)
	s, err := Provision(c)
	if err != nil {
		t.Fatal(err)
	}
	if s.OperatorToken != c.OperatorToken || s.InstanceAgent != c.Dotdotdot.InstanceAgent {
		t.Errorf("given values not kept: %+v", s)
	}
	if !s.InstanceKey.Equal(ed25519.NewKeyFromSeed(seed)) {
		t.Error("key file not read")
	}
	if _, err := os.Stat(c.TokenPath()); err == nil {
		t.Error("a given operator token was written to disk")
	}
}

func TestProvisionRefusesCorruptKey(t *testing.T) {
	c := Default()
	c.DataDir = t.TempDir()
	os.WriteFile(c.KeyPath(), []byte("not hex"), 0o600)
	if _, err := Provision(c); err == nil || !strings.Contains(err.Error(), "instance key") {
		t.Fatalf("err = %v, want a refusal naming the instance key", err)
	}
	b, _ := os.ReadFile(c.KeyPath())
	if string(b) != "not hex" {
		t.Error("corrupt key file was replaced")
	}
}

func TestDeriveAgentIsABadge(t *testing.T) {
	seen := map[string]bool{}
	for i := range 50 {
		seed := make([]byte, 32)
		seed[0] = byte(i)
		id := DeriveAgent(ed25519.NewKeyFromSeed(seed).Public().(ed25519.PublicKey))
		a, err := badge.ParseAgentID(id)
		if err != nil || a.Chain != badge.Testnet || a.Token.Index != 12802 || a.Token.Subindex != 0 {
			t.Fatalf("id %q: %+v, %v; want a Badge of the testnet registry", id, a, err)
		}
		tok, ok := a.BadgeTokenID()
		if !ok {
			t.Fatalf("id %q: token id is not a u64", id)
		}
		// §4.2: registrations carries the token id as a JSON number, which I-JSON carries
		// exactly up to 2^53 − 1: the stand-in's card must be able to.
		if tok > 1<<53-1 {
			t.Fatalf("id %q: token id %d is above 2^53 − 1: its card's registrations agentId cannot be a number", id, tok)
		}
		if seen[id] {
			t.Fatalf("two keys share id %q", id)
		}
		seen[id] = true
	}
}

func TestLimitFlagForms(t *testing.T) {
	for _, tt := range []struct {
		in   string
		want Limit
		ok   bool
	}{
		{"20/30s", Limit{Burst: 20, Every: Duration(30 * time.Second)}, true},
		{"1/1h", Limit{Burst: 1, Every: Duration(time.Hour)}, true},
		{"off", Limit{}, true},
		{"0", Limit{}, true},
		{"20", Limit{}, false},
		{"-1/1s", Limit{}, false},
		{"x/1s", Limit{}, false},
		{"5/soon", Limit{}, false},
	} {
		var l Limit
		err := l.Set(tt.in)
		if (err == nil) != tt.ok || (tt.ok && l != tt.want) {
			t.Errorf("Set(%q) = %+v, %v; want %+v ok %v", tt.in, l, err, tt.want, tt.ok)
		}
	}
	c := Default()
	c.HTTP.Limits.Tables = Limit{Burst: 3}
	if err := c.Validate(); err == nil || !strings.Contains(err.Error(), "http.limits.tables") {
		t.Fatalf("a burst with no interval: %v", err)
	}
	c, err := Load("serve", []string{"--limit-register", "off", "--limit-challenges", "5/1m"}, func(string) string { return "" }, io.Discard)
	if err != nil || c.HTTP.Limits.Register.Burst != 0 || c.HTTP.Limits.Challenges != (Limit{Burst: 5, Every: Duration(time.Minute)}) ||
		c.HTTP.Limits.Tables != Default().HTTP.Limits.Tables {
		t.Fatalf("flags: %+v %v", c.HTTP.Limits, err)
	}
}

// A config file's mistakes are told in the file's words: the setting's JSON path, its line and
// column, the kind of value it takes; never the decoder's Go names.
func TestFileErrorsInTheFilesWords(t *testing.T) {
	dir := t.TempDir()
	write := func(name, body string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(body), 0o600); err != nil {
			t.Fatal(err)
		}
		return p
	}
	cases := []struct{ body, want string }{
		{`{"http": {"limits": {"register": "off"}}}`, `http.limits.register (line 1, column 39) must be an object, not a JSON string`},
		{`{"http": {"limits": {"register": {"burst": "x"}}}}`, `http.limits.register.burst (line 1, column 47) must be a whole number, not a JSON string`},
		{"{\"addr\": \":1\",\n \"http\": {\"limits\": {\"forwarded_for\": \"yes\"}}}", `http.limits.forwarded_for (line 2, column 44) must be true or false, not a JSON string`},
		{"{\"addr\": \":1\",\n  ,}", `not JSON at line 2, column 4`},
		{`{"addr": ":1"`, `the file ends before its JSON object does`},
		{`{"adr": ":1"}`, `unknown setting "adr"`},
	}
	for _, c := range cases {
		_, err := Load("serve", []string{"--config", write("c.json", c.body)}, env(nil), io.Discard)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: %v, want %q", c.body, err, c.want)
		}
		if err != nil && (strings.Contains(err.Error(), "Go struct") || strings.Contains(err.Error(), "cannot unmarshal") || strings.Contains(err.Error(), "unknown field") || strings.Contains(err.Error(), "Config.")) {
			t.Errorf("%s: %v: the decoder's own words", c.body, err)
		}
	}
}
