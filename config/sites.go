package config

import (
	"fmt"
	"net"
	"net/url"
	"strconv"
	"strings"
	"time"
	"unicode"

	"arena/chain/badge"
)

// Site is how a protocol's site is reached: by the Host names a request names, or on a listen
// address of its own. A request whose Host no site claims is served by DOTDOTDOT, so the main
// listen address (Config.Addr) serves every URL that worked before sites existed.
type Site struct {
	// Hosts are the Host names that select the site on any listener (compared without the
	// port, in lower case, a trailing dot dropped). Empty: the site is reached only on Addr,
	// or, for DOTDOTDOT, as the site of every unclaimed Host.
	Hosts []string `json:"hosts"`
	// Addr, when set, is a listen address HOST:PORT of the site's own: every request on it is
	// the site's, whatever its Host. "" serves the site on Config.Addr only.
	Addr string `json:"addr"`
}

// Dotdotdot is the DOTDOTDOT section (dotdotdot-protocol-v1.md): its site, the instance's
// Badge, its tables' clocks and its doors' settings. The instance key, the chain and the HTTP
// limits stay at the top level of Config. A config file may name instance_agent and pace at its
// top level too, where files written before this section name them (readFile).
type Dotdotdot struct {
	Site Site `json:"site"`
	// InstanceAgent is the instance's own agent id (its Badge, §3); "" derives a stand-in id
	// from the instance key until Badge resolution exists (see DeriveAgent).
	InstanceAgent string `json:"instance_agent"`
	// Pace overrides the clocks of walk-in, practice and hosted tables (§4.4, §4.5, §5.3);
	// nothing set runs the spec's.
	Pace Pace `json:"pace"`
	// PublicURL is the origin every link and page names (§4.5's /t/{code} lines, the connector
	// URL, the instance card's endpoint): an absolute http(s) URL. "" names
	// http://<listen address>, never a request's Host header.
	PublicURL string `json:"public_url"`
	// MCPBehindProxy tells the chat seat (/mcp) that a proxy on this host forwards the public
	// Host header; mcp-go refuses that on a loopback connection otherwise.
	MCPBehindProxy bool `json:"mcp_behind_proxy"`
	// EgressLoopback lets agent cards and endpoints be http:// on loopback (agents on this
	// machine); development only.
	EgressLoopback bool `json:"egress_loopback"`
	// DevAgents is a file of CIS-8004 registrations (`arena devchain --agents` format) stored
	// on the embedded devchain at start; "" stores none.
	DevAgents string `json:"dev_agents"`
	// Fees are the house fees of the tables the arena opens (§14 "arena config"); nothing set
	// charges §14's.
	Fees Fees `json:"fees"`
	// HouseModel is where off-the-shelf seats think (§4.2 kind ots, §14 inference): an
	// OpenAI-compatible chat-completions endpoint. Its URL left empty, no model is configured and
	// every off-the-shelf seat plays the fallback policy, saying so (§15 agent.scripted).
	HouseModel HouseModel `json:"house_model"`
}

// HouseModel is the house model's endpoint (transport/dotdotdot/housemodel).
type HouseModel struct {
	// URL is the endpoint's base URL, the path before /chat/completions: absolute http(s).
	URL string `json:"url"`
	// Model is the model name sent with each request; required with URL.
	Model string `json:"model"`
	// Key is the bearer token; "" sends none. Never logged.
	Key string `json:"key"`
}

// Fees override §14's house fees, in microCCD (a field left unset, nil, keeps §14's value). Each
// Blitz table records the fees it opened with, so a change applies to tables opened after it.
// A fee that is set is a whole microCCD from 0 to 2^53 − 1 (Validate).
type Fees struct {
	// Table is charged per human seat at round settlement, for the anchors (§14: 20 CCD).
	Table *int64 `json:"table,omitempty"`
	// Inference is charged per human seat that thinks on the house model (kind ots), after the
	// table fee (§14: 30 CCD); a BYO seat pays none.
	Inference *int64 `json:"inference,omitempty"`
}

