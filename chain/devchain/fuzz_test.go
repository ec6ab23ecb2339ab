package devchain

import (
	"encoding/hex"
	"testing"

	"github.com/Concordium/concordium-go-sdk/v2/pb"
	"google.golang.org/protobuf/proto"
)

// FuzzParseBlockItem: any bytes decode or are refused, never panic; what decodes
// re-serializes through the structured form to the same bytes.
func FuzzParseBlockItem(f *testing.F) {
	var vs registerDataVectors
	readVector(f, "register_data.json", &vs)
	for _, v := range vs.Vectors {
		b, _ := hex.DecodeString(v.BlockItem)
		f.Add(b)
		f.Add(b[:len(b)/2])
	}
	f.Add([]byte{0, 0})
	f.Fuzz(func(t *testing.T, b []byte) {
		tx, err := parseBlockItem(b)
		if err != nil {
			return
		}
		sigs := map[uint32]*pb.AccountSignatureMap{}
		for k, s := range tx.sigs {
			m := sigs[uint32(k.cred)]
			if m == nil {
				m = &pb.AccountSignatureMap{Signatures: map[uint32]*pb.Signature{}}
				sigs[uint32(k.cred)] = m
			}
			m.Signatures[uint32(k.key)] = &pb.Signature{Value: s}
		}
		again, err := serializeAccountTx(&pb.AccountTransaction{
			Signature: &pb.AccountTransactionSignature{Signatures: sigs},
			Header: &pb.AccountTransactionHeader{
				Sender: &pb.AccountAddress{Value: tx.sender[:]}, SequenceNumber: &pb.SequenceNumber{Value: tx.nonce},
				EnergyAmount: &pb.Energy{Value: tx.energy}, Expiry: &pb.TransactionTime{Value: tx.expiry},
			},
			Payload: &pb.AccountTransactionPayload{Payload: &pb.AccountTransactionPayload_RawPayload{RawPayload: tx.payload}},
		})
		if err != nil || string(again) != string(b) {
			t.Fatalf("round trip %x -> %x (%v)", b, again, err)
		}
		_, _ = decodePayload(tx.payload)
	})
}

// FuzzRequest: any SendBlockItemRequest bytes are handled without panic.
func FuzzRequest(f *testing.F) {
	var vs registerDataVectors
	readVector(f, "register_data.json", &vs)
	for _, v := range vs.Vectors {
		b, _ := hex.DecodeString(v.ReqRaw)
		f.Add(b)
		b, _ = hex.DecodeString(v.ReqStructred)
		f.Add(b)
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		var req pb.SendBlockItemRequest
		if proto.Unmarshal(b, &req) != nil {
			return
		}
		if bi, err := blockItemFromRequest(&req); err == nil {
			_, _ = parseBlockItem(bi)
		}
	})
}

// FuzzAgentView: DecodeAgentView never panics, and what decodes encodes back to the input.
func FuzzAgentView(f *testing.F) {
	var v cis8004Vectors
	readVector(f, "cis8004.json", &v)
	b, _ := hex.DecodeString(v.Example.Bytes)
	f.Add(b)
	f.Fuzz(func(t *testing.T, b []byte) {
		a, err := DecodeAgentView(b)
		if err != nil {
			return
		}
		if again := EncodeAgentView(a); string(again) != string(b) {
			t.Fatalf("round trip %x -> %x", b, again)
		}
	})
}

// FuzzEscrowParameters: the escrow's money entrypoints and views take any parameter bytes from
// the arena's account without failing the node (a bad one is a rejection), and a dry run changes
// no deposit's accounting.
func FuzzEscrowParameters(f *testing.F) {
	arena := newTestAccount(AccountArena, 1)
	n, c := testNode(f, Options{Genesis: &Genesis{Accounts: []GenesisAccount{arena.genesis(DefaultBalance)}}})
	anchor := [32]byte{7}
	payer := arena.address()
	f.Add(uint8(0), EncodeOpenRound(1, anchor, Stake{SeatToken: "st_a", Payer: payer, Amount: 5}))
	f.Add(uint8(1), EncodeRefund("st_a", payer, 5))
	f.Add(uint8(2), EncodeSettle(1, []Payout{{To: payer, Amount: 5}}, anchor, nil))
	f.Add(uint8(3), []byte{})
	f.Add(uint8(0), EncodeOpenRound(1, anchor)[:43])
	entries := []string{"open_round", "refund", "settle", "view_unspent", "anchor", "view_deposits"}
	before, err := n.EscrowUnspent()
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, which uint8, param []byte) {
		res := invokeEscrowAs(t, c, arena.addr, entries[int(which)%len(entries)], param)
		if res.GetSuccess() == nil && res.GetFailure() == nil {
			t.Fatalf("neither success nor failure: %v", res)
		}
		after, err := n.EscrowUnspent()
		if err != nil || !equalUnspent(before, after) {
			t.Fatalf("a dry run changed the escrow: %+v (%v)", after, err)
		}
	})
}
