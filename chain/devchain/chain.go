package devchain

import (
	"bytes"
	"crypto/ed25519"
	"crypto/sha256"
	"errors"
	"fmt"
	"time"

	"github.com/Concordium/concordium-go-sdk/v2/pb"
	bolt "go.etcd.io/bbolt"
	"google.golang.org/protobuf/proto"
)

// chain is the node's state machine over bbolt: accept block items, bake them into blocks,
// finalize blocks, answer queries. Every mutation is one bbolt Update, which serializes them.
type chain struct {
	db            *bolt.DB
	now           func() time.Time
	finalizeAfter time.Duration
	energyPrice   uint64 // microCCD per NRG
	contracts     *contracts
	// refuse is the injected refusal of a contract call by receive name (Faults.RefuseCalls).
	refuse func(receive string) (int32, bool)
}

// initChain creates the buckets and, on a fresh store, writes the genesis state and block.
// It returns the genesis in effect (the stored one when the store is not fresh).
func initChain(c *chain, g *Genesis) (Genesis, error) {
	var out Genesis
	err := c.db.Update(func(tx *bolt.Tx) error {
		for _, name := range allBucket {
			if _, err := tx.CreateBucketIfNotExists(name); err != nil {
				return err
			}
		}
		meta := tx.Bucket(bMeta)
		if raw := meta.Get(keyGenesis); raw != nil {
			var err error
			out, err = unmarshalGenesis(raw)
			return err
		}
		if g == nil {
			dg, err := DefaultGenesis()
			if err != nil {
				return err
			}
			g = &dg
		}
		gc := *g // normalize fills fields in: work on a copy, not the caller's Options
		gc.Accounts = append([]GenesisAccount(nil), g.Accounts...)
		g = &gc
		if err := g.normalize(c.now()); err != nil {
			return err
		}
		if g.BlockHash == ([32]byte{}) {
			raw, err := g.marshal()
			if err != nil {
				return err
			}
			g.BlockHash = sha256.Sum256(append([]byte("devchain/genesis"), raw...))
		}
		raw, err := g.marshal()
		if err != nil {
			return err
		}
		if err := meta.Put(keyGenesis, raw); err != nil {
			return err
		}
		accts := tx.Bucket(bAccounts)
		for i, a := range g.Accounts {
			rec := accountRec{Name: a.Name, Index: uint64(i), PublicKey: a.PublicKey, Balance: a.Balance, NextNonce: a.NextNonce}
			if err := putJSON(accts, a.Address.Value[:], rec); err != nil {
				return err
			}
		}
		gh := g.BlockHash
		blk := blockRec{Hash: gh[:], Parent: gh[:], Height: 0, TimeMs: g.Time.UnixMilli(), FinalizedMs: g.Time.UnixMilli()}
		if err := putJSON(tx.Bucket(bBlocks), u64key(0), blk); err != nil {
			return err
		}
		out = *g
		return nil
	})
	if err != nil {
		return Genesis{}, fmt.Errorf("devchain: initialize store: %w", err)
	}
	return out, nil
}