// validate checks the section's settings (its site is checked with the others', validateSites).
func (d Dotdotdot) validate(bad func(field, format string, args ...any)) {
	if d.InstanceAgent != "" {
		if _, err := badge.ParseAgentID(d.InstanceAgent); err != nil {
			bad("dotdotdot.instance_agent (--agent, ARENA_AGENT)", "want a CAIP-19 agent id ccd:<chain>/cis-2:<token address> (%v)", err)
		}
	}
	positive := func(field string, d *Duration) {
		if d != nil && *d <= 0 {
			bad("dotdotdot.pace."+field, "must be a positive duration such as 30s, got %s", time.Duration(*d))
		}
	}
	p := d.Pace
	positive("chat_move (--chat-move, ARENA_PACE_CHAT_MOVE)", p.ChatMove)
	positive("agent_talk", p.AgentTalk)
	positive("agent_commit", p.AgentCommit)
	positive("scouting (--scouting, ARENA_PACE_SCOUTING)", p.Scouting)
	positive("walkin_top_up (--walkin-top-up, ARENA_PACE_WALKIN_TOP_UP)", p.WalkinTopUp)
	positive("hosted_start (--hosted-start, ARENA_PACE_HOSTED_START)", p.HostedStart)
	positive("paid_gather (--paid-gather, ARENA_PACE_PAID_GATHER)", p.PaidGather)
	fee := func(field string, v *int64) {
		if v != nil && (*v < 0 || *v > 1<<53-1) {
			bad("dotdotdot.fees."+field, "must be a whole microCCD from 0 to 2^53 − 1, got %d", *v)
		}
	}
	if m := d.HouseModel; m.URL != "" {
		if u, err := url.Parse(m.URL); err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
			bad("dotdotdot.house_model.url (--house-model-url, ARENA_HOUSE_MODEL_URL)", "want an absolute http(s) URL such as https://models.example/v1, got %q", m.URL)
		}
		if strings.TrimSpace(m.Model) == "" {
			bad("dotdotdot.house_model.model (--house-model, ARENA_HOUSE_MODEL)", "must name the model when dotdotdot.house_model.url is set")
		}
	} else if d.HouseModel.Model != "" || d.HouseModel.Key != "" {
		bad("dotdotdot.house_model.url (--house-model-url, ARENA_HOUSE_MODEL_URL)", "must be set when a house model or key is")
	}
	fee("table (--table-fee, ARENA_TABLE_FEE)", d.Fees.Table)
	fee("inference (--inference-fee, ARENA_INFERENCE_FEE)", d.Fees.Inference)
}

// Breakroom is the Break Room section (breakroom-protocol-v0.md): its site, the public origin
// its links name, and overrides of its clocks.
type Breakroom struct {
	Site Site `json:"site"`
	// PublicURL is the origin rules_url, replay_url, nostr_post and GET /v0/games name
	// (http(s)://HOST[:PORT][/PATH]); "" names http://<the site's Host name>:<the main port>.
	PublicURL string `json:"public_url"`
	// Pace overrides Break Room's clocks; nothing set keeps the protocol's.
	Pace BreakroomPace `json:"pace"`
	// Lightning is the paid tables' wallet ("Paid tables").
	Lightning Lightning `json:"lightning"`
}

// The paid tables' wallets (Lightning.Wallet).
const (
	WalletDev  = "dev"  // the embedded development wallet (chain/lightning/devwallet): test sats only
	WalletLND  = "lnd"  // an LND node over its REST API (chain/lightning/lnd)
	WalletNone = "none" // no paid tables: a join with stake_sats is payments_disabled
)

// Lightning is Break Room's wallet. With nothing set it is the development wallet on regtest, which
// issues real signed invoices paid through its own dev route (test sats); a mainnet network never
// defaults to it and refuses it (validate), so a mainnet server names an LND node or none.
type Lightning struct {
	// Wallet is WalletDev, WalletLND or WalletNone; "" is WalletLND when LNDURL is set, else
	// WalletDev (refused on mainnet).
	Wallet string `json:"wallet"`
	// Network is the Lightning network the wallet is on and the invoices it pays must name:
	// mainnet, testnet, signet, regtest or simnet; "" is regtest.
	Network string `json:"network"`
	// LNDURL is the LND node's REST listener, https://HOST:PORT (lnd --restlisten).
	LNDURL string `json:"lnd_url"`
	// LNDMacaroon is the path of a macaroon file (admin.macaroon, or one with invoices:read,
	// invoices:write and offchain:write).
	LNDMacaroon string `json:"lnd_macaroon"`
	// LNDTLSCert is the path of the node's tls.cert (PEM), the only certificate trusted.
	LNDTLSCert string `json:"lnd_tls_cert"`
}

