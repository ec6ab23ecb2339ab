#!/usr/bin/env bash
# Builds the Lightning simnet tools (btcd and btcctl from btcd, lnd and lncli from lnd), used by
# chain/lightning/simnet's tests as a real btcd simnet with two lnd nodes, into a cache outside
# the clone, and prints the directory holding the four binaries. Idempotent: the cache is keyed
# by the pinned versions and the tools module's go.sum (scripts/lndtools), built once, then
# reused. The build runs in that separate module, never touching the project's go.mod. Override
# the cache root with ARENA_TOOLS_CACHE.
set -euo pipefail
cd "$(dirname "$0")/lndtools"
BTCD_VERSION=v0.24.2
LND_VERSION=v0.18.3-beta.rc3
sum=$(sha256sum go.mod go.sum | sha256sum | cut -c1-12)
root=${ARENA_TOOLS_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/arena-tools}
dir="$root/lnd-$LND_VERSION-btcd-$BTCD_VERSION-$sum"
if [ -x "$dir/lnd" ] && [ -x "$dir/lncli" ] && [ -x "$dir/btcd" ] && [ -x "$dir/btcctl" ]; then
  echo "$dir"
  exit 0
fi
mkdir -p "$dir"
tmp=$(mktemp -d "$dir/.build.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
start=$(date +%s)
# The RPC subservers the tests use: invoicesrpc (hold invoices), routerrpc, walletrpc, signrpc,
# chainrpc.
tags="signrpc walletrpc chainrpc invoicesrpc routerrpc"
GOFLAGS=-mod=mod go build -trimpath -o "$tmp/" -tags "$tags" \
  github.com/btcsuite/btcd github.com/btcsuite/btcd/cmd/btcctl \
  github.com/lightningnetwork/lnd/cmd/lnd github.com/lightningnetwork/lnd/cmd/lncli >&2
for b in btcd btcctl lnd lncli; do mv "$tmp/$b" "$dir/$b"; done
echo "build-lnd: built lnd $LND_VERSION, btcd $BTCD_VERSION in $(( $(date +%s) - start ))s" >&2
echo "$dir"
