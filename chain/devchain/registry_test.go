package devchain

import (
	"bytes"
	"context"
	"encoding/hex"
	"os"
	"path/filepath"
	"testing"

	v2 "github.com/Concordium/concordium-go-sdk/v2"
	"github.com/Concordium/concordium-go-sdk/v2/pb"
	"google.golang.org/protobuf/proto"
)

type cis8004Vectors struct {
	TokenEncoding string `json:"agent_token_id_encoding"`
	Requests      []struct {
		TokenID string `json:"token_id"`
		Param   string `json:"parameter"`
		Receive string `json:"receive_name"`
		Request string `json:"grpc_invoke_instance_request"`
	} `json:"invoke_requests"`
	Example struct {
		Bytes string `json:"bytes"`
	} `json:"example_agent_view_spec_u32_lengths"`
	Codes map[string]int32 `json:"spec_reject_codes"`
}

// exampleAgent is the record of cis8004.json example_agent_view_spec_u32_lengths.
func exampleAgent(t *testing.T) Agent {
	owner := v2.AccountAddress{Value: [32]byte(unhex(t, "000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f"))}
	wallet := owner
	return Agent{
		TokenID:        484,
		Owner:          owner,
		AgentURI:       "https://example.com/.well-known/agent-card.json",
		MetadataHash:   unhex(t, "d7d234f759ec34fd6298b7e32318614760070aaef9f4e92ced928324b49a0602"),
		AgentWallet:    &wallet,
		Status:         AgentActive,
		RegisteredAtMs: 1767225600000,
	}
}

// TestAgentViewVector encodes the example record and decodes the vector's bytes.
func TestAgentViewVector(t *testing.T) {
	var v cis8004Vectors
	readVector(t, "cis8004.json", &v)
	want := unhex(t, v.Example.Bytes)
	a := exampleAgent(t)
	if got := EncodeAgentView(a); !bytes.Equal(got, want) {
		t.Fatalf("encode\n got %x\nwant %x", got, want)
	}
	back, err := DecodeAgentView(want)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(EncodeAgentView(back), want) || back.AgentURI != a.AgentURI || back.Status != AgentActive || back.AgentWallet == nil {
		t.Fatalf("decode %+v", back)
	}
	if v.Codes["AgentNotFound"] != RejectAgentNotFound {
		t.Fatalf("AgentNotFound %d, want %d", v.Codes["AgentNotFound"], RejectAgentNotFound)
	}
	for _, r := range v.Requests {
		if got := hex.EncodeToString(EncodeTokenID(atou(t, r.TokenID))); got != r.Param {
			t.Errorf("token id %s param %s, want %s", r.TokenID, got, r.Param)
		}
	}
	// Revoked, with every option present, round-trips.
	a.ExternalReference, a.Status, a.RevokedAtMs, a.RevocationReason = "ext-1", AgentRevoked, 1767225700000, "key leaked"
	back, err = DecodeAgentView(EncodeAgentView(a))
	if err != nil || back.RevocationReason != "key leaked" || back.RevokedAtMs != a.RevokedAtMs || back.ExternalReference != "ext-1" {
		t.Fatalf("revoked round trip %+v (%v)", back, err)
	}
	for _, bad := range [][]byte{nil, want[:len(want)-1], append(want, 0), append([]byte{9}, want[1:]...)} {
		if _, err := DecodeAgentView(bad); err == nil {
			t.Errorf("decoded %x", bad)
		}
	}
}

