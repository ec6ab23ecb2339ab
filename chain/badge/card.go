package badge

import (
	"crypto/ed25519"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
	"unicode/utf8"

	"arena/chain/ccd"
	"arena/games"
	"arena/games/canon"
)

// ExtensionURI identifies the Badge among a card's A2A extensions (§4.2); found by URI, never
// by position.
const ExtensionURI = "https://docs.concordium.com/a2a-extensions/concordium-badge/v1"

// The card kinds of §4.2.
const (
	KindPlayer = "player"
	KindHouse  = "house"
	KindArena  = "arena"
)

// MaxNameRunes bounds a card's name (Concordium's Agent Card: 128 characters).
const MaxNameRunes = 128

// Card is what the protocol reads from an agent card (§4.2). Unknown members are ignored, so
// one card can serve other services too.
type Card struct {
	Agent      string // CAIP-19, must be the Badge the card was fetched for
	Name       string // the registered name; wins over a name sent at join
	Kind       string // player, house or arena
	SigningKey string // "ed25519:<64 hex>", parsed only after every identity check
	Endpoint   string // A2A endpoint; "" when absent
	Operator   string // CAIP-19 of the house Badge running this agent; "" when absent
	Badge      BadgeParams
	// Legacy is true when the Badge came from the top-level concordium object (cards written
	// before the Badge specification) rather than the extension.
	Legacy bool
	// Registrations are the ERC-8004 entries (agentRegistry → agentId); any may be absent.
	Registrations []Registration
}

// BadgeParams are the Badge extension's params (or a legacy concordium object) the protocol
// checks. Empty strings are absent members.
type BadgeParams struct {
	TokenAddress string // CAIP-19
	OwnerAccount string // CAIP-10
	CIS8004      string // CAIP-10 contract
	CIS8         string // CAIP-10 contract
}

// Registration is one ERC-8004 registrations entry.
//
// AgentID is the Badge's token id (a u64). §4.2 writes it as a JSON number, but strict JSON
// (I-JSON, canon) holds integers only up to 2^53−1, and a u64 token id from a hash is almost
// always above that; such an id is written and read as a decimal string ("13077503408096846387"),
// so what WriteCard writes ParseCard reads back for every token id (docs/protocol-notes.md,
// chain/badge). NoAgentID is true when the entry has no agentId member.
type Registration struct {
	AgentID       uint64
	AgentRegistry string
	NoAgentID     bool
}

// maxJSONInt is the largest integer I-JSON (and canon) carries as a number: 2^53 − 1.
const maxJSONInt = 1<<53 - 1

// agentIDJSON is a registrations agentId as WriteCard writes it: a JSON number up to
// 2^53 − 1, a decimal string above (see Registration).
type agentIDJSON uint64

// MarshalJSON writes the number, or the decimal string above 2^53 − 1.
func (a agentIDJSON) MarshalJSON() ([]byte, error) {
	s := strconv.FormatUint(uint64(a), 10)
	if a > maxJSONInt {
		return []byte(`"` + s + `"`), nil
	}
	return []byte(s), nil
}

// readAgentID reads an agentId: a non-negative integer number, or a decimal string of a u64
// (digits only, no sign, no leading zero) whose value is above 2^53 − 1. A string for a
// smaller id is refused: it has one form, the number, so no card carries two spellings of it.
func readAgentID(v canon.Value) (uint64, bool) {
	if n, ok := v.Int(); ok {
		return uint64(n), n >= 0
	}
	s, ok := v.Str()
	if !ok || s == "" || len(s) > 20 || s[0] == '0' {
		return 0, false
	}
	for _, c := range []byte(s) {
		if c < '0' || c > '9' {
			return 0, false
		}
	}
	n, err := strconv.ParseUint(s, 10, 64)
	if err != nil || n <= maxJSONInt {
		return 0, false
	}
	return n, true
}

