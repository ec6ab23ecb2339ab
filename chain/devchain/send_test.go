package devchain

import (
	"context"
	"encoding/hex"
	"testing"
	"time"

	v2 "github.com/Concordium/concordium-go-sdk/v2"
	"github.com/Concordium/concordium-go-sdk/v2/pb"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
)

// TestGoSenders deposits through SendUpdate from a generated account, registers data from a
// created account, and waits for both with WaitFinalized.
func TestGoSenders(t *testing.T) {
	n, c := testNode(t, Options{BlockTime: 10 * time.Millisecond, FinalizeAfter: 20 * time.Millisecond})
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	h, err := n.SendUpdate("test-1", DefaultEscrow, "escrow.deposit", EncodeDeposit("st_x"), 7_000_000)
	if err != nil {
		t.Fatal(err)
	}
	sum, err := n.WaitFinalized(ctx, h)
	if err != nil || sum.GetAccountTransaction().GetEffects().GetContractUpdateIssued() == nil {
		t.Fatalf("deposit outcome %v (%v)", sum, err)
	}
	t1, _ := n.Account("test-1")
	deps, _ := n.Deposits("st_x")
	if len(deps) != 1 || deps[0].Payer != t1.Address || deps[0].Amount != 7_000_000 || !deps[0].Finalized {
		t.Fatalf("deposits %+v", deps)
	}
	if _, err := n.SendUpdate("nobody", DefaultEscrow, "escrow.deposit", EncodeDeposit("st_x"), 1); err == nil {
		t.Fatal("sent from an unknown account")
	}
	w, err := n.CreateAccount(GenesisAccount{Name: "wallet", Seed: make([]byte, 32), Balance: 5})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := n.CreateAccount(GenesisAccount{Name: "wallet", Seed: make([]byte, 32)}); err == nil {
		t.Fatal("created the same account twice")
	}
	h, err = n.SendRegisterData("wallet", []byte("DDDA"))
	if err != nil {
		t.Fatal(err)
	}
	sum, err = n.WaitFinalized(ctx, h)
	if err != nil || string(sum.GetAccountTransaction().GetEffects().GetDataRegistered().GetValue()) != "DDDA" {
		t.Fatalf("register data outcome %v (%v)", sum, err)
	}
	st, err := n.AccountState(w.Address)
	if err != nil || st.NextNonce != 2 || st.Balance != 5 {
		t.Fatalf("wallet %+v (%v)", st, err)
	}
	info, err := c.GrpcClient.GetAccountInfo(ctx, accountByIndex(6))
	if err != nil || info.GetAddress().GetValue() == nil || [32]byte(info.GetAddress().GetValue()) != w.Address.Value {
		t.Fatalf("account 6 %v (%v), want the wallet", info, err)
	}
	if _, err := n.WaitFinalized(ctx, [32]byte{1}); err == nil {
		t.Fatal("waited on an unknown hash")
	}
}

// TestPoseAsTestnet sets the genesis block hash to testnet's: consensus info reports it, so a
// client derives testnet's CAIP-2 id (§3), and it survives a restart.
func TestPoseAsTestnet(t *testing.T) {
	dir := t.TempDir()
	g, err := DefaultGenesis()
	if err != nil {
		t.Fatal(err)
	}
	g.BlockHash = [32]byte(unhex(t, TestnetGenesisHash))
	n, c := testNode(t, Options{Dir: dir, Genesis: &g})
	ci, err := c.GetConsensusInfo(context.Background())
	if err != nil || hex.EncodeToString(ci.GetGenesisBlock().GetValue()[:16]) != "4221332d34e1694168c2a0c0b3fd0f27" || hex.EncodeToString(ci.GetLastFinalizedBlock().GetValue()) != TestnetGenesisHash {
		t.Fatalf("consensus info %v (%v)", ci, err)
	}
	if g.Accounts[0].Address != (v2.AccountAddress{}) {
		t.Fatal("Start filled in the caller's genesis")
	}
	n.Stop()
	n2, _ := testNode(t, Options{Dir: dir})
	if got := n2.Genesis().BlockHash; hex.EncodeToString(got[:]) != TestnetGenesisHash {
		t.Fatalf("genesis hash after restart %x", got)
	}
	own, _ := testNode(t, Options{})
	if h := own.Genesis().BlockHash; h == ([32]byte{}) || hex.EncodeToString(h[:]) == TestnetGenesisHash {
		t.Fatalf("default genesis hash %x", h)
	}
}

