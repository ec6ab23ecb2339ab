package ccd

import (
	"bytes"
	"context"
	"encoding/hex"
	"encoding/json"
	"errors"
	"net"
	"os"
	"sync"
	"testing"

	sdk "github.com/Concordium/concordium-go-sdk/v2"
	"github.com/Concordium/concordium-go-sdk/v2/pb"
	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/proto"
)

// node is a minimal concordium.v2.Queries server: it keeps what it is sent, answers
// AlreadyExists for a repeat, and serves statuses set by the test.
type node struct {
	pb.UnimplementedQueriesServer
	mu       sync.Mutex
	got      map[string][]byte // tx hash -> request bytes
	refuse   error
	statuses map[string]*pb.BlockItemStatus
	invoked  *pb.InvokeInstanceRequest
	account  *pb.AccountInfo // GetAccountInfo's answer
	asked    *pb.AccountInfoRequest
}

func (n *node) GetAccountInfo(_ context.Context, r *pb.AccountInfoRequest) (*pb.AccountInfo, error) {
	n.mu.Lock()
	defer n.mu.Unlock()
	n.asked = r
	if n.account == nil {
		return nil, status.Error(codes.NotFound, "account not found")
	}
	return n.account, nil
}

func (n *node) SendBlockItem(_ context.Context, r *pb.SendBlockItemRequest) (*pb.TransactionHash, error) {
	n.mu.Lock()
	defer n.mu.Unlock()
	if n.refuse != nil {
		return nil, n.refuse
	}
	b, _ := proto.MarshalOptions{Deterministic: true}.Marshal(r)
	// Lay the block item out from the structured request, as a node does, and hash it.
	at := r.GetAccountTransaction()
	tx := &Tx{Nonce: at.Header.SequenceNumber.Value, Energy: at.Header.EnergyAmount.Value, Expiry: at.Header.Expiry.Value,
		Payload: at.Payload.GetRawPayload()}
	copy(tx.Sender[:], at.Header.Sender.Value)
	for c, m := range at.Signature.Signatures {
		for k, s := range m.Signatures {
			tx.Sigs = append(tx.Sigs, Sig{Cred: uint8(c), Key: uint8(k), Value: s.Value})
		}
	}
	item := tx.layout()
	parsed, err := ParseBlockItem(item)
	if err != nil {
		return nil, status.Error(codes.InvalidArgument, err.Error())
	}
	h := parsed.HashHex()
	if _, dup := n.got[h]; dup {
		return nil, status.Error(codes.AlreadyExists, "Duplicate transaction")
	}
	n.got[h] = b
	return &pb.TransactionHash{Value: parsed.Hash[:]}, nil
}

func (n *node) GetNextAccountSequenceNumber(_ context.Context, a *pb.AccountAddress) (*pb.NextAccountSequenceNumber, error) {
	return &pb.NextAccountSequenceNumber{SequenceNumber: &pb.SequenceNumber{Value: 42}, AllFinal: true}, nil
}

func (n *node) GetBlockItemStatus(_ context.Context, h *pb.TransactionHash) (*pb.BlockItemStatus, error) {
	n.mu.Lock()
	defer n.mu.Unlock()
	s, ok := n.statuses[hex.EncodeToString(h.Value)]
	if !ok {
		return nil, status.Error(codes.NotFound, "not found")
	}
	return s, nil
}

func (n *node) InvokeInstance(_ context.Context, r *pb.InvokeInstanceRequest) (*pb.InvokeInstanceResponse, error) {
	n.mu.Lock()
	n.invoked = r
	n.mu.Unlock()
	return &pb.InvokeInstanceResponse{Result: &pb.InvokeInstanceResponse_Success_{Success: &pb.InvokeInstanceResponse_Success{ReturnValue: []byte{1, 2}}}}, nil
}

func (n *node) GetConsensusInfo(context.Context, *pb.Empty) (*pb.ConsensusInfo, error) {
	g, _ := hex.DecodeString("4221332d34e1694168c2a0c0b3fd0f27cb2cae55a1a4e7d8d4e6f1d0b0a09080")
	return &pb.ConsensusInfo{GenesisBlock: &pb.BlockHash{Value: g}}, nil
}