// ParseCard reads a card's bytes: strict JSON (canon.Parse: one value, valid UTF-8, no
// duplicate or case-folded member names, so no second "signing_key" hides behind the first),
// an object, exact member names, and the types of §4.2. It refuses with CodeBadCard, or
// CodeBadgeMissing when neither Badge placement is there, or CodeBadgeMismatch when both are
// and disagree. It checks shapes only; Resolve checks the values against the chain.
func ParseCard(raw []byte) (*Card, error) {
	v, err := canon.Parse(raw)
	if err != nil {
		return nil, refuse(CodeBadCard, "card is not strict JSON: %v", err)
	}
	root, ok := asObject(v)
	if !ok {
		return nil, refuse(CodeBadCard, "card is not a JSON object")
	}
	c := &Card{}
	if m, ok := root["v"]; ok {
		if n, ok := m.Int(); !ok || n != 1 {
			return nil, refuse(CodeBadCard, "card v is %s, want 1", m.Raw())
		}
	}
	for _, f := range []struct {
		name     string
		dst      *string
		required bool
	}{
		{"agent", &c.Agent, true}, {"name", &c.Name, true}, {"kind", &c.Kind, true},
		{"signing_key", &c.SigningKey, false}, {"endpoint", &c.Endpoint, false}, {"operator", &c.Operator, false},
	} {
		s, present, err := str(root, f.name)
		if err != nil {
			return nil, err
		}
		if f.required && !present {
			return nil, refuse(CodeBadCard, "card has no %s", f.name)
		}
		*f.dst = s
	}
	if err := checkName(c.Name); err != nil {
		return nil, err
	}
	switch c.Kind {
	case KindPlayer, KindHouse, KindArena:
	default:
		return nil, refuse(CodeBadCard, "card kind %q is not player, house or arena", c.Kind)
	}
	ext, err := extensionParams(root)
	if err != nil {
		return nil, err
	}
	legacy, hasLegacy := root["concordium"]
	switch {
	case ext != nil:
		if c.Badge, err = readParams(*ext, "capabilities.extensions[badge].params"); err != nil {
			return nil, err
		}
		if hasLegacy {
			old, err := readParams(legacy, "concordium")
			if err != nil {
				return nil, err
			}
			if old.TokenAddress != c.Badge.TokenAddress || (old.OwnerAccount != "" && old.OwnerAccount != c.Badge.OwnerAccount) {
				return nil, refuse(CodeBadgeMismatch, "the Badge extension and the legacy concordium object disagree")
			}
		}
	case hasLegacy:
		if c.Badge, err = readParams(legacy, "concordium"); err != nil {
			return nil, err
		}
		c.Legacy = true
	default:
		return nil, refuse(CodeBadgeMissing, "card carries no Badge (no extension %s, no concordium object)", ExtensionURI)
	}
	if c.Registrations, err = readRegistrations(root); err != nil {
		return nil, err
	}
	return c, nil
}

func checkName(name string) error {
	if strings.TrimSpace(name) == "" || utf8.RuneCountInString(name) > MaxNameRunes {
		return refuse(CodeBadCard, "card name must be 1 to %d characters, not blank", MaxNameRunes)
	}
	if r, bad := games.HiddenRune(name, ""); bad {
		return refuse(CodeBadCard, "card name carries a control or format character %U", r)
	}
	return nil
}

// asObject indexes an object's members by exact name (canon.Parse already refused duplicates).
func asObject(v canon.Value) (map[string]canon.Value, bool) {
	if v.Kind() != canon.Object {
		return nil, false
	}
	m := make(map[string]canon.Value, v.Len())
	for i := 0; i < v.Len(); i++ {
		k, mv := v.Member(i)
		m[k] = mv
	}
	return m, true
}

// str reads an optional string member: present and a string, or absent; null or another type
// is CodeBadCard.
func str(obj map[string]canon.Value, name string) (string, bool, error) {
	m, ok := obj[name]
	if !ok {
		return "", false, nil
	}
	s, ok := m.Str()
	if !ok {
		return "", false, refuse(CodeBadCard, "card %s is not a string", name)
	}
	return s, true, nil
}

