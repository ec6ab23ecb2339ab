package dilemma

import _ "embed"

// ManifestJSON is the game's Bracket-registry manifest (warden-games §16.1): its commit and
// reveal steps, the legal actions, stats and the outcome table, for doors that list Warden
// games. The engine's constants are its parameters (TestManifestMatchesEngine).
//
//go:embed manifest.json
var ManifestJSON []byte

// RulesText is the rules for Contenders, in Markdown (manifest "rules_text").
//
//go:embed rules.md
var RulesText string
