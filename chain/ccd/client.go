package ccd

import (
	"context"
	"crypto/tls"
	"errors"
	"fmt"

	sdk "github.com/Concordium/concordium-go-sdk/v2"
	"github.com/Concordium/concordium-go-sdk/v2/pb"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/credentials"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/encoding/prototext"
)

// Errors of Client.Send. A node answers SendBlockItem with gRPC AlreadyExists when it already
// has the transaction (concordium-node grpc2.rs: DuplicateEntry), and with InvalidArgument for
// every other refusal of the transaction itself (duplicate nonce, expired, bad signature, too
// little energy, ...). Anything else (Unavailable, DeadlineExceeded, Internal, ...) is
// transport trouble and worth retrying as is.
var (
	ErrDuplicate = errors.New("ccd: the node already has this transaction")
	ErrRejected  = errors.New("ccd: the node refused the transaction")
)

// Client talks to one Concordium node over its gRPC API v2, through the SDK's v2.Client.
type Client struct {
	c *sdk.Client
}

// Dial makes a client for the node at addr ("host:port"), with TLS (system roots) or in plain
// text. Like grpc.NewClient it connects lazily: a node that is down shows on the first call.
// ctx is accepted for symmetry with the calls and checked once.
func Dial(ctx context.Context, addr string, useTLS bool) (*Client, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	cfg := sdk.Config{NodeAddress: addr}
	if useTLS {
		cfg.TlsCredentials = credentials.NewTLS(&tls.Config{MinVersion: tls.VersionTLS12})
	}
	c, err := sdk.NewClient(cfg)
	if err != nil {
		return nil, fmt.Errorf("ccd: dial %s: %w", addr, err)
	}
	return &Client{c: c}, nil
}

// Close closes the connection.
func (c *Client) Close() error { return c.c.Close() }

// Send submits tx (SendBlockItem). It returns nil when the node accepted it, an error wrapping
// ErrDuplicate when the node already had it (success for a resubmission), one wrapping
// ErrRejected when the node refused it, ErrHashMismatch if the node's hash is not tx.Hash, or
// the transport error.
func (c *Client) Send(ctx context.Context, tx *Tx) error {
	h, err := c.c.GrpcClient.SendBlockItem(ctx, tx.Request())
	if err != nil {
		switch status.Code(err) {
		case codes.AlreadyExists:
			return fmt.Errorf("%w: %s: %v", ErrDuplicate, tx.HashHex(), err)
		case codes.InvalidArgument:
			return fmt.Errorf("%w: %s: %v", ErrRejected, tx.HashHex(), err)
		}
		return fmt.Errorf("ccd: send %s: %w", tx.HashHex(), err)
	}
	if string(h.GetValue()) != string(tx.Hash[:]) {
		return fmt.Errorf("%w: sent %s, node says %x", ErrHashMismatch, tx.HashHex(), h.GetValue())
	}
	return nil
}

// NextNonce is the node's best guess of addr's next sequence number, counting the
// transactions it holds that are not finalized yet; allFinal reports that there are none, so
// the guess is certain (GetNextAccountSequenceNumber).
func (c *Client) NextNonce(ctx context.Context, addr Address) (next uint64, allFinal bool, err error) {
	a := addr.sdk()
	r, err := c.c.GetNextAccountSequenceNumber(ctx, &a)
	if err != nil {
		return 0, false, fmt.Errorf("ccd: next nonce of %s: %w", addr, err)
	}
	return r.GetSequenceNumber().GetValue(), r.GetAllFinal(), nil
}

// Status is the status of transaction hash (GetBlockItemStatus); a hash the node does not know
// is State Absent with a nil error.
func (c *Client) Status(ctx context.Context, hash [32]byte) (Status, error) {
	s, err := c.c.GrpcClient.GetBlockItemStatus(ctx, &pb.TransactionHash{Value: hash[:]})
	if status.Code(err) == codes.NotFound {
		return Status{State: Absent}, nil
	}
	if err != nil {
		return Status{}, fmt.Errorf("ccd: status of %x: %w", hash, err)
	}
	return DecodeStatus(s)
}