// TestAgentOfOverSocket invokes agentOf with the vector's request bytes for registered,
// unregistered and suspended tokens.
func TestAgentOfOverSocket(t *testing.T) {
	var v cis8004Vectors
	readVector(t, "cis8004.json", &v)
	n, c := testNode(t, Options{})
	ctx := context.Background()
	if err := n.PutAgent(exampleAgent(t)); err != nil {
		t.Fatal(err)
	}
	suspended := exampleAgent(t)
	suspended.TokenID = 1
	if err := n.PutAgent(suspended); err != nil {
		t.Fatal(err)
	}
	if err := n.SetAgentStatus(1, AgentSuspended, ""); err != nil {
		t.Fatal(err)
	}
	invoke := func(reqHex string) *pb.InvokeInstanceResponse {
		t.Helper()
		var req pb.InvokeInstanceRequest
		if err := proto.Unmarshal(unhex(t, reqHex), &req); err != nil {
			t.Fatal(err)
		}
		res, err := c.GrpcClient.InvokeInstance(ctx, &req)
		if err != nil {
			t.Fatalf("invoke: %v", err)
		}
		return res
	}
	for _, r := range v.Requests {
		built, err := proto.MarshalOptions{Deterministic: true}.Marshal(agentOfRequest(atou(t, r.TokenID)))
		if err != nil || hex.EncodeToString(built) != r.Request {
			t.Fatalf("agentOfRequest(%s) = %x, want the vector's %s", r.TokenID, built, r.Request)
		}
		res := invoke(r.Request)
		switch r.TokenID {
		case "0": // never registered
			rr := res.GetFailure().GetReason().GetRejectedReceive()
			if rr == nil || rr.GetRejectReason() != RejectAgentNotFound || rr.GetReceiveName().GetValue() != "CIS-8004.agentOf" {
				t.Fatalf("token 0: %v, want RejectedReceive %d", res, RejectAgentNotFound)
			}
		case "1": // suspended: a record, not an error (§4.1)
			a, err := DecodeAgentView(res.GetSuccess().GetReturnValue())
			if err != nil || a.Status != AgentSuspended || a.TokenID != 1 {
				t.Fatalf("token 1: %+v (%v), want suspended record", a, err)
			}
		case "484":
			if got := res.GetSuccess().GetReturnValue(); hex.EncodeToString(got) != v.Example.Bytes {
				t.Fatalf("token 484 return %x, want %s", got, v.Example.Bytes)
			}
			if res.GetSuccess().GetUsedEnergy().GetValue() == 0 {
				t.Fatal("no energy used")
			}
		}
	}
	// Through the SDK's own InvokeInstance helper, as a resolver would call it.
	res, err := c.InvokeInstance(ctx, v2.UpdateContractPayload{
		Amount:      &v2.Amount{Value: 0},
		Address:     &v2.ContractAddress{Index: 12802, Subindex: 0},
		ReceiveName: &v2.ReceiveName{Value: "CIS-8004.agentOf"},
		Parameter:   &v2.Parameter{Value: EncodeTokenID(484)},
	}, v2.BlockHashInputLastFinal{}, v2.Energy{Value: 30000}, &v2.AccountAddress{})
	if err != nil || hex.EncodeToString(res.GetSuccess().GetReturnValue()) != v.Example.Bytes {
		t.Fatalf("SDK helper: %v (%v)", res, err)
	}
	// Registry on another address is not the registry; a wrong entrypoint is refused; too
	// little energy runs out.
	for name, req := range map[string]*pb.InvokeInstanceRequest{
		"other contract": {Instance: &pb.ContractAddress{Index: 10082}, Entrypoint: &pb.ReceiveName{Value: "CIS-8004.agentOf"}, Parameter: &pb.Parameter{Value: EncodeTokenID(484)}, Energy: &pb.Energy{Value: 30000}},
		"bad entrypoint": {Instance: &pb.ContractAddress{Index: 12802}, Entrypoint: &pb.ReceiveName{Value: "CIS-8004.burn"}, Parameter: &pb.Parameter{Value: EncodeTokenID(484)}, Energy: &pb.Energy{Value: 30000}},
		"bad parameter":  {Instance: &pb.ContractAddress{Index: 12802}, Entrypoint: &pb.ReceiveName{Value: "CIS-8004.agentOf"}, Parameter: &pb.Parameter{Value: []byte{4, 1, 2, 3, 4}}, Energy: &pb.Energy{Value: 30000}},
		"out of energy":  {Instance: &pb.ContractAddress{Index: 12802}, Entrypoint: &pb.ReceiveName{Value: "CIS-8004.agentOf"}, Parameter: &pb.Parameter{Value: EncodeTokenID(484)}, Energy: &pb.Energy{Value: 10}},
	} {
		res, err := c.GrpcClient.InvokeInstance(ctx, req)
		if err != nil || res.GetFailure() == nil {
			t.Fatalf("%s: %v (%v), want failure", name, res, err)
		}
		r := res.GetFailure().GetReason()
		ok := map[string]bool{
			"other contract": r.GetInvalidContractAddress() != nil,
			"bad entrypoint": r.GetInvalidReceiveMethod() != nil,
			"bad parameter":  r.GetRejectedReceive().GetRejectReason() == RejectParse,
			"out of energy":  r.GetOutOfEnergy() != nil,
		}[name]
		if !ok {
			t.Fatalf("%s: reason %v", name, r)
		}
	}
}

