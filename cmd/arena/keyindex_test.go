package main

import (
	"bytes"
	"testing"

	"arena/chain/badge"
	"arena/storage"
	"arena/storage/storagetest"
)

// serve's Badge key index is the store's: a binding and its proof, saved through it, are there
// after the store is closed and opened again, and the index rebuilt from it holds them.
func TestKeyIndexOnTheStore(t *testing.T) {
	path := storagetest.Path(t)
	pub := bytes.Repeat([]byte{9}, 32)
	const agent = "ccd:4221332d34e1694168c2a0c0b3fd0f27/cis-2:JyP9TuVfyJhJganGq2W8d"
	st, err := storage.Open(path, storage.Options{NoSync: true})
	if err != nil {
		t.Fatal(err)
	}
	if err := (storeKeys{st}).SaveKey(pub, badge.KeyBinding{Agent: agent, Token: 1}); err != nil {
		t.Fatal(err)
	}
	keys, err := loadKeyIndex(st)
	if err != nil {
		t.Fatal(err)
	}
	if ok, err := keys.Prove(pub, agent); !ok || err != nil {
		t.Fatalf("Prove: %v %v", ok, err)
	}
	if err := st.Close(); err != nil {
		t.Fatal(err)
	}

	st, err = storage.Open(path, storage.Options{NoSync: true})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	var rows []storage.BadgeKey
	if err := st.BadgeKeys(func(k []byte, b storage.BadgeKey) error {
		if !bytes.Equal(k, pub) {
			t.Errorf("a binding of key %x", k)
		}
		rows = append(rows, b)
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	if len(rows) != 1 || rows[0] != (storage.BadgeKey{Agent: agent, Token: 1, Proven: true}) {
		t.Fatalf("stored after the reopen: %+v, want the proven binding", rows)
	}
	keys, err = loadKeyIndex(st)
	if err != nil {
		t.Fatal(err)
	}
	if owner, ok := keys.Owner(pub); !ok || owner != agent {
		t.Fatalf("owner after the reopen: %q %v", owner, ok)
	}
}
