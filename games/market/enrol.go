package market

// enroll creates the caller's Player ("Enrolment"): the Player, its Inventory, the Starting
// Assets issued from @issuance with one Ledger entry each, and one bump; the command record is
// handle's.
func (t *txn) enroll(owner string) (string, any, *refusal) {
	n := len(t.st.order) + 1
	p := &Player{ID: t.st.opaqueID("pl_", "player", n), OwnerID: owner, EnrolledAt: t.now}
	moves := make([]movement, 0, len(t.st.cfg.StartingAssets))
	for _, h := range t.st.cfg.StartingAssets {
		moves = append(moves, movement{Issuance, p.ID, h.AssetID, h.Quantity})
	}
	if rf := t.inRange(moves); rf != nil {
		return "", nil, rf
	}
	t.putPlayer(p)
	t.invMut(p.ID)
	for _, h := range t.st.cfg.StartingAssets {
		t.move(ReasonStartingAssets, Issuance, p.ID, h.AssetID, h.Quantity, LedgerRow{})
	}
	t.bump()
	return p.ID, t.enrolmentView(p), nil
}

func (t *txn) enrolmentView(p *Player) enrolmentView {
	return enrolmentView{Type: "enrolment", PlayerID: p.ID, EnrolledAt: formatTime(p.EnrolledAt), Holdings: t.holdings(p.ID)}
}

// holdings is an Inventory's view, one entry per configured Asset in configuration order.
func (t *txn) holdings(id string) []holdingView {
	inv := t.inv(id)
	out := make([]holdingView, 0, len(t.st.cfg.Assets))
	for _, a := range t.st.cfg.Assets {
		var q, r int64
		if inv != nil {
			q, r = inv.Holdings[a.ID], inv.Reserved[a.ID]
		}
		out = append(out, holdingView{AssetID: a.ID, Quantity: q, Reserved: r, Available: q - r})
	}
	return out
}

// setTradingName sets the caller's own Trading Name ("Trading Name"): "" goes back to the
// derived name; the name it already has changes nothing and bumps nothing.
func (t *txn) setTradingName(pid string, r *request) (any, *refusal) {
	if rf := checkName(r.tradingName); rf != nil {
		return nil, rf
	}
	p := t.player(pid)
	if p.TradingName != r.tradingName {
		c := *p
		c.TradingName = r.tradingName
		t.putPlayer(&c)
		t.bump()
	}
	return tradingNameView{PlayerID: pid, TradingName: optStr(r.tradingName)}, nil
}

// transfer moves one quantity of one Asset from the caller to another Player ("Transfer"): one
// Ledger entry, its only record. Refusals in this order: unknown_player, self_dealing,
// unknown_asset, insufficient_available.
func (t *txn) transfer(pid string, r *request) (any, *refusal) {
	if t.player(r.toPlayerID) == nil {
		return nil, refuse(CodeUnknownPlayer, "toPlayerId is not a Player of this game")
	}
	if r.toPlayerID == pid {
		return nil, refuse(CodeSelfDealing, "a Player cannot transfer to itself")
	}
	if !t.tradeable(r.assetID) {
		return nil, refuse(CodeUnknownAsset, "assetId is not an Asset this game trades")
	}
	if t.inv(pid).available(r.assetID) < r.quantity {
		return nil, refuse(CodeInsufficientAvailable, "the Available quantity does not cover the transfer")
	}
	if rf := t.inRange([]movement{{pid, r.toPlayerID, r.assetID, r.quantity}}); rf != nil {
		return nil, rf
	}
	t.transfers++
	id := t.st.opaqueID("tr_", "transfer", int(t.transfers))
	t.move(ReasonTransfer, pid, r.toPlayerID, r.assetID, r.quantity, LedgerRow{TransferID: id, Issuer: pid, CommandID: r.commandID})
	t.bump()
	return transferView{TransferID: id, ToPlayerID: r.toPlayerID, AssetID: r.assetID, Quantity: r.quantity}, nil
}

// tradeable reports whether the game defines asset as one that may move between Players.
func (t *txn) tradeable(asset string) bool {
	a, ok := t.st.cfg.asset(asset)
	return ok && !a.NonTransferable
}
