/**
 * opencode (`opencode run`, the `opencode-ai` CLI) through the gateway with each of its provider packages as the
 * caller: `@ai-sdk/openai-compatible` (POST /v1/chat/completions), `@ai-sdk/openai` (POST /v1/responses),
 * `@ai-sdk/anthropic` (POST /v1/messages) and `@ai-sdk/google` (POST /v1beta/models/…:streamGenerateContent); and
 * for each, an upstream of every kind (chat completions, Responses, Anthropic, Gemini). The scripted upstream calls
 * opencode's own `read` tool on a file holding a random token, and answers with the token once the tool's result
 * comes back: so the answer proves the loop went round through both translations.
 * opencode is not a project dependency: `scripts/install-clients.sh` installs it into `.tmp/clients` (CI runs it and
 * sets REQUIRE_CLIENTS=1, which turns a missing client into a failure); `OPENCODE_BIN` points at another copy.
 * Without it this file prints one line and skips.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { clientRuns, expectCleanExit, jsonLines, OPENCODE, requireClient, runCli } from '../helpers/cli-client';
import { modelOf, toolLoopJudge, UPSTREAM_CALL_ID, UPSTREAMS, type JudgeRound } from '../helpers/tool-loop-judge';

const runs = clientRuns('opencode-cli.test.ts', 'opencode', OPENCODE);

const KEY = 'sk-opencode-caller-0123456789';
/** opencode's provider packages, each the caller of one gateway protocol, and the base URL it is given. */
const CALLERS = [
  { id: 'gw-chat', npm: '@ai-sdk/openai-compatible', path: '/v1', codec: 'openai-chat' },
  { id: 'gw-responses', npm: '@ai-sdk/openai', path: '/v1', codec: 'openai-responses' },
  { id: 'gw-anthropic', npm: '@ai-sdk/anthropic', path: '/v1', codec: 'anthropic-messages' },
  { id: 'gw-gemini', npm: '@ai-sdk/google', path: '/v1beta', codec: 'gemini' },
] as const;
/** The upstream calls opencode's `read` tool on the file the prompt names. */
const judge = toolLoopJudge({
  runs,
  name: 'opencode',
  key: KEY,
  keyId: 'opencode',
  tool: 'read',
  args: (file) => ({ filePath: file }),
});

/** opencode's config (the `provider` map of opencode.json): every caller package, each offering every gateway model. */
function config(gateway: string): Record<string, unknown> {
  const models = Object.fromEntries(
    UPSTREAMS.map(modelOf).map((model) => [
      model,
      { name: model, tool_call: true, limit: { context: 100_000, output: 4_096 } },
    ]),
  );
  return {
    $schema: 'https://opencode.ai/config.json',
    autoupdate: false,
    share: 'disabled',
    provider: Object.fromEntries(
      CALLERS.map(({ id, npm, path }) => [
        id,
        { npm, name: id, options: { baseURL: `${gateway}${path}`, apiKey: KEY }, models },
      ]),
    ),
  };
}

/** One line of `opencode run --format json` (an event of the session). */
interface OpencodeEvent {
  type: string;
  part: {
    type: string;
    text?: string;
    tool?: string;
    callID?: string;
    state?: { status: string; input?: Record<string, unknown>; output?: string };
  };
}

/**
 * Runs `opencode run --format json --model CALLER/MODEL PROMPT` in the round's workspace (a token file in its work
 * directory) whose home and XDG directories are its own, offline: no update check, no model list fetched, no plugins.
 */
async function opencode(caller: string, round: JudgeRound) {
  const { work, home, model, prompt } = round;
  const configDir = join(home, '.config', 'opencode');
  // An empty node_modules keeps opencode from installing its plugin package from the network.
  mkdirSync(join(configDir, 'node_modules'), { recursive: true });
  writeFileSync(join(configDir, 'opencode.json'), JSON.stringify(config(judge.url), null, 2));
  const env = {
    PATH: process.env.PATH ?? '/usr/bin:/bin',
    HOME: home,
    XDG_CONFIG_HOME: join(home, '.config'),
    XDG_DATA_HOME: join(home, '.local', 'share'),
    XDG_CACHE_HOME: join(home, '.cache'),
    XDG_STATE_HOME: join(home, '.local', 'state'),
    OPENCODE_DISABLE_AUTOUPDATE: '1',
    OPENCODE_DISABLE_MODELS_FETCH: '1',
    OPENCODE_DISABLE_SHARE: '1',
    OPENCODE_DISABLE_LSP_DOWNLOAD: '1',
    OPENCODE_DISABLE_DEFAULT_PLUGINS: '1',
    OPENCODE_DISABLE_CLAUDE_CODE: '1',
  };
  const run = await runCli(OPENCODE, ['run', '--pure', '--format', 'json', '--model', `${caller}/${model}`, prompt], {
    cwd: work,
    env,
    timeoutMs: 150_000,
  });
  return { ...run, events: jsonLines<OpencodeEvent>(run.stdout) };
}

(runs ? describe : describe.skip)('opencode run through the gateway', () => {
  describe.each(CALLERS)('with $npm', ({ id, codec }) => {
    it.each(UPSTREAMS)(
      'to the %s upstream: opencode runs read on the file, the upstream gets its result, the answer is the token',
      async (protocol) => {
        requireClient('opencode', OPENCODE);
        const round = judge.begin(protocol);
        const run = await opencode(id, round);

        expectCleanExit(run);
        // opencode ran its read tool on the file the upstream named, and it read the token.
        const tools = run.events.filter((event) => event.type === 'tool_use').map((event) => event.part);
        expect(tools).toEqual([
          expect.objectContaining({
            tool: 'read',
            state: expect.objectContaining({ status: 'completed', input: { filePath: round.file } }),
          }),
        ]);
        expect(tools[0]!.state!.output).toContain(round.token);
        // Gemini's calls carry no id (its SDK or the gateway names them); every other path keeps the upstream's.
        if (protocol !== 'gemini' && id !== 'gw-gemini') expect(tools[0]!.callID).toMatch(UPSTREAM_CALL_ID);
        // Its answer is the upstream's closing text, which only the tool's result could give.
        const text = run.events.filter((event) => event.type === 'text').map((event) => event.part.text);
        expect(text.join('')).toBe(round.answer);
        // The upstream of this kind saw the loop: the call offered read, then the tool's result came back.
        judge.expectLoop(round);
        // Every call (the loop's two, and any side call such as a title) came in through the caller package's
        // protocol and went out to this upstream.
        await judge.expectBilled(round, codec, { atLeast: true });
      },
      180_000,
    );
  });
});
