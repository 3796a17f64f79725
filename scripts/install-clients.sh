#!/usr/bin/env bash
# Installs the real clients that __tests__/clients/ drives into .tmp/clients (git-ignored): Claude Code
# (claude-code-cli.test.ts), opencode (opencode-cli.test.ts) and the OpenAI Agents SDK (openai-agents.test.ts).
# They are not project dependencies; CI runs this and sets REQUIRE_CLIENTS=1 so their tests cannot skip.
# One npm install for all of them: a second `npm install --no-save` into the same prefix would remove the first's.
set -euo pipefail
cd "$(dirname "$0")/.."
CLAUDE_CODE_VERSION="${CLAUDE_CODE_VERSION:-2.1.332}"
OPENCODE_VERSION="${OPENCODE_VERSION:-1.18.33}"
OPENAI_AGENTS_VERSION="${OPENAI_AGENTS_VERSION:-0.20.0}"
# The Agents SDK's peer dependency, pinned rather than left to npm's pick.
ZOD_VERSION="${ZOD_VERSION:-4.6.7}"
mkdir -p .tmp/clients
npm install --prefix .tmp/clients --no-audit --no-fund --no-save --loglevel=error \
  "@anthropic-ai/claude-code@${CLAUDE_CODE_VERSION}" \
  "opencode-ai@${OPENCODE_VERSION}" \
  "@openai/agents@${OPENAI_AGENTS_VERSION}" \
  "zod@${ZOD_VERSION}"
.tmp/clients/node_modules/.bin/claude --version
.tmp/clients/node_modules/.bin/opencode --version
node -p "'@openai/agents ' + require('./.tmp/clients/node_modules/@openai/agents/package.json').version"
