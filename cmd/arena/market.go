package main

import (
	"crypto/sha256"
	"fmt"
	"log/slog"
	"net"

	"github.com/asynkron/protoactor-go/actor"

	"arena/actors"
	am "arena/actors/market"
	"arena/config"
	"arena/storage"
	"arena/transport/market"
)

// The Game Master market's wiring (game-master-protocol-v2.md): its actor (actors/market) on the
// arena's actor system and store, the seam every door calls (market.Seam.Handle), the
// authenticator (API keys in the store, the configured gateway), and the doors the market site
// mounts (POST /v2/request, the A2A endpoint, the operator routes behind the operator token).

// marketSeed is the market's seed: every opaque ID and story-line draw is an HMAC of it, so it
// must not change while the market's Deltas are kept. It is derived from the instance key (kept
// in the data directory), under a label of its own, so no new secret file is needed and nothing
// of the key can be read back from it.
func marketSeed(sec config.Secrets) [32]byte {
	return sha256.Sum256(append([]byte("arena game-master market seed\x00"), sec.InstanceKey.Seed()...))
}

// marketOrigin is the origin the market's Agent Card names: its own listen address when it has
// one, else http://<its first Host name>:<the main port> (as Break Room's, breakroomOrigin).
func marketOrigin(cfg config.Config, listen, own net.Addr) (string, error) {
	return siteOrigin("", cfg.Market.Site.Hosts, listen, own)
}

// startMarket starts the market actor in sys over store (its Deltas replayed before the first
// request) and returns the doors of the market site.
func startMarket(cfg config.Config, sec config.Secrets, store *storage.Store, sys *actor.ActorSystem, origin string, log *slog.Logger) (*market.Doors, error) {
	game, seed := cfg.Market.Game(), marketSeed(sec)
	m, err := am.Start(sys, store, actors.RealClock(), game, seed, am.Options{Logger: log.With("component", "market")})
	if err != nil {
		return nil, fmt.Errorf("serve: market: %w", err)
	}
	seam, err := market.NewSeam(m, cfg.HTTP.MaxBody)
	if err != nil {
		return nil, err
	}
	auth, err := market.NewAuthenticator(store, market.Gateway{Header: cfg.Market.Gateway.Header, From: cfg.Market.GatewayFrom()})
	if err != nil {
		return nil, fmt.Errorf("serve: market: %w", err)
	}
	return &market.Doors{Seam: seam, Auth: auth, Card: market.Card(origin + "/a2a"),
		Ops: &market.Ops{Token: sec.OperatorToken, Auth: auth, Keys: store, Admin: market.AdminFromStore(store, game, seed)}}, nil
}
