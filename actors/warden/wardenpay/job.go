package wardenpay

// Job kinds: a settled match's payout, or a canceled match's refund of a cleared stake (§11,
// §5.4). Both are one ERC-20 transfer(to, amount) from the Warden's wallet.
const (
	KindPayout = "payout"
	KindRefund = "refund"
)

// Job statuses, forward only: queued → signed → confirmed | failed; a reverted signed job goes
// back to queued (a new nonce) until MaxReverts.
const (
	// JobQueued has no transaction: the Worker signs one at the wallet's next nonce.
	JobQueued = "queued"
	// JobSigned has its signed transaction (Raw) and hash (Tx) stored before it is sent: a
	// restart re-broadcasts Raw, or replaces it at the same nonce if the chain dropped it.
	JobSigned = "signed"
	// JobConfirmed has a receipt with status 1 for Tx.
	JobConfirmed = "confirmed"
	// JobFailed reverted MaxReverts times (payout_failed, §11): the operator is alerted and the
	// match stays SETTLING (or REFUNDING).
	JobFailed = "failed"
)

// MaxReverts is how many reverted transactions a job takes before it is payout_failed (§11).
const MaxReverts = 3

// Job is one payout or refund as payoutq/<match>/<seat> stores it. Amount is in the stake
// token's atomic units; To is the EIP-55 wallet paid.
type Job struct {
	Match  string `json:"match"`
	Seat   string `json:"seat"`
	Kind   string `json:"kind"`
	To     string `json:"to"`
	Amount uint64 `json:"amount"`
	// Payment is the refunded stake's payment id (refunds only).
	Payment string `json:"payment,omitempty"`
	Status  string `json:"status"`
	// Nonce, Tx and Raw are the current signed transaction (JobSigned and JobConfirmed): its
	// account nonce, its hash (0x, lower case) and its raw bytes (0x).
	Nonce uint64 `json:"nonce,omitempty"`
	Tx    string `json:"tx,omitempty"`
	Raw   string `json:"raw,omitempty"`
	// Hashes are every transaction signed at Nonce for this job (a dropped one replaced with
	// fresh fees keeps its hash here: whichever is mined is the job's).
	Hashes []string `json:"hashes,omitempty"`
	// Reverted are the hashes of this job's transactions that were mined with status 0.
	Reverted []string `json:"reverted,omitempty"`
	// Reason says why a job failed.
	Reason string `json:"reason,omitempty"`
	// Retried is how many of Reverted came before the operator's last Retry: the job fails
	// again after MaxReverts more reverts.
	Retried int `json:"retried,omitempty"`
}
