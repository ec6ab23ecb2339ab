package devchain

import (
	"bytes"
	"context"
	"encoding/hex"
	"testing"
	"time"

	v2 "github.com/Concordium/concordium-go-sdk/v2"
	"github.com/Concordium/concordium-go-sdk/v2/pb"
	"google.golang.org/grpc/codes"
	"google.golang.org/protobuf/proto"
)

// TestParseVectors decodes each register_data.json block item and checks every field, and
// that both gRPC request forms carry the same block item.
func TestParseVectors(t *testing.T) {
	var vs registerDataVectors
	readVector(t, "register_data.json", &vs)
	if len(vs.Vectors) != 3 {
		t.Fatalf("%d vectors, want 3", len(vs.Vectors))
	}
	for _, v := range vs.Vectors {
		t.Run(v.Name, func(t *testing.T) {
			bi := unhex(t, v.BlockItem)
			tx, err := parseBlockItem(bi)
			if err != nil {
				t.Fatalf("parse: %v", err)
			}
			if got := hex.EncodeToString(tx.hash[:]); got != v.TxHash {
				t.Errorf("hash %s, want %s", got, v.TxHash)
			}
			if got := hex.EncodeToString(tx.signDigest[:]); got != v.SignDigest {
				t.Errorf("sign digest %s, want %s", got, v.SignDigest)
			}
			if got := hex.EncodeToString(tx.sigs[sigKey{0, 0}]); got != v.Signature || len(tx.sigs) != 1 {
				t.Errorf("signature %s (%d sigs), want %s", got, len(tx.sigs), v.Signature)
			}
			if got := hex.EncodeToString(tx.sender[:]); got != v.Inputs.Sender {
				t.Errorf("sender %s, want %s", got, v.Inputs.Sender)
			}
			if tx.nonce != atou(t, v.Inputs.Nonce) || tx.expiry != atou(t, v.Inputs.Expiry) || tx.energy != atou(t, v.Energy) {
				t.Errorf("nonce/expiry/energy %d/%d/%d, want %s/%s/%s", tx.nonce, tx.expiry, tx.energy, v.Inputs.Nonce, v.Inputs.Expiry, v.Energy)
			}
			if got := hex.EncodeToString(tx.payload); got != v.Payload {
				t.Errorf("payload %s, want %s", got, v.Payload)
			}
			p, err := decodePayload(tx.payload)
			if err != nil || hex.EncodeToString(p.data) != v.Inputs.Data {
				t.Errorf("register data %x (%v), want %s", p.data, err, v.Inputs.Data)
			}
			if got := baseEnergy(tx.nsigs(), len(tx.payload)) + energyRegisterData; got != atou(t, v.Energy) {
				t.Errorf("energy formula %d, want %s", got, v.Energy)
			}
			var seed [32]byte
			copy(seed[:], unhex(t, v.Inputs.Seed))
			var sender [32]byte
			copy(sender[:], unhex(t, v.Inputs.Sender))
			if got := buildTx(seed[:], sender, tx.nonce, tx.energy, tx.expiry, tx.payload); !bytes.Equal(got, bi) {
				t.Errorf("test builder disagrees with the vector:\n got %x\nwant %x", got, bi)
			}
			if got, err := SignBlockItem(seed[:], v2.AccountAddress{Value: sender}, tx.nonce, tx.energy, tx.expiry, tx.payload); err != nil || !bytes.Equal(got, bi) {
				t.Errorf("SignBlockItem disagrees with the vector (%v):\n got %x\nwant %x", err, got, bi)
			}
			for name, reqHex := range map[string]string{"structured": v.ReqStructred, "raw": v.ReqRaw} {
				var req pb.SendBlockItemRequest
				if err := proto.Unmarshal(unhex(t, reqHex), &req); err != nil {
					t.Fatalf("%s request: %v", name, err)
				}
				got, err := blockItemFromRequest(&req)
				if err != nil {
					t.Fatalf("%s request: %v", name, err)
				}
				if !bytes.Equal(got, bi) {
					t.Errorf("%s request block item\n got %x\nwant %x", name, got, bi)
				}
			}
		})
	}
}

