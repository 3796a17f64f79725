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
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { AnthropicProvider, GeminiProvider, MemoryKeyStore, OpenAIProvider, type UsageRecord } from '../../lib';
import { serveGateway, type RunningGateway } from '../helpers/app';
import { clientRuns, GEMINI_CLI, requireClient, runCli, tokenWorkspace, type CliRun } from '../helpers/cli-client';
import {
  inputTokensFor,
  startMockToolLoop,
  type LoopProtocol,
  type LoopRequest,
  type MockToolLoop,
} from '../helpers/mock-tool-loop';

const runs = clientRuns('gemini-cli.test.ts', 'the Gemini CLI', GEMINI_CLI);

const KEY = 'sk-gemini-cli-caller-0123456789';
const UPSTREAMS: readonly LoopProtocol[] = ['chat', 'responses', 'anthropic', 'gemini'];
const TOKEN = /token-[0-9a-f]{16}/;

/** The file the prompt names (the system prompt lists the work directory too, so the prompt's own words are sought). */
function promptedFile(request: LoopRequest): string {
  const path = /Read the file (\/\S*?token\.txt)/.exec(JSON.stringify(request.body))?.[1];
  if (!path) throw new Error('the prompt names no token.txt');
  return path;
}

let upstream: MockToolLoop;
let server: RunningGateway;
let records: UsageRecord[];
let dir: string;

beforeAll(async () => {
  if (!runs) return;
  // The CLI's `read_file` tool, called on the file the prompt names; the closing text quotes the token its result held.
  upstream = await startMockToolLoop(1, {
    tool: 'read_file',
    args: (request) => ({ file_path: promptedFile(request) }),
    text: (request) => {
      const token = request.results.map((result) => TOKEN.exec(result)?.[0]).find(Boolean);
      return token ? `The token is ${token}.` : 'A token reader';
    },
    textUnlessOffered: true,
  });
  const common = { apiKey: 'sk-upstream-0000', retries: { max: 0 } };
  records = [];
  server = await serveGateway({
    keyStore: new MemoryKeyStore([{ key: KEY, id: 'gemini-cli' }]),
    providers: [
      new OpenAIProvider({ name: 'chat', baseUrl: `${upstream.origin}/v1`, ...common }),
      new OpenAIProvider({ name: 'responses', baseUrl: `${upstream.origin}/v1`, responsesModels: ['loop'], ...common }),
      new AnthropicProvider({ name: 'anthropic', baseUrl: upstream.origin, ...common }),
      new GeminiProvider({ name: 'gemini', baseUrl: `${upstream.origin}/v1beta`, ...common }),
    ],
    models: UPSTREAMS.map((name) => ({ id: `via-${name}`, provider: name, upstreamModel: 'loop' })),
    usageSink: (record) => {
      records.push(record);
    },
  });
  dir = mkdtempSync(join(tmpdir(), 'rg-gemini-cli-'));
});
afterAll(async () => {
  if (!runs) return;
  await server?.close();
  await upstream?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
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

interface GeminiRun extends CliRun {
  events: GeminiEvent[];
  file: string;
  token: string;
}

/**
 * Runs `gemini -m MODEL --output-format stream-json -p PROMPT` in a fresh workspace (a token file in its work
 * directory, a home of its own), offline, in one process (GEMINI_CLI_NO_RELAUNCH: by default it relaunches itself as a
 * child, which a timeout's kill would leave running).
 */
async function gemini(model: string): Promise<GeminiRun> {
  const { work, home, file, token } = tokenWorkspace(mkdtempSync(join(dir, 'run-')));
  mkdirSync(join(home, '.gemini'));
  writeFileSync(join(home, '.gemini', 'settings.json'), JSON.stringify(SETTINGS, null, 2));
  const env = {
    PATH: process.env.PATH ?? '/usr/bin:/bin',
    HOME: home,
    GOOGLE_GEMINI_BASE_URL: server.url,
    GEMINI_API_KEY: KEY,
    GEMINI_CLI_TRUST_WORKSPACE: 'true',
    GEMINI_CLI_NO_RELAUNCH: 'true',
  };
  const prompt = `Read the file ${file} and tell me the token in it.`;
  const run = await runCli(GEMINI_CLI, ['-m', model, '--output-format', 'stream-json', '-p', prompt], {
    cwd: work,
    env,
    timeoutMs: 120_000,
  });
  const events = run.stdout
    .split('\n')
    .filter((line) => line.startsWith('{'))
    .map((line) => JSON.parse(line) as GeminiEvent);
  return { ...run, events, file, token };
}

/** The usage records of calls of `model` received at or after `since`, once `count` of them have arrived. */
async function recordsOf(model: string, since: number, count: number): Promise<UsageRecord[]> {
  const mine = () => records.filter((record) => record.model === model && record.timings.received >= since);
  for (let tries = 0; mine().length < count && tries < 200; tries++) await new Promise((r) => setTimeout(r, 10));
  return mine();
}

(runs ? describe : describe.skip)('the Gemini CLI through the gateway', () => {
  it.each(UPSTREAMS)(
    'to the %s upstream: the CLI runs read_file on the file, the upstream gets its result, the answer is the token',
    async (protocol) => {
      requireClient('the Gemini CLI', GEMINI_CLI);
      const model = `via-${protocol}`;
      const from = upstream.requests.length;
      const since = Date.now();
      const run = await gemini(model);

      expect({ code: run.code, stderr: run.code === 0 ? '' : run.stderr }).toEqual({ code: 0, stderr: '' });
      // The CLI ran its read_file tool on the file the upstream named, and it succeeded.
      const calls = run.events.filter((event) => event.type === 'tool_use');
      expect(calls).toEqual([expect.objectContaining({ tool_name: 'read_file', parameters: { file_path: run.file } })]);
      const results = run.events.filter((event) => event.type === 'tool_result');
      expect(results).toEqual([expect.objectContaining({ tool_id: calls[0]!.tool_id, status: 'success' })]);
      // Gemini's calls carry no id of the upstream's; every other upstream's id reaches the CLI.
      if (protocol !== 'gemini') expect(calls[0]!.tool_id).toMatch(/call_loop_1_/);
      // Its answer is the upstream's closing text, which only the tool's result could give.
      const text = run.events.filter((event) => event.type === 'message' && event.role === 'assistant');
      expect(text.map((event) => event.content).join('')).toBe(`The token is ${run.token}.`);
      // The upstream of this kind saw the loop: the call offered read_file, then the tool's result came back.
      const looped = upstream.requests.slice(from).filter((request) => request.toolNames.includes('read_file'));
      expect(looped.map((request) => [request.protocol, request.results.length])).toEqual([
        [protocol, 0],
        [protocol, 1],
      ]);
      expect(looped[1]!.results[0]).toContain(run.token);
      // The CLI counted the upstream's tokens: both calls' input and output, as the upstream reported them.
      const result = run.events.find((event) => event.type === 'result');
      expect(result?.stats).toMatchObject({
        input_tokens: inputTokensFor(0) + inputTokensFor(1),
        output_tokens: 10,
      });
      // Both calls came in as Gemini calls, went out to this upstream, and were charged its usage.
      const billed = await recordsOf(model, since, 2);
      expect(billed).toHaveLength(2);
      billed.forEach((record, index) => {
        expect(record).toMatchObject({
          protocol: 'gemini',
          provider: protocol,
          outcome: 'ok',
          keyId: 'gemini-cli',
          usage: { inputTokens: inputTokensFor(index), outputTokens: 5 },
          credits: { charged: inputTokensFor(index) + 5 },
        });
      });
    },
    150_000,
  );
});
