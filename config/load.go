package config

import (
	"bytes"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"reflect"
	"strconv"
	"strings"
)

// setting is one Config field reachable from a flag and an environment variable.
type setting struct {
	flag, env, usage string
	set              func(c *Config, v string) error
}

func str(f func(c *Config) *string) func(*Config, string) error {
	return func(c *Config, v string) error { *f(c) = v; return nil }
}

func boolean(f func(c *Config) *bool) func(*Config, string) error {
	return func(c *Config, v string) error {
		b, err := strconv.ParseBool(v)
		if err != nil {
			return fmt.Errorf("want true or false (1 or 0), got %q", v)
		}
		*f(c) = b
		return nil
	}
}

// jsonValue sets a value written as JSON (strict: unknown members refused).
func jsonValue(f func(c *Config) any) func(*Config, string) error {
	return func(c *Config, v string) error {
		dec := json.NewDecoder(strings.NewReader(v))
		dec.DisallowUnknownFields()
		if err := dec.Decode(f(c)); err != nil {
			return fmt.Errorf("want JSON, got %q: %v", v, err)
		}
		return nil
	}
}

func hosts(f func(c *Config) *[]string) func(*Config, string) error {
	return func(c *Config, v string) error { *f(c) = hostList(v); return nil }
}

// microCCD sets an optional amount in microCCD (a fee), leaving it nil on an error.
func microCCD(f func(c *Config) **int64) func(*Config, string) error {
	return func(c *Config, v string) error {
		n, err := strconv.ParseInt(v, 10, 64)
		if err != nil {
			return fmt.Errorf("want a whole number of microCCD (20000000 is 20 CCD), got %q", v)
		}
		*f(c) = &n
		return nil
	}
}

func dur(f func(c *Config) *Duration) func(*Config, string) error {
	return func(c *Config, v string) error { return f(c).Set(v) }
}

// override sets an optional duration (a Pace override), leaving it nil on an error.
func override(f func(c *Config) **Duration) func(*Config, string) error {
	return func(c *Config, v string) error {
		d := new(Duration)
		if err := d.Set(v); err != nil {
			return err
		}
		*f(c) = d
		return nil
	}
}

