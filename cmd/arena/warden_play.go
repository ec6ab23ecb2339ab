package main

import (
	"fmt"
	"log/slog"

	"github.com/asynkron/protoactor-go/actor"

	aw "arena/actors/warden"
	"arena/actors/warden/wardenpay"
	"arena/config"
	"arena/games"
	"arena/games/warden/claims"
	"arena/games/warden/feed"
	"arena/storage"
	"arena/transport/warden"
)

// wardenRake is each Warden game's rake in bps, its manifest's rake_bps (§2.2, [JC-13]): Game
// I 5 %, Game II none (its outcome table keeps the house's share). A game not listed has none.
var wardenRake = map[string]int64{claims.GameID: claims.RakeBps}

// wardenSteps names the engines' steps in the Gallery feed's words (§15.3).
var wardenSteps = map[string]string{"message": feed.StepMessage, "claim": feed.StepClaim}

// wardenPlay starts the Warden's match actors (actors/warden) in sys: every match a previous
// process left LIVE or FINISHED is restarted before it returns (boot recovery), and a finished
// match's payouts are queued with wardenpay.QueueSettlement in its FINISHED → SETTLING write.
// Call it after the doors' Recover, so the stakes a crash left settling are cleared first.
func wardenPlay(cfg config.Config, store *storage.Store, bracket *games.Bracket, sys *actor.ActorSystem, d *warden.Doors, log *slog.Logger) (*aw.Warden, error) {
	network := "dev"
	if e := cfg.Warden.EVM; e.Enabled() {
		network = fmt.Sprintf("eip155:%d", e.ChainID)
	}
	// The stakes a settlement rests on were paid on the stake rail's chain (§10.4).
	stakeNetwork := fmt.Sprintf("eip155:%d", d.Rail.ChainID)
	w, err := aw.Start(aw.Options{Store: store, Bracket: bracket, System: sys, Log: log.With("component", "warden_play"),
		Rake: wardenRake, Network: network, Rail: d.Rail.ID, Feed: true, FeedStep: wardenSteps,
		Queue: func(tx storage.WardenTx, match string, rows [2]storage.WardenRow) error {
			return wardenpay.QueueSettlement(tx, wardenpay.Settlement{Match: match, Rows: rows, Network: stakeNetwork})
		}})
	if err != nil {
		return nil, fmt.Errorf("serve: %w", err)
	}
	return w, nil
}

// wardenPlayMCP points the MCP door's match-tied reads (warden_state, warden_legal_moves,
// warden_wait) at the match actors' private views, through the REST doors' View.
func wardenPlayMCP(m *warden.MCP, d *warden.Doors) *warden.MCP {
	if m != nil && d != nil && d.Play != nil {
		m.Views = d
	}
	return m
}
