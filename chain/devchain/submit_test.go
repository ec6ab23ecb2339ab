package devchain

import (
	"context"
	"crypto/sha256"
	"testing"
	"time"

	v2 "github.com/Concordium/concordium-go-sdk/v2"
	"github.com/Concordium/concordium-go-sdk/v2/pb"
	"google.golang.org/grpc/codes"
)

// twoAccounts starts a node with the arena's account and one test account of known keys.
func twoAccounts(t *testing.T, opts Options) (*Node, *v2.Client, testAccount, testAccount) {
	t.Helper()
	arena, alice := newTestAccount(AccountArena, 1), newTestAccount("alice", 2)
	if opts.Genesis == nil {
		opts.Genesis = &Genesis{Accounts: []GenesisAccount{arena.genesis(DefaultBalance), alice.genesis(DefaultBalance)}}
	}
	n, c := testNode(t, opts)
	return n, c, arena, alice
}

// TestSubmitRefusals checks every door refusal, with the gRPC code a real node answers.
func TestSubmitRefusals(t *testing.T) {
	n, c, _, alice := twoAccounts(t, Options{})
	ctx := context.Background()
	expiry := uint64(time.Now().Add(time.Hour).Unix())
	good := regData([]byte("anchor"))
	energy := baseEnergy(1, len(good)) + energyRegisterData
	stranger := newTestAccount("stranger", 7)
	badSig := buildTx(alice.seed, alice.addr, 1, energy, expiry, good)
	badSig[10] ^= 1 // inside the signature
	otherKey := buildTx(stranger.seed, alice.addr, 1, energy, expiry, good)
	trailing := append(buildTx(alice.seed, alice.addr, 1, energy, expiry, good), 0)
	tests := []struct {
		name string
		bi   []byte
		code codes.Code
	}{
		{"bad signature", badSig, codes.InvalidArgument},
		{"signed by another key", otherKey, codes.InvalidArgument},
		{"nonce too large", buildTx(alice.seed, alice.addr, 2, energy, expiry, good), codes.InvalidArgument},
		{"nonce zero", buildTx(alice.seed, alice.addr, 0, energy, expiry, good), codes.InvalidArgument},
		{"expired", buildTx(alice.seed, alice.addr, 1, energy, uint64(time.Now().Add(-time.Second).Unix()), good), codes.InvalidArgument},
		{"energy below base cost", buildTx(alice.seed, alice.addr, 1, baseEnergy(1, len(good))-1, expiry, good), codes.InvalidArgument},
		{"unknown sender", buildTx(stranger.seed, stranger.addr, 1, energy, expiry, good), codes.InvalidArgument},
		{"trailing byte", trailing, codes.InvalidArgument},
		{"not an account transaction", append([]byte{1}, good...), codes.InvalidArgument},
		{"empty", nil, codes.InvalidArgument},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := c.GrpcClient.SendBlockItem(ctx, rawRequest(t, tt.bi))
			wantCode(t, err, tt.code)
		})
	}
	// None of the refusals used the nonce.
	nn, err := c.GetNextAccountSequenceNumber(ctx, &v2.AccountAddress{Value: alice.addr})
	if err != nil || nn.SequenceNumber.Value != 1 || !nn.AllFinal {
		t.Fatalf("next nonce %v (%v), want 1, all final", nn, err)
	}
	// Now a good one, then its duplicate, then a stale nonce.
	bi := buildTx(alice.seed, alice.addr, 1, energy, expiry, good)
	if _, err := c.GrpcClient.SendBlockItem(ctx, rawRequest(t, bi)); err != nil {
		t.Fatalf("good: %v", err)
	}
	_, err = c.GrpcClient.SendBlockItem(ctx, rawRequest(t, bi))
	wantCode(t, err, codes.AlreadyExists)
	stale := buildTx(alice.seed, alice.addr, 1, energy+1, expiry, good)
	_, err = c.GrpcClient.SendBlockItem(ctx, rawRequest(t, stale))
	wantCode(t, err, codes.InvalidArgument)
	nn, _ = c.GetNextAccountSequenceNumber(ctx, &v2.AccountAddress{Value: alice.addr})
	if nn.SequenceNumber.Value != 2 || nn.AllFinal {
		t.Fatalf("after one pending: next nonce %d all_final %v, want 2 false", nn.SequenceNumber.Value, nn.AllFinal)
	}
	h := sha256.Sum256(bi)
	finalStatus(t, n, c, h)
	// Duplicate still refused once finalized.
	_, err = c.GrpcClient.SendBlockItem(ctx, rawRequest(t, bi))
	wantCode(t, err, codes.AlreadyExists)
	nn, _ = c.GetNextAccountSequenceNumber(ctx, &v2.AccountAddress{Value: alice.addr})
	if nn.SequenceNumber.Value != 2 || !nn.AllFinal {
		t.Fatalf("after finalization: next nonce %d all_final %v, want 2 true", nn.SequenceNumber.Value, nn.AllFinal)
	}
	// Unknown hash and unknown account.
	_, err = c.GrpcClient.GetBlockItemStatus(ctx, &pb.TransactionHash{Value: make([]byte, 32)})
	wantCode(t, err, codes.NotFound)
	_, err = c.GrpcClient.GetNextAccountSequenceNumber(ctx, &pb.AccountAddress{Value: stranger.addr[:]})
	wantCode(t, err, codes.NotFound)
}

