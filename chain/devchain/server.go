package devchain

import (
	"context"
	"crypto/sha256"
	"encoding/binary"
	"errors"
	"time"

	"github.com/Concordium/concordium-go-sdk/v2/pb"
	bolt "go.etcd.io/bbolt"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
)

// queries serves concordium.v2.Queries. Methods not listed here answer UNIMPLEMENTED.
type queries struct {
	pb.UnimplementedQueriesServer
	n *Node
}

// grpcErr maps the chain's errors to the status codes a real node answers with.
func grpcErr(err error) error {
	switch {
	case err == nil:
		return nil
	case errors.Is(err, ErrDuplicate):
		return status.Error(codes.AlreadyExists, err.Error())
	case errors.Is(err, ErrNotFound):
		return status.Error(codes.NotFound, err.Error())
	case errors.Is(err, ErrMalformed), errors.Is(err, ErrNotAccountTx), errors.Is(err, ErrUnknownSender),
		errors.Is(err, ErrBadSignature), errors.Is(err, ErrNonceTooSmall), errors.Is(err, ErrNonceTooLarge),
		errors.Is(err, ErrExpired), errors.Is(err, ErrEnergyTooLow), errors.Is(err, ErrInsufficientFn):
		return status.Error(codes.InvalidArgument, err.Error())
	default:
		return status.Error(codes.Internal, err.Error())
	}
}

// SendBlockItem accepts an account transaction, structured or as raw_block_item bytes, and
// answers its hash: SHA-256 of the block item (register_data.json transaction_hash).
func (q *queries) SendBlockItem(_ context.Context, req *pb.SendBlockItemRequest) (*pb.TransactionHash, error) {
	bi, err := blockItemFromRequest(req)
	if err != nil {
		return nil, grpcErr(err)
	}
	drop := q.n.faults.drop()
	h, err := q.n.ch().submit(bi, drop)
	if err != nil {
		q.n.log.Debug("block item refused", "err", err)
		return nil, grpcErr(err)
	}
	if drop {
		q.n.faults.countDrop()
		q.n.log.Info("block item dropped by fault injection", "tx", h)
	}
	return &pb.TransactionHash{Value: h[:]}, nil
}

// GetBlockItemStatus answers received, committed or finalized with the item's summary.
func (q *queries) GetBlockItemStatus(_ context.Context, h *pb.TransactionHash) (*pb.BlockItemStatus, error) {
	if len(h.GetValue()) != 32 {
		return nil, status.Error(codes.InvalidArgument, "devchain: transaction hash must be 32 bytes")
	}
	st, err := q.n.ch().status(h.GetValue())
	return st, grpcErr(err)
}

// GetNextAccountSequenceNumber answers the account's next sequence number and whether all
// its transactions are finalized.
func (q *queries) GetNextAccountSequenceNumber(_ context.Context, a *pb.AccountAddress) (*pb.NextAccountSequenceNumber, error) {
	if len(a.GetValue()) != 32 {
		return nil, status.Error(codes.InvalidArgument, "devchain: account address must be 32 bytes")
	}
	acct, allFinal, err := q.n.ch().account(a.GetValue())
	if err != nil {
		return nil, grpcErr(err)
	}
	return &pb.NextAccountSequenceNumber{SequenceNumber: &pb.SequenceNumber{Value: acct.NextNonce}, AllFinal: allFinal}, nil
}

// GetAccountInfo answers an account's sequence number, balance, index, threshold and address
// (by address or index; credentials are not reported). The block asked for is ignored: the
// answer is the current state.
func (q *queries) GetAccountInfo(_ context.Context, req *pb.AccountInfoRequest) (*pb.AccountInfo, error) {
	var addr []byte
	switch id := req.GetAccountIdentifier().GetAccountIdentifierInput().(type) {
	case *pb.AccountIdentifierInput_Address:
		addr = id.Address.GetValue()
	case *pb.AccountIdentifierInput_AccountIndex:
		var err error
		if addr, err = q.n.ch().addressOfIndex(id.AccountIndex.GetValue()); err != nil {
			return nil, grpcErr(err)
		}
	default:
		return nil, status.Error(codes.InvalidArgument, "devchain: account identifier must be an address or an index")
	}
	if len(addr) != 32 {
		return nil, status.Error(codes.InvalidArgument, "devchain: account address must be 32 bytes")
	}
	a, _, err := q.n.ch().account(addr)
	if err != nil {
		return nil, grpcErr(err)
	}
	return &pb.AccountInfo{
		SequenceNumber:   &pb.SequenceNumber{Value: a.NextNonce},
		Amount:           &pb.Amount{Value: a.Balance},
		AvailableBalance: &pb.Amount{Value: a.Balance},
		Threshold:        &pb.AccountThreshold{Value: 1},
		Index:            &pb.AccountIndex{Value: a.Index},
		Address:          &pb.AccountAddress{Value: addr},
	}, nil
}

