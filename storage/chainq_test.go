package storage

import (
	"bytes"
	"encoding/hex"
	"errors"
	"testing"
	"time"
)

func sub(id, data byte, nonce uint64) *ChainSubmission {
	return &ChainSubmission{ID: hex.EncodeToString(bytes.Repeat([]byte{id}, 32)), Data: hex.EncodeToString([]byte{data, data}),
		BlockItem: "00", Tx: hex.EncodeToString(bytes.Repeat([]byte{id}, 32)), Nonce: nonce, Order: nonce,
		Created: time.Date(2026, 9, 9, 14, 0, 0, 0, time.UTC)}
}

// ApplyChain writes pending submissions to the queue and the index, moves a final one out of the
// queue (the index keeps it), keeps the next nonce, and writes nothing of a batch with a bad key.
func TestApplyChainQueueAndIndex(t *testing.T) {
	s, path := openTest(t, Options{NoSync: true})
	a, b := sub(1, 0xa1, 1), sub(2, 0xb2, 2)
	if err := s.ApplyChain([]ChainChange{{Put: a, NextNonce: 2}, {Put: b, NextNonce: 3}}); err != nil {
		t.Fatal(err)
	}
	fa := *a
	fa.Final, fa.Block = true, "beef"
	if err := s.ApplyChain([]ChainChange{{Final: &fa}}); err != nil {
		t.Fatal(err)
	}
	bad := sub(3, 0xc3, 3)
	bad.ID = "not hex"
	if err := s.ApplyChain([]ChainChange{{Put: sub(4, 0xd4, 4)}, {Put: bad, NextNonce: 9}}); !errors.Is(err, ErrBadKey) {
		t.Fatalf("bad id: %v", err)
	}
	_ = s.Close()
	s, err := Open(path, Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	pending, next, corrupt, err := s.ChainQueue()
	if err != nil || next != 3 || len(corrupt) != 0 || len(pending) != 1 || pending[0].ID != b.ID || pending[0].Nonce != 2 {
		t.Fatalf("queue %+v next %d bad %v err %v", pending, next, corrupt, err)
	}
	got, ok, err := s.ChainLookup([]byte{0xa1, 0xa1})
	if err != nil || !ok || !got.Final || got.Block != "beef" || got.ID != a.ID {
		t.Fatalf("lookup a: %+v %v %v", got, ok, err)
	}
	if _, ok, err := s.ChainLookup([]byte{0xd4, 0xd4}); ok || err != nil {
		t.Fatalf("a refused batch left an index entry: %v %v", ok, err)
	}
	if err := s.ApplyChain([]ChainChange{{Put: b, NextNonce: 3}}); err != nil { // idempotent
		t.Fatal(err)
	}
	if p, _, _, _ := s.ChainQueue(); len(p) != 1 {
		t.Fatalf("replayed change duplicated: %+v", p)
	}
}