// extensionParams finds the Badge extension by URI in capabilities.extensions and returns its
// params; nil when there is none. Two entries with the Badge URI are CodeBadCard (which one
// would count?).
func extensionParams(root map[string]canon.Value) (*canon.Value, error) {
	capsV, ok := root["capabilities"]
	if !ok {
		return nil, nil
	}
	caps, ok := asObject(capsV)
	if !ok {
		return nil, refuse(CodeBadCard, "card capabilities is not an object")
	}
	exts, ok := caps["extensions"]
	if !ok {
		return nil, nil
	}
	if exts.Kind() != canon.Array {
		return nil, refuse(CodeBadCard, "card capabilities.extensions is not an array")
	}
	var found *canon.Value
	for i := 0; i < exts.Len(); i++ {
		e, ok := asObject(exts.Elem(i))
		if !ok {
			return nil, refuse(CodeBadCard, "capabilities.extensions[%d] is not an object", i)
		}
		uri, _, err := str(e, "uri")
		if err != nil {
			return nil, err
		}
		if uri != ExtensionURI {
			continue
		}
		if found != nil {
			return nil, refuse(CodeBadCard, "the Badge extension appears twice")
		}
		p, ok := e["params"]
		if !ok {
			return nil, refuse(CodeBadCard, "the Badge extension has no params")
		}
		found = &p
	}
	return found, nil
}

// readParams reads tokenAddress (required), owner.account, contracts.cis8004 and
// contracts.cis8 from a Badge params object or a legacy concordium object.
func readParams(v canon.Value, where string) (BadgeParams, error) {
	obj, ok := asObject(v)
	if !ok {
		return BadgeParams{}, refuse(CodeBadCard, "%s is not an object", where)
	}
	var p BadgeParams
	var present bool
	var err error
	if p.TokenAddress, present, err = str(obj, "tokenAddress"); err != nil {
		return BadgeParams{}, err
	}
	if !present {
		return BadgeParams{}, refuse(CodeBadgeMissing, "%s has no tokenAddress", where)
	}
	if ov, ok := obj["owner"]; ok {
		o, ok := asObject(ov)
		if !ok {
			return BadgeParams{}, refuse(CodeBadCard, "%s.owner is not an object", where)
		}
		if p.OwnerAccount, _, err = str(o, "account"); err != nil {
			return BadgeParams{}, err
		}
	}
	if cv, ok := obj["contracts"]; ok {
		cs, ok := asObject(cv)
		if !ok {
			return BadgeParams{}, refuse(CodeBadCard, "%s.contracts is not an object", where)
		}
		if p.CIS8004, _, err = str(cs, "cis8004"); err != nil {
			return BadgeParams{}, err
		}
		if p.CIS8, _, err = str(cs, "cis8"); err != nil {
			return BadgeParams{}, err
		}
	}
	return p, nil
}

func readRegistrations(root map[string]canon.Value) ([]Registration, error) {
	rv, ok := root["registrations"]
	if !ok {
		return nil, nil
	}
	if rv.Kind() != canon.Array {
		return nil, refuse(CodeBadCard, "card registrations is not an array")
	}
	var out []Registration
	for i := 0; i < rv.Len(); i++ {
		e, ok := asObject(rv.Elem(i))
		if !ok {
			return nil, refuse(CodeBadCard, "registrations[%d] is not an object", i)
		}
		reg, _, err := str(e, "agentRegistry")
		if err != nil {
			return nil, err
		}
		r := Registration{AgentRegistry: reg, NoAgentID: true}
		if idv, ok := e["agentId"]; ok {
			n, ok := readAgentID(idv)
			if !ok {
				return nil, refuse(CodeBadCard, "registrations[%d].agentId is not a u64 (a number up to 2^53-1, a decimal string above)", i)
			}
			r.AgentID, r.NoAgentID = n, false
		}
		out = append(out, r)
	}
	return out, nil
}

// CardSpec is what WriteCard writes.
type CardSpec struct {
	Agent      AgentID
	Name       string
	Kind       string // player, house or arena
	SigningKey ed25519.PublicKey
	Endpoint   string   // "" omits it
	Operator   *AgentID // nil omits it
	Owner      ccd.Address
	Registry   Contract  // the CIS-8004 registry the Badge lives in
	CIS8       *Contract // the CIS-8 key registry; nil omits it
	// Description is the A2A description; "" omits it.
	Description string
}

