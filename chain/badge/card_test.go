package badge

import (
	"bytes"
	"encoding/hex"
	"errors"
	"strings"
	"testing"

	"arena/chain/ccd"
	"arena/chain/devchain"
	"arena/games"
	"arena/games/canon"

	v2 "github.com/Concordium/concordium-go-sdk/v2"
)

func TestDecodeRecordVectors(t *testing.T) {
	var v cis8004Vectors
	readVector(t, "cis8004.json", &v)
	owner, _ := hex.DecodeString("000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f")
	hash, _ := hex.DecodeString("d7d234f759ec34fd6298b7e32318614760070aaef9f4e92ced928324b49a0602")
	for _, form := range []string{v.Example.Bytes, v.Wrapped.Bytes} {
		b, _ := hex.DecodeString(form)
		rec, found, err := DecodeRecord(b)
		if err != nil || !found {
			t.Fatalf("%s…: %v found=%v", form[:8], err, found)
		}
		if rec.TokenID != 484 || !bytes.Equal(rec.Owner[:], owner) || rec.AgentURI != "https://example.com/.well-known/agent-card.json" ||
			!bytes.Equal(rec.MetadataHash, hash) || rec.Status != StatusActive || rec.Wallet == nil || rec.RegisteredAtMs != 1767225600000 {
			t.Errorf("record %+v", rec)
		}
	}
	if _, found, err := DecodeRecord([]byte{0}); err != nil || found {
		t.Errorf("None: found=%v %v", found, err)
	}
	good, _ := hex.DecodeString(v.Example.Bytes)
	wrapped, _ := hex.DecodeString(v.Wrapped.Bytes)
	var u16 struct {
		Bytes string `json:"bytes"`
	}
	var all map[string]any
	readVector(t, "cis8004.json", &all)
	u16.Bytes = all["example_agent_view_spec_u16_lengths"].(map[string]any)["bytes"].(string)
	u16b, _ := hex.DecodeString(u16.Bytes)
	for name, bad := range map[string][]byte{
		"empty": nil, "u16 lengths": u16b, "trailing": append(append([]byte{}, good...), 0),
		"truncated": good[:len(good)-1], "None with bytes": {0, 1}, "unknown tag": {2},
		"metadata list not empty": append(append([]byte{}, wrapped[:len(wrapped)-4]...), 1, 0, 0, 0),
	} {
		if _, _, err := DecodeRecord(bad); err == nil {
			t.Errorf("%s decoded", name)
		}
	}
	// Against the devchain's independent encoder: every status and option combination.
	w := v2.AccountAddress{Value: [32]byte{9}}
	for _, a := range []devchain.Agent{
		{TokenID: 7, Owner: v2.AccountAddress{Value: [32]byte{1}}, Status: devchain.AgentSuspended},
		{TokenID: 8, AgentURI: "https://x.example/c", MetadataHash: make([]byte, 32), AgentWallet: &w, ExternalReference: "e",
			Status: devchain.AgentRevoked, RegisteredAtMs: 5, RevokedAtMs: 6, RevocationReason: "why"},
	} {
		rec, found, err := DecodeRecord(devchain.EncodeAgentView(a))
		if err != nil || !found || rec.TokenID != a.TokenID || uint8(rec.Status) != uint8(a.Status) || rec.AgentURI != a.AgentURI ||
			(rec.MetadataHash == nil) != (a.MetadataHash == nil) || (rec.Wallet == nil) != (a.AgentWallet == nil) {
			t.Errorf("devchain record %d: %+v %v", a.TokenID, rec, err)
		}
	}
	if s := Status(7); s == StatusActive || s.String() != "Status(7)" {
		t.Errorf("unknown status %s", s)
	}
}

