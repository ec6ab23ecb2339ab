#!/usr/bin/env bash
# Installs what the client tests need, idempotently (scripts/test.sh calls it; safe to re-run):
#   - `npm ci` in every test client folder that has a package-lock.json (the A2A JS SDK agent in
#     transport/a2a/testagent, the Break Room agent in transport/breakroom/testagent, the Break
#     Room MCP client in transport/breakroom/mcp/testclient, the market's A2A JS SDK client in
#     transport/market/testclient, the Solidity compiler and viem in chain/evm/contracts, x402-fetch,
#     @x402/fetch, @circle-fin/x402-batching and the MCP TypeScript SDK with viem in
#     transport/warden/testclient, and any
#     other folder listed below as it lands), skipped when its
#     node_modules already matches the lock;
#   - Debian's chromium for the browser tests, when apt-get is there and chromium is not (set
#     ARENA_SKIP_CHROMIUM=1 to skip it).
#   - Debian's etcd-server (the `etcd` binary the cluster tests start on loopback), the same way,
#     when apt-get is there and etcd is not (set ARENA_SKIP_ETCD=1 to skip it).
#   - geth (go-ethereum's node, for chain/evm's dev chain), built by scripts/build-geth.sh into
#     a cache outside the clone keyed by its version (about two minutes the first time, then reused).
#   - btcd, btcctl, lnd and lncli (a real Lightning simnet for chain/lightning's tests), built by
#     scripts/build-lnd.sh from the tools module scripts/lndtools into the same cache, keyed by
#     the pinned versions and that module's go.sum (about 80 s the first time, then reused).
# Without node/npm the client folders are skipped with a warning: the Go tests that need them
# then skip loudly, saying so.
set -euo pipefail
cd "$(dirname "$0")/.."

client_dirs=(
  transport/a2a/testagent
  transport/dotdotdot/chatseat/testclient
  transport/breakroom/testagent
  transport/breakroom/mcp/testclient
  transport/market/testclient
  chain/evm/contracts
  transport/warden/testclient
)

if command -v npm >/dev/null 2>&1; then
  for d in "${client_dirs[@]}"; do
    [ -f "$d/package-lock.json" ] || continue
    # A stamp holding the lock's SHA-256, written after a successful npm ci: when it matches,
    # the tree is current and npm ci (which deletes node_modules first) is not run again.
    stamp="$d/node_modules/.arena-lock-sha256"
    want="$(sha256sum "$d/package-lock.json" | cut -d' ' -f1)"
    if [ -f "$stamp" ] && [ "$(cat "$stamp")" = "$want" ]; then
      echo "install-test-deps: $d up to date"
      continue
    fi
    echo "install-test-deps: npm ci in $d"
    # Bounded, and tried once more: a registry that stalls must not eat CI's time budget.
    if ! (cd "$d" && timeout 600 npm ci --no-audit --no-fund --loglevel=error); then
      echo "install-test-deps: npm ci in $d failed or took over 600 s; trying once more" >&2
      (cd "$d" && timeout 600 npm ci --no-audit --no-fund --loglevel=error)
    fi
    echo "$want" >"$stamp"
  done
else
  echo "install-test-deps: WARNING: npm not found; client tests needing node will skip" >&2
fi

if [ -n "${ARENA_SKIP_CHROMIUM:-}" ]; then
  echo "install-test-deps: chromium skipped (ARENA_SKIP_CHROMIUM)"
elif ! command -v chromium >/dev/null 2>&1 && ! command -v chromium-browser >/dev/null 2>&1; then
  if command -v apt-get >/dev/null 2>&1 && [ "$(id -u)" = 0 ]; then
    echo "install-test-deps: apt-get install chromium"
    apt-get update -q >/dev/null || true
    DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends chromium >/dev/null ||
      echo "install-test-deps: WARNING: chromium could not be installed; browser tests will skip" >&2
  else
    echo "install-test-deps: WARNING: chromium not installed and apt-get unavailable (or not root)" >&2
  fi
fi

if [ -n "${ARENA_SKIP_ETCD:-}" ]; then
  echo "install-test-deps: etcd-server skipped (ARENA_SKIP_ETCD)"
elif ! command -v etcd >/dev/null 2>&1 && [ ! -x /usr/bin/etcd ]; then
  if command -v apt-get >/dev/null 2>&1 && [ "$(id -u)" = 0 ]; then
    echo "install-test-deps: apt-get install etcd-server"
    apt-get update -q >/dev/null || true
    DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends etcd-server >/dev/null ||
      echo "install-test-deps: WARNING: etcd-server could not be installed; the cluster tests will fail" >&2
  else
    echo "install-test-deps: WARNING: etcd not installed and apt-get unavailable (or not root); the cluster tests will fail" >&2
  fi
fi

scripts/build-geth.sh >/dev/null
scripts/build-lnd.sh >/dev/null
