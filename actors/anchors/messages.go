package anchors

import (
	"arena/actors"
	"arena/chain/ccd"
)

// Internal messages of the chain actor. Results of goroutines carry the incarnation that started
// them (inc); a result for an older incarnation (the actor restarted meanwhile) is dropped.

type jobMsg struct{ job actors.AnchorJob }

type callMsg struct{ job CallJob }

type statsRequest struct{}

type persistDone struct {
	inc   uint64
	batch *persistBatch
	err   error
}

type persistBatch struct {
	ops []op
}

type callResult struct {
	id   string
	hash [32]byte
	st   ccd.Status // poll and resync
	err  error
}

type sendDone struct {
	inc     uint64
	results []callResult
}

type pollDone struct {
	inc     uint64
	results []callResult
}

type resyncDone struct {
	inc      uint64
	nodeNext uint64
	results  []callResult
	err      error
}

type wake struct{ inc, gen uint64 }