// settings lists every flag and variable, in the order of `arena serve -h`.
var settings = []setting{
	{"addr", "ARENA_ADDR", "listen address HOST:PORT (default :8080; port 0 picks one)", str(func(c *Config) *string { return &c.Addr })},
	{"data", "ARENA_DATA", "data directory: database, instance key, operator token (default ./data)", str(func(c *Config) *string { return &c.DataDir })},
	{"db", "ARENA_DB", "bbolt database file (default <data>/arena.db)", str(func(c *Config) *string { return &c.DB })},
	{"instance-key", "ARENA_INSTANCE_KEY_FILE", "instance ed25519 key file, 64 hex (default <data>/instance.key, generated)", str(func(c *Config) *string { return &c.InstanceKeyFile })},
	{"agent", "ARENA_AGENT", "DOTDOTDOT: the instance's agent id, CAIP-19 (default: derived from the instance key)", str(func(c *Config) *string { return &c.Dotdotdot.InstanceAgent })},
	{"name", "ARENA_NAME", "the instance's display name (default arena)", str(func(c *Config) *string { return &c.InstanceName })},
	{"operator-token", "ARENA_OPERATOR_TOKEN", "bearer token for /ops (default: <data>/operator.token, generated)", str(func(c *Config) *string { return &c.OperatorToken })},
	{"log-format", "ARENA_LOG_FORMAT", "log format: text or json", str(func(c *Config) *string { return &c.LogFormat })},
	{"log-level", "ARENA_LOG_LEVEL", "log level: debug, info, warn, error", str(func(c *Config) *string { return &c.LogLevel })},
	{"cluster", "ARENA_CLUSTER", "join a protoactor cluster through etcd, etcd://HOST:PORT[,HOST:PORT...] (default none: run alone)", str(func(c *Config) *string { return &c.Cluster.Etcd })},
	{"cluster-name", "ARENA_CLUSTER_NAME", "with --cluster: the cluster's name (default arena)", str(func(c *Config) *string { return &c.Cluster.Name })},
	{"cluster-host", "ARENA_CLUSTER_HOST", "with --cluster: the host this member's remote binds and advertises (default 127.0.0.1)", str(func(c *Config) *string { return &c.Cluster.Host })},
	{"cluster-port", "ARENA_CLUSTER_PORT", "with --cluster: this member's remote port (default 0: a free one)", func(c *Config, v string) error {
		n, err := strconv.Atoi(v)
		if err != nil {
			return fmt.Errorf("want a port number, got %q", v)
		}
		c.Cluster.Port = n
		return nil
	}},
	{"chain-node", "ARENA_CHAIN_NODE", "Concordium node gRPC address HOST:PORT (default: embedded devchain)", str(func(c *Config) *string { return &c.ChainNode })},
	{"chain-tls", "ARENA_CHAIN_TLS", "dial the chain node with TLS: true or false", func(c *Config, v string) error {
		b, err := strconv.ParseBool(v)
		if err != nil {
			return fmt.Errorf("want true or false, got %q", v)
		}
		c.ChainTLS = b
		return nil
	}},
	{"chain-key", "ARENA_CHAIN_KEY_FILE", "the arena's Concordium account key file (default <data>/chain-account.json)", str(func(c *Config) *string { return &c.ChainKeyFile })},
	{"chain-network", "ARENA_CHAIN_NETWORK", "with --chain-node: the CAIP-2 chain the node must be on, ccd:<32 hex> (default: the node's own, logged)", str(func(c *Config) *string { return &c.ChainNetwork })},
	{"chain-escrow", "ARENA_CHAIN_ESCROW", "with --chain-node: the DOTDOTDOT escrow instance, <INDEX,SUBINDEX> or ccd:<chain>:<index>.<subindex> (default none: no paid tables)", str(func(c *Config) *string { return &c.ChainEscrow })},
	{"chain-house-account", "ARENA_CHAIN_HOUSE_ACCOUNT", "with --chain-node: the house identity account (§3), base58 (default none: no paid tables)", str(func(c *Config) *string { return &c.ChainHouseAccount })},
	{"chat-move", "ARENA_PACE_CHAT_MOVE", "chat clock: deadline of one move (default 3m)", override(func(c *Config) **Duration { return &c.Dotdotdot.Pace.ChatMove })},
	{"scouting", "ARENA_PACE_SCOUTING", "agent clock: scouting phase, at most each kind's: rated 1m, badge-gated 30s (default 1m30s)", override(func(c *Config) **Duration { return &c.Dotdotdot.Pace.Scouting })},
	{"agent-talk", "ARENA_PACE_AGENT_TALK", "agent clock: one talk exchange (default 15s)", override(func(c *Config) **Duration { return &c.Dotdotdot.Pace.AgentTalk })},
	{"agent-commit", "ARENA_PACE_AGENT_COMMIT", "agent clock: commit phase (default 25s)", override(func(c *Config) **Duration { return &c.Dotdotdot.Pace.AgentCommit })},
	{"walkin-top-up", "ARENA_PACE_WALKIN_TOP_UP", "walk-in table waits this long before house seats fill it (default 2m)", override(func(c *Config) **Duration { return &c.Dotdotdot.Pace.WalkinTopUp })},
	{"hosted-start", "ARENA_PACE_HOSTED_START", "a hosted table starts with whoever came this long after it was hosted (default 10m)", override(func(c *Config) **Duration { return &c.Dotdotdot.Pace.HostedStart })},
	{"table-fee", "ARENA_TABLE_FEE", "§14 table fee per human seat, microCCD (default 20000000: 20 CCD)", microCCD(func(c *Config) **int64 { return &c.Dotdotdot.Fees.Table })},
	{"inference-fee", "ARENA_INFERENCE_FEE", "§14 inference fee per human seat on the house model, microCCD (default 30000000: 30 CCD)", microCCD(func(c *Config) **int64 { return &c.Dotdotdot.Fees.Inference })},
	{"house-model-url", "ARENA_HOUSE_MODEL_URL", "DOTDOTDOT: the house model's OpenAI-compatible chat-completions base URL, http(s)://HOST/PATH (default none: off-the-shelf seats play the fallback policy)", str(func(c *Config) *string { return &c.Dotdotdot.HouseModel.URL })},
	{"house-model", "ARENA_HOUSE_MODEL", "DOTDOTDOT: the house model's name, sent with each request", str(func(c *Config) *string { return &c.Dotdotdot.HouseModel.Model })},
	{"house-model-key", "ARENA_HOUSE_MODEL_KEY", "DOTDOTDOT: the house model's bearer key (default none)", str(func(c *Config) *string { return &c.Dotdotdot.HouseModel.Key })},
	{"paid-gather", "ARENA_PACE_PAID_GATHER", "a paid table takes holds this long from its first, then starts (default 2m)", override(func(c *Config) **Duration { return &c.Dotdotdot.Pace.PaidGather })},
	{"long-poll", "ARENA_LONG_POLL", "cap of GET /v1/walkin/next?wait= (default 30s, at most 30s)", dur(func(c *Config) *Duration { return &c.HTTP.LongPoll })},
	{"shutdown-grace", "ARENA_SHUTDOWN_GRACE", "how long SIGTERM waits for requests in flight, long polls included (default 35s)", dur(func(c *Config) *Duration { return &c.HTTP.ShutdownGrace })},
	{"max-body", "ARENA_MAX_BODY", "request body cap in bytes (default 65536)", func(c *Config, v string) error {
		n, err := strconv.ParseInt(v, 10, 64)
		if err != nil {
			return fmt.Errorf("want a byte count, got %q", v)
		}
		c.HTTP.MaxBody = n
		return nil
	}},
	{"limit-register", "ARENA_LIMIT_REGISTER", "walk-in registrations per client address, BURST/EVERY or off (default 20/30s)", func(c *Config, v string) error { return c.HTTP.Limits.Register.Set(v) }},
	{"limit-tables", "ARENA_LIMIT_TABLES", "Practice and hosted tables opened per client address, BURST/EVERY or off (default 20/15s)", func(c *Config, v string) error { return c.HTTP.Limits.Tables.Set(v) }},
	{"limit-challenges", "ARENA_LIMIT_CHALLENGES", "owner credentials (sign-in challenges, off-the-shelf owner tokens) per client address, BURST/EVERY or off (default 30/2s)", func(c *Config, v string) error { return c.HTTP.Limits.Challenges.Set(v) }},
	{"limit-feedback", "ARENA_LIMIT_FEEDBACK", "feedback notes per client address, BURST/EVERY or off (default 10/30s)", func(c *Config, v string) error { return c.HTTP.Limits.Feedback.Set(v) }},
	{"limit-forwarded-for", "ARENA_LIMIT_FORWARDED_FOR", "the client address of the limits is the last X-Forwarded-For entry (a proxy on this host adds it): true or false", boolean(func(c *Config) *bool { return &c.HTTP.Limits.ForwardedFor })},
	{"public-url", "ARENA_PUBLIC_URL", "DOTDOTDOT: the origin links and pages name, http(s)://HOST[:PORT][/PATH] (default http://<listen addr>)", str(func(c *Config) *string { return &c.Dotdotdot.PublicURL })},
	{"mcp-behind-proxy", "ARENA_MCP_BEHIND_PROXY", "DOTDOTDOT: a proxy on this host forwards the public Host to /mcp: true or false", boolean(func(c *Config) *bool { return &c.Dotdotdot.MCPBehindProxy })},
	{"egress-loopback", "ARENA_EGRESS_LOOPBACK", "DOTDOTDOT: allow http:// agents on loopback (development only): true or false", boolean(func(c *Config) *bool { return &c.Dotdotdot.EgressLoopback })},
	{"dev-agents", "ARENA_DEV_AGENTS", "DOTDOTDOT: CIS-8004 registrations file stored on the embedded devchain at start", str(func(c *Config) *string { return &c.Dotdotdot.DevAgents })},
	{"dotdotdot-hosts", "ARENA_DOTDOTDOT_HOSTS", "DOTDOTDOT site's Host names, comma-separated (default dotdotdot.localhost; any unclaimed Host is DOTDOTDOT's too)", hosts(func(c *Config) *[]string { return &c.Dotdotdot.Site.Hosts })},
	{"dotdotdot-addr", "ARENA_DOTDOTDOT_ADDR", "DOTDOTDOT site's own listen address HOST:PORT (default none)", str(func(c *Config) *string { return &c.Dotdotdot.Site.Addr })},
	{"breakroom-hosts", "ARENA_BREAKROOM_HOSTS", "Break Room site's Host names, comma-separated (default breakroom.localhost)", hosts(func(c *Config) *[]string { return &c.Breakroom.Site.Hosts })},
	{"breakroom-addr", "ARENA_BREAKROOM_ADDR", "Break Room site's own listen address HOST:PORT (default none)", str(func(c *Config) *string { return &c.Breakroom.Site.Addr })},
	{"breakroom-public-url", "ARENA_BREAKROOM_PUBLIC_URL", "Break Room: the origin its links name, http(s)://HOST[:PORT][/PATH] (default http://<site host>:<main port>, or http://<breakroom-addr> when set)", str(func(c *Config) *string { return &c.Breakroom.PublicURL })},
	{"breakroom-lobby-wait", "ARENA_BREAKROOM_PACE_LOBBY_WAIT", "Break Room lobby timer: a table opens with the minimum this long after its first entrant (default 30s)", override(func(c *Config) **Duration { return &c.Breakroom.Pace.LobbyWait })},
	{"breakroom-house-after", "ARENA_BREAKROOM_PACE_HOUSE_AFTER", "Break Room: house bots fill a table after an agent waited alone this long (default 1m)", override(func(c *Config) **Duration { return &c.Breakroom.Pace.HouseAfter })},
	{"breakroom-house-pause", "ARENA_BREAKROOM_PACE_HOUSE_PAUSE", "Break Room: a house bot's pause before each move (default 1s)", override(func(c *Config) **Duration { return &c.Breakroom.Pace.HousePause })},
	{"breakroom-turn", "ARENA_BREAKROOM_PACE_TURN", "Break Room: every game's move deadline (default the game's: Dilemma, Inference and Auction 10s, Werewolf 20s)", override(func(c *Config) **Duration { return &c.Breakroom.Pace.Turn })},
	{"breakroom-away", "ARENA_BREAKROOM_PACE_AWAY", "Break Room: the move deadline of a seat whose connection is gone (default 3s)", override(func(c *Config) **Duration { return &c.Breakroom.Pace.Away })},
	{"breakroom-wallet", "ARENA_BREAKROOM_WALLET", "Break Room paid tables' wallet: dev (the embedded development wallet, test sats; never on mainnet), lnd or none (default lnd when --breakroom-lnd-url is set, else dev)", str(func(c *Config) *string { return &c.Breakroom.Lightning.Wallet })},
	{"breakroom-ln-network", "ARENA_BREAKROOM_LN_NETWORK", "Break Room: the Lightning network, mainnet, testnet, signet, regtest or simnet (default regtest)", str(func(c *Config) *string { return &c.Breakroom.Lightning.Network })},
	{"breakroom-lnd-url", "ARENA_BREAKROOM_LND_URL", "Break Room: the LND node's REST listener https://HOST:PORT (default none: the development wallet)", str(func(c *Config) *string { return &c.Breakroom.Lightning.LNDURL })},
	{"breakroom-lnd-macaroon", "ARENA_BREAKROOM_LND_MACAROON", "Break Room: the LND node's macaroon file (default none)", str(func(c *Config) *string { return &c.Breakroom.Lightning.LNDMacaroon })},
	{"breakroom-lnd-tls-cert", "ARENA_BREAKROOM_LND_TLS_CERT", "Break Room: the LND node's tls.cert, PEM (default none)", str(func(c *Config) *string { return &c.Breakroom.Lightning.LNDTLSCert })},
	{"warden-hosts", "ARENA_WARDEN_HOSTS", "Warden site's Host names, comma-separated (default warden.localhost)", hosts(func(c *Config) *[]string { return &c.Warden.Site.Hosts })},
	{"warden-addr", "ARENA_WARDEN_ADDR", "Warden site's own listen address HOST:PORT (default none)", str(func(c *Config) *string { return &c.Warden.Site.Addr })},
	{"warden-public-url", "ARENA_WARDEN_PUBLIC_URL", "Warden: the origin a stake's 402 names as its resource, http(s)://HOST[:PORT][/PATH] (default http://<site host>:<main port>, or http://<warden-addr> when set)", str(func(c *Config) *string { return &c.Warden.PublicURL })},
	{"warden-evm-rpc", "ARENA_WARDEN_EVM_RPC", "Warden: the stake rail's EVM JSON-RPC URL, http(s)://... (default none: no stakes, the money doors answer facilitator_unavailable)", str(func(c *Config) *string { return &c.Warden.EVM.RPCURL })},
	{"warden-evm-chain-id", "ARENA_WARDEN_EVM_CHAIN_ID", "Warden, with --warden-evm-rpc: the chain id the node must be on (EIP-155), checked at start", func(c *Config, v string) error {
		n, err := strconv.ParseUint(v, 10, 64)
		if err != nil || n == 0 {
			return fmt.Errorf("want a positive chain id such as 84532, got %q", v)
		}
		c.Warden.EVM.ChainID = n
		return nil
	}},
	{"warden-evm-network", "ARENA_WARDEN_EVM_NETWORK", "Warden: the chain's x402 v1 network name, such as base-sepolia (default none: the 402's v1 body is {})", str(func(c *Config) *string { return &c.Warden.EVM.Network })},
	{"warden-evm-token", "ARENA_WARDEN_EVM_TOKEN", "Warden, with --warden-evm-rpc: the stake token's EIP-3009 contract address, 0x + 40 hex", str(func(c *Config) *string { return &c.Warden.EVM.Token })},
	{"warden-evm-token-name", "ARENA_WARDEN_EVM_TOKEN_NAME", "Warden: the token's EIP-712 domain name (default USDC)", str(func(c *Config) *string { return &c.Warden.EVM.TokenName })},
	{"warden-evm-token-version", "ARENA_WARDEN_EVM_TOKEN_VERSION", "Warden: the token's EIP-712 domain version (default 2)", str(func(c *Config) *string { return &c.Warden.EVM.TokenVersion })},
	{"warden-evm-relayer", "ARENA_WARDEN_EVM_RELAYER", "Warden, with --warden-evm-rpc: the node-held account that sends transferWithAuthorization and pays its gas, 0x + 40 hex", str(func(c *Config) *string { return &c.Warden.EVM.Relayer })},
	{"warden-evm-pay-to", "ARENA_WARDEN_EVM_PAY_TO", "Warden, with --warden-evm-rpc: the account stakes are paid to (the 402's payTo), 0x + 40 hex", str(func(c *Config) *string { return &c.Warden.EVM.PayTo })},
	{"warden-evm-wallet-key", "ARENA_WARDEN_EVM_WALLET_KEY", "Warden, with --warden-evm-rpc: the wallet key (64 hex) of pay_to, which signs payouts and refunds; prefer the environment variable (default none; on chain 1337 with pay_to " + DevWalletAddress + " the public dev key 0x46…46)", str(func(c *Config) *string { return &c.Warden.EVM.WalletKey })},
	{"warden-stakes", "ARENA_WARDEN_STAKES", "Warden: the stakes a match may name, comma-separated atomic units, each a multiple of 200000 (default 1000000,5000000,10000000: 1, 5 and 10 USDC)", stakeList(func(c *Config) *[]uint64 { return &c.Warden.StakesAllowed })},
	{"warden-elite-win-rate", "ARENA_WARDEN_ELITE_WIN_RATE", "Warden Standing: the percentage of settled matches an ELITE Contender has won, 1-100 (default 60)", whole(func(c *Config) *int64 { return &c.Warden.Standing.EliteWinRatePct })},
	{"warden-elite-min-matches", "ARENA_WARDEN_ELITE_MIN_MATCHES", "Warden Standing: the settled matches ELITE needs at least (default 1)", whole(func(c *Config) *int64 { return &c.Warden.Standing.EliteMinMatches })},
	{"warden-price-global", "ARENA_WARDEN_PRICE_GLOBAL", "Warden: a global metered read's price, atomic units (default 1: $0.000001)", whole(func(c *Config) *uint64 { return &c.Warden.Prices.Global })},
	{"warden-price-match", "ARENA_WARDEN_PRICE_MATCH", "Warden: the price of a metered read of a match the caller plays, atomic units, above the global price (default 10: $0.00001)", whole(func(c *Config) *uint64 { return &c.Warden.Prices.Match })},
	{"warden-gateway-wallet", "ARENA_WARDEN_GATEWAY_WALLET", "Warden: Circle's GatewayWallet contract metered reads are signed to, 0x + 40 hex (default Arc Testnet's 0x0077777d7EBA4688BDeF3E311b846F25870A19B9)", str(func(c *Config) *string { return &c.Warden.GatewayWallet })},
	{"market-hosts", "ARENA_MARKET_HOSTS", "Game Master market site's Host names, comma-separated (default market.localhost)", hosts(func(c *Config) *[]string { return &c.Market.Site.Hosts })},
	{"market-addr", "ARENA_MARKET_ADDR", "Game Master market site's own listen address HOST:PORT (default none)", str(func(c *Config) *string { return &c.Market.Site.Addr })},
	{"market-game-id", "ARENA_MARKET_GAME_ID", "Game Master market: the Standing's gameId (default arena-market)", str(func(c *Config) *string { return &c.Market.GameID })},
	{"market-assets", "ARENA_MARKET_ASSETS", "Game Master market: the Assets and their Unit Prices, JSON [{\"id\",\"unitPrice\",\"nonTransferable\"}] (default credits 1, wood 4, stone 6)", jsonValue(func(c *Config) any { return &c.Market.Assets })},
	{"market-starting-assets", "ARENA_MARKET_STARTING_ASSETS", "Game Master market: the Starting Assets of each new Player, JSON [{\"assetId\",\"quantity\"}] (default credits 100, wood 10, stone 5)", jsonValue(func(c *Config) any { return &c.Market.StartingAssets })},
	{"market-rules", "ARENA_MARKET_RULES", "Game Master market: the hidden Game Rules, JSON (games/market.Rule list; default none)", jsonValue(func(c *Config) any { return &c.Market.Rules })},
	{"market-gateway-header", "ARENA_MARKET_GATEWAY_HEADER", "Game Master market: the header a trusted gateway puts the caller's Owner ID in (default none)", str(func(c *Config) *string { return &c.Market.Gateway.Header })},
	{"market-gateway-from", "ARENA_MARKET_GATEWAY_FROM", "Game Master market: the gateway's addresses (IPs or CIDR prefixes, comma-separated); its header is honoured from these only (default none)", hosts(func(c *Config) *[]string { return &c.Market.Gateway.From })},
}

