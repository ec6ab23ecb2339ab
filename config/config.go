// Package config is the one Config of `arena serve`: its defaults (which run with zero set-up),
// a section per protocol (DOTDOTDOT, Break Room, the Warden, the Game Master market: each its
// site and settings), loading from a JSON file, the environment and flags (flags win over the
// environment, which wins over the file, which wins over the defaults), validation, and the
// instance secrets kept in the data directory (the instance's ed25519 key and the operator
// token). Every ARENA_* variable the binary reads is read here (Load, ClientEnv).
package config

import (
	"errors"
	"fmt"
	"net"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"arena/chain/badge"
)

// Config is everything `arena serve` reads at start-up. The zero value is not useful: start from
// Default(). Paths left empty are derived from DataDir by Resolve.
type Config struct {
	// Addr is the HTTP listen address, HOST:PORT (":8080"; port 0 picks a free port).
	Addr string `json:"addr"`
	// DataDir holds the database, the instance key and the operator token ("./data").
	DataDir string `json:"data_dir"`
	// DB is the bbolt file; "" means <DataDir>/arena.db.
	DB string `json:"db"`
	// InstanceKeyFile holds the instance's ed25519 seed as 64 hex digits; "" means
	// <DataDir>/instance.key. Generated (mode 0600) on first start when missing.
	InstanceKeyFile string `json:"instance_key_file"`
	// InstanceName is the display name published in /.well-known/agent.json.
	InstanceName string `json:"instance_name"`
	// OperatorToken guards /ops/*. "" means read <DataDir>/operator.token, generating it (mode
	// 0600) when missing. A token given here is used as is and never written to disk.
	OperatorToken string `json:"operator_token"`
	// LogFormat is "text" (default) or "json"; LogLevel is "debug", "info" (default), "warn" or
	// "error".
	LogFormat string `json:"log_format"`
	LogLevel  string `json:"log_level"`
	// ChainNode is the Concordium node gRPC address, HOST:PORT; "" runs the embedded devchain
	// (its chain kept under <DataDir>/devchain, posing as testnet).
	ChainNode string `json:"chain_node"`
	// ChainTLS dials ChainNode with TLS (public nodes need it); ignored for the devchain.
	ChainTLS bool `json:"chain_tls"`
	// ChainKeyFile is the arena's Concordium account key (Concordium's exported JSON, or
	// {"address", "seed"}); "" means <DataDir>/chain-account.json, generated on first start
	// for the devchain.
	ChainKeyFile string `json:"chain_key_file"`
	// ChainNetwork, ChainEscrow and ChainHouseAccount describe a configured node's network
	// (chain.go): the CAIP-2 chain it must be on, the DOTDOTDOT escrow instance paid tables use,
	// and the house identity account. Each needs ChainNode: the embedded devchain makes its own.
	ChainNetwork      string `json:"chain_network"`
	ChainEscrow       string `json:"chain_escrow"`
	ChainHouseAccount string `json:"chain_house_account"`
	// HTTP holds the doors' limits.
	HTTP HTTP `json:"http"`
	// Dotdotdot, Breakroom, Warden and Market are the protocols' sections: each its site (the
	// Host names and the optional listen address that select it, sites.go) and its settings.
	Dotdotdot Dotdotdot `json:"dotdotdot"`
	Breakroom Breakroom `json:"breakroom"`
	Warden    Warden    `json:"warden"`
	Market    Market    `json:"market"`
	// Cluster is the protoactor cluster to join; its zero Etcd runs the server alone.
	Cluster Cluster `json:"cluster"`
}

// Pace overrides the clocks of DOTDOTDOT's walk-in, practice and hosted tables (§4.4, §4.5,
// §5.3). A field left unset (nil) keeps the spec's value, stated once where it belongs (Blitz's
// chat and agent clocks in games/blitz, the lobby's waits in actors/dotdotdot:
// dotdotdot.DefaultPaces); `arena serve` hands what is set to dotdotdot.Options.Paces. A field
// that is set must be positive (Validate).
type Pace struct {
	// ChatMove is the deadline of one move on the chat clock (§4.5: three minutes), closing early
	// once every seat answered.
	ChatMove *Duration `json:"chat_move,omitempty"`
	// AgentTalk and AgentCommit are the agent clock of §5.3: one talk exchange (15 s) and the
	// commit phase (25 s).
	AgentTalk   *Duration `json:"agent_talk,omitempty"`
	AgentCommit *Duration `json:"agent_commit,omitempty"`
	// Scouting is the scouting phase of a practice table (§5.2: 90 s).
	Scouting *Duration `json:"scouting,omitempty"`
	// WalkinTopUp is how long the walk-in table waits for walk-ins before topping up with house
	// seats (§4.4: two minutes).
	WalkinTopUp *Duration `json:"walkin_top_up,omitempty"`
	// HostedStart is how long a hosted table gathers before it starts with whoever came (§4.5:
	// ten minutes).
	HostedStart *Duration `json:"hosted_start,omitempty"`
	// PaidGather is how long a paid table takes holds, from its first to its starts_at, when
	// the entries must be on the escrow (§5.7 names no length: two minutes).
	PaidGather *Duration `json:"paid_gather,omitempty"`
}