// submit validates a serialized block item as a node does at the door and, unless drop is
// set, keeps it as received. It returns the transaction hash, SHA-256 of the block item.
// drop accepts the item and forgets it: the fault of a node that loses a submission.
func (c *chain) submit(blockItem []byte, drop bool) ([32]byte, error) {
	tx, err := parseBlockItem(blockItem)
	if err != nil {
		return [32]byte{}, err
	}
	err = c.db.Update(func(btx *bolt.Tx) error {
		if btx.Bucket(bTxs).Get(tx.hash[:]) != nil {
			return ErrDuplicate
		}
		accts := btx.Bucket(bAccounts)
		var acct accountRec
		ok, err := getJSON(accts, tx.sender[:], &acct)
		if err != nil {
			return err
		}
		if !ok {
			return ErrUnknownSender
		}
		if err := verifySignatures(tx, acct); err != nil {
			return err
		}
		switch {
		case tx.nonce < acct.NextNonce:
			return fmt.Errorf("%w: %d, next is %d", ErrNonceTooSmall, tx.nonce, acct.NextNonce)
		case tx.nonce > acct.NextNonce:
			return fmt.Errorf("%w: %d, next is %d", ErrNonceTooLarge, tx.nonce, acct.NextNonce)
		}
		now := c.now()
		if int64(tx.expiry) <= now.Unix() {
			return fmt.Errorf("%w: expiry %d, now %d", ErrExpired, tx.expiry, now.Unix())
		}
		if minE := baseEnergy(tx.nsigs(), len(tx.payload)); tx.energy < minE {
			return fmt.Errorf("%w: %d < %d", ErrEnergyTooLow, tx.energy, minE)
		}
		if fee, ok := mulOK(tx.energy, c.energyPrice); !ok || fee > acct.Balance {
			return fmt.Errorf("%w: %d NRG at %d microCCD", ErrInsufficientFn, tx.energy, c.energyPrice)
		}
		if drop {
			return errRollback
		}
		meta := btx.Bucket(bMeta)
		seq := getU64(meta, keySeq) + 1
		if err := putU64(meta, keySeq, seq); err != nil {
			return err
		}
		if err := btx.Bucket(bPending).Put(u64key(seq), tx.hash[:]); err != nil {
			return err
		}
		rec := txRec{BlockItem: tx.blockItem, Sender: tx.sender[:], Nonce: tx.nonce, ReceivedMs: now.UnixMilli()}
		if err := putJSON(btx.Bucket(bTxs), tx.hash[:], rec); err != nil {
			return err
		}
		acct.NextNonce++
		acct.Pending++
		return putJSON(accts, tx.sender[:], acct)
	})
	if err != nil && !errors.Is(err, errRollback) {
		return [32]byte{}, err
	}
	return tx.hash, nil
}

// verifySignatures checks the signature map against the account's key: every signature must
// name a key the account has and verify over the sign digest, and credential 0 must have
// signed (the account threshold and the credential's signature threshold are both 1).
func verifySignatures(tx *accountTx, acct accountRec) error {
	if len(acct.PublicKey) != ed25519.PublicKeySize {
		return fmt.Errorf("%w: account has no usable key", ErrBadSignature)
	}
	signed := false
	for k, sig := range tx.sigs {
		if k != (sigKey{0, 0}) {
			return fmt.Errorf("%w: no key %d of credential %d", ErrBadSignature, k.key, k.cred)
		}
		if !ed25519.Verify(ed25519.PublicKey(acct.PublicKey), tx.signDigest[:], sig) {
			return ErrBadSignature
		}
		signed = true
	}
	if !signed {
		return ErrBadSignature
	}
	return nil
}

// mulOK multiplies and reports whether the product fits in a uint64.
func mulOK(a, b uint64) (uint64, bool) {
	if a == 0 || b == 0 {
		return 0, true
	}
	p := a * b
	return p, p/b == a
}

// tick bakes every received item into one new block (in arrival order) and finalizes the
// blocks that have been committed for at least finalizeAfter. It reports whether anything
// changed.
func (c *chain) tick() (bool, error) {
	changed := false
	err := c.db.Update(func(btx *bolt.Tx) error {
		now := c.now()
		baked, err := c.bake(btx, now)
		if err != nil {
			return err
		}
		fin, err := c.finalize(btx, now)
		if err != nil {
			return err
		}
		changed = baked || fin
		if !changed {
			return errRollback
		}
		return nil
	})
	if errors.Is(err, errRollback) {
		err = nil
	}
	return changed, err
}