// ErrHelp is returned by Load when -h or --help was given (usage has been printed).
var ErrHelp = flag.ErrHelp

// Load builds the Config of a sub-command: Default(), then the JSON file named by --config (or
// ARENA_CONFIG), then the environment, then flags; each later source wins. args are the
// sub-command's own arguments; getenv is os.Getenv (injected for tests); usage goes to out.
// Unknown flags, positional arguments and unknown file members are errors, a file's told in its own words (fileError); the result is
// validated (Validate). Load does not touch the data directory: see Provision.
func Load(cmd string, args []string, getenv func(string) string, out io.Writer) (Config, error) {
	fs := flag.NewFlagSet(cmd, flag.ContinueOnError)
	fs.SetOutput(out)
	var file string
	fs.StringVar(&file, "config", "", "JSON config file (env ARENA_CONFIG); flags and environment win over it")
	given := map[string]string{}
	for _, s := range settings {
		name := s.flag
		fs.Func(name, s.usage+" (env "+s.env+")", func(v string) error { given[name] = v; return nil })
	}
	if err := fs.Parse(args); err != nil {
		return Config{}, err
	}
	if fs.NArg() > 0 {
		return Config{}, fmt.Errorf("config: unexpected argument %q", fs.Arg(0))
	}
	c := Default()
	if file == "" {
		file = getenv("ARENA_CONFIG")
	}
	if file != "" {
		if err := c.readFile(file); err != nil {
			return Config{}, err
		}
	}
	for _, s := range settings {
		if v := getenv(s.env); v != "" {
			if err := s.set(&c, v); err != nil {
				return Config{}, fmt.Errorf("config: %s: %w", s.env, err)
			}
		}
	}
	for _, s := range settings {
		if v, ok := given[s.flag]; ok {
			if err := s.set(&c, v); err != nil {
				return Config{}, fmt.Errorf("config: --%s: %w", s.flag, err)
			}
		}
	}
	if err := c.Validate(); err != nil {
		return Config{}, err
	}
	return c, nil
}

