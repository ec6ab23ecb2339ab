package devchain

import (
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"

	bolt "go.etcd.io/bbolt"
)

// Buckets of the node's own file (devchain.db), all under the "devchain/" prefix.
var (
	bMeta        = []byte("devchain/meta")                // "genesis", "best", "final", "seq", "balance/<i>/<s>"
	bAccounts    = []byte("devchain/accounts")            // address(32) -> accountRec JSON
	bTxs         = []byte("devchain/txs")                 // tx hash(32) -> txRec JSON
	bPending     = []byte("devchain/pending")             // arrival seq u64 BE -> tx hash
	bBlocks      = []byte("devchain/blocks")              // height u64 BE -> blockRec JSON
	bAgents      = []byte("devchain/registry")            // token id u64 BE -> agentRec JSON
	bRounds      = []byte("devchain/escrow/rounds")       // round u64 BE -> roundRec JSON
	bDeposits    = []byte("devchain/escrow/deposits")     // seat token -> []depositRec JSON
	bBalances    = []byte("devchain/escrow/balances")     // seat token -> []balanceRec JSON (staked, refunded per payer)
	bPayerTokens = []byte("devchain/escrow/payer_tokens") // payer (32 bytes) -> []string JSON: seat tokens it may have unspent money under
	allBucket    = [][]byte{bMeta, bAccounts, bTxs, bPending, bBlocks, bAgents, bRounds, bDeposits, bBalances, bPayerTokens}
)

var (
	keyGenesis = []byte("genesis")
	keyBest    = []byte("best")  // height of the best block, u64 BE
	keyFinal   = []byte("final") // height of the last finalized block, u64 BE
	keySeq     = []byte("seq")   // arrival counter of submissions, u64 BE
)

// errRollback ends a bbolt Update without committing (a dry run or a dropped submission).
var errRollback = errors.New("devchain: rollback")

// accountRec is an account's state.
type accountRec struct {
	Name      string `json:"name,omitempty"`
	Index     uint64 `json:"index"`
	PublicKey []byte `json:"public_key"` // ed25519, credential 0 key 0
	Balance   uint64 `json:"balance"`    // microCCD
	NextNonce uint64 `json:"next_nonce"` // counts every accepted submission
	// Pending counts accepted submissions not yet in a block; LastHeight is the height of the
	// block that holds the account's latest transaction. Together they answer all_final.
	Pending    uint64 `json:"pending"`
	LastHeight uint64 `json:"last_height"`
}

// txRec is one accepted block item.
type txRec struct {
	BlockItem  []byte `json:"block_item"`
	Sender     []byte `json:"sender"`
	Nonce      uint64 `json:"nonce"`
	ReceivedMs int64  `json:"received_ms"`
	Height     uint64 `json:"height,omitempty"` // 0 while received, not yet in a block
	BlockHash  []byte `json:"block_hash,omitempty"`
	Summary    []byte `json:"summary,omitempty"` // protobuf BlockItemSummary
}

// blockRec is one block. Blocks are baked only when there is something to put in them.
type blockRec struct {
	Hash        []byte   `json:"hash"`
	Parent      []byte   `json:"parent"`
	Height      uint64   `json:"height"`
	TimeMs      int64    `json:"time_ms"`
	Txs         [][]byte `json:"txs"`
	FinalizedMs int64    `json:"finalized_ms,omitempty"`
}

func u64key(v uint64) []byte { return binary.BigEndian.AppendUint64(nil, v) }

func getU64(b *bolt.Bucket, k []byte) uint64 {
	v := b.Get(k)
	if len(v) != 8 {
		return 0
	}
	return binary.BigEndian.Uint64(v)
}

func putU64(b *bolt.Bucket, k []byte, v uint64) error { return b.Put(k, u64key(v)) }

func getJSON(b *bolt.Bucket, k []byte, v any) (bool, error) {
	raw := b.Get(k)
	if raw == nil {
		return false, nil
	}
	if err := json.Unmarshal(raw, v); err != nil {
		return false, fmt.Errorf("devchain: corrupt record %x in %s: %w", k, b.Tx().DB().Path(), err)
	}
	return true, nil
}

func putJSON(b *bolt.Bucket, k []byte, v any) error {
	raw, err := json.Marshal(v)
	if err != nil {
		return err
	}
	return b.Put(k, raw)
}

func contractBalanceKey(c ContractAddress) []byte {
	return []byte(fmt.Sprintf("balance/%d/%d", c.Index, c.Subindex))
}

func jsonUnmarshal(b []byte, v any) error {
	if err := json.Unmarshal(b, v); err != nil {
		return fmt.Errorf("devchain: corrupt record: %w", err)
	}
	return nil
}