func TestAgentOfCallVector(t *testing.T) {
	var v struct {
		Requests []struct {
			TokenID string `json:"token_id"`
			Param   string `json:"parameter"`
			Receive string `json:"receive_name"`
			Request string `json:"grpc_invoke_instance_request"`
		} `json:"invoke_requests"`
	}
	readVector(t, "cis8004.json", &v)
	for _, r := range v.Requests {
		var tok uint64
		for _, c := range r.TokenID {
			tok = tok*10 + uint64(c-'0')
		}
		call := agentOfCall(TestnetRegistry, tok)
		if hex.EncodeToString(call.Parameter) != r.Param || call.Receive != r.Receive || call.MaxEnergy != 30000 || call.Index != 12802 {
			t.Errorf("token %d: %+v", tok, call)
		}
	}
}

func specFor(t testing.TB) CardSpec {
	id := NewAgentID(Testnet, TestnetRegistry, 484)
	op := NewAgentID(Testnet, TestnetRegistry, 1)
	cis8 := Contract{Chain: Testnet, Index: 12801}
	return CardSpec{Agent: id, Name: "Ada", Kind: KindPlayer, SigningKey: newKey(), Endpoint: "https://ada.example/a2a",
		Operator: &op, Owner: ccd.Address{1, 2, 3}, Registry: TestnetRegistry, CIS8: &cis8, Description: "plays Blitz"}
}

func TestWriteCardRoundTrip(t *testing.T) {
	spec := specFor(t)
	b, err := WriteCard(spec)
	if err != nil {
		t.Fatal(err)
	}
	c, err := ParseCard(b)
	if err != nil {
		t.Fatal(err)
	}
	owner := Account{Chain: Testnet, Address: spec.Owner}.String()
	if c.Agent != spec.Agent.String() || c.Name != "Ada" || c.Kind != KindPlayer || c.SigningKey != canon.FormatKey(spec.SigningKey) ||
		c.Endpoint != spec.Endpoint || c.Operator != spec.Operator.String() || c.Legacy ||
		c.Badge != (BadgeParams{TokenAddress: spec.Agent.String(), OwnerAccount: owner, CIS8004: TestnetRegistry.String(), CIS8: spec.CIS8.String()}) ||
		len(c.Registrations) != 1 || c.Registrations[0] != (Registration{AgentID: 484, AgentRegistry: TestnetRegistry.String()}) {
		t.Fatalf("card %+v\n%s", c, b)
	}
	// The extension form, never a top-level Badge.
	if bytes.Contains(b, []byte(`"concordium"`)) || !bytes.Contains(b, []byte(`"uri":"`+ExtensionURI+`"`)) {
		t.Fatalf("not the extension form: %s", b)
	}
	// Writer refusals.
	for name, mod := range map[string]func(*CardSpec){
		"blank name": func(s *CardSpec) { s.Name = "  " },
		"bad kind":   func(s *CardSpec) { s.Kind = "mole" },
		"small-order key": func(s *CardSpec) {
			s.SigningKey = append(make([]byte, 0, 32), 1)
			s.SigningKey = append(s.SigningKey, make([]byte, 31)...)
		},
		"other registry": func(s *CardSpec) { s.Registry = MainnetRegistry },
		"short token id": func(s *CardSpec) { s.Agent.Token.TokenID = []byte{1} },
	} {
		s := specFor(t)
		mod(&s)
		if _, err := WriteCard(s); err == nil {
			t.Errorf("%s: written", name)
		}
	}
}