// TestBlockInfo reads the block that holds a transaction by its hash, by height, as best and
// as last final, and refuses a block that does not exist.
func TestBlockInfo(t *testing.T) {
	n, c, _, alice := twoAccounts(t, Options{})
	ctx := context.Background()
	h := send(t, c, alice, regData([]byte("x")), baseEnergy(1, 4)+energyRegisterData)
	finalStatus(t, n, c, h)
	st, err := c.GetBlockItemStatus(ctx, v2.TransactionHash{Value: h})
	if err != nil {
		t.Fatal(err)
	}
	bh := st.GetFinalized().GetOutcome().GetBlockHash().GetValue()
	for _, tt := range []struct {
		name string
		get  func() (*v2.BlockInfo, error)
	}{
		{"given", func() (*v2.BlockInfo, error) {
			return c.GetBlockInfo(ctx, v2.BlockHashInputGiven{Given: v2.BlockHash{Value: [32]byte(bh)}})
		}},
		{"height", func() (*v2.BlockInfo, error) { return c.GetBlockInfo(ctx, v2.BlockHashInputAbsoluteHeight{Value: 1}) }},
		{"best", func() (*v2.BlockInfo, error) { return c.GetBlockInfo(ctx, v2.BlockHashInputBest{}) }},
		{"final", func() (*v2.BlockInfo, error) { return c.GetBlockInfo(ctx, v2.BlockHashInputLastFinal{}) }},
	} {
		bi, err := tt.get()
		if err != nil || bi.Height.Value != 1 || bi.Hash.Value != [32]byte(bh) || !bi.Finalized || bi.TransactionCount != 1 || bi.TransactionsEnergyCost.Value != baseEnergy(1, 4)+energyRegisterData {
			t.Fatalf("%s: %+v (%v)", tt.name, bi, err)
		}
	}
	_, err = c.GetBlockInfo(ctx, v2.BlockHashInputAbsoluteHeight{Value: 9})
	wantCode(t, err, codes.NotFound)
	res, err := c.GrpcClient.InvokeInstance(ctx, &pb.InvokeInstanceRequest{
		BlockHash: &pb.BlockHashInput{BlockHashInput: &pb.BlockHashInput_Given{Given: &pb.BlockHash{Value: make([]byte, 32)}}},
		Instance:  &pb.ContractAddress{Index: 12802}, Entrypoint: &pb.ReceiveName{Value: "CIS-8004.agentOf"},
		Parameter: &pb.Parameter{Value: EncodeTokenID(0)}, Energy: &pb.Energy{Value: 30000},
	})
	if status.Code(err) != codes.NotFound {
		t.Fatalf("invoke at an unknown block: %v (%v), want NotFound", res, err)
	}
}

// SendTransfer moves money between accounts: the amount leaves the sender and reaches the
// receiver; more than the sender holds is refused in its block (AmountTooLarge) and moves nothing.
func TestSendTransfer(t *testing.T) {
	n, _ := testNode(t, Options{BlockTime: 10 * time.Millisecond, FinalizeAfter: -1})
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	t1, _ := n.Account("test-1")
	t2, _ := n.Account("test-2")
	h, err := n.SendTransfer("test-1", t2.Address, 3_000_000)
	if err != nil {
		t.Fatal(err)
	}
	if sum, err := n.WaitFinalized(ctx, h); err != nil || sum.GetAccountTransaction().GetEffects().GetAccountTransfer() == nil {
		t.Fatalf("transfer outcome %v (%v)", sum, err)
	}
	a, _ := n.AccountState(t1.Address)
	b, _ := n.AccountState(t2.Address)
	if a.Balance != DefaultBalance-3_000_000 || b.Balance != DefaultBalance+3_000_000 {
		t.Fatalf("balances %d %d", a.Balance, b.Balance)
	}
	h, err = n.SendTransfer("test-1", t2.Address, DefaultBalance)
	if err != nil {
		t.Fatal(err)
	}
	if sum, err := n.WaitFinalized(ctx, h); err != nil || sum.GetAccountTransaction().GetEffects().GetNone().GetRejectReason().GetAmountTooLarge() == nil {
		t.Fatalf("an overdraft: %v (%v)", sum, err)
	}
	if a2, _ := n.AccountState(t1.Address); a2.Balance != a.Balance {
		t.Fatalf("an overdraft moved money: %d → %d", a.Balance, a2.Balance)
	}
}
