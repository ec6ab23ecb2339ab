package market

// statement is the reader's own movements ("Statement", "What a caller can infer about other
// Players"): the most recent limit of them, oldest first, each numbered by the reader's own
// dense entryNumber (1 is its first movement), never the Ledger's game-wide sequence. A rule
// movement says rule_applied with its drawn line and no counterparty; commandId is on a row
// only when the reader issued its Command.
func (t *txn) statement(pid string, limit int) statementView {
	seqs := t.st.entries[pid]
	from := max(0, len(seqs)-limit)
	out := statementView{PlayerID: pid, Entries: make([]entryView, 0, len(seqs)-from)}
	for i := from; i < len(seqs); i++ {
		row := &t.st.ledger[seqs[i]-1]
		e := entryView{EntryNumber: uint64(i) + 1, RecordedAt: formatTime(row.At), Reason: row.Reason,
			Direction: "in", AssetID: row.AssetID, Quantity: row.Quantity,
			TransferID: optStr(row.TransferID), ExchangeID: optStr(row.ExchangeID)}
		other := row.From
		if row.From == pid {
			e.Direction, other = "out", row.To
		}
		switch row.Reason {
		case ReasonRuleGrant, ReasonRuleWithdrawal:
			e.Reason, e.RuleNote = "rule_applied", row.RuleNote
		default:
			if _, ok := t.st.players[other]; ok {
				e.Counterparty = strPtr(other)
			}
		}
		if row.Issuer == pid && row.CommandID != "" {
			e.CommandID = strPtr(row.CommandID)
		}
		out.Entries = append(out.Entries, e)
	}
	return out
}
