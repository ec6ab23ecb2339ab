// Package wardenpay is the Warden's money out (warden-games §11, §5.4, §12.2): payouts of a
// settled match and refunds of a canceled one, each a durable job in warden_state
// (payoutq/<match>/<seat>) paid by one ERC-20 transfer the Warden's wallet signs (EIP-1559,
// chain/evm), and the SETTLED write that appends the match's Ledger rows once every payout has
// confirmed.
//
// The match actor queues a finished match's payouts with QueueSettlement inside its own
// FINISHED → SETTLING transaction; the Worker signs, sends and confirms the jobs (a
// transaction's hash is stored before it is sent, so a crash re-broadcasts the same bytes),
// appends the rows and marks the match SETTLED in one write; the Sweeper cancels matches whose
// stake window closed and queues their refunds, and expires unjoined ones.
package wardenpay
