package ccd

import (
	"bytes"
	"crypto/ed25519"
	"encoding/hex"
	"encoding/json"
	"errors"
	"os"
	"strconv"
	"testing"

	sdk "github.com/Concordium/concordium-go-sdk/v2"
	"github.com/Concordium/concordium-go-sdk/v2/pb"
	"google.golang.org/protobuf/proto"
)

// vectors holds the vectors made with Concordium's web SDK (never edited; testdata/README.md).
const vectors = "../../testdata/concordium/"

type rdVector struct {
	Name   string `json:"name"`
	Inputs struct {
		Seed     string `json:"ed25519_seed"`
		Pub      string `json:"ed25519_public_key"`
		Sender   string `json:"sender_address_bytes"`
		Sender58 string `json:"sender_address_base58"`
		Nonce    string `json:"nonce"`
		Expiry   string `json:"expiry_unix_seconds"`
		Data     string `json:"data"`
	} `json:"inputs"`
	Energy       string `json:"energy"`
	Header       string `json:"header"`
	Payload      string `json:"payload"`
	PayloadSize  int    `json:"payload_size"`
	SignDigest   string `json:"sign_digest"`
	Signature    string `json:"signature"`
	SignatureMap string `json:"signature_map"`
	AccountTx    string `json:"account_transaction"`
	BlockItem    string `json:"block_item"`
	Hash         string `json:"transaction_hash"`
	Structured   string `json:"grpc_send_block_item_request_structured"`
}

// RegisterDataVectors reads register_data.json (exported for the cmd test through a helper in
// this package's tests only).
func registerDataVectors(t testing.TB) []rdVector {
	t.Helper()
	raw, err := os.ReadFile(vectors + "register_data.json")
	if err != nil {
		t.Fatal(err)
	}
	var f struct{ Vectors []rdVector }
	if err := json.Unmarshal(raw, &f); err != nil {
		t.Fatal(err)
	}
	if len(f.Vectors) != 3 {
		t.Fatalf("%d vectors", len(f.Vectors))
	}
	return f.Vectors
}