// Balance is addr's available balance in microCCD at the node's best block: what a transfer or
// a payable contract call from it can spend (GetAccountInfo's available_balance; from a node
// that does not report it, the amount less the larger of its locked and its staked parts, as
// Concordium defines the available balance).
func (c *Client) Balance(ctx context.Context, addr Address) (uint64, error) {
	info, err := c.c.GrpcClient.GetAccountInfo(ctx, &pb.AccountInfoRequest{
		BlockHash: &pb.BlockHashInput{BlockHashInput: &pb.BlockHashInput_Best{Best: &pb.Empty{}}},
		AccountIdentifier: &pb.AccountIdentifierInput{AccountIdentifierInput: &pb.AccountIdentifierInput_Address{
			Address: &pb.AccountAddress{Value: addr[:]}}},
	})
	if err != nil {
		return 0, fmt.Errorf("ccd: balance of %s: %w", addr, err)
	}
	if a := info.GetAvailableBalance(); a != nil {
		return a.GetValue(), nil
	}
	total := info.GetAmount().GetValue()
	held := info.GetSchedule().GetTotal().GetValue()
	staked := info.GetStake().GetBaker().GetStakedAmount().GetValue() + info.GetStake().GetDelegator().GetStakedAmount().GetValue()
	held = max(held, staked)
	if held >= total {
		return 0, nil
	}
	return total - held, nil
}

// InvokeRequest is the InvokeInstance request for a read-only contract call at the last
// finalized block with no invoker: the request the official SDK makes
// (cis8004.json grpc_invoke_instance_request). The Go SDK's InvokeInstance always sets an
// empty invoker instead, so this is built here.
func InvokeRequest(call ContractCall) *pb.InvokeInstanceRequest {
	return &pb.InvokeInstanceRequest{
		BlockHash:  &pb.BlockHashInput{BlockHashInput: &pb.BlockHashInput_LastFinal{LastFinal: &pb.Empty{}}},
		Instance:   &pb.ContractAddress{Index: call.Index, Subindex: call.Subindex},
		Amount:     &pb.Amount{Value: call.Amount},
		Entrypoint: &pb.ReceiveName{Value: call.Receive},
		Parameter:  &pb.Parameter{Value: append([]byte{}, call.Parameter...)},
		Energy:     &pb.Energy{Value: call.MaxEnergy},
	}
}

// ErrInvokeFailed: the contract call ran and failed; the error text carries the reject reason.
var ErrInvokeFailed = errors.New("ccd: contract invocation failed")

// Invoke runs a read-only contract call (InvokeInstance) and returns its return value.
func (c *Client) Invoke(ctx context.Context, call ContractCall) ([]byte, error) {
	r, err := c.c.GrpcClient.InvokeInstance(ctx, InvokeRequest(call))
	if err != nil {
		return nil, fmt.Errorf("ccd: invoke %s: %w", call.Receive, err)
	}
	if f := r.GetFailure(); f != nil {
		return nil, fmt.Errorf("%w: %s: %s", ErrInvokeFailed, call.Receive, prototext.Format(f.GetReason()))
	}
	return r.GetSuccess().GetReturnValue(), nil
}

// Network is the CAIP-2 chain id of the node's chain, "ccd:" + the first 16 bytes of its
// genesis block hash in hex (§3: testnet ccd:4221332d34e1694168c2a0c0b3fd0f27, mainnet
// ccd:9dd9ca4d19e9393877d2c44b70f89acb), from GetConsensusInfo. The arena compares it with the
// configured network before anchoring anything.
func (c *Client) Network(ctx context.Context) (string, error) {
	ci, err := c.c.GetConsensusInfo(ctx)
	if err != nil {
		return "", fmt.Errorf("ccd: consensus info: %w", err)
	}
	g := ci.GetGenesisBlock().GetValue()
	if len(g) != 32 {
		return "", fmt.Errorf("ccd: consensus info: genesis block hash of %d bytes", len(g))
	}
	return fmt.Sprintf("ccd:%x", g[:16]), nil
}

// IsTransient reports whether a Send/Status/NextNonce error is worth retrying unchanged: not
// a duplicate, not a refusal, not a hash mismatch.
func IsTransient(err error) bool {
	return err != nil && !errors.Is(err, ErrDuplicate) && !errors.Is(err, ErrRejected) &&
		!errors.Is(err, ErrHashMismatch)
}
