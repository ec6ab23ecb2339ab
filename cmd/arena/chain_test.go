package main

import (
	"bytes"
	"context"
	"crypto/ed25519"
	"encoding/json"
	"os"
	"strings"
	"testing"
	"time"

	"arena/chain/anchor"
	"arena/chain/ccd"
	"arena/chain/devchain"
)

// `arena chain sign-register-data` reproduces every Register Data vector made by Concordium's
// web SDK: energy, block item and transaction hash, with the sender given in base58 and in hex.
func TestChainSignRegisterDataVectors(t *testing.T) {
	raw, err := os.ReadFile("../../testdata/concordium/register_data.json")
	if err != nil {
		t.Fatal(err)
	}
	var f struct {
		Vectors []struct {
			Name   string `json:"name"`
			Inputs struct {
				Seed     string `json:"ed25519_seed"`
				Sender   string `json:"sender_address_bytes"`
				Sender58 string `json:"sender_address_base58"`
				Nonce    string `json:"nonce"`
				Expiry   string `json:"expiry_unix_seconds"`
				Data     string `json:"data"`
			} `json:"inputs"`
			Energy    string `json:"energy"`
			BlockItem string `json:"block_item"`
			Hash      string `json:"transaction_hash"`
		}
	}
	if err := json.Unmarshal(raw, &f); err != nil || len(f.Vectors) == 0 {
		t.Fatalf("%d vectors, %v", len(f.Vectors), err)
	}
	for _, v := range f.Vectors {
		for _, sender := range []string{v.Inputs.Sender58, v.Inputs.Sender} {
			var out, errb bytes.Buffer
			code := runChain(context.Background(), []string{"sign-register-data", "--seed", v.Inputs.Seed, "--sender", sender,
				"--nonce", v.Inputs.Nonce, "--expiry", v.Inputs.Expiry, "--data", v.Inputs.Data}, &out, &errb)
			if code != 0 {
				t.Fatalf("%s: exit %d: %s", v.Name, code, errb.String())
			}
			want := `{"energy":` + v.Energy + `,"block_item":"` + v.BlockItem + `","transaction_hash":"` + v.Hash + `"}` + "\n"
			if out.String() != want {
				t.Errorf("%s:\n got %s\nwant %s", v.Name, out.String(), want)
			}
		}
	}
}

func TestChainSignRegisterDataRefusals(t *testing.T) {
	base := map[string]string{"--seed": strings.Repeat("01", 32), "--sender": "2wkH4kHMn2WPndf8CxmsoFkX93ouZMJUwTBFSZpDCeNeGWa7dj",
		"--nonce": "1", "--expiry": "1700000000", "--data": ""}
	bad := []struct{ flag, value, msg string }{
		{"--seed", "01", "--seed"},
		{"--sender", "RLwJ3PgyYX", "--sender"},
		{"--nonce", "0", "--nonce"},
		{"--expiry", "0", "--expiry"},
		{"--data", "zz", "--data"},
		{"--data", strings.Repeat("00", 257), "256"},
	}
	for _, b := range bad {
		args := []string{"sign-register-data"}
		for k, v := range base {
			if k == b.flag {
				v = b.value
			}
			args = append(args, k, v)
		}
		var out, errb bytes.Buffer
		if code := runChain(context.Background(), args, &out, &errb); code != 2 || out.Len() != 0 || !strings.Contains(errb.String(), b.msg) {
			t.Errorf("%s=%s: exit %d, stderr %q", b.flag, b.value, code, errb.String())
		}
	}
	var out, errb bytes.Buffer
	if code := runChain(context.Background(), nil, &out, &errb); code != 2 || !strings.Contains(errb.String(), "usage") {
		t.Errorf("no sub-command: %d", code)
	}
}

// `arena chain status` over a real socket to the devchain: a finalized anchor decodes, an
// unknown hash is absent and makes the exit code 1.
func TestChainStatusOnDevchain(t *testing.T) {
	seed := bytes.Repeat([]byte{3}, 32)
	dev, err := devchain.Start(context.Background(), devchain.Options{Dir: t.TempDir(), NoSync: true,
		BlockTime: 5 * time.Millisecond, FinalizeAfter: -1,
		Genesis: &devchain.Genesis{Accounts: []devchain.GenesisAccount{{Name: devchain.AccountArena, Seed: seed, Balance: devchain.DefaultBalance}}}})
	if err != nil {
		t.Fatal(err)
	}
	defer dev.Stop()
	key, _ := ccd.NewKey(ccd.DevAddress(ed25519.NewKeyFromSeed(seed).Public().(ed25519.PublicKey)), seed)
	data, _ := anchor.Anchor{Kind: anchor.Opened, Round: 77, Seq: 1, Hash: [32]byte{0xcd}}.Encode()
	tx, err := ccd.RegisterData(key, 1, uint64(time.Now().Add(time.Hour).Unix()), data)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := dev.Submit(tx.BlockItem); err != nil {
		t.Fatal(err)
	}
	if _, err := dev.Tick(); err != nil { // bake and finalize now, not at the block loop's next tick
		t.Fatal(err)
	}
	{
		var out, errb bytes.Buffer
		code := runChain(context.Background(), []string{"status", "--node", dev.Addr(), tx.HashHex()}, &out, &errb)
		var line struct {
			State  string
			Data   string
			Anchor struct {
				Kind, Round string
				Seq         uint32
			}
		}
		if err := json.Unmarshal(out.Bytes(), &line); code != 0 || err != nil || line.State != "finalized" ||
			line.Anchor.Kind != "opened" || line.Anchor.Round != "T-77" || line.Anchor.Seq != 1 {
			t.Fatalf("status: exit %d, line %s (%v) %s", code, out.String(), err, errb.String())
		}
	}
	var out, errb bytes.Buffer
	if code := runChain(context.Background(), []string{"status", "--node", dev.Addr(), strings.Repeat("ab", 32)}, &out, &errb); code != 1 || !strings.Contains(out.String(), `"state":"absent"`) {
		t.Fatalf("unknown hash: %d %s %s", code, out.String(), errb.String())
	}
	if code := runChain(context.Background(), []string{"status", "--node", dev.Addr(), "xyz"}, &out, &errb); code != 2 {
		t.Fatalf("bad hash: %d", code)
	}
}
