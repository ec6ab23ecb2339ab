package main

import (
	"encoding/json"
	"strings"

	"arena/config"
	"arena/games"
	"arena/games/warden/claims"
	"arena/storage"
	"arena/transport/warden"
)

// wardenReads builds the Warden's Ledger reads (transport/warden Reads: §12–§14) over store:
// the Standing rule from config, and for each of the Bracket's Warden-family
// games its rounds (the format's turns) and the inputs a seat must give per match (the
// manifest's required steps per round × rounds; one per turn for a game without a manifest
// document), the denominators of §14.1's overshoot and timeout rates.
func wardenReads(cfg config.Config, store *storage.Store, bracket *games.Bracket) *warden.Reads {
	required := map[string]int64{claims.GameID: requiredSteps(claims.ManifestJSON)}
	shapes := map[string]warden.GameShape{}
	for _, m := range bracket.Manifests() {
		if !strings.HasPrefix(m.ID, "warden.") || len(m.Formats) == 0 {
			continue
		}
		turns := int64(m.Formats[0].Turns)
		per := required[m.ID]
		if per == 0 {
			per = 1
		}
		shapes[m.ID] = warden.GameShape{Rounds: turns, Inputs: per * turns}
	}
	return &warden.Reads{Store: store, Games: shapes,
		Rule: warden.StandingRule{EliteWinRatePct: cfg.Warden.Standing.EliteWinRatePct, EliteMinMatches: cfg.Warden.Standing.EliteMinMatches}}
}

// requiredSteps counts a §16.1 manifest's steps marked required (0 when it does not decode).
func requiredSteps(manifest []byte) int64 {
	var m struct {
		Steps []struct {
			Required bool `json:"required"`
		} `json:"steps"`
	}
	if json.Unmarshal(manifest, &m) != nil {
		return 0
	}
	var n int64
	for _, s := range m.Steps {
		if s.Required {
			n++
		}
	}
	return n
}