// TestStructuredRegisterDataPayload checks that a structured RegisterData payload (not raw)
// serializes to the vector's payload.
func TestStructuredRegisterDataPayload(t *testing.T) {
	var vs registerDataVectors
	readVector(t, "register_data.json", &vs)
	for _, v := range vs.Vectors {
		got, err := encodePayload(&pb.AccountTransactionPayload{Payload: &pb.AccountTransactionPayload_RegisterData{
			RegisterData: &pb.RegisteredData{Value: unhex(t, v.Inputs.Data)},
		}})
		if err != nil || hex.EncodeToString(got) != v.Payload {
			t.Errorf("%s: payload %x (%v), want %s", v.Name, got, err, v.Payload)
		}
	}
}

// TestUpdatePayloadVector checks the update-contract layout against update_contract.json.
func TestUpdatePayloadVector(t *testing.T) {
	var v struct {
		Amount  string `json:"amount_micro_ccd"`
		Receive string `json:"receive_name"`
		Param   string `json:"parameter"`
		MaxExec string `json:"max_contract_execution_energy"`
		Payload string `json:"payload"`
		Energy  string `json:"energy_1_sig"`
	}
	readVector(t, "update_contract.json", &v)
	got := EncodeUpdatePayload(atou(t, v.Amount), 12802, 0, v.Receive, unhex(t, v.Param))
	if hex.EncodeToString(got) != v.Payload {
		t.Fatalf("payload %x, want %s", got, v.Payload)
	}
	p, err := decodePayload(got)
	if err != nil || p.amount != 1000 || p.contract != (ContractAddress{12802, 0}) || p.receive != v.Receive || hex.EncodeToString(p.param) != v.Param {
		t.Fatalf("decoded %+v (%v)", p, err)
	}
	if e := baseEnergy(1, len(got)) + atou(t, v.MaxExec); e != atou(t, v.Energy) {
		t.Fatalf("energy %d, want %s", e, v.Energy)
	}
}

// vectorNode starts a node whose genesis holds the vectors' sender with its key and the
// given next nonce, on a manual clock an hour before expiry (the vectors' expiries have passed).
func vectorNode(t *testing.T, pub []byte, sender []byte, nonce, expiry uint64, finalizeAfter time.Duration) (*Node, *v2.Client, *manualClock) {
	var addr v2.AccountAddress
	copy(addr.Value[:], sender)
	clock := &manualClock{now: time.Unix(int64(expiry), 0).Add(-time.Hour)}
	n, c := testNode(t, Options{
		Genesis:       &Genesis{Accounts: []GenesisAccount{{Name: "vector", Address: addr, PublicKey: pub, Balance: DefaultBalance, NextNonce: nonce}, {Name: AccountArena, Seed: bytes.Repeat([]byte{9}, 32)}}},
		Clock:         clock.Now,
		FinalizeAfter: finalizeAfter,
	})
	return n, c, clock
}

