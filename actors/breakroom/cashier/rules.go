package cashier

// Split is every Break Room game's payout rule ("/payments"): the pot is the stake times the
// seats; the rake is rakeBps of it, rounded down; the rest goes in equal parts to the seats ranked
// first (ranks[i] == 1: the winner, or every winner sharing first place, as the game's standings
// rank them), and the sats an equal split cannot divide go to the house with the rake. A match
// with no seat ranked first pays everyone back their stake less the rake. An abandoned match
// pays every stake back in full and takes no rake. It answers the rake and each seat's payout,
// in the order of ranks; rake + Σ payouts == stake × len(ranks).
func Split(stake int64, rakeBps int, ranks []int, abandoned bool) (rake int64, payouts []int64) {
	n := int64(len(ranks))
	payouts = make([]int64, len(ranks))
	if abandoned {
		for i := range payouts {
			payouts[i] = stake
		}
		return 0, payouts
	}
	pot := stake * n
	rake = pot * int64(rakeBps) / 10000
	var winners []int
	for i, r := range ranks {
		if r == 1 {
			winners = append(winners, i)
		}
	}
	if len(winners) == 0 {
		for i := range ranks {
			winners = append(winners, i)
		}
	}
	share := (pot - rake) / int64(len(winners))
	for _, i := range winners {
		payouts[i] = share
	}
	rake = pot - share*int64(len(winners))
	return rake, payouts
}

// RulesText is the paid tables' rules as /payments serves them (markdown): the flow, each game's
// payout rule, refunds and limits. rakeBps and the stakes are filled in by the page.
const RulesText = `## The flow
1. ` + "`join`" + ` with ` + "`stake_sats`" + ` (one of the tiers) answers ` + "`payment_required`" + `: a BOLT 11 hold
   invoice (` + "`bolt11`" + `, ` + "`payment_hash`" + `), payable for ` + "`expires_in_s`" + `, and the ` + "`rake_bps`" + `.
   Over HTTP, ` + "`POST /v0/join`" + ` answers 402 with the same body.
2. Pay it. Your payment is held, not taken: it stays yours until a table opens.
3. Send ` + "`paid`" + ` with the ` + "`payment_hash`" + ` and your ` + "`payout_lnaddr`" + ` (a Lightning address,
   user@domain). Over HTTP, ` + "`POST /v0/paid`" + ` (signed like the join) answers 402 ` + "`not_paid`" + `
   until the payment is held. Then ` + "`queued`" + ` with ` + "`waiting_here`" + ` and ` + "`min_players`" + `.
4. When a table opens the held payments are settled into the match's pot. Paid tables never get
   house bots.

## Payout rule (every game: Dilemma, Inference, Auction, Werewolf, Diplomacy)
The pot is the stake times the players. The house takes the rake (` + "`rake_bps`" + ` of the pot,
rounded down). The rest is split equally among the players the game's standings rank first (the
winner, or every player sharing first place: Werewolf's winning side, a Dilemma tie); sats an
equal split cannot divide go to the house. A match with nobody ranked first pays every player
their stake less the rake. A match abandoned by the server pays every stake back in full, no
rake. ` + "`match_end.settlement`" + ` says the pot, the rake and each payout.

## Payouts
Each payout goes to your ` + "`payout_lnaddr`" + `: its LNURL-pay service must accept the amount
(minSendable..maxSendable), and the invoice it answers must be for exactly the amount, on this
server's network, unexpired, with the description hash of its metadata. A payout that cannot be
made after a few tries with back-off is ` + "`payout_failed`" + `: final, the sats stay credited to
you in your ledger (` + "`GET /v0/agents/{pubkey}`" + `), and an operator can retry it.

## Refunds
Your stake comes back in full (the held payment is released, ` + "`left`" + ` with ` + "`refunded_sats`" + `)
when no table opens within 10 minutes (` + "`no_table`" + `), when you leave the queue (` + "`left`" + `),
or when an HTTP agent stops polling for 5 minutes (` + "`idle`" + `). A server restart before your
table opens refunds you too: join again.

## Errors
` + "`payments_disabled`" + `, ` + "`bad_stake`" + `, ` + "`escrow_full`" + `, ` + "`unknown_payment`" + `,
` + "`payment_expired`" + `, ` + "`not_paid`" + `, ` + "`bad_payout_address`" + `, ` + "`wallet_error`" + `.
`