// readFile overlays the JSON file at path on c. Members not named here are refused, as is
// anything after the one JSON object: a typo in a config file must not pass silently. The
// DOTDOTDOT section's instance_agent and pace may also stand at the file's top level, where
// files written before the section name them; a setting named in both places is refused.
func (c *Config) readFile(path string) error {
	raw, err := os.ReadFile(path)
	if err != nil {
		return fmt.Errorf("config: read %s: %w", path, err)
	}
	f := fileConfig{Config: c}
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&f); err != nil {
		return fmt.Errorf("config: %s: %s", path, fileError(err, raw))
	}
	if _, err := dec.Token(); !errors.Is(err, io.EOF) {
		return fmt.Errorf("config: %s: trailing data after the JSON object", path)
	}
	if f.InstanceAgent == nil && len(f.Pace) == 0 {
		return nil
	}
	var nested struct {
		Dotdotdot struct {
			InstanceAgent json.RawMessage `json:"instance_agent"`
			Pace          json.RawMessage `json:"pace"`
		} `json:"dotdotdot"`
	}
	if err := json.Unmarshal(raw, &nested); err != nil {
		return fmt.Errorf("config: %s: %w", path, err)
	}
	if f.InstanceAgent != nil {
		if len(nested.Dotdotdot.InstanceAgent) > 0 {
			return fmt.Errorf("config: %s: instance_agent is given at the top level and in dotdotdot: name it once, as dotdotdot.instance_agent", path)
		}
		c.Dotdotdot.InstanceAgent = *f.InstanceAgent
	}
	if len(f.Pace) > 0 {
		if len(nested.Dotdotdot.Pace) > 0 {
			return fmt.Errorf("config: %s: pace is given at the top level and in dotdotdot: name it once, as dotdotdot.pace", path)
		}
		pd := json.NewDecoder(bytes.NewReader(f.Pace))
		pd.DisallowUnknownFields()
		if err := pd.Decode(&c.Dotdotdot.Pace); err != nil {
			return fmt.Errorf("config: %s: pace: %s", path, fileError(err, f.Pace))
		}
	}
	return nil
}