// WriteCard writes a card in the extension form (§4.2: the Badge in capabilities.extensions,
// never top level), with the registrations entry, as compact JSON. The bytes returned are the
// bytes to serve; their SHA-256 (MetadataHash) is what the registry must hold. It refuses a
// spec ParseCard would refuse (*games.Error CodeBadCard or CodeBadSigningKey).
func WriteCard(s CardSpec) ([]byte, error) {
	if err := checkName(s.Name); err != nil {
		return nil, err
	}
	switch s.Kind {
	case KindPlayer, KindHouse, KindArena:
	default:
		return nil, refuse(CodeBadCard, "kind %q is not player, house or arena", s.Kind)
	}
	if err := canon.CheckKey(s.SigningKey); err != nil {
		return nil, refuse(CodeBadSigningKey, "signing key: %v", err)
	}
	if s.Registry.Chain != s.Agent.Chain || s.Agent.Token.Index != s.Registry.Index || s.Agent.Token.Subindex != s.Registry.Subindex {
		return nil, refuse(CodeBadgeMismatch, "%s is not a token of the registry %s", s.Agent, s.Registry)
	}
	tok, ok := s.Agent.BadgeTokenID()
	if !ok {
		return nil, refuse(CodeBadAgentID, "%s is not a Badge (token id of %d bytes)", s.Agent, len(s.Agent.Token.TokenID))
	}
	type owner struct {
		Account string `json:"account"`
	}
	type contracts struct {
		CIS8004 string `json:"cis8004"`
		CIS8    string `json:"cis8,omitempty"`
	}
	type params struct {
		TokenAddress string    `json:"tokenAddress"`
		Owner        owner     `json:"owner"`
		Contracts    contracts `json:"contracts"`
		Verify       string    `json:"verify"`
	}
	type extension struct {
		URI         string `json:"uri"`
		Description string `json:"description"`
		Required    bool   `json:"required"`
		Params      params `json:"params"`
	}
	type registration struct {
		AgentID       agentIDJSON `json:"agentId"`
		AgentRegistry string      `json:"agentRegistry"`
	}
	type card struct {
		V            int    `json:"v"`
		Agent        string `json:"agent"`
		Name         string `json:"name"`
		Description  string `json:"description,omitempty"`
		Kind         string `json:"kind"`
		SigningKey   string `json:"signing_key"`
		Endpoint     string `json:"endpoint,omitempty"`
		Operator     string `json:"operator,omitempty"`
		Capabilities struct {
			Extensions []extension `json:"extensions"`
		} `json:"capabilities"`
		Registrations []registration `json:"registrations"`
	}
	c := card{V: 1, Agent: s.Agent.String(), Name: s.Name, Description: s.Description, Kind: s.Kind,
		SigningKey: canon.FormatKey(s.SigningKey), Endpoint: s.Endpoint}
	if s.Operator != nil {
		c.Operator = s.Operator.String()
	}
	cs := contracts{CIS8004: s.Registry.String()}
	if s.CIS8 != nil {
		cs.CIS8 = s.CIS8.String()
	}
	c.Capabilities.Extensions = []extension{{
		URI:         ExtensionURI,
		Description: "Verified by Concordium badge — on-chain agent identity in a CIS-8004 registry",
		Params: params{
			TokenAddress: s.Agent.String(),
			Owner:        owner{Account: Account{Chain: s.Agent.Chain, Address: s.Owner}.String()},
			Contracts:    cs,
			Verify:       "Resolve tokenAddress via CIS-8004 agent_of; confirm owner + status is Active + card SHA-256 equals metadata_hash.",
		},
	}}
	c.Registrations = []registration{{AgentID: agentIDJSON(tok), AgentRegistry: s.Registry.String()}}
	b, err := json.Marshal(c)
	if err != nil {
		return nil, fmt.Errorf("badge: write card: %w", err)
	}
	return b, nil
}