// A Badge token id above 2^53 − 1 survives WriteCard → ParseCard. A registry may mint one (the
// instance's stand-in Badge, config.DeriveAgent, keeps to 53 bits), and strict JSON (I-JSON,
// canon) cannot carry such an integer as a number:
//
//	"registrations":[{"agentId":13077503408096846387,"agentRegistry":"ccd:…:12802.0"}]
//
// ParseCard is the reader §4.3's resolution of the arena goes through, so a card it refused
// would make every default instance unverifiable per §4.1/§4.3 (and a JavaScript client would
// read another agentId, …6387 → …6000). What WriteCard writes, ParseCard reads back, for every
// Badge token id WriteCard accepts; refusing the spec at the writer is the other right answer.
func TestWriteCardLargeTokenIDRoundTrip(t *testing.T) {
	spec := specFor(t)
	spec.Agent = NewAgentID(Testnet, TestnetRegistry, 13077503408096846387)
	b, err := WriteCard(spec)
	if err != nil {
		return // refusing at the writer is a right answer too
	}
	c, err := ParseCard(b)
	if err != nil {
		t.Fatalf("WriteCard wrote a card ParseCard refuses: %v\n%s", err, b)
	}
	if len(c.Registrations) != 1 || c.Registrations[0].AgentRegistry != TestnetRegistry.String() {
		t.Fatalf("registrations %+v", c.Registrations)
	}
}

func TestParseCardShapes(t *testing.T) {
	spec := specFor(t)
	id := spec.Agent.String()
	key := canon.FormatKey(spec.SigningKey)
	legacy := `"concordium":{"tokenAddress":"` + id + `"}`
	ext := func(tok string) string {
		return `"capabilities":{"extensions":[{"uri":"` + ExtensionURI + `","params":{"tokenAddress":"` + tok + `"}}]}`
	}
	base := `"agent":"` + id + `","name":"Ada","kind":"player","signing_key":"` + key + `"`
	cases := []struct {
		name, card, want string
	}{
		{"legacy only", `{` + base + `,` + legacy + `}`, ""},
		{"both placements agree", `{` + base + `,` + legacy + `,` + ext(id) + `}`, ""},
		{"both placements disagree", `{` + base + `,` + legacy + `,` + ext(NewAgentID(Testnet, TestnetRegistry, 1).String()) + `}`, CodeBadgeMismatch},
		{"extension twice", `{` + base + `,"capabilities":{"extensions":[{"uri":"` + ExtensionURI + `","params":{"tokenAddress":"a"}},{"uri":"` + ExtensionURI + `","params":{"tokenAddress":"b"}}]}}`, CodeBadCard},
		{"extension without params", `{` + base + `,"capabilities":{"extensions":[{"uri":"` + ExtensionURI + `"}]}}`, CodeBadCard},
		{"extension without tokenAddress", `{` + base + `,"capabilities":{"extensions":[{"uri":"` + ExtensionURI + `","params":{}}]}}`, CodeBadgeMissing},
		{"no Badge", `{` + base + `}`, CodeBadgeMissing},
		{"unknown members ignored", `{` + base + `,` + ext(id) + `,"x":[1,{"y":null}],"skills":[]}`, ""},
		{"v 1", `{"v":1,` + base + `,` + ext(id) + `}`, ""},
		{"v 2", `{"v":2,` + base + `,` + ext(id) + `}`, CodeBadCard},
		{"v string", `{"v":"1",` + base + `,` + ext(id) + `}`, CodeBadCard},
		{"name null", `{"agent":"` + id + `","name":null,"kind":"player",` + ext(id) + `}`, CodeBadCard},
		{"no name", `{"agent":"` + id + `","kind":"player",` + ext(id) + `}`, CodeBadCard},
		{"no agent", `{"name":"A","kind":"player",` + ext(id) + `}`, CodeBadCard},
		{"no kind", `{"agent":"` + id + `","name":"A",` + ext(id) + `}`, CodeBadCard},
		{"name with a newline", `{"agent":"` + id + `","name":"A\nB","kind":"player",` + ext(id) + `}`, CodeBadCard},
		{"name with a bidi override", `{"agent":"` + id + `","name":"A\u202eB","kind":"player",` + ext(id) + `}`, CodeBadCard},
		{"name too long", `{"agent":"` + id + `","name":"` + strings.Repeat("é", 129) + `","kind":"player",` + ext(id) + `}`, CodeBadCard},
		{"duplicate name", `{"name":"Eve",` + base + `,` + ext(id) + `}`, CodeBadCard},
		{"case-folded twin", `{"Name":"Eve",` + base + `,` + ext(id) + `}`, CodeBadCard},
		{"array", `[` + base[:0] + `]`, CodeBadCard},
		{"trailing data", `{` + base + `,` + ext(id) + `} {}`, CodeBadCard},
		{"capabilities not an object", `{` + base + `,"capabilities":[]}`, CodeBadCard},
		{"registrations agentId negative", `{` + base + `,` + ext(id) + `,"registrations":[{"agentId":-1,"agentRegistry":"r"}]}`, CodeBadCard},
		{"registrations agentId fraction", `{` + base + `,` + ext(id) + `,"registrations":[{"agentId":1.5,"agentRegistry":"r"}]}`, CodeBadCard},
	}
	for _, c := range cases {
		card, err := ParseCard([]byte(c.card))
		if got := codeOf(err); got != c.want {
			t.Errorf("%s: %q (%v), want %q", c.name, got, err, c.want)
			continue
		}
		if c.want == "" && (card.Badge.TokenAddress != id || card.Name != "Ada") {
			t.Errorf("%s: %+v", c.name, card)
		}
		if c.name == "legacy only" && !card.Legacy {
			t.Errorf("legacy not marked")
		}
	}
	// An exact-name reader: "Signing_Key" is not signing_key.
	card, err := ParseCard([]byte(`{"agent":"` + id + `","name":"Ada","kind":"player","Signing_Key":"` + key + `",` + ext(id) + `}`))
	if err != nil || card.SigningKey != "" {
		t.Errorf("case variant taken as signing_key: %+v %v", card, err)
	}
}

