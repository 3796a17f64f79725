#!/usr/bin/env bash
# Installs the real clients that __tests__/clients/claude-code-cli.test.ts drives into .tmp/clients (git-ignored).
# They are not project dependencies; CI runs this and sets REQUIRE_CLIENTS=1 so their tests cannot skip.
set -euo pipefail
cd "$(dirname "$0")/.."
CLAUDE_CODE_VERSION="${CLAUDE_CODE_VERSION:-2.1.332}"
mkdir -p .tmp/clients
npm install --prefix .tmp/clients --no-audit --no-fund --no-save --loglevel=error "@anthropic-ai/claude-code@${CLAUDE_CODE_VERSION}"
.tmp/clients/node_modules/.bin/claude --version
