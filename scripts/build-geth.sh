#!/usr/bin/env bash
# Builds geth (go-ethereum's node, used by chain/evm's tests as a real `--dev` chain) into a cache
# outside the clone, keyed by version, and prints the binary's path. Idempotent: a cached binary
# is reused. The build runs in its own module (`go install pkg@version`), never touching the
# project's go.mod. Override the cache root with ARENA_TOOLS_CACHE.
set -euo pipefail
GETH_VERSION=${GETH_VERSION:-v1.17.10}
root=${ARENA_TOOLS_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/arena-tools}
dir="$root/geth-$GETH_VERSION"
if [ -x "$dir/geth" ]; then
  echo "$dir/geth"
  exit 0
fi
mkdir -p "$dir"
tmp=$(mktemp -d "$dir/.build.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
start=$(date +%s)
GOBIN="$tmp" GOFLAGS=-mod=mod go install "github.com/ethereum/go-ethereum/cmd/geth@$GETH_VERSION" >&2
mv "$tmp/geth" "$dir/geth"
echo "build-geth: built geth $GETH_VERSION in $(( $(date +%s) - start ))s" >&2
echo "$dir/geth"