func serve(t *testing.T) (*node, *Client) {
	t.Helper()
	n := &node{got: map[string][]byte{}, statuses: map[string]*pb.BlockItemStatus{}}
	lis, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	s := grpc.NewServer()
	pb.RegisterQueriesServer(s, n)
	go s.Serve(lis)
	t.Cleanup(s.Stop)
	c, err := Dial(context.Background(), lis.Addr().String(), false)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	return n, c
}

// Over a real loopback socket: the node receives the vector's exact request bytes, a repeat is
// ErrDuplicate, a refusal is ErrRejected, transport trouble is transient.
func TestClientSend(t *testing.T) {
	n, c := serve(t)
	ctx := context.Background()
	v := registerDataVectors(t)[1]
	addr, _ := ParseAddress(v.Inputs.Sender58)
	k, _ := NewKey(addr, unhex(t, v.Inputs.Seed))
	tx, _ := RegisterData(k, 7, 1767225600, unhex(t, v.Inputs.Data))
	if err := c.Send(ctx, tx); err != nil {
		t.Fatal(err)
	}
	if hex.EncodeToString(n.got[v.Hash]) != v.Structured {
		t.Fatalf("node got %x", n.got[v.Hash])
	}
	err := c.Send(ctx, tx)
	if !errors.Is(err, ErrDuplicate) || IsTransient(err) {
		t.Fatalf("repeat: %v", err)
	}
	n.refuse = status.Error(codes.InvalidArgument, "DuplicateNonce")
	if err := c.Send(ctx, tx); !errors.Is(err, ErrRejected) || IsTransient(err) {
		t.Fatalf("refused: %v", err)
	}
	n.refuse = status.Error(codes.Unavailable, "down")
	if err := c.Send(ctx, tx); !IsTransient(err) {
		t.Fatalf("unavailable: %v", err)
	}
	next, final, err := c.NextNonce(ctx, addr)
	if err != nil || next != 42 || !final {
		t.Fatalf("next nonce %d %v %v", next, final, err)
	}
	net, err := c.Network(ctx)
	if err != nil || net != "ccd:4221332d34e1694168c2a0c0b3fd0f27" {
		t.Fatalf("network %s %v", net, err)
	}
}

// The block_item_status.json vector decodes to the anchor_50 data, and an unknown hash is Absent.
func TestStatusVector(t *testing.T) {
	raw, err := os.ReadFile(vectors + "block_item_status.json")
	if err != nil {
		t.Fatal(err)
	}
	var v struct {
		Block     string `json:"block_hash"`
		Received  string `json:"received"`
		Committed string `json:"committed"`
		Finalized string `json:"finalized"`
	}
	if err := json.Unmarshal(raw, &v); err != nil {
		t.Fatal(err)
	}
	data := registerDataVectors(t)[1].Inputs.Data
	n, c := serve(t)
	for name, want := range map[string]State{v.Received: Received, v.Committed: Committed, v.Finalized: Finalized} {
		var s pb.BlockItemStatus
		if err := proto.Unmarshal(unhex(t, name), &s); err != nil {
			t.Fatal(err)
		}
		n.statuses["aa"+name[:2]] = &s
		st, err := DecodeStatus(&s)
		if err != nil || st.State != want {
			t.Fatalf("%s: %+v %v", want, st, err)
		}
		if want == Received {
			continue
		}
		if !st.Registered || st.Rejected || hex.EncodeToString(st.Data) != data || hex.EncodeToString(st.Block[:]) != v.Block {
			t.Errorf("%s: %+v", want, st)
		}
		// and over the socket
		var h [32]byte
		n.statuses[hex.EncodeToString(h[:])] = &s
		got, err := c.Status(context.Background(), h)
		if err != nil || got.State != want || hex.EncodeToString(got.Data) != data {
			t.Errorf("socket %s: %+v %v", want, got, err)
		}
	}
	got, err := c.Status(context.Background(), [32]byte{9})
	if err != nil || got.State != Absent {
		t.Fatalf("unknown: %+v %v", got, err)
	}
}