// HTTP is the doors' limits.
type HTTP struct {
	// MaxBody caps a request body in bytes (64 KiB); a larger body is refused with 413.
	MaxBody int64 `json:"max_body"`
	// LongPoll caps GET /v1/walkin/next?wait= (§4.4: 30 s at most).
	LongPoll Duration `json:"long_poll"`
	// ShutdownGrace is how long a SIGTERM waits for requests in flight (long polls included).
	ShutdownGrace Duration `json:"shutdown_grace"`
	// Limits are the per-address limits on anonymous creation.
	Limits Limits `json:"limits"`
}

// Limits bound what one client address may create without signing anything: past a limit
// the doors answer rate_limited (429) with Retry-After. Each is Burst at once, then one every
// Every; a Burst of 0 turns that limit off.
type Limits struct {
	// Register is walk-in registration (POST /v1/walkin, the chat seat's register): 20 at once
	// (a class behind one address), then one every 30 s.
	Register Limit `json:"register"`
	// Tables is the tables a caller opens (a Practice join, a hosted table, over HTTP or the
	// chat seat): 20 at once, then one every 15 s.
	Tables Limit `json:"tables"`
	// Challenges is owners' credentials: sign-in challenges (POST /v1/session/challenge) and
	// off-the-shelf owner tokens (POST /v1/ots/key), one budget per address for both: 30 at
	// once, then one every 2 s.
	Challenges Limit `json:"challenges"`
	// Feedback is feedback notes (POST /v1/feedback, the chat seat's feedback tool): 10 at once,
	// then one every 30 s.
	Feedback Limit `json:"feedback"`
	// ForwardedFor reads the client address from the last X-Forwarded-For entry: set it only
	// when a proxy on this host adds that header (ARENA_MCP_BEHIND_PROXY's set-up), since a
	// client can write the header itself.
	ForwardedFor bool `json:"forwarded_for"`
}

// Limit is one limit: Burst at once, then one every Every. Written as "BURST/EVERY" in flags
// and the environment ("20/30s"; "0" or "off" turns it off).
type Limit struct {
	Burst int      `json:"burst"`
	Every Duration `json:"every"`
}

// String is "BURST/EVERY", or "off".
func (l Limit) String() string {
	if l.Burst <= 0 {
		return "off"
	}
	return strconv.Itoa(l.Burst) + "/" + l.Every.String()
}

// Set parses "BURST/EVERY" ("20/30s"), "0" or "off".
func (l *Limit) Set(s string) error {
	if s == "off" || s == "0" {
		*l = Limit{}
		return nil
	}
	b, e, ok := strings.Cut(s, "/")
	n, err := strconv.Atoi(b)
	if !ok || err != nil || n < 0 {
		return fmt.Errorf("want BURST/EVERY such as 20/30s, or off, got %q", s)
	}
	var d Duration
	if err := d.Set(e); err != nil {
		return fmt.Errorf("want BURST/EVERY such as 20/30s, or off, got %q", s)
	}
	*l = Limit{Burst: n, Every: d}
	return nil
}

// Default returns the configuration that runs with zero set-up: ./data, ./data/arena.db, :8080,
// a generated instance key and operator token, the spec's clocks (no Pace override), the
// embedded devchain, and the four sites on :8080 by Host: dotdotdot.localhost,
// breakroom.localhost, warden.localhost and market.localhost (any other Host is DOTDOTDOT's).
func Default() Config {
	return Config{
		Addr:         ":8080",
		DataDir:      "./data",
		InstanceName: "arena",
		Cluster:      Cluster{Name: "arena", Host: "127.0.0.1"},
		LogFormat:    "text",
		LogLevel:     "info",
		HTTP: HTTP{
			MaxBody:       64 << 10,
			LongPoll:      Duration(30 * time.Second),
			ShutdownGrace: Duration(35 * time.Second),
			Limits: Limits{
				Register:   Limit{Burst: 20, Every: Duration(30 * time.Second)},
				Tables:     Limit{Burst: 20, Every: Duration(15 * time.Second)},
				Challenges: Limit{Burst: 30, Every: Duration(2 * time.Second)},
				Feedback:   Limit{Burst: 10, Every: Duration(30 * time.Second)},
			},
		},
		Dotdotdot: Dotdotdot{Site: Site{Hosts: []string{"dotdotdot.localhost"}}},
		Breakroom: Breakroom{Site: Site{Hosts: []string{"breakroom.localhost"}}},
		Warden:    defaultWarden(),
		Market:    defaultMarket(),
	}
}

// DBPath is the bbolt file: DB, or <DataDir>/arena.db.
func (c Config) DBPath() string {
	if c.DB != "" {
		return c.DB
	}
	return filepath.Join(c.DataDir, "arena.db")
}

// KeyPath is the instance key file: InstanceKeyFile, or <DataDir>/instance.key.
func (c Config) KeyPath() string {
	if c.InstanceKeyFile != "" {
		return c.InstanceKeyFile
	}
	return filepath.Join(c.DataDir, "instance.key")
}

