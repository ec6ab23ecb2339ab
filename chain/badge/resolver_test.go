package badge

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"arena/chain/ccd"
	"arena/chain/devchain"
	"arena/chain/egress"
	"arena/games"
	"arena/games/canon"
)

func player(name string) CardSpec {
	return CardSpec{Registry: TestnetRegistry, Name: name, Kind: KindPlayer, SigningKey: newKey(), Endpoint: "https://" + strings.ReplaceAll(strings.ToLower(name), " ", "-") + ".example/a2a"}
}

// edit is WriteCard's card for spec with edits applied to its JSON object.
func edit(t testing.TB, spec CardSpec, f func(m map[string]any)) []byte {
	t.Helper()
	if spec.Registry == (Contract{}) {
		spec.Registry = TestnetRegistry
	}
	b, err := WriteCard(spec)
	if err != nil {
		t.Fatal(err)
	}
	var m map[string]any
	if err := json.Unmarshal(b, &m); err != nil {
		t.Fatal(err)
	}
	f(m)
	out, err := json.Marshal(m)
	if err != nil {
		t.Fatal(err)
	}
	return out
}

func params(m map[string]any) map[string]any {
	return m["capabilities"].(map[string]any)["extensions"].([]any)[0].(map[string]any)["params"].(map[string]any)
}

// fakeNode wraps the real client and replaces its answers.
type fakeNode struct {
	Node
	invokeErr  error
	ret        []byte
	networkErr error
}

func (f fakeNode) Invoke(ctx context.Context, c ccd.ContractCall) ([]byte, error) {
	if f.invokeErr != nil {
		return nil, f.invokeErr
	}
	if f.ret != nil {
		return f.ret, nil
	}
	return f.Node.Invoke(ctx, c)
}

func (f fakeNode) Network(ctx context.Context) (string, error) {
	if f.networkErr != nil {
		return "", f.networkErr
	}
	return f.Node.Network(ctx)
}

func codeOf(err error) string {
	var ge *games.Error
	if errors.As(err, &ge) {
		return ge.Code
	}
	if err != nil {
		return "not a games.Error: " + err.Error()
	}
	return ""
}