// WalletKind is the wallet the section names once defaults apply (WalletDev, WalletLND or
// WalletNone).
func (l Lightning) WalletKind() string {
	switch {
	case l.Wallet != "":
		return l.Wallet
	case l.LNDURL != "":
		return WalletLND
	}
	return WalletDev
}

// NetworkName is Network with its default ("regtest").
func (l Lightning) NetworkName() string {
	if l.Network == "" {
		return "regtest"
	}
	return l.Network
}

// BreakroomPace overrides Break Room's clocks (breakroom-protocol-v0.md "Lobby & seating",
// "Reconnecting"; breakroom-games.md §1). A field left unset (nil) keeps the protocol's value,
// stated where it belongs (the lobby's in actors/lobby, the house pause in actors/breakroom, the
// deadlines in each game's engine); a field that is set must be positive (Validate). Tests and
// demos compress them.
type BreakroomPace struct {
	// LobbyWait is the lobby timer: a table opens with the minimum this long after its
	// longest-waiting entrant queued (30 s).
	LobbyWait *Duration `json:"lobby_wait,omitempty"`
	// HouseAfter is how long an agent waits alone before house bots fill its table (60 s).
	HouseAfter *Duration `json:"house_after,omitempty"`
	// HousePause is a house bot's pause before each move ("a short pause": 1 s).
	HousePause *Duration `json:"house_pause,omitempty"`
	// Turn is every game's move deadline (the Dilemma's 10 s).
	Turn *Duration `json:"turn,omitempty"`
	// Away is the deadline of a seat whose connection is gone (3 s); at most Turn.
	Away *Duration `json:"away,omitempty"`
}

// validate checks the section's settings (its site is checked with the others', validateSites).
func (b Breakroom) validate(bad func(field, format string, args ...any)) {
	if b.PublicURL != "" {
		u, err := url.Parse(b.PublicURL)
		if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" || u.User != nil ||
			u.RawQuery != "" || u.Fragment != "" {
			bad("breakroom.public_url (--breakroom-public-url, ARENA_BREAKROOM_PUBLIC_URL)", "want http(s)://HOST[:PORT][/PATH], got %q", b.PublicURL)
		}
	}
	b.Lightning.validate(bad)
	p := b.Pace
	positive := func(field string, d *Duration) {
		if d != nil && *d <= 0 {
			bad("breakroom.pace."+field, "must be positive, got %s", time.Duration(*d))
		}
	}
	positive("lobby_wait (--breakroom-lobby-wait, ARENA_BREAKROOM_PACE_LOBBY_WAIT)", p.LobbyWait)
	positive("house_after (--breakroom-house-after, ARENA_BREAKROOM_PACE_HOUSE_AFTER)", p.HouseAfter)
	positive("house_pause (--breakroom-house-pause, ARENA_BREAKROOM_PACE_HOUSE_PAUSE)", p.HousePause)
	positive("turn (--breakroom-turn, ARENA_BREAKROOM_PACE_TURN)", p.Turn)
	positive("away (--breakroom-away, ARENA_BREAKROOM_PACE_AWAY)", p.Away)
	if p.Turn != nil && p.Away != nil && *p.Away > *p.Turn {
		bad("breakroom.pace.away (--breakroom-away, ARENA_BREAKROOM_PACE_AWAY)", "must be at most breakroom.pace.turn (%s), got %s", time.Duration(*p.Turn), time.Duration(*p.Away))
	}
}

