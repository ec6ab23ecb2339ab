#!/usr/bin/env bash
# The whole test suite, from a fresh machine: installs what the tests need, then runs them.
# Called by .ci/run; the README names it as the test command.
set -euo pipefail
cd "$(dirname "$0")/.."
export GOFLAGS=${GOFLAGS:-}
# A clone stands alone: the tests read only the repository's own testdata/ folders, never a
# directory beside the checkout.
if outside=$(grep -rlE --include='*.go' --exclude-dir=node_modules --exclude-dir=.git \
	-e '\.\./shared' -e 'shared/testdata' .); then
	echo "these Go files refer to test data outside the repository (../shared, shared/testdata):" >&2
	echo "$outside" >&2
	exit 1
fi
# Client tests (MCP TypeScript SDK, A2A JS SDK, headless Chromium) install their own peers here.
if [ -x scripts/install-test-deps.sh ]; then scripts/install-test-deps.sh; fi
# chain/evm's tests run this geth --dev (built and cached by install-test-deps.sh above).
ARENA_GETH="$(scripts/build-geth.sh)"
export ARENA_GETH
# chain/lightning/simnet's tests run btcd and two lnd nodes on simnet (built and cached the same way).
ARENA_LND_TOOLS="$(scripts/build-lnd.sh)"
export ARENA_LND_TOOLS
go vet ./...
go test -race -count=1 -timeout 15m ./...