// TestResolveRules covers each rule of §3, §4.1 and §4.2 on its own: every case registers its
// own Badge on the embedded devchain (over its gRPC socket) and serves its own card over HTTP
// on loopback, then resolves it with a fresh Resolver.
func TestResolveRules(t *testing.T) {
	w := newWorld(t)
	type setup struct {
		id  string
		mod func(*Config)
	}
	cases := []struct {
		name  string
		setup func(t *testing.T) setup
		want  string // refusal code; "" resolves
		check func(t *testing.T, a Agent)
	}{
		{"player resolves", func(t *testing.T) setup {
			return setup{id: w.register(reg{owner: w.player, spec: player("Ada")}).String()}
		}, "", func(t *testing.T, a Agent) {
			if a.Name != "Ada" || a.Kind != KindPlayer || a.Owner != w.player || a.HouseOwned || a.OffShelf ||
				a.Endpoint != "https://ada.example/a2a" || len(a.Key) != 32 || a.Operator != nil {
				t.Errorf("agent %+v", a)
			}
		}},
		{"legacy concordium object resolves", func(t *testing.T) setup {
			id := w.nextID()
			key := newKey()
			card := []byte(`{"v":1,"agent":"` + id.String() + `","name":"Old Timer","kind":"player","signing_key":"` +
				canon.FormatKey(key) + `","endpoint":"https://old.example/a2a","concordium":{"tokenAddress":"` + id.String() +
				`","owner":{"account":"` + Account{Testnet, w.player}.String() + `"}}}`)
			return setup{id: w.register(reg{owner: w.player, card: card}).String()}
		}, "", func(t *testing.T, a Agent) {
			if a.Name != "Old Timer" {
				t.Errorf("name %q", a.Name)
			}
		}},
		{"the card's name wins", func(t *testing.T) setup {
			return setup{id: w.register(reg{owner: w.player, spec: player("Registered Name")}).String()}
		}, "", func(t *testing.T, a Agent) {
			if a.Name != "Registered Name" {
				t.Errorf("name %q", a.Name)
			}
		}},
		{"no registry configured", func(t *testing.T) setup {
			return setup{id: w.register(reg{owner: w.player, spec: player("Nob")}).String(), mod: func(c *Config) { c.Node = nil }}
		}, CodeNoRegistry, nil},
		{"character outside base58", func(t *testing.T) setup {
			id := w.register(reg{owner: w.player, spec: player("Zero")}).String()
			return setup{id: id[:len(id)-1] + "0"}
		}, CodeNotBase58, nil},
		{"letter l", func(t *testing.T) setup {
			return setup{id: string(Testnet) + "/cis-2:JyP9lBxEoMo5ECWXLioor"}
		}, CodeNotBase58, nil},
		{"malformed id", func(t *testing.T) setup { return setup{id: "ccd:testnet/cis-2:JyP9YBxEoMo5ECWXLioor"} }, CodeBadAgentID, nil},
		{"token id not a u64", func(t *testing.T) setup {
			return setup{id: AgentID{Chain: Testnet, Token: TokenAddress{Index: 12802, TokenID: []byte{1}}}.String()}
		}, CodeBadAgentID, nil},
		{"Badge on another network", func(t *testing.T) setup {
			id := w.register(reg{owner: w.player, spec: player("Main")})
			id.Chain = Mainnet
			return setup{id: id.String()}
		}, CodeWrongNetwork, nil},
		{"token of another contract", func(t *testing.T) setup {
			id := w.register(reg{owner: w.player, spec: player("Elsewhere")})
			id.Token.Index = 12801
			return setup{id: id.String()}
		}, CodeWrongRegistry, nil},
		{"configured registry is not the network's", func(t *testing.T) setup {
			id := w.register(reg{owner: w.player, spec: player("Conf")})
			return setup{id: id.String(), mod: func(c *Config) { c.Registry = &Contract{Index: 12810} }}
		}, CodeWrongRegistry, nil},
		{"not registered", func(t *testing.T) setup {
			return setup{id: NewAgentID(Testnet, TestnetRegistry, 1<<40).String()}
		}, CodeNotRegistered, nil},
		{"suspended", func(t *testing.T) setup {
			return setup{id: w.register(reg{owner: w.player, status: devchain.AgentSuspended, spec: player("Sus")}).String()}
		}, CodeStatusNotActive, nil},
		{"revoked", func(t *testing.T) setup {
			return setup{id: w.register(reg{owner: w.player, status: devchain.AgentRevoked, spec: player("Rev")}).String()}
		}, CodeStatusNotActive, nil},
		{"no agent_uri", func(t *testing.T) setup {
			return setup{id: w.register(reg{owner: w.player, noURI: true, spec: player("Nouri")}).String()}
		}, CodeNoAgentURI, nil},
		{"no metadata_hash", func(t *testing.T) setup {
			return setup{id: w.register(reg{owner: w.player, noHash: true, spec: player("Nohash")}).String()}
		}, CodeNoMetadataHash, nil},
		{"card on loopback under the production policy", func(t *testing.T) setup {
			id := w.register(reg{owner: w.player, spec: player("Prod")})
			return setup{id: id.String(), mod: func(c *Config) { c.Cards = egress.NewClient(egress.Policy{AllowHTTP: true}) }}
		}, CodeCardURLRefused, nil},
		{"card on a private address", func(t *testing.T) setup {
			return setup{id: w.register(reg{owner: w.player, uri: "http://10.0.0.1/card.json", spec: player("Priv")}).String()}
		}, CodeCardURLRefused, nil},
		{"card at the metadata address", func(t *testing.T) setup {
			return setup{id: w.register(reg{owner: w.player, uri: "http://169.254.169.254/latest/meta-data/", spec: player("Meta")}).String()}
		}, CodeCardURLRefused, nil},
		{"card over plain http under the production policy", func(t *testing.T) setup {
			id := w.register(reg{owner: w.player, spec: player("Plain")})
			return setup{id: id.String(), mod: func(c *Config) { c.Cards = egress.NewClient(egress.Policy{AllowLoopback: true}) }}
		}, CodeCardURLRefused, nil},
		{"card not found", func(t *testing.T) setup {
			return setup{id: w.register(reg{owner: w.player, uri: w.srv.URL + "/nothing-here", spec: player("Gone")}).String()}
		}, CodeCardUnreachable, nil},
		{"card too large", func(t *testing.T) setup {
			id := w.nextID()
			spec := player("Big")
			spec.Agent = id
			card := edit(t, spec, func(m map[string]any) { m["padding"] = strings.Repeat("x", 5000) })
			return setup{id: w.register(reg{owner: w.player, card: card}).String(), mod: func(c *Config) {
				p := egress.Dev()
				p.MaxBytes = 4096
				c.Cards = egress.NewClient(p)
			}}
		}, CodeCardTooLarge, nil},
		{"hash of other bytes", func(t *testing.T) setup {
			return setup{id: w.register(reg{owner: w.player, hash: make([]byte, 32), spec: player("Hash")}).String()}
		}, CodeCardHashMismatch, nil},
		{"hash over the bytes as served, not a re-serialisation", func(t *testing.T) setup {
			id := w.nextID()
			spec := player("Pretty")
			spec.Agent, spec.Owner, spec.Registry = id, w.player, TestnetRegistry
			compact, _ := WriteCard(spec)
			var pretty bytes.Buffer
			json.Indent(&pretty, compact, "", "  ")
			sum := canon.Digest(compact) // SHA-256 of the compact bytes, while the pretty ones are served
			return setup{id: w.register(reg{owner: w.player, card: pretty.Bytes(), hash: sum[:]}).String()}
		}, CodeCardHashMismatch, nil},
		{"card not JSON", func(t *testing.T) setup {
			return setup{id: w.register(reg{owner: w.player, card: []byte("<html>hello</html>")}).String()}
		}, CodeBadCard, nil},
		{"card with signing_key twice", func(t *testing.T) setup {
			id := w.nextID()
			spec := player("Twice")
			spec.Agent = id
			spec.Owner = w.player
			b, err := WriteCard(spec)
			if err != nil {
				t.Fatal(err)
			}
			b = append([]byte(`{"signing_key":"`+canon.FormatKey(newKey())+`",`), b[1:]...)
			return setup{id: w.register(reg{owner: w.player, card: b}).String()}
		}, CodeBadCard, nil},
		{"card kind unknown", func(t *testing.T) setup {
			id := w.nextID()
			spec := player("Kindless")
			spec.Agent = id
			return setup{id: w.register(reg{owner: w.player, card: edit(t, spec, func(m map[string]any) { m["kind"] = "god" })}).String()}
		}, CodeBadCard, nil},
		{"no Badge in the card", func(t *testing.T) setup {
			id := w.nextID()
			spec := player("Bare")
			spec.Agent = id
			return setup{id: w.register(reg{owner: w.player, card: edit(t, spec, func(m map[string]any) { delete(m, "capabilities") })}).String()}
		}, CodeBadgeMissing, nil},
		{"Badge extension found by URI, not position", func(t *testing.T) setup {
			id := w.nextID()
			spec := player("Second")
			spec.Agent, spec.Owner = id, w.player
			card := edit(t, spec, func(m map[string]any) {
				caps := m["capabilities"].(map[string]any)
				caps["extensions"] = append([]any{map[string]any{"uri": "https://example.com/other/v1", "params": map[string]any{"tokenAddress": "nonsense"}}}, caps["extensions"].([]any)...)
			})
			return setup{id: w.register(reg{owner: w.player, card: card}).String()}
		}, "", nil},
		{"card lifted from another registration", func(t *testing.T) setup {
			first := w.register(reg{owner: w.player, spec: player("Original")})
			a, _, _ := w.node.Agent(mustToken(first))
			w.mu.Lock()
			lifted := w.cards[a.AgentURI[len(w.srv.URL):]]
			w.mu.Unlock()
			return setup{id: w.register(reg{owner: w.player, card: lifted}).String()}
		}, CodeCardAgentMismatch, nil},
		{"badge tokenAddress differs from agent", func(t *testing.T) setup {
			id := w.nextID()
			spec := player("Split")
			spec.Agent = id
			card := edit(t, spec, func(m map[string]any) {
				params(m)["tokenAddress"] = NewAgentID(Testnet, TestnetRegistry, 77777).String()
			})
			return setup{id: w.register(reg{owner: w.player, card: card}).String()}
		}, CodeBadgeMismatch, nil},
		{"badge names another registry", func(t *testing.T) setup {
			id := w.nextID()
			spec := player("Reg")
			spec.Agent = id
			card := edit(t, spec, func(m map[string]any) {
				params(m)["contracts"].(map[string]any)["cis8004"] = "ccd:4221332d34e1694168c2a0c0b3fd0f27:99.0"
			})
			return setup{id: w.register(reg{owner: w.player, card: card}).String()}
		}, CodeBadgeMismatch, nil},
		{"badge owner is not the registry's owner", func(t *testing.T) setup {
			spec := player("Owner")
			spec.Owner = w.other
			return setup{id: w.register(reg{owner: w.player, spec: spec}).String()}
		}, CodeOwnerMismatch, nil},
		{"no signing_key", func(t *testing.T) setup {
			id := w.nextID()
			spec := player("Keyless")
			spec.Agent, spec.Owner = id, w.player
			return setup{id: w.register(reg{owner: w.player, card: edit(t, spec, func(m map[string]any) { delete(m, "signing_key") })}).String()}
		}, CodeBadSigningKey, nil},
		{"small-order signing_key", func(t *testing.T) setup {
			id := w.nextID()
			spec := player("Identity")
			spec.Agent, spec.Owner = id, w.player
			card := edit(t, spec, func(m map[string]any) { m["signing_key"] = "ed25519:01" + strings.Repeat("0", 62) })
			return setup{id: w.register(reg{owner: w.player, card: card}).String()}
		}, CodeBadSigningKey, nil},
		{"kind house under a player's owner", func(t *testing.T) setup {
			spec := player("Faker")
			spec.Kind = KindHouse
			return setup{id: w.register(reg{owner: w.player, spec: spec}).String()}
		}, CodeKindNotHouseOwned, nil},
		{"kind arena under a player's owner", func(t *testing.T) setup {
			spec := player("Faker2")
			spec.Kind = KindArena
			return setup{id: w.register(reg{owner: w.player, spec: spec}).String()}
		}, CodeKindNotHouseOwned, nil},
		{"house-owned Badge disguised as a player", func(t *testing.T) setup {
			return setup{id: w.register(reg{owner: w.house, spec: player("Disguise")}).String()}
		}, CodeHouseKindUndisclose, nil},
		{"house-owned kind house resolves", func(t *testing.T) setup {
			spec := player("Nell")
			spec.Kind = KindHouse
			return setup{id: w.register(reg{owner: w.house, spec: spec}).String()}
		}, "", func(t *testing.T, a Agent) {
			if !a.HouseOwned || a.Kind != KindHouse {
				t.Errorf("agent %+v", a)
			}
		}},
		{"endpoint at the metadata address", func(t *testing.T) setup {
			spec := player("Ep")
			spec.Endpoint = "https://169.254.169.254/a2a"
			return setup{id: w.register(reg{owner: w.player, spec: spec}).String()}
		}, CodeBadEndpoint, nil},
		{"off-the-shelf card without operator", func(t *testing.T) setup {
			spec := player("Shelf")
			spec.Endpoint = ""
			return setup{id: w.register(reg{owner: w.player, spec: spec}).String()}
		}, CodeOperatorMissing, nil},
		{"card on a house endpoint without operator", func(t *testing.T) setup {
			spec := player("Hosted")
			spec.Endpoint = "https://arena.example/agents/hosted"
			return setup{id: w.register(reg{owner: w.player, spec: spec}).String(),
				mod: func(c *Config) { c.HouseEndpoints = []string{"https://arena.example/agents/"} }}
		}, CodeOperatorMissing, nil},
		{"operator that is not house-owned", func(t *testing.T) setup {
			op := w.register(reg{owner: w.other, spec: player("NotHouse")})
			spec := player("Shelf2")
			spec.Endpoint, spec.Operator = "", &op
			return setup{id: w.register(reg{owner: w.player, spec: spec}).String()}
		}, CodeOperatorNotHouse, nil},
		{"operator that does not resolve", func(t *testing.T) setup {
			op := NewAgentID(Testnet, TestnetRegistry, 1<<41)
			spec := player("Shelf3")
			spec.Endpoint, spec.Operator = "", &op
			return setup{id: w.register(reg{owner: w.player, spec: spec}).String()}
		}, CodeOperatorNotHouse, nil},
		{"off-the-shelf card run by a house operator resolves", func(t *testing.T) setup {
			ops := player("Arena 7")
			ops.Kind = KindArena
			op := w.register(reg{owner: w.house, spec: ops})
			spec := player("Shelf4")
			spec.Endpoint, spec.Operator = "", &op
			return setup{id: w.register(reg{owner: w.player, spec: spec}).String()}
		}, "", func(t *testing.T, a Agent) {
			if a.Operator == nil || !a.OffShelf || a.Endpoint != "" {
				t.Errorf("agent %+v", a)
			}
		}},
		{"operator run by an operator in turn", func(t *testing.T) setup {
			top := player("Fleet")
			top.Kind = KindArena
			topID := w.register(reg{owner: w.house, spec: top})
			mid := player("Arena 9")
			mid.Kind, mid.Operator = KindArena, &topID
			midID := w.register(reg{owner: w.house, spec: mid})
			spec := player("Shelf5")
			spec.Endpoint, spec.Operator = "", &midID
			return setup{id: w.register(reg{owner: w.player, spec: spec}).String()}
		}, CodeOperatorNotHouse, nil},
		{"a key used by two Badges", func(t *testing.T) setup {
			keys := NewKeyIndex()
			first := player("First")
			firstID := w.register(reg{owner: w.player, spec: first})
			if _, err := w.resolver(func(c *Config) { c.Keys = keys }).Resolve(context.Background(), firstID.String()); err != nil {
				t.Fatalf("first Badge: %v", err)
			}
			second := player("Second")
			second.SigningKey = first.SigningKey
			return setup{id: w.register(reg{owner: w.other, spec: second}).String(), mod: func(c *Config) { c.Keys = keys }}
		}, CodeKeyReused, nil},
		{"registry does not answer", func(t *testing.T) setup {
			id := w.register(reg{owner: w.player, spec: player("Down")})
			return setup{id: id.String(), mod: func(c *Config) { c.Node = fakeNode{Node: w.client, invokeErr: errors.New("connection refused")} }}
		}, CodeRegistryUnreadable, nil},
		{"registry network unreadable", func(t *testing.T) setup {
			id := w.register(reg{owner: w.player, spec: player("Down2")})
			return setup{id: id.String(), mod: func(c *Config) { c.Node = fakeNode{Node: w.client, networkErr: errors.New("unavailable")} }}
		}, CodeRegistryUnreadable, nil},
		{"registry answers garbage", func(t *testing.T) setup {
			id := w.register(reg{owner: w.player, spec: player("Garbage")})
			return setup{id: id.String(), mod: func(c *Config) { c.Node = fakeNode{Node: w.client, ret: []byte{8, 1, 2}} }}
		}, CodeRegistryUnreadable, nil},
		{"registry answers None", func(t *testing.T) setup {
			id := w.register(reg{owner: w.player, spec: player("None")})
			return setup{id: id.String(), mod: func(c *Config) { c.Node = fakeNode{Node: w.client, ret: []byte{0}} }}
		}, CodeNotRegistered, nil},
	}
	// Cases whose refusal must carry a given reason in its message, where the code alone
	// could hide a refusal for another cause.
	msgs := map[string]string{
		"card with signing_key twice":                      "duplicate member",
		"card on a private address":                        "10.0.0.1 is private",
		"card at the metadata address":                     "is metadata",
		"card on loopback under the production policy":     "is loopback",
		"card over plain http under the production policy": "scheme not allowed",
		"operator run by an operator in turn":              "chains of operators",
		"operator that does not resolve":                   "not_registered",
	}
	seen := map[string]bool{}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			s := c.setup(t)
			a, err := w.resolver(s.mod).Resolve(context.Background(), s.id)
			if got := codeOf(err); got != c.want {
				t.Fatalf("Resolve: code %q (%v), want %q", got, err, c.want)
			}
			seen[c.want] = true
			if c.want != "" {
				var ge *games.Error
				errors.As(err, &ge)
				if ge.Msg == "" || !strings.Contains(ge.Msg, msgs[c.name]) {
					t.Errorf("refusal message %q, want it to contain %q", ge.Msg, msgs[c.name])
				}
				return
			}
			if a.ID.String() != s.id || a.CardHash != canon.Digest(a.Card) {
				t.Errorf("agent id %s, hash %x of card %x", a.ID, a.CardHash, canon.Digest(a.Card))
			}
			if c.check != nil {
				c.check(t, a)
			}
		})
	}
	// Every reason code is exercised by some case.
	for _, code := range allCodes {
		if !seen[code] {
			t.Errorf("no case refuses with %s", code)
		}
	}
}