// TestVectorsOverSocket sends each vector's gRPC request bytes to the node through the SDK's
// client, follows the status to finalized and compares the outcome with the vector; for
// anchor_50 the received, committed and finalized BlockItemStatus bytes are compared with
// block_item_status.json (block hash substituted: the vector's is a placeholder).
func TestVectorsOverSocket(t *testing.T) {
	var vs registerDataVectors
	readVector(t, "register_data.json", &vs)
	var st struct {
		BlockHash string `json:"block_hash"`
		Received  string `json:"received"`
		Committed string `json:"committed"`
		Finalized string `json:"finalized"`
	}
	readVector(t, "block_item_status.json", &st)
	for _, v := range vs.Vectors {
		for _, form := range []string{"structured", "raw"} {
			t.Run(v.Name+"/"+form, func(t *testing.T) {
				fin := 40 * time.Millisecond
				n, c, clock := vectorNode(t, unhex(t, v.Inputs.PublicKey), unhex(t, v.Inputs.Sender), atou(t, v.Inputs.Nonce), atou(t, v.Inputs.Expiry), fin)
				ctx := context.Background()
				reqHex := v.ReqStructred
				if form == "raw" {
					reqHex = v.ReqRaw
				}
				var req pb.SendBlockItemRequest
				if err := proto.Unmarshal(unhex(t, reqHex), &req); err != nil {
					t.Fatal(err)
				}
				h, err := c.SendBlockItem(ctx, &req)
				if err != nil {
					t.Fatalf("send: %v", err)
				}
				if h.Hex() != v.TxHash {
					t.Fatalf("hash %s, want %s", h.Hex(), v.TxHash)
				}
				status := func() *pb.BlockItemStatus {
					s, err := c.GetBlockItemStatus(ctx, *h)
					if err != nil {
						t.Fatalf("status: %v", err)
					}
					return s
				}
				s := status()
				if s.GetReceived() == nil {
					t.Fatalf("status after send %v, want received", s)
				}
				if v.Name == "anchor_50" {
					compareStatus(t, "received", s, nil, st.Received, st.BlockHash)
				}
				if _, err := n.Tick(); err != nil {
					t.Fatal(err)
				}
				s = status()
				com := s.GetCommitted()
				if com == nil || len(com.GetOutcomes()) != 1 {
					t.Fatalf("status after a block %v, want committed", s)
				}
				blockHash := com.GetOutcomes()[0].GetBlockHash().GetValue()
				if v.Name == "anchor_50" {
					compareStatus(t, "committed", s, blockHash, st.Committed, st.BlockHash)
				}
				clock.Advance(fin) // the block has been committed for FinalizeAfter
				sum := finalStatus(t, n, c, h.Value)
				if got := sum.GetAccountTransaction().GetEffects().GetDataRegistered().GetValue(); hex.EncodeToString(got) != v.Inputs.Data {
					t.Fatalf("DataRegistered %x, want %s", got, v.Inputs.Data)
				}
				if sum.GetEnergyCost().GetValue() != atou(t, v.Energy) {
					t.Fatalf("energy cost %d, want %s", sum.GetEnergyCost().GetValue(), v.Energy)
				}
				if v.Name == "anchor_50" {
					compareStatus(t, "finalized", status(), blockHash, st.Finalized, st.BlockHash)
				}
				nn, err := c.GetNextAccountSequenceNumber(ctx, &v2.AccountAddress{Value: [32]byte(unhex(t, v.Inputs.Sender))})
				if err != nil || nn.SequenceNumber.Value != atou(t, v.Inputs.Nonce)+1 || !nn.AllFinal {
					t.Fatalf("next nonce %v (%v), want %d all final", nn, err, atou(t, v.Inputs.Nonce)+1)
				}
				// Sending the same request again is a duplicate.
				_, err = c.GrpcClient.SendBlockItem(ctx, &req)
				wantCode(t, err, codes.AlreadyExists)
			})
		}
	}
}

// compareStatus marshals s, swaps our block hash for the vector's placeholder and compares.
func compareStatus(t *testing.T, what string, s *pb.BlockItemStatus, ourHash []byte, wantHex, vectorBlockHash string) {
	t.Helper()
	got, err := proto.MarshalOptions{Deterministic: true}.Marshal(s)
	if err != nil {
		t.Fatal(err)
	}
	if ourHash != nil {
		got = bytes.ReplaceAll(got, ourHash, unhex(t, vectorBlockHash))
	}
	if hex.EncodeToString(got) != wantHex {
		t.Fatalf("%s status bytes\n got %x\nwant %s", what, got, wantHex)
	}
}