// FuzzParseCard: no input panics, and every refusal is a *games.Error with a card code.
func FuzzParseCard(f *testing.F) {
	b, _ := WriteCard(specFor(f))
	f.Add(b)
	f.Add([]byte(`{"agent":"a","name":"n","kind":"player","concordium":{"tokenAddress":"t"}}`))
	f.Add([]byte(`{"capabilities":{"extensions":[{"uri":"` + ExtensionURI + `"}]}}`))
	f.Fuzz(func(t *testing.T, raw []byte) {
		_, err := ParseCard(raw)
		if err == nil {
			return
		}
		var ge *games.Error
		if !errors.As(err, &ge) {
			t.Fatalf("not a games.Error: %v", err)
		}
		switch ge.Code {
		case CodeBadCard, CodeBadgeMissing, CodeBadgeMismatch:
		default:
			t.Fatalf("code %s", ge.Code)
		}
	})
}

// FuzzDecodeRecord: no registry answer panics the reader, and whatever parses re-reads the
// same after the devchain's independent encoder writes it back.
func FuzzDecodeRecord(f *testing.F) {
	var v cis8004Vectors
	readVector(f, "cis8004.json", &v)
	for _, s := range []string{v.Example.Bytes, v.Wrapped.Bytes, "00", "01"} {
		b, _ := hex.DecodeString(s)
		f.Add(b)
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		rec, found, err := DecodeRecord(b)
		if err != nil || !found || rec.Status > StatusRevoked {
			return
		}
		a := devchain.Agent{TokenID: rec.TokenID, Owner: v2.AccountAddress{Value: rec.Owner}, AgentURI: rec.AgentURI,
			MetadataHash: rec.MetadataHash, Status: devchain.AgentStatus(rec.Status), RegisteredAtMs: rec.RegisteredAtMs}
		if rec.Wallet != nil {
			a.AgentWallet = &v2.AccountAddress{Value: *rec.Wallet}
		}
		back, found2, err := DecodeRecord(devchain.EncodeAgentView(a))
		if err != nil || !found2 || back.TokenID != rec.TokenID || back.AgentURI != rec.AgentURI ||
			!bytes.Equal(back.MetadataHash, rec.MetadataHash) || back.Status != rec.Status {
			t.Fatalf("%x: %+v then %+v (%v)", b, rec, back, err)
		}
	})
}