// fileConfig is a config file: Config's members, and the DOTDOTDOT settings a file may name at
// its top level (readFile).
type fileConfig struct {
	*Config
	InstanceAgent *string         `json:"instance_agent"`
	Pace          json.RawMessage `json:"pace"`
}

// fileError says what is wrong with a config file in the file's own words (a setting's JSON
// name, a line and column), not the decoder's Go names: an unknown setting, a value of the
// wrong kind, text that is not JSON. Errors of a setting's own reader (a duration's) pass as
// they are.
func fileError(err error, raw []byte) string {
	var syn *json.SyntaxError
	var typ *json.UnmarshalTypeError
	switch {
	case errors.As(err, &syn):
		line, col := lineCol(raw, syn.Offset)
		return fmt.Sprintf("not JSON at line %d, column %d: %s", line, col, strings.TrimPrefix(syn.Error(), "json: "))
	case errors.As(err, &typ):
		line, col := lineCol(raw, typ.Offset)
		name := strings.TrimPrefix(typ.Field, "Config.")
		if name == "" {
			name = "the file"
		}
		return fmt.Sprintf("%s (line %d, column %d) must be %s, not a JSON %s", name, line, col, kindName(typ.Type), typ.Value)
	case errors.Is(err, io.ErrUnexpectedEOF) || errors.Is(err, io.EOF):
		return "the file ends before its JSON object does"
	case strings.HasPrefix(err.Error(), "json: unknown field "):
		return "unknown setting " + strings.TrimPrefix(err.Error(), "json: unknown field ") + " (docs/configuration.md lists every setting)"
	}
	return strings.TrimPrefix(err.Error(), "json: ")
}

// lineCol is the 1-based line and column of byte offset off in raw.
func lineCol(raw []byte, off int64) (line, col int) {
	if off > int64(len(raw)) {
		off = int64(len(raw))
	}
	before := raw[:off]
	line = bytes.Count(before, []byte("\n")) + 1
	col = int(off) - (bytes.LastIndexByte(before, '\n') + 1) + 1
	return line, col
}

// kindName names the JSON a Go type is read from, for fileError.
func kindName(t reflect.Type) string {
	switch t.Kind() {
	case reflect.Bool:
		return "true or false"
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		return "a whole number"
	case reflect.Float32, reflect.Float64:
		return "a number"
	case reflect.String:
		return "a string"
	case reflect.Slice, reflect.Array:
		return "a list"
	case reflect.Pointer:
		return kindName(t.Elem())
	case reflect.Map, reflect.Struct:
		return "an object"
	}
	return "a " + t.Kind().String()
}
