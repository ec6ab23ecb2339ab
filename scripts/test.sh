#!/usr/bin/env bash
# The whole test suite, from a fresh machine: installs what the tests need, then runs them.
# Called by .ci/run; the README names it as the test command.
set -euo pipefail
cd "$(dirname "$0")/.."
export GOFLAGS=${GOFLAGS:-}
# Client tests (MCP TypeScript SDK, A2A JS SDK, headless Chromium) install their own peers here.
if [ -x scripts/install-test-deps.sh ]; then scripts/install-test-deps.sh; fi
go vet ./...
go test -race -count=1 -timeout 15m ./...
