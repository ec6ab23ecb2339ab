package ccd

import (
	"fmt"

	"github.com/Concordium/concordium-go-sdk/v2/pb"
	"google.golang.org/protobuf/encoding/prototext"
)

// State is where a transaction stands at the node (GetBlockItemStatus).
type State int

// States, in the order a transaction passes through them.
const (
	Absent    State = iota // the node does not know the hash (never received, dropped, or expired)
	Received               // in the node's pool, not in a block
	Committed              // in one or more blocks, not finalized
	Finalized              // in a finalized block: final
)

var stateNames = [...]string{"absent", "received", "committed", "finalized"}

func (s State) String() string {
	if s >= Absent && s <= Finalized {
		return stateNames[s]
	}
	return fmt.Sprintf("state(%d)", int(s))
}

// Status is a transaction's status and, once in a block, its outcome.
type Status struct {
	State State
	// Block is the block holding the transaction (Committed: the first of its blocks).
	Block [32]byte
	// Rejected: the transaction is in a block but failed; its nonce is used and it had no
	// effect. Reason is the node's reject reason in protobuf text form.
	Rejected bool
	Reason   string
	// Data is the DataRegistered bytes of a successful Register Data (raw, without the u16 length).
	Data []byte
	// Registered tells a successful Register Data (Data may be empty) from other outcomes.
	Registered bool
}

// DecodeStatus reads a concordium.v2.BlockItemStatus. A committed or finalized status without
// an account-transaction outcome is an error (the arena only sends account transactions).
func DecodeStatus(s *pb.BlockItemStatus) (Status, error) {
	var in *pb.BlockItemSummaryInBlock
	var st Status
	switch {
	case s.GetReceived() != nil:
		return Status{State: Received}, nil
	case s.GetCommitted() != nil:
		st.State = Committed
		if outs := s.GetCommitted().GetOutcomes(); len(outs) > 0 {
			in = outs[0]
		}
	case s.GetFinalized() != nil:
		st.State = Finalized
		in = s.GetFinalized().GetOutcome()
	default:
		return Status{}, fmt.Errorf("ccd: block item status without a status")
	}
	if in == nil {
		return Status{}, fmt.Errorf("ccd: %s block item status without an outcome", st.State)
	}
	copy(st.Block[:], in.GetBlockHash().GetValue())
	at := in.GetOutcome().GetAccountTransaction()
	if at == nil {
		return Status{}, fmt.Errorf("ccd: %s outcome is not an account transaction", st.State)
	}
	eff := at.GetEffects()
	if none := eff.GetNone(); none != nil {
		st.Rejected = true
		st.Reason = prototext.MarshalOptions{}.Format(none.GetRejectReason())
		return st, nil
	}
	if d := eff.GetDataRegistered(); d != nil {
		st.Registered = true
		st.Data = append([]byte{}, d.GetValue()...)
	}
	return st, nil
}