// ChainKeyPath is the arena's account key file: ChainKeyFile, or <DataDir>/chain-account.json.
func (c Config) ChainKeyPath() string {
	if c.ChainKeyFile != "" {
		return c.ChainKeyFile
	}
	return filepath.Join(c.DataDir, "chain-account.json")
}

// TokenPath is where a generated operator token is kept: <DataDir>/operator.token.
func (c Config) TokenPath() string { return filepath.Join(c.DataDir, "operator.token") }

// Validate checks every field and returns all problems at once, each naming its field, the
// flag and the environment variable that set it.
func (c Config) Validate() error {
	var errs []error
	bad := func(field, format string, args ...any) {
		errs = append(errs, fmt.Errorf("config: %s: %s", field, fmt.Sprintf(format, args...)))
	}
	if host, port, err := net.SplitHostPort(c.Addr); err != nil {
		bad("addr (--addr, ARENA_ADDR)", "want HOST:PORT, e.g. :8080 or 127.0.0.1:0, got %q", c.Addr)
	} else if p, err := strconv.Atoi(port); err != nil || p < 0 || p > 65535 {
		bad("addr (--addr, ARENA_ADDR)", "port %q is not 0..65535", port)
	} else if strings.ContainsAny(host, " /") {
		bad("addr (--addr, ARENA_ADDR)", "host %q is not a host name or IP", host)
	}
	if strings.TrimSpace(c.DataDir) == "" {
		bad("data_dir (--data, ARENA_DATA)", "must not be empty")
	}
	if c.OperatorToken != "" && len(c.OperatorToken) < 16 {
		bad("operator_token (--operator-token, ARENA_OPERATOR_TOKEN)", "at least 16 characters, got %d", len(c.OperatorToken))
	}
	if strings.ContainsAny(c.OperatorToken, " \t\r\n") {
		bad("operator_token (--operator-token, ARENA_OPERATOR_TOKEN)", "must not contain white space")
	}
	switch c.LogFormat {
	case "text", "json":
	default:
		bad("log_format (--log-format, ARENA_LOG_FORMAT)", "want text or json, got %q", c.LogFormat)
	}
	switch c.LogLevel {
	case "debug", "info", "warn", "error":
	default:
		bad("log_level (--log-level, ARENA_LOG_LEVEL)", "want debug, info, warn or error, got %q", c.LogLevel)
	}
	if c.HTTP.LongPoll <= 0 {
		bad("http.long_poll", "must be a positive duration such as 30s, got %s", time.Duration(c.HTTP.LongPoll))
	}
	if c.HTTP.LongPoll > Duration(30*time.Second) {
		bad("http.long_poll", "at most 30s (§4.4), got %s", time.Duration(c.HTTP.LongPoll))
	}
	if c.ChainNode != "" {
		if _, _, err := net.SplitHostPort(c.ChainNode); err != nil {
			bad("chain_node (--chain-node, ARENA_CHAIN_NODE)", "want HOST:PORT of a node's gRPC API, got %q", c.ChainNode)
		}
	}
	if c.ChainNode == "" && c.ChainTLS {
		bad("chain_tls (--chain-tls, ARENA_CHAIN_TLS)", "needs chain_node: the embedded devchain speaks plain gRPC")
	}
	c.validateChain(bad)
	if c.HTTP.ShutdownGrace < 0 {
		bad("http.shutdown_grace", "must not be negative")
	}
	if c.HTTP.MaxBody < 1024 || c.HTTP.MaxBody > 16<<20 {
		bad("http.max_body (ARENA_MAX_BODY)", "want 1024..16777216 bytes, got %d", c.HTTP.MaxBody)
	}
	for _, l := range []struct {
		field string
		l     Limit
	}{{"http.limits.register (--limit-register, ARENA_LIMIT_REGISTER)", c.HTTP.Limits.Register},
		{"http.limits.tables (--limit-tables, ARENA_LIMIT_TABLES)", c.HTTP.Limits.Tables},
		{"http.limits.challenges (--limit-challenges, ARENA_LIMIT_CHALLENGES)", c.HTTP.Limits.Challenges},
		{"http.limits.feedback (--limit-feedback, ARENA_LIMIT_FEEDBACK)", c.HTTP.Limits.Feedback}} {
		if l.l.Burst < 0 || (l.l.Burst > 0 && l.l.Every <= 0) {
			bad(l.field, "want a burst ≥ 1 and a positive interval (or burst 0 for no limit), got %d/%s", l.l.Burst, time.Duration(l.l.Every))
		}
	}
	c.Dotdotdot.validate(bad)
	c.Breakroom.validate(bad)
	if c.ChainNetwork == string(badge.Mainnet) && c.Breakroom.Lightning.WalletKind() == WalletDev {
		bad("breakroom.lightning.wallet (--breakroom-wallet, ARENA_BREAKROOM_WALLET)", "the development wallet never runs on a mainnet config (chain_network is Concordium mainnet): set breakroom.lightning.lnd_url, or wallet none")
	}
	c.Market.validate(bad)
	c.Warden.validate(bad)
	c.validateSites(bad)
	c.Cluster.validate(bad)
	return errors.Join(errs...)
}