func unhex(t testing.TB, s string) []byte {
	t.Helper()
	b, err := hex.DecodeString(s)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func u64(t testing.TB, s string) uint64 {
	t.Helper()
	n, err := strconv.ParseUint(s, 10, 64)
	if err != nil {
		t.Fatal(err)
	}
	return n
}

// Every field of every Register Data vector, byte for byte, from the same inputs.
func TestRegisterDataVectors(t *testing.T) {
	for _, v := range registerDataVectors(t) {
		t.Run(v.Name, func(t *testing.T) {
			addr, err := ParseAddress(v.Inputs.Sender58)
			if err != nil || addr.Hex() != v.Inputs.Sender {
				t.Fatalf("address %s %v", addr.Hex(), err)
			}
			k, err := NewKey(addr, unhex(t, v.Inputs.Seed))
			if err != nil {
				t.Fatal(err)
			}
			if hex.EncodeToString(k.PublicKey()) != v.Inputs.Pub {
				t.Fatalf("public key %x", k.PublicKey())
			}
			tx, err := RegisterData(k, u64(t, v.Inputs.Nonce), u64(t, v.Inputs.Expiry), unhex(t, v.Inputs.Data))
			if err != nil {
				t.Fatal(err)
			}
			check := func(name string, got []byte, want string) {
				t.Helper()
				if hex.EncodeToString(got) != want {
					t.Errorf("%s\n got %x\nwant %s", name, got, want)
				}
			}
			if strconv.FormatUint(tx.Energy, 10) != v.Energy {
				t.Errorf("energy %d, want %s", tx.Energy, v.Energy)
			}
			check("header", tx.Header(), v.Header)
			check("payload", tx.Payload, v.Payload)
			if len(tx.Payload) != v.PayloadSize {
				t.Errorf("payload size %d", len(tx.Payload))
			}
			check("sign digest", tx.SignDigest[:], v.SignDigest)
			check("signature", tx.Sigs[0].Value, v.Signature)
			check("signature map", tx.SignatureMap(), v.SignatureMap)
			check("block item", tx.BlockItem, v.BlockItem)
			check("account transaction", tx.BlockItem[1:], v.AccountTx)
			check("transaction hash", tx.Hash[:], v.Hash)
			if tx.HashHex() != v.Hash {
				t.Errorf("HashHex %s", tx.HashHex())
			}
			req, err := proto.MarshalOptions{Deterministic: true}.Marshal(tx.Request())
			if err != nil {
				t.Fatal(err)
			}
			check("SendBlockItemRequest", req, v.Structured)
			data, ok := tx.RegisteredData()
			if !ok || hex.EncodeToString(data) != v.Inputs.Data {
				t.Errorf("RegisteredData %x %v", data, ok)
			}

			// The block item parses back to the same transaction.
			back, err := ParseBlockItem(tx.BlockItem)
			if err != nil {
				t.Fatal(err)
			}
			if back.Hash != tx.Hash || back.SignDigest != tx.SignDigest || back.Nonce != tx.Nonce ||
				back.Expiry != tx.Expiry || back.Energy != tx.Energy || back.Sender != tx.Sender ||
				!bytes.Equal(back.Payload, tx.Payload) || !bytes.Equal(back.SignatureMap(), tx.SignatureMap()) {
				t.Errorf("parse back differs: %+v", back)
			}
			if !ed25519.Verify(k.PublicKey(), back.SignDigest[:], back.Sigs[0].Value) {
				t.Error("signature does not verify")
			}
		})
	}
}

// The SDK's own AccountTransaction.Send request (what v2.Client would put on the wire) is the
// same protobuf as Tx.Request, so sending either is sending the vector's bytes.
func TestRequestMatchesSDKSendShape(t *testing.T) {
	v := registerDataVectors(t)[1]
	addr, _ := ParseAddress(v.Inputs.Sender58)
	k, _ := NewKey(addr, unhex(t, v.Inputs.Seed))
	tx, _ := RegisterData(k, 7, 1767225600, unhex(t, v.Inputs.Data))
	var got pb.SendBlockItemRequest
	if err := proto.Unmarshal(unhex(t, v.Structured), &got); err != nil {
		t.Fatal(err)
	}
	if !proto.Equal(&got, tx.Request()) {
		t.Fatalf("request differs from the vector's")
	}
}

func TestResign(t *testing.T) {
	v := registerDataVectors(t)[1]
	addr, _ := ParseAddress(v.Inputs.Sender58)
	k, _ := NewKey(addr, unhex(t, v.Inputs.Seed))
	tx, _ := RegisterData(k, 3, 1767225000, unhex(t, v.Inputs.Data))
	re, err := tx.Resign(k, 7, 1767225600)
	if err != nil {
		t.Fatal(err)
	}
	// Re-signing the anchor_50 payload under the vector's nonce and expiry gives the vector.
	if re.HashHex() != v.Hash || hex.EncodeToString(re.BlockItem) != v.BlockItem {
		t.Fatalf("resign: %s", re.HashHex())
	}
}

func TestRegisterDataTooLong(t *testing.T) {
	k, _ := NewKey(Address{}, make([]byte, 32))
	if _, err := RegisterData(k, 1, 1, make([]byte, 257)); !errors.Is(err, ErrDataSize) {
		t.Fatalf("257 bytes: %v", err)
	}
}

func TestUpdateContractVector(t *testing.T) {
	raw, err := os.ReadFile(vectors + "update_contract.json")
	if err != nil {
		t.Fatal(err)
	}
	var v struct {
		Amount    string `json:"amount_micro_ccd"`
		Receive   string `json:"receive_name"`
		Parameter string `json:"parameter"`
		MaxEnergy string `json:"max_contract_execution_energy"`
		Payload   string `json:"payload"`
		Energy    string `json:"energy_1_sig"`
	}
	if err := json.Unmarshal(raw, &v); err != nil {
		t.Fatal(err)
	}
	k, _ := NewKey(Address{1}, bytes.Repeat([]byte{1}, 32))
	tx, err := UpdateContract(k, 1, 1700000000, ContractCall{
		Amount: u64(t, v.Amount), Index: 12802, Subindex: 0, Receive: v.Receive,
		Parameter: unhex(t, v.Parameter), MaxEnergy: u64(t, v.MaxEnergy),
	})
	if err != nil {
		t.Fatal(err)
	}
	if hex.EncodeToString(tx.Payload) != v.Payload {
		t.Errorf("payload\n got %x\nwant %s", tx.Payload, v.Payload)
	}
	p, err := ContractPayload(ContractCall{Amount: u64(t, v.Amount), Index: 12802, Receive: v.Receive, Parameter: unhex(t, v.Parameter)})
	if err != nil || hex.EncodeToString(p) != v.Payload {
		t.Errorf("ContractPayload %x %v", p, err)
	}
	if strconv.FormatUint(tx.Energy, 10) != v.Energy {
		t.Errorf("energy %d, want %s", tx.Energy, v.Energy)
	}
	if _, ok := tx.RegisteredData(); ok {
		t.Error("an update is not register data")
	}
}

func TestAddressVectors(t *testing.T) {
	raw, err := os.ReadFile(vectors + "addresses.json")
	if err != nil {
		t.Fatal(err)
	}
	var v struct {
		A struct{ Bytes, Base58 string } `json:"account_address"`
		Z struct{ Bytes, Base58 string } `json:"account_address_zero"`
		T []struct{ Base58 string }      `json:"cis2_token_addresses"`
	}
	if err := json.Unmarshal(raw, &v); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct{ Bytes, Base58 string }{v.A, v.Z} {
		a, err := ParseAddress(c.Base58)
		if err != nil || a.Hex() != c.Bytes || a.String() != c.Base58 {
			t.Errorf("%s: %s %v", c.Base58, a.Hex(), err)
		}
		j, _ := json.Marshal(a)
		var back Address
		if err := json.Unmarshal(j, &back); err != nil || back != a {
			t.Errorf("json round trip %s", j)
		}
	}
	// Token addresses are base58check version 2: not accounts.
	for _, tk := range v.T {
		if _, err := ParseAddress(tk.Base58); !errors.Is(err, ErrAddress) {
			t.Errorf("token address %s accepted as an account: %v", tk.Base58, err)
		}
	}
	// A 32-byte payload under version 2 is refused here; the SDK accepts it.
	b := unhex(t, v.A.Bytes)
	sdkAddr := sdk.AccountAddress{Value: [32]byte(b)}
	v1 := sdkAddr.ToBase58()
	v2s := base58CheckEncode(b, 2)
	if _, err := sdk.AccountAddressFromString(v2s); err != nil {
		t.Errorf("the SDK v0.4.0 accepts version 2 (why ParseAddress exists); now: %v", err)
	}
	if _, err := ParseAddress(v2s); !errors.Is(err, ErrAddress) {
		t.Errorf("version 2 accepted: %v", err)
	}
	if v1 != v.A.Base58 {
		t.Errorf("sdk base58 %s", v1)
	}
	for _, bad := range []string{"", "2wkH4kHMn2WPndf8CxmsoFkX93ouZMJUwTBFSZpDCeNeGWa7dJ", "0OIl"} {
		if _, err := ParseAddress(bad); !errors.Is(err, ErrAddress) {
			t.Errorf("%q accepted", bad)
		}
	}
}

func TestParseBlockItemRefusals(t *testing.T) {
	v := registerDataVectors(t)[1]
	good := unhex(t, v.BlockItem)
	cases := map[string][]byte{
		"empty":        nil,
		"kind 1":       append([]byte{1}, good[1:]...),
		"no sigs":      {0, 0},
		"truncated":    good[:len(good)-1],
		"trailing":     append(bytes.Clone(good), 0),
		"short header": good[:80],
	}
	for name, b := range cases {
		if _, err := ParseBlockItem(b); !errors.Is(err, ErrBlockItem) {
			t.Errorf("%s: %v", name, err)
		}
	}
}

func FuzzParseBlockItem(f *testing.F) {
	for _, v := range registerDataVectors(f) {
		b, _ := hex.DecodeString(v.BlockItem)
		f.Add(b)
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		tx, err := ParseBlockItem(b)
		if err != nil {
			return
		}
		if !bytes.Equal(tx.layout(), b) {
			t.Fatalf("accepted %x, lays out %x", b, tx.layout())
		}
	})
}

// The SDK's RegisterDataPayload.Decode refuses empty data, which the node and the web SDK accept
// (vector empty_data); ParseBlockItem and RegisteredData accept it.
func TestSDKRefusesEmptyRegisterData(t *testing.T) {
	if err := (&sdk.RegisterDataPayload{}).Decode([]byte{0, 0}); err == nil {
		t.Error("the SDK v0.4.0 refused empty data; it no longer does")
	}
	v := registerDataVectors(t)[0]
	tx, err := ParseBlockItem(unhex(t, v.BlockItem))
	if err != nil {
		t.Fatal(err)
	}
	if d, ok := tx.RegisteredData(); !ok || len(d) != 0 {
		t.Errorf("empty data: %x %v", d, ok)
	}
}
