package devchain

import (
	"context"
	"crypto/ed25519"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"encoding/json"
	"os"
	"path/filepath"
	"sync"
	"testing"
	"time"

	v2 "github.com/Concordium/concordium-go-sdk/v2"
	"github.com/Concordium/concordium-go-sdk/v2/pb"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/encoding/protowire"
	"google.golang.org/protobuf/proto"
)

// vectorDir holds the vectors made with Concordium's web SDK (never edited; testdata/README.md).
const vectorDir = "../../testdata/concordium"

func readVector(t testing.TB, name string, v any) {
	t.Helper()
	raw, err := os.ReadFile(filepath.Join(vectorDir, name))
	if err != nil {
		t.Fatalf("read vector %s: %v", name, err)
	}
	if err := json.Unmarshal(raw, v); err != nil {
		t.Fatalf("parse vector %s: %v", name, err)
	}
}

func unhex(t testing.TB, s string) []byte {
	t.Helper()
	b, err := hex.DecodeString(s)
	if err != nil {
		t.Fatalf("hex %q: %v", s, err)
	}
	return b
}

// registerDataVectors is register_data.json.
type registerDataVectors struct {
	Vectors []struct {
		Name   string `json:"name"`
		Inputs struct {
			Seed      string `json:"ed25519_seed"`
			PublicKey string `json:"ed25519_public_key"`
			Sender    string `json:"sender_address_bytes"`
			Nonce     string `json:"nonce"`
			Expiry    string `json:"expiry_unix_seconds"`
			Data      string `json:"data"`
		} `json:"inputs"`
		Energy       string `json:"energy"`
		Header       string `json:"header"`
		Payload      string `json:"payload"`
		SignDigest   string `json:"sign_digest"`
		Signature    string `json:"signature"`
		BlockItem    string `json:"block_item"`
		TxHash       string `json:"transaction_hash"`
		ReqStructred string `json:"grpc_send_block_item_request_structured"`
		ReqRaw       string `json:"grpc_send_block_item_request_raw"`
	} `json:"vectors"`
}

func atou(t testing.TB, s string) uint64 {
	t.Helper()
	var v uint64
	if err := json.Unmarshal([]byte(s), &v); err != nil {
		t.Fatalf("number %q: %v", s, err)
	}
	return v
}

// buildTx lays out and signs an account transaction exactly as register_data.json's notes
// say, with one signature (credential 0, key 0). It is the test's independent builder.
func buildTx(seed []byte, sender [32]byte, nonce, energy, expiry uint64, payload []byte) []byte {
	hdr := append([]byte(nil), sender[:]...)
	hdr = binary.BigEndian.AppendUint64(hdr, nonce)
	hdr = binary.BigEndian.AppendUint64(hdr, energy)
	hdr = binary.BigEndian.AppendUint32(hdr, uint32(len(payload)))
	hdr = binary.BigEndian.AppendUint64(hdr, expiry)
	digest := sha256.Sum256(append(append([]byte(nil), hdr...), payload...))
	sig := ed25519.Sign(ed25519.NewKeyFromSeed(seed), digest[:])
	out := []byte{0, 1, 0, 1, 0}
	out = binary.BigEndian.AppendUint16(out, uint16(len(sig)))
	out = append(out, sig...)
	out = append(out, hdr...)
	return append(out, payload...)
}

func regData(data []byte) []byte {
	return append(binary.BigEndian.AppendUint16([]byte{0x15}, uint16(len(data))), data...)
}

// rawRequest wraps block item bytes as SendBlockItemRequest.raw_block_item (field 5).
func rawRequest(t testing.TB, bi []byte) *pb.SendBlockItemRequest {
	t.Helper()
	b := protowire.AppendTag(nil, 5, protowire.BytesType)
	b = protowire.AppendBytes(b, bi)
	var req pb.SendBlockItemRequest
	if err := proto.Unmarshal(b, &req); err != nil {
		t.Fatalf("raw request: %v", err)
	}
	return &req
}

// testNode starts a node in a temporary directory with a manual block clock (BlockTime of an
// hour: tests call Tick) unless opts says otherwise, and an SDK client connected to it.
func testNode(t testing.TB, opts Options) (*Node, *v2.Client) {
	t.Helper()
	if opts.Dir == "" {
		opts.Dir = t.TempDir()
	}
	if opts.BlockTime == 0 {
		opts.BlockTime = time.Hour
	}
	if opts.FinalizeAfter == 0 {
		opts.FinalizeAfter = -1
	}
	n, err := Start(context.Background(), opts)
	if err != nil {
		t.Fatalf("start: %v", err)
	}
	t.Cleanup(n.Stop)
	c, err := v2.NewClient(v2.Config{NodeAddress: n.Addr()})
	if err != nil {
		t.Fatalf("client: %v", err)
	}
	t.Cleanup(func() { _ = c.Close() })
	return n, c
}

// testAccount is a genesis account with a known seed.
type testAccount struct {
	name string
	seed []byte
	addr [32]byte
}

