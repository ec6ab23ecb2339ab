package actors

import (
	"crypto/ed25519"
	"log/slog"

	"arena/games"
	"arena/storage"
)

// env is what every actor of the tree shares: read-only after Start (metrics is safe for
// concurrent use).
type env struct {
	store       *storage.Store
	bracket     *games.Bracket
	clock       Clock
	log         *slog.Logger
	key         ed25519.PrivateKey
	agent       string
	keys        KeyProvider       // Options.Keys (nil: no seat has a key unless its product gives keys)
	anchorer    Anchorer          // Options.Anchorer (the chain actor)
	products    *products         // Options.Products, by game (products.go)
	countAnchor bool              // the anchorer replies (not NopAnchorer): finished tables wait for replies
	channels    map[string]string // Options.Channels and every product's Channels
	m           *metrics
	maxRestarts int
	onEvents    func(table, round string, events []games.Event)
	onStatus    func(table, status string) // Options.OnStatus
}