func (c *chain) bake(btx *bolt.Tx, now time.Time) (bool, error) {
	pending := btx.Bucket(bPending)
	var hashes [][]byte
	var keys [][]byte
	cur := pending.Cursor()
	for k, v := cur.First(); k != nil; k, v = cur.Next() {
		hashes = append(hashes, append([]byte(nil), v...))
		keys = append(keys, append([]byte(nil), k...))
	}
	if len(hashes) == 0 {
		return false, nil
	}
	for _, k := range keys {
		if err := pending.Delete(k); err != nil {
			return false, err
		}
	}
	meta, blocks, txs, accts := btx.Bucket(bMeta), btx.Bucket(bBlocks), btx.Bucket(bTxs), btx.Bucket(bAccounts)
	best := getU64(meta, keyBest)
	var parent blockRec
	if _, err := getJSON(blocks, u64key(best), &parent); err != nil {
		return false, err
	}
	height := best + 1
	h := sha256.New()
	h.Write([]byte("devchain/block"))
	h.Write(parent.Hash)
	h.Write(u64key(height))
	h.Write(u64key(uint64(now.UnixMilli())))
	for _, th := range hashes {
		h.Write(th)
	}
	blk := blockRec{Hash: h.Sum(nil), Parent: parent.Hash, Height: height, TimeMs: now.UnixMilli(), Txs: hashes}
	for i, th := range hashes {
		var rec txRec
		if _, err := getJSON(txs, th, &rec); err != nil {
			return false, err
		}
		summary, err := c.execute(btx, rec, uint64(i), height, now)
		if err != nil {
			return false, fmt.Errorf("devchain: execute %x: %w", th, err)
		}
		raw, err := proto.Marshal(summary)
		if err != nil {
			return false, err
		}
		rec.Height, rec.BlockHash, rec.Summary = height, blk.Hash, raw
		if err := putJSON(txs, th, rec); err != nil {
			return false, err
		}
		var acct accountRec
		if _, err := getJSON(accts, rec.Sender, &acct); err != nil {
			return false, err
		}
		if acct.Pending > 0 {
			acct.Pending--
		}
		acct.LastHeight = height
		if err := putJSON(accts, rec.Sender, acct); err != nil {
			return false, err
		}
	}
	if err := putJSON(blocks, u64key(height), blk); err != nil {
		return false, err
	}
	return true, putU64(meta, keyBest, height)
}

func (c *chain) finalize(btx *bolt.Tx, now time.Time) (bool, error) {
	meta, blocks := btx.Bucket(bMeta), btx.Bucket(bBlocks)
	final, best := getU64(meta, keyFinal), getU64(meta, keyBest)
	moved := false
	for h := final + 1; h <= best; h++ {
		var blk blockRec
		if _, err := getJSON(blocks, u64key(h), &blk); err != nil {
			return false, err
		}
		if now.Sub(time.UnixMilli(blk.TimeMs)) < c.finalizeAfter {
			break
		}
		blk.FinalizedMs = now.UnixMilli()
		if err := putJSON(blocks, u64key(h), blk); err != nil {
			return false, err
		}
		final, moved = h, true
	}
	if !moved {
		return false, nil
	}
	return true, putU64(meta, keyFinal, final)
}