// TestRegistryGoAPI registers, suspends, revokes and reactivates, and checks the records
// survive a restart.
func TestRegistryGoAPI(t *testing.T) {
	dir := t.TempDir()
	n, _ := testNode(t, Options{Dir: dir})
	house, _ := n.Account(AccountHouse)
	a0, err := n.RegisterAgent(Agent{Owner: house.Address, AgentURI: "https://a.example/card.json", MetadataHash: make([]byte, 32)})
	if err != nil || a0.TokenID != 0 || a0.RegisteredAtMs == 0 {
		t.Fatalf("first registration %+v (%v)", a0, err)
	}
	a1, err := n.RegisterAgent(Agent{Owner: house.Address})
	if err != nil || a1.TokenID != 1 {
		t.Fatalf("second registration %+v (%v)", a1, err)
	}
	if err := n.SetAgentStatus(0, AgentRevoked, "lost key"); err != nil {
		t.Fatal(err)
	}
	if err := n.SetAgentStatus(7, AgentSuspended, ""); err == nil {
		t.Fatal("status of an unregistered token succeeded")
	}
	if err := n.PutAgent(Agent{TokenID: 9, MetadataHash: []byte{1}}); err == nil {
		t.Fatal("a 1-byte metadata hash was stored")
	}
	n.Stop()
	n2, _ := testNode(t, Options{Dir: dir})
	got, ok, err := n2.Agent(0)
	if err != nil || !ok || got.Status != AgentRevoked || got.RevocationReason != "lost key" || got.RevokedAtMs == 0 || got.AgentURI != a0.AgentURI {
		t.Fatalf("after restart %+v ok=%v (%v)", got, ok, err)
	}
	if err := n2.SetAgentStatus(0, AgentActive, ""); err != nil {
		t.Fatal(err)
	}
	got, _, _ = n2.Agent(0)
	if got.Status != AgentActive || got.RevokedAtMs != 0 || got.RevocationReason != "" {
		t.Fatalf("reactivated %+v", got)
	}
	if _, ok, _ := n2.Agent(5); ok {
		t.Fatal("token 5 found")
	}
	if g := n2.Genesis(); len(g.Accounts) != 6 || g.Accounts[1].Address != house.Address {
		t.Fatalf("genesis after restart %+v", g.Accounts)
	}
}

// TestLoadAgentsRefusals checks each malformed agents-file entry is refused.
func TestLoadAgentsRefusals(t *testing.T) {
	const owner = `"owner":"2wkH4kHMn2WPndf8CxmsoFkX93ouZMJUwTBFSZpDCeNeGWa7dj"`
	for name, body := range map[string]string{
		"bad owner":  `[{"token_id":1,"owner":"0OIl"}]`,
		"short hash": `[{"token_id":1,` + owner + `,"metadata_hash":"abcd"}]`,
		"bad status": `[{"token_id":1,` + owner + `,"status":"Paused"}]`,
		"bad wallet": `[{"token_id":1,` + owner + `,"agent_wallet":"x"}]`,
		"not json":   `{`,
	} {
		path := filepath.Join(t.TempDir(), "agents.json")
		if err := os.WriteFile(path, []byte(body), 0o600); err != nil {
			t.Fatal(err)
		}
		if _, err := LoadAgents(path); err == nil {
			t.Errorf("%s: loaded", name)
		}
	}
}
