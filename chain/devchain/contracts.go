package devchain

import (
	"crypto/sha256"
	"encoding/binary"
	"strings"
	"time"

	"github.com/Concordium/concordium-go-sdk/v2/pb"
	bolt "go.etcd.io/bbolt"
)

// Default instance addresses of the stand-in contracts. The registry sits where testnet's
// CIS-8004 registry is (§4.1: testnet <12802,0>); the escrow's address is ours.
var (
	DefaultRegistry = ContractAddress{Index: 12802, Subindex: 0}
	DefaultEscrow   = ContractAddress{Index: 12810, Subindex: 0}
)

// Reject codes the stand-in contracts answer with (RejectReason.rejected_receive.reject_reason).
const (
	// RejectParse is concordium-std's ParseError (i32::MIN + 2): the parameter did not parse.
	RejectParse int32 = -2147483646
	// RejectAgentNotFound is CIS-8004's AgentNotFound: agentOf on a token never registered.
	RejectAgentNotFound int32 = -7200

	// Escrow rejections (ours; the escrow ABI of docs/04 is not in our hands).
	RejectUnauthorized      int32 = -8101 // open_round/anchor/settle/refund from an account other than the arena's
	RejectRoundExists       int32 = -8102 // open_round on a round already opened
	RejectUnknownRound      int32 = -8103 // anchor/settle/view on a round never opened
	RejectRoundSettled      int32 = -8104 // anchor/settle after settle
	RejectAnchorExists      int32 = -8105 // a second anchor for the same turn
	RejectInsufficientFunds int32 = -8106 // payouts exceed the round's pool; a stake or refund exceeds a deposit's unspent part
	RejectZeroDeposit       int32 = -8107 // deposit with no amount
	RejectNotPayable        int32 = -8108 // an amount sent to an entrypoint that takes none
	RejectInvalidPayee      int32 = -8109 // a payout or refund to an account that does not exist
	RejectUnbalanced        int32 = -8110 // settle pays out less than the round's pool (the rest would stay stranded)
	RejectDepositTooSmall   int32 = -8111 // deposit below MinDeposit
	RejectTooManyDeposits   int32 = -8112 // a payer's MaxDepositsPerToken-th deposit under one seat token
	RejectTooManyOpen       int32 = -8113 // a deposit under a new seat token while the payer has money under MaxOpenTokens others
)

// viewEntrypoints are the stand-ins' read-only entrypoints, run by InvokeInstance in a bbolt
// read transaction.
var viewEntrypoints = map[string]bool{
	registryName + ".agentOf":     true,
	escrowName + ".view_round":    true,
	escrowName + ".view_deposits": true,
	escrowName + ".view_unspent":  true,
}

// contractCall is one call of a stand-in contract, from a transaction or from InvokeInstance.
type contractCall struct {
	invoker  [32]byte // the invoking account (zero when the invoker is none or a contract)
	amount   uint64   // microCCD sent with the call
	contract ContractAddress
	receive  string // "<contract>.<entrypoint>"
	param    []byte
	now      time.Time
	btx      *bolt.Tx
	// height and txHash locate the transaction being executed (zero in a dry run).
	height uint64
	txHash [32]byte
}

// callResult is what a call returns: a return value, or a rejection; transfers the instance
// pays out of its balance; logged events.
type callResult struct {
	ret       []byte
	reject    *pb.RejectReason
	transfers []payout
	events    []*pb.ContractEvent
}

type payout struct {
	to     [32]byte
	amount uint64
}

// contracts routes calls to the stand-ins.
type contracts struct {
	registry ContractAddress
	escrow   ContractAddress
	admin    [32]byte // the account allowed to open, anchor and settle rounds
	hasAdmin bool     // false: nobody may
}

// call runs c. An error means the store failed; a contract's refusal is in callResult.reject.
func (cs *contracts) call(c *contractCall) (callResult, error) {
	name, entry, ok := strings.Cut(c.receive, ".")
	switch {
	case c.contract == cs.registry:
		if !ok || name != registryName {
			return badMethod(c, registryName), nil
		}
		return cs.callRegistry(c, entry)
	case c.contract == cs.escrow:
		if !ok || name != escrowName {
			return badMethod(c, escrowName), nil
		}
		return cs.callEscrow(c, entry)
	default:
		return callResult{reject: &pb.RejectReason{Reason: &pb.RejectReason_InvalidContractAddress{
			InvalidContractAddress: &pb.ContractAddress{Index: c.contract.Index, Subindex: c.contract.Subindex},
		}}}, nil
	}
}

// moduleRef is the stand-in module reference reported in InvalidReceiveMethod.
func moduleRef(contract string) []byte {
	h := sha256.Sum256([]byte("devchain/module/" + contract))
	return h[:]
}

func badMethod(c *contractCall, contract string) callResult {
	return callResult{reject: &pb.RejectReason{Reason: &pb.RejectReason_InvalidReceiveMethod_{
		InvalidReceiveMethod: &pb.RejectReason_InvalidReceiveMethod{
			ModuleRef: &pb.ModuleRef{Value: moduleRef(contract)}, ReceiveName: &pb.ReceiveName{Value: c.receive},
		},
	}}}
}

func rejected(c *contractCall, code int32) callResult {
	return callResult{reject: &pb.RejectReason{Reason: &pb.RejectReason_RejectedReceive_{RejectedReceive: &pb.RejectReason_RejectedReceive{
		RejectReason:    code,
		ContractAddress: &pb.ContractAddress{Index: c.contract.Index, Subindex: c.contract.Subindex},
		ReceiveName:     &pb.ReceiveName{Value: c.receive},
		Parameter:       &pb.Parameter{Value: c.param},
	}}}}
}

// leReader reads smart-contract parameter encoding (little endian, concordium-std Serial).
type leReader struct{ reader }

func (r *leReader) u32() (uint32, bool) {
	v, ok := r.bytes(4)
	if !ok {
		return 0, false
	}
	return binary.LittleEndian.Uint32(v), true
}

func (r *leReader) u64() (uint64, bool) {
	v, ok := r.bytes(8)
	if !ok {
		return 0, false
	}
	return binary.LittleEndian.Uint64(v), true
}

// str reads a concordium-std String or Vec<u8>: u32 LE length || bytes, at most max bytes.
func (r *leReader) str(max int) ([]byte, bool) {
	n, ok := r.u32()
	if !ok || int64(n) > int64(max) {
		return nil, false
	}
	return r.bytes(int(n))
}

func (r *leReader) done() bool { return r.off == len(r.b) }

func newLE(b []byte) *leReader { return &leReader{reader{b: b}} }

func appendStr(out []byte, s []byte) []byte {
	out = binary.LittleEndian.AppendUint32(out, uint32(len(s)))
	return append(out, s...)
}
