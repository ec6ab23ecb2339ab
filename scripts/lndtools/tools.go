//go:build tools

// Package lndtools pins the Lightning node binaries the simnet tests run (btcd, btcctl, lnd,
// lncli). It is its own module so lnd's ~200 dependencies never enter the project's go.mod;
// scripts/build-lnd.sh builds from here.
package lndtools

import (
	_ "github.com/btcsuite/btcd"
	_ "github.com/btcsuite/btcd/cmd/btcctl"
	_ "github.com/lightningnetwork/lnd/cmd/lncli"
	_ "github.com/lightningnetwork/lnd/cmd/lnd"
)
