package ccd

import (
	"context"
	"encoding/hex"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestLoadOrCreateKey(t *testing.T) {
	path := filepath.Join(t.TempDir(), "sub", "chain-account.json")
	k1, err := LoadOrCreateKey(path, nil)
	if err != nil {
		t.Fatal(err)
	}
	if k1.Address() != DevAddress(k1.PublicKey()) || k1.Signatures() != 1 {
		t.Fatalf("generated key %s", k1.Address())
	}
	st, err := os.Stat(path)
	if err != nil || st.Mode().Perm() != 0o600 {
		t.Fatalf("key file mode %v %v", st.Mode(), err)
	}
	k2, err := LoadOrCreateKey(path, nil)
	if err != nil || k2.Address() != k1.Address() || !k2.PublicKey().Equal(k1.PublicKey()) {
		t.Fatalf("reload: %v", err)
	}
	s1, _ := k1.Seed()
	s2, ok := k2.Seed()
	if !ok || hex.EncodeToString(s1) != hex.EncodeToString(s2) {
		t.Fatal("seed")
	}
}

// A Concordium export (the browser wallet's shape, as in the SDK's test file) loads and signs
// for its address; the SDK's own test export, whose verifyKey is not its signKey's public key, is
// refused (the SDK loads it and would sign transactions no node accepts).
func TestLoadConcordiumExport(t *testing.T) {
	src := filepath.Join(sdkDir(t), "v2", "tests", "2xBpaHottqhwFZURMZW4uZduQvpxNDSy46iXMYs9kceNGaPpZX.export")
	if _, err := LoadKey(src); !errors.Is(err, ErrKeyFile) || !strings.Contains(err.Error(), "verifyKey") {
		t.Fatalf("SDK test export: %v", err)
	}
	raw, err := os.ReadFile(src)
	if err != nil {
		t.Fatal(err)
	}
	seed := strings.Repeat("01", 32)
	pub := "8a88e3dd7409f195fd52db2d3cba5d72ca6709bf1d94121bf3748801b40f6f5c" // register_data.json
	good := strings.Replace(string(raw), "123abc456def789acb012def345abc678def901abc234def567abc890def123d", seed, 1)
	good = strings.Replace(good, "ef456abc789def012abc345def678abc901def234abc567def890abc123def45", pub, 1)
	good = strings.Replace(good, "2xBpaHottqhwFZURMZW4uZduQvpxNDSy46iXMYs9kceNGaPpZX", "2wkH4kHMn2WPndf8CxmsoFkX93ouZMJUwTBFSZpDCeNeGWa7dj", 1)
	p := filepath.Join(t.TempDir(), "good.export")
	os.WriteFile(p, []byte(good), 0o600)
	k, err := LoadKey(p)
	if err != nil {
		t.Fatal(err)
	}
	v := registerDataVectors(t)[1]
	tx, err := RegisterData(k, 7, 1767225600, unhex(t, v.Inputs.Data))
	if err != nil || tx.HashHex() != v.Hash {
		t.Fatalf("export key signs %s (%v), want the vector's %s", tx.HashHex(), err, v.Hash)
	}
}

func TestLoadKeyRefusals(t *testing.T) {
	dir := t.TempDir()
	for name, body := range map[string]string{
		"notjson":   "seed",
		"empty":     "{}",
		"shortseed": `{"address":"2wkH4kHMn2WPndf8CxmsoFkX93ouZMJUwTBFSZpDCeNeGWa7dj","seed":"0101"}`,
		"badaddr":   `{"address":"RLwJ3PgyYX","seed":"` + strings.Repeat("01", 32) + `"}`,
		"nokeys":    `{"value":{"address":"2wkH4kHMn2WPndf8CxmsoFkX93ouZMJUwTBFSZpDCeNeGWa7dj","accountKeys":{}}}`,
	} {
		p := filepath.Join(dir, name)
		os.WriteFile(p, []byte(body), 0o600)
		if _, err := LoadKey(p); err == nil {
			t.Errorf("%s accepted", name)
		}
	}
	if _, err := LoadKey(filepath.Join(dir, "missing")); err == nil {
		t.Error("missing file accepted")
	}
}

func TestConnectChecksNetwork(t *testing.T) {
	_, c := serve(t)
	addr := c.c.ClientConn.Target()
	kf := filepath.Join(t.TempDir(), "k.json")
	if _, err := LoadOrCreateKey(kf, nil); err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	c2, k, err := Connect(ctx, NodeConfig{Addr: addr, Network: "ccd:4221332d34e1694168c2a0c0b3fd0f27", KeyFile: kf})
	if err != nil || k == nil {
		t.Fatal(err)
	}
	c2.Close()
	if _, _, err := Connect(ctx, NodeConfig{Addr: addr, Network: "ccd:9dd9ca4d19e9393877d2c44b70f89acb", KeyFile: kf}); !errors.Is(err, ErrNetwork) {
		t.Fatalf("mainnet check: %v", err)
	}
	if _, _, err := Connect(ctx, NodeConfig{Addr: addr, KeyFile: filepath.Join(t.TempDir(), "none")}); err == nil {
		t.Fatal("missing key file accepted")
	}
}