func newTestAccount(name string, fill byte) testAccount {
	seed := make([]byte, 32)
	for i := range seed {
		seed[i] = fill
	}
	pub := ed25519.NewKeyFromSeed(seed).Public().(ed25519.PublicKey)
	return testAccount{name: name, seed: seed, addr: sha256.Sum256(append([]byte("devchain/account"), pub...))}
}

func (a testAccount) genesis(balance uint64) GenesisAccount {
	return GenesisAccount{Name: a.name, Seed: a.seed, Balance: balance}
}

func (a testAccount) address() v2.AccountAddress { return v2.AccountAddress{Value: a.addr} }

// send signs payload from a with its next nonce read from the node and submits it raw.
func send(t testing.TB, c *v2.Client, a testAccount, payload []byte, energy uint64) [32]byte {
	t.Helper()
	ctx := context.Background()
	nn, err := c.GetNextAccountSequenceNumber(ctx, &v2.AccountAddress{Value: a.addr})
	if err != nil {
		t.Fatalf("next nonce of %s: %v", a.name, err)
	}
	bi := buildTx(a.seed, a.addr, nn.SequenceNumber.Value, energy, uint64(time.Now().Add(time.Hour).Unix()), payload)
	h, err := c.SendBlockItem(ctx, rawRequest(t, bi))
	if err != nil {
		t.Fatalf("send from %s: %v", a.name, err)
	}
	if want := sha256.Sum256(bi); h.Value != want {
		t.Fatalf("hash %x, want %x", h.Value, want)
	}
	return h.Value
}

// finalStatus ticks the node once and returns the item's summary, which must then be final: a
// tick bakes what was received and finalizes what has been committed for FinalizeAfter on the
// node's clock (at once on a testNode; a test with a FinalizeAfter moves its manualClock first).
func finalStatus(t testing.TB, n *Node, c *v2.Client, h [32]byte) *pb.BlockItemSummary {
	t.Helper()
	if _, err := n.Tick(); err != nil {
		t.Fatalf("tick: %v", err)
	}
	st, err := c.GetBlockItemStatus(context.Background(), v2.TransactionHash{Value: h})
	if err != nil {
		t.Fatalf("status %x: %v", h, err)
	}
	f := st.GetFinalized()
	if f == nil {
		t.Fatalf("%x not finalized by a tick: %v", h, st)
	}
	return f.GetOutcome().GetOutcome()
}

// manualClock is a node's Options.Clock that moves only when the test moves it (Advance), so a
// finalization delay passes without waiting for it. Safe for concurrent use.
type manualClock struct {
	mu  sync.Mutex
	now time.Time
}

func (c *manualClock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.now
}

func (c *manualClock) Advance(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.now = c.now.Add(d)
}

// eventually calls cond every 10 ms until it holds, and fails with what after limit. Only for
// what the node does over its real socket or on its own wall-clock block loop (a restart's
// downtime, the client's reconnect back-off, the loop baking), which a test cannot step.
func eventually(t testing.TB, what string, limit time.Duration, cond func() bool) {
	t.Helper()
	for end := time.Now().Add(limit); !cond(); time.Sleep(10 * time.Millisecond) {
		if time.Now().After(end) {
			t.Fatalf("%s: not in %v", what, limit)
		}
	}
}

func wantCode(t testing.TB, err error, code codes.Code) {
	t.Helper()
	if status.Code(err) != code {
		t.Fatalf("error %v: code %s, want %s", err, status.Code(err), code)
	}
}

// rejectCode extracts RejectedReceive's code from a summary, or fails.
func rejectCode(t testing.TB, s *pb.BlockItemSummary) int32 {
	t.Helper()
	rr := s.GetAccountTransaction().GetEffects().GetNone().GetRejectReason().GetRejectedReceive()
	if rr == nil {
		t.Fatalf("no RejectedReceive in %v", s)
	}
	return rr.GetRejectReason()
}

// agentOfRequest is the InvokeInstanceRequest of cis8004.json for a token id.
func agentOfRequest(id uint64) *pb.InvokeInstanceRequest {
	return &pb.InvokeInstanceRequest{
		BlockHash:  &pb.BlockHashInput{BlockHashInput: &pb.BlockHashInput_LastFinal{LastFinal: &pb.Empty{}}},
		Instance:   &pb.ContractAddress{Index: 12802},
		Amount:     &pb.Amount{},
		Entrypoint: &pb.ReceiveName{Value: "CIS-8004.agentOf"},
		Parameter:  &pb.Parameter{Value: EncodeTokenID(id)},
		Energy:     &pb.Energy{Value: 30000},
	}
}

func accountByIndex(i uint64) *pb.AccountInfoRequest {
	return &pb.AccountInfoRequest{
		BlockHash:         &pb.BlockHashInput{BlockHashInput: &pb.BlockHashInput_LastFinal{LastFinal: &pb.Empty{}}},
		AccountIdentifier: &pb.AccountIdentifierInput{AccountIdentifierInput: &pb.AccountIdentifierInput_AccountIndex{AccountIndex: &pb.AccountIndex{Value: i}}},
	}
}

// clientFor connects the SDK client to a node at addr.
func clientFor(t testing.TB, addr string) *v2.Client {
	t.Helper()
	c, err := v2.NewClient(v2.Config{NodeAddress: addr})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = c.Close() })
	return c
}