// GetConsensusInfo answers the genesis, best and last finalized blocks and their heights.
func (q *queries) GetConsensusInfo(context.Context, *pb.Empty) (*pb.ConsensusInfo, error) {
	g, best, final, err := q.n.ch().heads()
	if err != nil {
		return nil, grpcErr(err)
	}
	ts := func(ms int64) *pb.Timestamp { return &pb.Timestamp{Value: uint64(ms)} }
	return &pb.ConsensusInfo{
		BestBlock:                &pb.BlockHash{Value: best.Hash},
		GenesisBlock:             &pb.BlockHash{Value: g.Hash},
		GenesisTime:              ts(g.TimeMs),
		EpochDuration:            &pb.Duration{Value: uint64(time.Hour.Milliseconds())},
		LastFinalizedBlock:       &pb.BlockHash{Value: final.Hash},
		BestBlockHeight:          &pb.AbsoluteBlockHeight{Value: best.Height},
		LastFinalizedBlockHeight: &pb.AbsoluteBlockHeight{Value: final.Height},
		LastFinalizedTime:        ts(final.FinalizedMs),
		ProtocolVersion:          pb.ProtocolVersion_PROTOCOL_VERSION_7,
		GenesisIndex:             &pb.GenesisIndex{Value: 0},
		CurrentEraGenesisBlock:   &pb.BlockHash{Value: g.Hash},
		CurrentEraGenesisTime:    ts(g.TimeMs),
	}, nil
}

// GetAccountTransactionSignHash answers SHA-256(header || payload), the digest an account
// transaction's keys sign.
func (q *queries) GetAccountTransactionSignHash(_ context.Context, pre *pb.PreAccountTransaction) (*pb.AccountTransactionSignHash, error) {
	h := pre.GetHeader()
	if h == nil || len(h.GetSender().GetValue()) != 32 {
		return nil, status.Error(codes.InvalidArgument, "devchain: header missing")
	}
	payload, err := encodePayload(pre.GetPayload())
	if err != nil {
		return nil, grpcErr(err)
	}
	buf := append([]byte(nil), h.GetSender().GetValue()...)
	buf = binary.BigEndian.AppendUint64(buf, h.GetSequenceNumber().GetValue())
	buf = binary.BigEndian.AppendUint64(buf, h.GetEnergyAmount().GetValue())
	buf = binary.BigEndian.AppendUint32(buf, uint32(len(payload)))
	buf = binary.BigEndian.AppendUint64(buf, h.GetExpiry().GetValue())
	sum := sha256.Sum256(append(buf, payload...))
	return &pb.AccountTransactionSignHash{Value: sum[:]}, nil
}

