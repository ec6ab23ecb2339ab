package evm

import (
	"context"
	"errors"
	"io"
	"math/big"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"arena/chain/x402"
)

// fakeNode answers every JSON-RPC request with body.
func fakeNode(t *testing.T, body string) *Client {
	t.Helper()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_, _ = io.Copy(io.Discard, r.Body)
		_, _ = io.WriteString(w, body)
	}))
	t.Cleanup(srv.Close)
	return Dial(srv.URL, nil)
}

func TestRPCErrorAnswer(t *testing.T) {
	c := fakeNode(t, `{"jsonrpc":"2.0","id":1,"error":{"code":3,"message":"execution reverted: TestUSDC: authorization is used","data":"0x08c379a0"}}`)
	_, err := c.ChainID(context.Background())
	var e *RPCError
	if !errors.As(err, &e) {
		t.Fatalf("err %v, want *RPCError", err)
	}
	if e.Method != "eth_chainId" || e.Code != 3 || e.Message != "execution reverted: TestUSDC: authorization is used" || e.Data != "0x08c379a0" {
		t.Fatalf("RPCError %+v", e)
	}
}

func TestMalformedAnswers(t *testing.T) {
	for _, tc := range []struct{ name, body string }{
		{"not json", `<html>`},
		{"leading zero quantity", `{"jsonrpc":"2.0","id":1,"result":"0x0539"}`},
		{"no 0x", `{"jsonrpc":"2.0","id":1,"result":"539"}`},
		{"empty quantity", `{"jsonrpc":"2.0","id":1,"result":"0x"}`},
		{"over 64 bits", `{"jsonrpc":"2.0","id":1,"result":"0x10000000000000000"}`},
		{"number not string", `{"jsonrpc":"2.0","id":1,"result":1337}`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if n, err := fakeNode(t, tc.body).ChainID(context.Background()); err == nil {
				t.Fatalf("chain id %d from %s, want an error", n, tc.body)
			}
		})
	}
}

func TestReceiptStatus(t *testing.T) {
	const r = `{"jsonrpc":"2.0","id":1,"result":{"transactionHash":"0x` + "ab" + `","blockNumber":"0x7","status":"%s","contractAddress":null,"gasUsed":"0x5208"}}`
	ctx := context.Background()
	var h [32]byte
	got, err := fakeNode(t, strings.Replace(r, "%s", "0x0", 1)).WaitReceipt(ctx, h)
	var rev *RevertedError
	if !errors.As(err, &rev) || got.Success || got.Block != 7 || got.GasUsed != 21000 {
		t.Fatalf("status 0: %+v, %v; want a *RevertedError of block 7", got, err)
	}
	got, err = fakeNode(t, strings.Replace(r, "%s", "0x1", 1)).WaitReceipt(ctx, h)
	if err != nil || !got.Success || got.Block != 7 {
		t.Fatalf("status 1: %+v, %v", got, err)
	}
	if _, err := fakeNode(t, strings.Replace(r, "%s", "0x2", 1)).WaitReceipt(ctx, h); err == nil {
		t.Fatal("status 0x2 taken")
	}
}

// TestEncodeStrings checks the constructor encoding of ("USDC", "2") word by word: two offsets
// (0x40, 0x80), then each length and its padded bytes.
func TestEncodeStrings(t *testing.T) {
	got := EncodeStrings("USDC", "2")
	want := make([]byte, 6*32)
	want[31] = 0x40
	want[63] = 0x80
	want[95] = 4
	copy(want[96:], "USDC")
	want[159] = 1
	copy(want[160:], "2")
	if string(got) != string(want) {
		t.Fatalf("EncodeStrings\n got %x\nwant %x", got, want)
	}
}

func TestTransferWithAuthorizationData(t *testing.T) {
	a := x402.Authorization{Value: big.NewInt(1), ValidAfter: big.NewInt(0), ValidBefore: big.NewInt(9)}
	sig := make([]byte, 65)
	sig[64] = 1
	data, err := TransferWithAuthorizationData(a, sig)
	if err != nil {
		t.Fatal(err)
	}
	// selector 0xe3ee160e, nine words; v 1 is written as 28.
	if len(data) != 4+9*32 || string(data[:4]) != "\xe3\xee\x16\x0e" || data[4+6*32+31] != 28 {
		t.Fatalf("calldata %x", data)
	}
	if _, err := TransferWithAuthorizationData(a, sig[:64]); err == nil {
		t.Fatal("64-byte signature taken")
	}
	a.Value = big.NewInt(-1)
	if _, err := TransferWithAuthorizationData(a, sig); err == nil {
		t.Fatal("negative value taken")
	}
}

func FuzzParseQuantity(f *testing.F) {
	for _, s := range []string{"0x0", "0x539", "0x0539", "0x", "539", "0xffffffffffffffffff"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		n, err := parseQuantity(s)
		if err != nil {
			return
		}
		if back := "0x" + n.Text(16); !strings.EqualFold(back, s) {
			t.Fatalf("%q read as %s, written back %q", s, n, back)
		}
	})
}

// TestWaitReceiptWhileIndexing: geth's "indexing in progress" answer is waited out, not returned.
func TestWaitReceiptWhileIndexing(t *testing.T) {
	var calls atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_, _ = io.Copy(io.Discard, r.Body)
		if calls.Add(1) < 3 {
			_, _ = io.WriteString(w, `{"jsonrpc":"2.0","id":1,"error":{"code":-32000,"message":"transaction indexing is in progress"}}`)
			return
		}
		_, _ = io.WriteString(w, `{"jsonrpc":"2.0","id":1,"result":{"transactionHash":"0xab","blockNumber":"0x2","status":"0x1","contractAddress":null,"gasUsed":"0x1"}}`)
	}))
	defer srv.Close()
	c := Dial(srv.URL, nil)
	c.Poll = time.Millisecond
	got, err := c.WaitReceipt(context.Background(), [32]byte{})
	if err != nil || !got.Success || got.Block != 2 || calls.Load() != 3 {
		t.Fatalf("receipt %+v, %v after %d calls; want block 2 on the third", got, err, calls.Load())
	}
}