// execute runs one transaction of a block and returns its summary. Failures of the
// transaction itself are rejections inside the summary, never an error; an error means the
// store is broken.
func (c *chain) execute(btx *bolt.Tx, rec txRec, index, height uint64, now time.Time) (*pb.BlockItemSummary, error) {
	tx, err := parseBlockItem(rec.BlockItem)
	if err != nil {
		return nil, err
	}
	accts := btx.Bucket(bAccounts)
	var acct accountRec
	if _, err := getJSON(accts, tx.sender[:], &acct); err != nil {
		return nil, err
	}
	base := baseEnergy(tx.nsigs(), len(tx.payload))
	used := base
	var effects *pb.AccountTransactionEffects
	p, perr := decodePayload(tx.payload)
	reject := func(t *pb.TransactionType, r *pb.RejectReason) {
		effects = &pb.AccountTransactionEffects{Effect: &pb.AccountTransactionEffects_None_{None: &pb.AccountTransactionEffects_None{TransactionType: t, RejectReason: r}}}
	}
	outOfEnergy := &pb.RejectReason{Reason: &pb.RejectReason_OutOfEnergy{OutOfEnergy: &pb.Empty{}}}
	switch {
	case perr != nil:
		reject(nil, &pb.RejectReason{Reason: &pb.RejectReason_SerializationFailure{SerializationFailure: &pb.Empty{}}})
	case p.kind == payloadRegisterData:
		used += energyRegisterData
		if used > tx.energy {
			used = tx.energy
			reject(pb.TransactionType_REGISTER_DATA.Enum(), outOfEnergy)
			break
		}
		effects = &pb.AccountTransactionEffects{Effect: &pb.AccountTransactionEffects_DataRegistered{DataRegistered: &pb.RegisteredData{Value: p.data}}}
	case p.kind == payloadTransfer:
		used += energyTransfer
		if used > tx.energy {
			used = tx.energy
			reject(pb.TransactionType_TRANSFER.Enum(), outOfEnergy)
			break
		}
		eff, rr, err := c.transfer(btx, tx.sender, p)
		if err != nil {
			return nil, err
		}
		if rr != nil {
			reject(pb.TransactionType_TRANSFER.Enum(), rr)
			break
		}
		effects = eff
	case p.kind == payloadUpdate:
		used += energyContractCall + uint64(len(p.param))*energyPerParamByte
		if used > tx.energy {
			used = tx.energy
			reject(pb.TransactionType_UPDATE.Enum(), outOfEnergy)
			break
		}
		eff, rr, err := c.update(btx, tx, p, height, now)
		if err != nil {
			return nil, err
		}
		if rr != nil {
			reject(pb.TransactionType_UPDATE.Enum(), rr)
			break
		}
		effects = eff
	}
	// The fee is charged whatever the outcome; the sender was checked able to pay it at the
	// door, but a transfer in the same block may have emptied it since.
	if err := getAcct(accts, tx.sender[:], &acct); err != nil {
		return nil, err
	}
	fee, _ := mulOK(used, c.energyPrice)
	fee = min(fee, acct.Balance)
	acct.Balance -= fee
	if err := putJSON(accts, tx.sender[:], acct); err != nil {
		return nil, err
	}
	return &pb.BlockItemSummary{
		Index:      &pb.BlockItemSummary_TransactionIndex{Value: index},
		EnergyCost: &pb.Energy{Value: used},
		Hash:       &pb.TransactionHash{Value: tx.hash[:]},
		Details: &pb.BlockItemSummary_AccountTransaction{AccountTransaction: &pb.AccountTransactionDetails{
			Cost:    &pb.Amount{Value: fee},
			Sender:  &pb.AccountAddress{Value: tx.sender[:]},
			Effects: effects,
		}},
	}, nil
}

func getAcct(accts *bolt.Bucket, addr []byte, a *accountRec) error {
	ok, err := getJSON(accts, addr, a)
	if err != nil {
		return err
	}
	if !ok {
		return fmt.Errorf("devchain: account %x vanished", addr)
	}
	return nil
}

// transfer moves p.amount from sender to p.to.
func (c *chain) transfer(btx *bolt.Tx, sender [32]byte, p payload) (*pb.AccountTransactionEffects, *pb.RejectReason, error) {
	accts := btx.Bucket(bAccounts)
	var from, to accountRec
	if err := getAcct(accts, sender[:], &from); err != nil {
		return nil, nil, err
	}
	ok, err := getJSON(accts, p.to[:], &to)
	if err != nil {
		return nil, nil, err
	}
	if !ok {
		return nil, &pb.RejectReason{Reason: &pb.RejectReason_InvalidAccountReference{InvalidAccountReference: &pb.AccountAddress{Value: p.to[:]}}}, nil
	}
	if from.Balance < p.amount {
		return nil, amountTooLarge(sender, p.amount), nil
	}
	if err := moveBalance(accts, sender, p.to, p.amount); err != nil {
		return nil, nil, err
	}
	return &pb.AccountTransactionEffects{Effect: &pb.AccountTransactionEffects_AccountTransfer_{AccountTransfer: &pb.AccountTransactionEffects_AccountTransfer{
		Amount: &pb.Amount{Value: p.amount}, Receiver: &pb.AccountAddress{Value: p.to[:]},
	}}}, nil, nil
}

func moveBalance(accts *bolt.Bucket, from, to [32]byte, amount uint64) error {
	var a accountRec
	if err := getAcct(accts, from[:], &a); err != nil {
		return err
	}
	a.Balance -= amount
	if err := putJSON(accts, from[:], a); err != nil {
		return err
	}
	var b accountRec
	if err := getAcct(accts, to[:], &b); err != nil {
		return err
	}
	b.Balance += amount
	return putJSON(accts, to[:], b)
}

