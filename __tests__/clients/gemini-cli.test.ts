/**
 * The Gemini CLI (`gemini -p`, `@google/gemini-cli`) through the gateway as a Gemini caller (POST
 * /v1beta/models/…:streamGenerateContent, its base URL in GOOGLE_GEMINI_BASE_URL), to an upstream of every kind (chat
 * completions, Responses, Anthropic, Gemini). The scripted upstream calls the CLI's own `read_file` tool on a file
 * holding a random token, and answers with the token once the tool's result comes back: so the answer proves the
 * loop went round through both translations. The CLI's own token count, the gateway's usage records and the
 * upstream's requests are checked too.
 * The Gemini CLI is not a project dependency: `scripts/install-clients.sh` installs it into `.tmp/clients` (CI runs it
 * and sets REQUIRE_CLIENTS=1, which turns a missing client into a failure); `GEMINI_CLI_BIN` points at another copy.
 * Without it this file prints one line and skips.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { clientRuns, expectCleanExit, GEMINI_CLI, jsonLines, requireClient, runCli } from '../helpers/cli-client';
import { LOOP_TOKENS, toolLoopJudge, UPSTREAM_CALL_ID, UPSTREAMS, type JudgeRound } from '../helpers/tool-loop-judge';

const runs = clientRuns('gemini-cli.test.ts', 'the Gemini CLI', GEMINI_CLI);

const KEY = 'sk-gemini-cli-caller-0123456789';
/** The upstream calls the CLI's `read_file` tool on the file the prompt names. */
const judge = toolLoopJudge({
  runs,
  name: 'gemini-cli',
  key: KEY,
  keyId: 'gemini-cli',
  tool: 'read_file',
  args: (file) => ({ file_path: file }),
});

/**
 * The CLI's user settings (`~/.gemini/settings.json`): the API-key auth (without it a headless run exits 41, asking
 * for an auth method), and nothing sent anywhere but the gateway. Usage statistics (Clearcut logging) are what would
 * reach out; update checks, telemetry and IDE integration are off as well.
 */
const SETTINGS = {
  security: { auth: { selectedType: 'gemini-api-key' } },
  privacy: { usageStatisticsEnabled: false },
  telemetry: { enabled: false },
  general: { enableAutoUpdate: false, enableAutoUpdateNotification: false },
  ide: { enabled: false },
};

/** One line of `gemini --output-format stream-json`. */
interface GeminiEvent {
  type: string;
  role?: string;
  content?: string;
  tool_name?: string;
  tool_id?: string;
  parameters?: Record<string, unknown>;
  status?: string;
  output?: string;
  stats?: { input_tokens: number; output_tokens: number };
}

/**
 * Runs `gemini -m MODEL --output-format stream-json -p PROMPT` in the round's workspace (a token file in its work
 * directory, a home of its own), offline, in one process (GEMINI_CLI_NO_RELAUNCH: by default it relaunches itself as a
 * child, which a timeout's kill would leave running).
 */
async function gemini(round: JudgeRound) {
  const { work, home, model, prompt } = round;
  mkdirSync(join(home, '.gemini'));
  writeFileSync(join(home, '.gemini', 'settings.json'), JSON.stringify(SETTINGS, null, 2));
  const env = {
    PATH: process.env.PATH ?? '/usr/bin:/bin',
    HOME: home,
    GOOGLE_GEMINI_BASE_URL: judge.url,
    GEMINI_API_KEY: KEY,
    GEMINI_CLI_TRUST_WORKSPACE: 'true',
    GEMINI_CLI_NO_RELAUNCH: 'true',
  };
  const run = await runCli(GEMINI_CLI, ['-m', model, '--output-format', 'stream-json', '-p', prompt], {
    cwd: work,
    env,
    timeoutMs: 120_000,
  });
  return { ...run, events: jsonLines<GeminiEvent>(run.stdout) };
}

(runs ? describe : describe.skip)('the Gemini CLI through the gateway', () => {
  it.each(UPSTREAMS)(
    'to the %s upstream: the CLI runs read_file on the file, the upstream gets its result, the answer is the token',
    async (protocol) => {
      requireClient('the Gemini CLI', GEMINI_CLI);
      const round = judge.begin(protocol);
      const run = await gemini(round);

      expectCleanExit(run);
      // The CLI ran its read_file tool on the file the upstream named, and it succeeded.
      const calls = run.events.filter((event) => event.type === 'tool_use');
      expect(calls).toEqual([
        expect.objectContaining({ tool_name: 'read_file', parameters: { file_path: round.file } }),
      ]);
      const results = run.events.filter((event) => event.type === 'tool_result');
      expect(results).toEqual([expect.objectContaining({ tool_id: calls[0]!.tool_id, status: 'success' })]);
      // Gemini's calls carry no id of the upstream's; every other upstream's id reaches the CLI.
      if (protocol !== 'gemini') expect(calls[0]!.tool_id).toMatch(UPSTREAM_CALL_ID);
      // Its answer is the upstream's closing text, which only the tool's result could give.
      const text = run.events.filter((event) => event.type === 'message' && event.role === 'assistant');
      expect(text.map((event) => event.content).join('')).toBe(round.answer);
      // The upstream of this kind saw the loop: the call offered read_file, then the tool's result came back.
      judge.expectLoop(round);
      // The CLI counted the upstream's tokens: both calls' input and output, as the upstream reported them.
      const result = run.events.find((event) => event.type === 'result');
      expect(result?.stats).toMatchObject(LOOP_TOKENS);
      // Both calls came in as Gemini calls, went out to this upstream, and were charged its usage.
      await judge.expectBilled(round, 'gemini', { charged: true });
    },
    150_000,
  );
});