// InvokeRequest is the official SDK's agentOf request of cis8004.json, byte for byte.
func TestInvokeRequestVector(t *testing.T) {
	raw, err := os.ReadFile(vectors + "cis8004.json")
	if err != nil {
		t.Fatal(err)
	}
	var v struct {
		Invoke []struct {
			Parameter string `json:"parameter"`
			Receive   string `json:"receive_name"`
			Request   string `json:"grpc_invoke_instance_request"`
		} `json:"invoke_requests"`
	}
	if err := json.Unmarshal(raw, &v); err != nil {
		t.Fatal(err)
	}
	n, c := serve(t)
	for _, r := range v.Invoke {
		call := ContractCall{Index: 12802, Receive: r.Receive, Parameter: unhex(t, r.Parameter), MaxEnergy: 30000}
		b, err := proto.MarshalOptions{Deterministic: true}.Marshal(InvokeRequest(call))
		if err != nil || hex.EncodeToString(b) != r.Request {
			t.Errorf("%s\n got %x\nwant %s", r.Parameter, b, r.Request)
		}
		out, err := c.Invoke(context.Background(), call)
		if err != nil || hex.EncodeToString(out) != "0102" {
			t.Fatalf("invoke %x %v", out, err)
		}
		if !proto.Equal(n.invoked, InvokeRequest(call)) {
			t.Errorf("node saw %v", n.invoked)
		}
	}
}

// The SDK's own InvokeInstance with no invoker sends an empty invoker message (field 2, "1200"),
// which the official SDK's request does not carry: why Client.Invoke builds the request itself.
func TestSDKInvokeSendsEmptyInvoker(t *testing.T) {
	n, c := serve(t)
	p := sdk.UpdateContractPayload{Amount: &sdk.Amount{}, Address: &sdk.ContractAddress{Index: 12802},
		ReceiveName: &sdk.ReceiveName{Value: "CIS-8004.agentOf"}, Parameter: &sdk.Parameter{Value: unhex(t, "080000000000000000")}}
	if _, err := c.c.InvokeInstance(context.Background(), p, sdk.BlockHashInputLastFinal{}, sdk.Energy{Value: 30000}, nil); err != nil {
		t.Fatal(err)
	}
	b, _ := proto.MarshalOptions{Deterministic: true}.Marshal(n.invoked)
	want := "0a02120012001a0308826422002a120a104349532d383030342e6167656e744f66320b0a090800000000000000003a0408b0ea01"
	if hex.EncodeToString(b) != want {
		t.Fatalf("the SDK's request is now %x", b)
	}
}

// Balance is the available balance, as the node reports it, or (from a node that does not) the
// amount less the larger of the locked and the staked parts; an account the node does not know is
// an error.
func TestClientBalance(t *testing.T) {
	n, c := serve(t)
	ctx := context.Background()
	addr := Address{7, 7}
	if _, err := c.Balance(ctx, addr); err == nil {
		t.Fatal("an unknown account has a balance")
	}
	amt := func(v uint64) *pb.Amount { return &pb.Amount{Value: v} }
	for _, tc := range []struct {
		name string
		info *pb.AccountInfo
		want uint64
	}{
		{"reported", &pb.AccountInfo{Amount: amt(900), AvailableBalance: amt(250)}, 250},
		{"unlocked", &pb.AccountInfo{Amount: amt(900)}, 900},
		{"locked more than staked", &pb.AccountInfo{Amount: amt(900), Schedule: &pb.ReleaseSchedule{Total: amt(300)},
			Stake: &pb.AccountStakingInfo{StakingInfo: &pb.AccountStakingInfo_Delegator_{Delegator: &pb.AccountStakingInfo_Delegator{StakedAmount: amt(100)}}}}, 600},
		{"staked more than locked", &pb.AccountInfo{Amount: amt(900), Schedule: &pb.ReleaseSchedule{Total: amt(100)},
			Stake: &pb.AccountStakingInfo{StakingInfo: &pb.AccountStakingInfo_Baker_{Baker: &pb.AccountStakingInfo_Baker{StakedAmount: amt(850)}}}}, 50},
		{"all held", &pb.AccountInfo{Amount: amt(900), Schedule: &pb.ReleaseSchedule{Total: amt(901)}}, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			n.mu.Lock()
			n.account = tc.info
			n.mu.Unlock()
			got, err := c.Balance(ctx, addr)
			if err != nil || got != tc.want {
				t.Fatalf("balance %d, %v; want %d", got, err, tc.want)
			}
			n.mu.Lock()
			defer n.mu.Unlock()
			if a := n.asked.GetAccountIdentifier().GetAddress().GetValue(); !bytes.Equal(a, addr[:]) || n.asked.GetBlockHash().GetBest() == nil {
				t.Fatalf("asked %v", n.asked)
			}
		})
	}
}