func amountTooLarge(sender [32]byte, amount uint64) *pb.RejectReason {
	return &pb.RejectReason{Reason: &pb.RejectReason_AmountTooLarge_{AmountTooLarge: &pb.RejectReason_AmountTooLarge{
		Address: &pb.Address{Type: &pb.Address_Account{Account: &pb.AccountAddress{Value: sender[:]}}},
		Amount:  &pb.Amount{Value: amount},
	}}}
}

// update runs an Update contract transaction: the amount moves from the sender to the
// instance, the entrypoint runs, and the instance's transfers to accounts are paid. A
// rejection leaves every balance and the contract's state as they were.
func (c *chain) update(btx *bolt.Tx, tx *accountTx, p payload, height uint64, now time.Time) (*pb.AccountTransactionEffects, *pb.RejectReason, error) {
	sender := tx.sender
	accts := btx.Bucket(bAccounts)
	var from accountRec
	if err := getAcct(accts, sender[:], &from); err != nil {
		return nil, nil, err
	}
	if from.Balance < p.amount {
		return nil, amountTooLarge(sender, p.amount), nil
	}
	call := contractCall{
		invoker: sender, amount: p.amount, contract: p.contract, receive: p.receive,
		param: p.param, now: now, btx: btx, height: height, txHash: tx.hash,
	}
	if c.refuse != nil {
		if code, ok := c.refuse(p.receive); ok {
			return nil, rejected(&call, code).reject, nil
		}
	}
	res, err := c.contracts.call(&call)
	if err != nil {
		return nil, nil, err
	}
	if res.reject != nil {
		return nil, res.reject, nil
	}
	// The call has checked its payouts against the instance's balance plus the amount.
	meta := btx.Bucket(bMeta)
	bk := contractBalanceKey(p.contract)
	bal := getU64(meta, bk) + p.amount
	from.Balance -= p.amount
	if err := putJSON(accts, sender[:], from); err != nil {
		return nil, nil, err
	}
	trace := []*pb.ContractTraceElement{{Element: &pb.ContractTraceElement_Updated{Updated: &pb.InstanceUpdatedEvent{
		ContractVersion: pb.ContractVersion_V1,
		Address:         &pb.ContractAddress{Index: p.contract.Index, Subindex: p.contract.Subindex},
		Instigator:      &pb.Address{Type: &pb.Address_Account{Account: &pb.AccountAddress{Value: sender[:]}}},
		Amount:          &pb.Amount{Value: p.amount},
		Parameter:       &pb.Parameter{Value: p.param},
		ReceiveName:     &pb.ReceiveName{Value: p.receive},
		Events:          res.events,
	}}}}
	for _, t := range res.transfers {
		var to accountRec
		if err := getAcct(accts, t.to[:], &to); err != nil {
			return nil, nil, err
		}
		to.Balance += t.amount
		bal -= t.amount
		if err := putJSON(accts, t.to[:], to); err != nil {
			return nil, nil, err
		}
		trace = append(trace, &pb.ContractTraceElement{Element: &pb.ContractTraceElement_Transferred_{Transferred: &pb.ContractTraceElement_Transferred{
			Sender: &pb.ContractAddress{Index: p.contract.Index, Subindex: p.contract.Subindex},
			Amount: &pb.Amount{Value: t.amount}, Receiver: &pb.AccountAddress{Value: t.to[:]},
		}}})
	}
	if err := putU64(meta, bk, bal); err != nil {
		return nil, nil, err
	}
	return &pb.AccountTransactionEffects{Effect: &pb.AccountTransactionEffects_ContractUpdateIssued_{
		ContractUpdateIssued: &pb.AccountTransactionEffects_ContractUpdateIssued{Effects: trace},
	}}, nil, nil
}