// validate checks the wallet settings: a known wallet and network, an LND node's three settings
// together, and never the development wallet on mainnet.
func (l Lightning) validate(bad func(field, format string, args ...any)) {
	const (
		walletField  = "breakroom.lightning.wallet (--breakroom-wallet, ARENA_BREAKROOM_WALLET)"
		networkField = "breakroom.lightning.network (--breakroom-ln-network, ARENA_BREAKROOM_LN_NETWORK)"
		urlField     = "breakroom.lightning.lnd_url (--breakroom-lnd-url, ARENA_BREAKROOM_LND_URL)"
	)
	switch l.Network {
	case "", "mainnet", "testnet", "signet", "regtest", "simnet":
	default:
		bad(networkField, "want mainnet, testnet, signet, regtest or simnet, got %q", l.Network)
	}
	switch l.WalletKind() {
	case WalletDev:
		if l.Network == "mainnet" {
			bad(walletField, "the development wallet never runs on mainnet: set breakroom.lightning.lnd_url (with lnd_macaroon and lnd_tls_cert), or wallet none")
		}
		if l.LNDURL != "" || l.LNDMacaroon != "" || l.LNDTLSCert != "" {
			bad(walletField, "is dev, but an LND node is configured: drop the lnd_* settings or set wallet lnd")
		}
	case WalletLND:
		if u, err := url.Parse(l.LNDURL); err != nil || u.Scheme != "https" || u.Host == "" || (u.Path != "" && u.Path != "/") || u.RawQuery != "" {
			bad(urlField, "want the node's REST listener https://HOST:PORT, got %q", l.LNDURL)
		}
		if l.LNDMacaroon == "" {
			bad("breakroom.lightning.lnd_macaroon (--breakroom-lnd-macaroon, ARENA_BREAKROOM_LND_MACAROON)", "must name the node's macaroon file when the wallet is lnd")
		}
		if l.LNDTLSCert == "" {
			bad("breakroom.lightning.lnd_tls_cert (--breakroom-lnd-tls-cert, ARENA_BREAKROOM_LND_TLS_CERT)", "must name the node's tls.cert when the wallet is lnd")
		}
	case WalletNone:
	default:
		bad(walletField, "want dev, lnd or none, got %q", l.Wallet)
	}
}

// Sites lists the four protocols' sites by name, DOTDOTDOT first (the site of unclaimed hosts).
func (c Config) Sites() []NamedSite {
	return []NamedSite{
		{"dotdotdot", c.Dotdotdot.Site},
		{"breakroom", c.Breakroom.Site},
		{"warden", c.Warden.Site},
		{"market", c.Market.Site},
	}
}

// NamedSite is a Site with its protocol's name ("dotdotdot", "breakroom", "warden", "market").
type NamedSite struct {
	Name string
	Site
}

// hostList reads a comma-separated list of host names ("" is the empty list).
func hostList(v string) []string {
	var hs []string
	for _, h := range strings.Split(v, ",") {
		if h = strings.TrimSpace(h); h != "" {
			hs = append(hs, h)
		}
	}
	return hs
}

// validateSites checks every site's hosts and listen address: host names without port, path or
// white space, none claimed by two sites; listen addresses HOST:PORT, none with a fixed port
// shared with another site or with Config.Addr.
func (c Config) validateSites(bad func(field, format string, args ...any)) {
	owner := map[string]string{}
	addrs := map[string]string{"": "addr"}
	if _, port, err := net.SplitHostPort(c.Addr); err == nil && port != "0" {
		addrs[c.Addr] = "addr"
	}
	for _, s := range c.Sites() {
		env := strings.ToUpper(s.Name)
		hostsField := fmt.Sprintf("%s.site.hosts (--%s-hosts, ARENA_%s_HOSTS)", s.Name, s.Name, env)
		for _, h := range s.Hosts {
			// No trimming: the router matches a Host header byte for byte (HostKey lowercases it
			// and drops one final dot), so a name with white space is refused, not normalised.
			k := strings.TrimSuffix(strings.ToLower(h), ".")
			switch {
			case strings.TrimSpace(k) == "":
				bad(hostsField, "empty host name")
				continue
			case strings.ContainsAny(k, ":/[]@") || strings.ContainsFunc(k, unicode.IsSpace):
				bad(hostsField, "want a host name without port or path, e.g. %s.localhost, got %q", s.Name, h)
				continue
			}
			if o, dup := owner[k]; dup {
				bad(hostsField, "host %s is claimed by %s too", k, o)
				continue
			}
			owner[k] = s.Name
		}
		if s.Addr == "" {
			continue
		}
		addrField := fmt.Sprintf("%s.site.addr (--%s-addr, ARENA_%s_ADDR)", s.Name, s.Name, env)
		_, port, err := net.SplitHostPort(s.Addr)
		if p, perr := strconv.Atoi(port); err != nil || perr != nil || p < 0 || p > 65535 {
			bad(addrField, "want HOST:PORT, e.g. 127.0.0.1:8081 or :0, got %q", s.Addr)
			continue
		}
		if port == "0" {
			continue
		}
		if o, dup := addrs[s.Addr]; dup {
			bad(addrField, "%s is %s's listen address too", s.Addr, o)
			continue
		}
		addrs[s.Addr] = s.Name
	}
}
