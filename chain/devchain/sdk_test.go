package devchain

import (
	"context"
	"testing"
	"time"

	v2 "github.com/Concordium/concordium-go-sdk/v2"
	sdksend "github.com/Concordium/concordium-go-sdk/v2/transactions/send"
)

// TestSDKSender builds, signs and sends a Register Data transaction entirely with the Go
// SDK's own wallet, construction and Send (the structured request with a raw payload), and
// follows it to finalized.
func TestSDKSender(t *testing.T) {
	n, c, _, alice := twoAccounts(t, Options{})
	kp, err := v2.NewKeyPairFromSignKey(alice.seed)
	if err != nil {
		t.Fatal(err)
	}
	wallet := v2.NewWalletAccount(alice.address(), *kp)
	tx, err := sdksend.RegisterData(wallet, alice.address(), v2.SequenceNumber{Value: 1},
		v2.TransactionTime{Value: uint64(time.Now().Add(time.Hour).Unix())}, v2.RegisteredData{Value: []byte("DDDA sdk")})
	if err != nil {
		t.Fatal(err)
	}
	h, err := tx.Send(context.Background(), c)
	if err != nil {
		t.Fatalf("SDK send: %v", err)
	}
	sum := finalStatus(t, n, c, h.Value)
	if got := string(sum.GetAccountTransaction().GetEffects().GetDataRegistered().GetValue()); got != "DDDA sdk" {
		t.Fatalf("DataRegistered %q", got)
	}
	if sum.GetEnergyCost().GetValue() != baseEnergy(1, 3+8)+energyRegisterData {
		t.Fatalf("energy %d", sum.GetEnergyCost().GetValue())
	}
}