// status answers GetBlockItemStatus: received, committed (with its block), or finalized.
func (c *chain) status(hash []byte) (*pb.BlockItemStatus, error) {
	var out *pb.BlockItemStatus
	err := c.db.View(func(btx *bolt.Tx) error {
		var rec txRec
		ok, err := getJSON(btx.Bucket(bTxs), hash, &rec)
		if err != nil {
			return err
		}
		if !ok {
			return ErrNotFound
		}
		if rec.Height == 0 {
			out = &pb.BlockItemStatus{Status: &pb.BlockItemStatus_Received{Received: &pb.Empty{}}}
			return nil
		}
		var summary pb.BlockItemSummary
		if err := proto.Unmarshal(rec.Summary, &summary); err != nil {
			return fmt.Errorf("devchain: corrupt summary of %x: %w", hash, err)
		}
		in := &pb.BlockItemSummaryInBlock{BlockHash: &pb.BlockHash{Value: rec.BlockHash}, Outcome: &summary}
		if rec.Height <= getU64(btx.Bucket(bMeta), keyFinal) {
			out = &pb.BlockItemStatus{Status: &pb.BlockItemStatus_Finalized_{Finalized: &pb.BlockItemStatus_Finalized{Outcome: in}}}
		} else {
			out = &pb.BlockItemStatus{Status: &pb.BlockItemStatus_Committed_{Committed: &pb.BlockItemStatus_Committed{Outcomes: []*pb.BlockItemSummaryInBlock{in}}}}
		}
		return nil
	})
	return out, err
}

// account reads an account and whether all its transactions are finalized.
func (c *chain) account(addr []byte) (accountRec, bool, error) {
	var a accountRec
	allFinal := false
	err := c.db.View(func(btx *bolt.Tx) error {
		ok, err := getJSON(btx.Bucket(bAccounts), addr, &a)
		if err != nil {
			return err
		}
		if !ok {
			return ErrNotFound
		}
		allFinal = a.Pending == 0 && a.LastHeight <= getU64(btx.Bucket(bMeta), keyFinal)
		return nil
	})
	return a, allFinal, err
}

// heads reads the genesis, best and last finalized blocks.
func (c *chain) heads() (genesis, best, final blockRec, err error) {
	err = c.db.View(func(btx *bolt.Tx) error {
		meta, blocks := btx.Bucket(bMeta), btx.Bucket(bBlocks)
		for _, p := range []struct {
			h   uint64
			dst *blockRec
		}{{0, &genesis}, {getU64(meta, keyBest), &best}, {getU64(meta, keyFinal), &final}} {
			if _, err := getJSON(blocks, u64key(p.h), p.dst); err != nil {
				return err
			}
		}
		return nil
	})
	return
}

// addressOfIndex finds the account with the given index (a scan: accounts are few).
func (c *chain) addressOfIndex(index uint64) ([]byte, error) {
	var out []byte
	err := c.db.View(func(btx *bolt.Tx) error {
		return btx.Bucket(bAccounts).ForEach(func(k, v []byte) error {
			var a accountRec
			if err := jsonUnmarshal(v, &a); err != nil {
				return err
			}
			if a.Index == index && out == nil {
				out = append([]byte(nil), k...)
			}
			return nil
		})
	})
	if err == nil && out == nil {
		err = ErrNotFound
	}
	return out, err
}

// blockAt finds the block a BlockHashInput names: best, last final, a given hash or an
// absolute height (relative heights are those of genesis index 0, the only one). ok is false
// when there is no such block.
func (c *chain) blockAt(in *pb.BlockHashInput) (blk blockRec, final uint64, ok bool, err error) {
	err = c.db.View(func(btx *bolt.Tx) error {
		meta, blocks := btx.Bucket(bMeta), btx.Bucket(bBlocks)
		final = getU64(meta, keyFinal)
		var h uint64
		switch v := in.GetBlockHashInput().(type) {
		case *pb.BlockHashInput_Best, nil:
			h = getU64(meta, keyBest)
		case *pb.BlockHashInput_LastFinal:
			h = final
		case *pb.BlockHashInput_AbsoluteHeight:
			h = v.AbsoluteHeight.GetValue()
		case *pb.BlockHashInput_RelativeHeight_:
			if v.RelativeHeight.GetGenesisIndex().GetValue() != 0 {
				return nil
			}
			h = v.RelativeHeight.GetHeight().GetValue()
		case *pb.BlockHashInput_Given:
			return blocks.ForEach(func(_, raw []byte) error {
				var b blockRec
				if err := jsonUnmarshal(raw, &b); err != nil {
					return err
				}
				if !ok && bytes.Equal(b.Hash, v.Given.GetValue()) {
					blk, ok = b, true
				}
				return nil
			})
		}
		found, err := getJSON(blocks, u64key(h), &blk)
		ok = found
		return err
	})
	return blk, final, ok, err
}