// TestOutcomesAndFees checks out-of-energy and serialization-failure outcomes, a transfer,
// the fee charged at EnergyPrice, and consecutive nonces in one block.
func TestOutcomesAndFees(t *testing.T) {
	const price = 10 // microCCD per NRG
	n, c, arena, alice := twoAccounts(t, Options{EnergyPrice: price})
	ctx := context.Background()
	expiry := uint64(time.Now().Add(time.Hour).Unix())
	data := regData(make([]byte, 256))
	oversize := regData(make([]byte, 257))
	transfer := append(append([]byte{payloadTransfer}, arena.addr[:]...), 0, 0, 0, 0, 0, 0, 0x03, 0xe8) // 1000 microCCD
	items := []struct {
		payload []byte
		energy  uint64
	}{
		{data, baseEnergy(1, len(data)) + energyRegisterData},         // ok
		{data, baseEnergy(1, len(data)) + energyRegisterData - 1},     // out of energy
		{oversize, baseEnergy(1, len(oversize)) + energyRegisterData}, // serialization failure
		{transfer, baseEnergy(1, len(transfer)) + energyTransfer},     // ok
	}
	var hashes [][32]byte
	for i, it := range items {
		bi := buildTx(alice.seed, alice.addr, uint64(i+1), it.energy, expiry, it.payload)
		h, err := c.SendBlockItem(ctx, rawRequest(t, bi))
		if err != nil {
			t.Fatalf("item %d: %v", i, err)
		}
		hashes = append(hashes, h.Value)
	}
	var fees uint64
	sums := make([]*pb.BlockItemSummary, len(hashes))
	for i, h := range hashes {
		sums[i] = finalStatus(t, n, c, h)
		fees += sums[i].GetAccountTransaction().GetCost().GetValue()
		if got := sums[i].GetIndex().GetValue(); got != uint64(i) {
			t.Errorf("item %d at index %d: one block should hold all four", i, got)
		}
		if want := sums[i].GetEnergyCost().GetValue() * price; sums[i].GetAccountTransaction().GetCost().GetValue() != want {
			t.Errorf("item %d cost %d, want %d", i, sums[i].GetAccountTransaction().GetCost().GetValue(), want)
		}
	}
	if sums[0].GetAccountTransaction().GetEffects().GetDataRegistered() == nil {
		t.Errorf("item 0: %v, want DataRegistered", sums[0])
	}
	if sums[1].GetAccountTransaction().GetEffects().GetNone().GetRejectReason().GetOutOfEnergy() == nil || sums[1].GetEnergyCost().GetValue() != items[1].energy {
		t.Errorf("item 1: %v, want OutOfEnergy charging all its energy", sums[1])
	}
	if sums[2].GetAccountTransaction().GetEffects().GetNone().GetRejectReason().GetSerializationFailure() == nil {
		t.Errorf("item 2: %v, want SerializationFailure", sums[2])
	}
	if tr := sums[3].GetAccountTransaction().GetEffects().GetAccountTransfer(); tr.GetAmount().GetValue() != 1000 {
		t.Errorf("item 3: %v, want a transfer of 1000", sums[3])
	}
	a, err := n.AccountState(alice.address())
	if err != nil || a.Balance != DefaultBalance-fees-1000 {
		t.Fatalf("alice balance %d (%v), want %d", a.Balance, err, DefaultBalance-fees-1000)
	}
	b, _ := n.AccountState(arena.address())
	if b.Balance != DefaultBalance+1000 {
		t.Fatalf("arena balance %d, want %d", b.Balance, DefaultBalance+1000)
	}
	info, err := c.GetAccountInfo(ctx, &pb.AccountIdentifierInput{AccountIdentifierInput: &pb.AccountIdentifierInput_Address{Address: &pb.AccountAddress{Value: alice.addr[:]}}}, v2.BlockHashInputLastFinal{})
	if err != nil || info.GetAmount().GetValue() != a.Balance || info.GetSequenceNumber().GetValue() != 5 || info.GetIndex().GetValue() != 1 {
		t.Fatalf("account info %v (%v)", info, err)
	}
	ci, err := c.GetConsensusInfo(ctx)
	if err != nil || ci.GetBestBlockHeight().GetValue() != 1 || ci.GetLastFinalizedBlockHeight().GetValue() != 1 || string(ci.GetBestBlock().GetValue()) != string(ci.GetLastFinalizedBlock().GetValue()) {
		t.Fatalf("consensus info %v (%v), want best = final = height 1", ci, err)
	}
}

// TestNoFeeFunds checks that a sender who cannot pay the energy at the price is refused.
func TestNoFeeFunds(t *testing.T) {
	poor := newTestAccount("poor", 3)
	_, c := testNode(t, Options{EnergyPrice: 1_000_000, Genesis: &Genesis{Accounts: []GenesisAccount{poor.genesis(1000), newTestAccount(AccountArena, 1).genesis(0)}}})
	p := regData([]byte{1})
	bi := buildTx(poor.seed, poor.addr, 1, baseEnergy(1, len(p))+energyRegisterData, uint64(time.Now().Add(time.Hour).Unix()), p)
	_, err := c.GrpcClient.SendBlockItem(context.Background(), rawRequest(t, bi))
	wantCode(t, err, codes.InvalidArgument)
}