// InvokeInstance runs a stand-in contract entrypoint without committing anything: the views
// (CIS-8004.agentOf, escrow.view_round, escrow.view_deposits) and dry runs of the escrow's
// updates. A given block hash must exist; the state read is the current one.
func (q *queries) InvokeInstance(_ context.Context, req *pb.InvokeInstanceRequest) (*pb.InvokeInstanceResponse, error) {
	if req.GetInstance() == nil || req.GetEntrypoint() == nil || req.GetEnergy() == nil {
		return nil, status.Error(codes.InvalidArgument, "devchain: instance, entrypoint and energy are required")
	}
	if _, _, found, err := q.n.ch().blockAt(req.GetBlockHash()); err != nil || !found {
		return nil, blockErr(err)
	}
	call := contractCall{
		amount:   req.GetAmount().GetValue(),
		contract: ContractAddress{Index: req.GetInstance().GetIndex(), Subindex: req.GetInstance().GetSubindex()},
		receive:  req.GetEntrypoint().GetValue(),
		param:    req.GetParameter().GetValue(),
		now:      q.n.ch().now(),
	}
	if a := req.GetInvoker().GetAccount(); len(a.GetValue()) == 32 {
		copy(call.invoker[:], a.GetValue())
	}
	used := energyContractCall + uint64(len(call.param))*energyPerParamByte
	limit := req.GetEnergy().GetValue()
	if used > limit {
		return &pb.InvokeInstanceResponse{Result: &pb.InvokeInstanceResponse_Failure_{Failure: &pb.InvokeInstanceResponse_Failure{
			UsedEnergy: &pb.Energy{Value: limit},
			Reason:     &pb.RejectReason{Reason: &pb.RejectReason_OutOfEnergy{OutOfEnergy: &pb.Empty{}}},
		}}}, nil
	}
	var res callResult
	c := q.n.ch()
	run := func(btx *bolt.Tx) error {
		call.btx = btx
		var err error
		if res, err = c.contracts.call(&call); err != nil {
			return err
		}
		return errRollback
	}
	var err error
	if viewEntrypoints[call.receive] {
		err = c.db.View(run) // views never write: no wait behind a submission's fsync
	} else {
		err = c.db.Update(run) // a dry run of an update, rolled back
	}
	if err != nil && !errors.Is(err, errRollback) {
		return nil, grpcErr(err)
	}
	if res.reject != nil {
		return &pb.InvokeInstanceResponse{Result: &pb.InvokeInstanceResponse_Failure_{Failure: &pb.InvokeInstanceResponse_Failure{
			UsedEnergy: &pb.Energy{Value: used}, Reason: res.reject,
		}}}, nil
	}
	invoker := &pb.Address{Type: &pb.Address_Account{Account: &pb.AccountAddress{Value: call.invoker[:]}}}
	if req.GetInvoker() != nil {
		invoker = req.GetInvoker()
	}
	trace := []*pb.ContractTraceElement{{Element: &pb.ContractTraceElement_Updated{Updated: &pb.InstanceUpdatedEvent{
		ContractVersion: pb.ContractVersion_V1,
		Address:         req.GetInstance(),
		Instigator:      invoker,
		Amount:          &pb.Amount{Value: call.amount},
		Parameter:       &pb.Parameter{Value: call.param},
		ReceiveName:     req.GetEntrypoint(),
	}}}}
	return &pb.InvokeInstanceResponse{Result: &pb.InvokeInstanceResponse_Success_{Success: &pb.InvokeInstanceResponse_Success{
		ReturnValue: res.ret, UsedEnergy: &pb.Energy{Value: used}, Effects: trace,
	}}}, nil
}

func blockErr(err error) error {
	if err != nil {
		return grpcErr(err)
	}
	return status.Error(codes.NotFound, "devchain: block not found")
}

// GetBlockInfo answers a block's hash, height, parent, time (receive, arrive and slot time are
// the bake time), finality, transaction count and energy.
func (q *queries) GetBlockInfo(_ context.Context, in *pb.BlockHashInput) (*pb.BlockInfo, error) {
	c := q.n.ch()
	blk, final, found, err := c.blockAt(in)
	if err != nil || !found {
		return nil, blockErr(err)
	}
	_, _, last, err := c.heads()
	if err != nil {
		return nil, grpcErr(err)
	}
	var energy uint64
	for _, h := range blk.Txs {
		st, err := c.status(h)
		if err != nil {
			return nil, grpcErr(err)
		}
		o := st.GetCommitted().GetOutcomes()
		if f := st.GetFinalized(); f != nil {
			o = []*pb.BlockItemSummaryInBlock{f.GetOutcome()}
		}
		if len(o) == 1 {
			energy += o[0].GetOutcome().GetEnergyCost().GetValue()
		}
	}
	t := &pb.Timestamp{Value: uint64(blk.TimeMs)}
	stateHash := sha256.Sum256(append([]byte("devchain/state"), blk.Hash...)) // a stand-in
	return &pb.BlockInfo{
		Hash:                   &pb.BlockHash{Value: blk.Hash},
		Height:                 &pb.AbsoluteBlockHeight{Value: blk.Height},
		ParentBlock:            &pb.BlockHash{Value: blk.Parent},
		LastFinalizedBlock:     &pb.BlockHash{Value: last.Hash},
		GenesisIndex:           &pb.GenesisIndex{},
		EraBlockHeight:         &pb.BlockHeight{Value: blk.Height},
		ReceiveTime:            t,
		ArriveTime:             t,
		SlotTime:               t,
		Finalized:              blk.Height <= final,
		TransactionCount:       uint32(len(blk.Txs)),
		TransactionsEnergyCost: &pb.Energy{Value: energy},
		ProtocolVersion:        pb.ProtocolVersion_PROTOCOL_VERSION_7,
		// The SDK's GetBlockInfo reads Baker and StateHash unconditionally: never leave them nil.
		Baker:      &pb.BakerId{},
		StateHash:  &pb.StateHash{Value: stateHash[:]},
		SlotNumber: &pb.Slot{Value: blk.Height},
	}, nil
}