var allCodes = []string{CodeNoRegistry, CodeNotBase58, CodeBadAgentID, CodeRegistryUnreadable, CodeWrongNetwork,
	CodeWrongRegistry, CodeNotRegistered, CodeStatusNotActive, CodeNoAgentURI, CodeNoMetadataHash, CodeCardURLRefused,
	CodeCardUnreachable, CodeCardTooLarge, CodeCardHashMismatch, CodeBadCard, CodeBadgeMissing, CodeCardAgentMismatch,
	CodeBadgeMismatch, CodeOwnerMismatch, CodeBadSigningKey, CodeKindNotHouseOwned, CodeHouseKindUndisclose,
	CodeBadEndpoint, CodeOperatorMissing, CodeOperatorNotHouse, CodeKeyReused}

// TestOperatorChainFromCache: an operator already resolved on its own (its own operator
// checked, and cached) is still refused as an operator when it has an operator.
func TestOperatorChainFromCache(t *testing.T) {
	w := newWorld(t)
	top := player("Fleet")
	top.Kind = KindArena
	topID := w.register(reg{owner: w.house, spec: top})
	mid := player("Arena 9")
	mid.Kind, mid.Operator = KindArena, &topID
	midID := w.register(reg{owner: w.house, spec: mid})
	spec := player("Shelf")
	spec.Endpoint, spec.Operator = "", &midID
	shelf := w.register(reg{owner: w.player, spec: spec})
	r := w.resolver(nil)
	if a, err := r.Resolve(context.Background(), midID.String()); err != nil || a.Operator == nil || a.Operator.String() != topID.String() {
		t.Fatalf("mid on its own: %+v %v", a, err)
	}
	_, err := r.Resolve(context.Background(), shelf.String())
	var ge *games.Error
	if !errors.As(err, &ge) || ge.Code != CodeOperatorNotHouse || !strings.Contains(ge.Msg, "chains of operators") {
		t.Fatalf("shelf run by a cached operator with an operator: %v", err)
	}
}
