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
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { AnthropicProvider, GeminiProvider, MemoryKeyStore, OpenAIProvider, type UsageRecord } from '../../lib';
import { serveGateway, type RunningGateway } from '../helpers/app';
import { clientRuns, OPENCODE, requireClient, runCli, tokenWorkspace, type CliRun } from '../helpers/cli-client';
import { startMockToolLoop, type LoopProtocol, type LoopRequest, type MockToolLoop } from '../helpers/mock-tool-loop';

const runs = clientRuns('opencode-cli.test.ts', 'opencode', OPENCODE);

const KEY = 'sk-opencode-caller-0123456789';
const UPSTREAMS: readonly LoopProtocol[] = ['chat', 'responses', 'anthropic', 'gemini'];
/** opencode's provider packages, each the caller of one gateway protocol, and the base URL it is given. */
const CALLERS = [
  { id: 'gw-chat', npm: '@ai-sdk/openai-compatible', path: '/v1', codec: 'openai-chat' },
  { id: 'gw-responses', npm: '@ai-sdk/openai', path: '/v1', codec: 'openai-responses' },
  { id: 'gw-anthropic', npm: '@ai-sdk/anthropic', path: '/v1', codec: 'anthropic-messages' },
  { id: 'gw-gemini', npm: '@ai-sdk/google', path: '/v1beta', codec: 'gemini' },
] as const;

const TOKEN = /token-[0-9a-f]{16}/;

/** The file the prompt names, found in the request the upstream received. */
function promptedFile(request: LoopRequest): string {
  const path = /\/\S*?token\.txt/.exec(JSON.stringify(request.body))?.[0];
  if (!path) throw new Error('the prompt names no token.txt');
  return path;
}

let upstream: MockToolLoop;
let server: RunningGateway;
let records: UsageRecord[];
let dir: string;

beforeAll(async () => {
  if (!runs) return;
  // opencode's `read` tool, called on the file the prompt names; the closing text quotes the token its result held.
  upstream = await startMockToolLoop(1, {
    tool: 'read',
    args: (request) => ({ filePath: promptedFile(request) }),
    text: (request) => {
      const token = request.results.map((result) => TOKEN.exec(result)?.[0]).find(Boolean);
      return token ? `The token is ${token}.` : 'A token reader';
    },
    textUnlessOffered: true,
  });
  const common = { apiKey: 'sk-upstream-0000', retries: { max: 0 } };
  records = [];
  server = await serveGateway({
    keyStore: new MemoryKeyStore([{ key: KEY, id: 'opencode' }]),
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
  dir = mkdtempSync(join(tmpdir(), 'rg-opencode-'));
});
afterAll(async () => {
  if (!runs) return;
  await server?.close();
  await upstream?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

/** opencode's config (the `provider` map of opencode.json): every caller package, each offering every gateway model. */
function config(gateway: string): Record<string, unknown> {
  const models = Object.fromEntries(
    UPSTREAMS.map((name) => [
      `via-${name}`,
      { name: `via-${name}`, tool_call: true, limit: { context: 100_000, output: 4_096 } },
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

interface OpencodeRun extends CliRun {
  events: OpencodeEvent[];
  file: string;
  token: string;
}

/**
 * Runs `opencode run --format json --model PROVIDER/MODEL PROMPT` in a fresh workspace (a token file in its work
 * directory) whose home and XDG directories are its own, offline: no update check, no model list fetched, no plugins.
 */
async function opencode(model: string): Promise<OpencodeRun> {
  const { work, home, file, token } = tokenWorkspace(mkdtempSync(join(dir, 'run-')));
  const configDir = join(home, '.config', 'opencode');
  // An empty node_modules keeps opencode from installing its plugin package from the network.
  mkdirSync(join(configDir, 'node_modules'), { recursive: true });
  writeFileSync(join(configDir, 'opencode.json'), JSON.stringify(config(server.url), null, 2));
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
  const prompt = `Read the file ${file} and tell me the token in it.`;
  const run = await runCli(OPENCODE, ['run', '--pure', '--format', 'json', '--model', model, prompt], {
    cwd: work,
    env,
    timeoutMs: 150_000,
  });
  const events = run.stdout
    .split('\n')
    .filter((line) => line.startsWith('{'))
    .map((line) => JSON.parse(line) as OpencodeEvent);
  return { ...run, events, file, token };
}

/** The usage records of calls of `model` received at or after `since`, once `count` of them have arrived. */
async function recordsOf(model: string, since: number, count: number): Promise<UsageRecord[]> {
  const mine = () => records.filter((record) => record.model === model && record.timings.received >= since);
  for (let tries = 0; mine().length < count && tries < 200; tries++) await new Promise((r) => setTimeout(r, 10));
  return mine();
}

(runs ? describe : describe.skip)('opencode run through the gateway', () => {
  describe.each(CALLERS)('with $npm', ({ id, codec }) => {
    it.each(UPSTREAMS)(
      'to the %s upstream: opencode runs read on the file, the upstream gets its result, the answer is the token',
      async (protocol) => {
        requireClient('opencode', OPENCODE);
        const model = `via-${protocol}`;
        const from = upstream.requests.length;
        const since = Date.now();
        const run = await opencode(`${id}/${model}`);

        expect({ code: run.code, stderr: run.code === 0 ? '' : run.stderr }).toEqual({ code: 0, stderr: '' });
        // opencode ran its read tool on the file the upstream named, and it read the token.
        const tools = run.events.filter((event) => event.type === 'tool_use').map((event) => event.part);
        expect(tools).toEqual([
          expect.objectContaining({
            tool: 'read',
            state: expect.objectContaining({ status: 'completed', input: { filePath: run.file } }),
          }),
        ]);
        expect(tools[0]!.state!.output).toContain(run.token);
        // Gemini's calls carry no id (its SDK or the gateway names them); every other path keeps the upstream's.
        if (protocol !== 'gemini' && id !== 'gw-gemini') expect(tools[0]!.callID).toMatch(/call_loop_1_/);
        // Its answer is the upstream's closing text, which only the tool's result could give.
        const text = run.events.filter((event) => event.type === 'text').map((event) => event.part.text);
        expect(text.join('')).toBe(`The token is ${run.token}.`);
        // The upstream of this kind saw the loop: the call offered read, then the tool's result came back.
        const looped = upstream.requests.slice(from).filter((request) => request.toolNames.includes('read'));
        expect(looped.map((request) => [request.protocol, request.results.length])).toEqual([
          [protocol, 0],
          [protocol, 1],
        ]);
        expect(looped[1]!.results[0]).toContain(run.token);
        // Every call came in through the caller package's protocol and went out to this upstream.
        const calls = await recordsOf(model, since, 2);
        expect(calls.length).toBeGreaterThanOrEqual(2);
        for (const call of calls) expect(call).toMatchObject({ protocol: codec, provider: protocol, outcome: 'ok' });
      },
      180_000,
    );
  });
});
