/**
 * Codex CLI (`codex exec`, the `@openai/codex` devDependency) through the gateway's Responses WebSocket transport:
 * a custom provider with `supports_websockets = true` opens `ws://…/v1/responses` (`gateway.attachWebSocket`) and
 * runs its turns as `response.create` messages on it — an answer from the local model, and Codex's own tool loop
 * (`exec_command`) finishing over the socket, from the local model and through an OpenAI chat-completions upstream.
 * Each turn is charged and recorded as a POST would be, and no turn falls back to HTTP.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import type { IncomingMessage } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { LocalProvider, MemoryKeyStore, MemoryQuotaStore, type UsageRecord } from '../../lib';
import { ResponsesSocketSession } from '../../lib/pipeline/socket/responses-socket';
import { OpenAIProvider } from '../../lib/providers/openai';
import { serveGateway, type RunningGateway } from '../helpers/app';
import { expectCleanExit, jsonLines, runCli, tokenWorkspace } from '../helpers/cli-client';
import { EXEC_TOOL } from '../helpers/exec-command';
import { startMockOpenAI, type MockOpenAI } from '../helpers/mock-openai';

const CODEX = process.env.CODEX_BIN ?? join(__dirname, '..', '..', 'node_modules', '.bin', 'codex');
const KEY = 'sk-codex-ws-key-0123456789';

type CodexEvent = {
  type: string;
  item?: { type: string; command?: string; aggregated_output?: string; exit_code?: number; text?: string };
} & Record<string, unknown>;

let openaiMock: MockOpenAI;
let server: RunningGateway;
let quota: MemoryQuotaStore;
let dir: string;
let codexHome: string;
const records: UsageRecord[] = [];
/** The upgrades the gateway's server saw, and the POST /v1/responses calls (a fallback to HTTP). */
const upgrades: string[] = [];
let posts = 0;
/** Every message Codex sent on a socket, parsed. */
const messages: Array<Record<string, any>> = [];
const receive = ResponsesSocketSession.prototype.receive;
jest.spyOn(ResponsesSocketSession.prototype, 'receive').mockImplementation(function (
  this: ResponsesSocketSession,
  data,
  binary,
) {
  messages.push(JSON.parse(data));
  receive.call(this, data, binary);
});

beforeAll(async () => {
  openaiMock = await startMockOpenAI();
  quota = new MemoryQuotaStore({ balances: { codex: 100_000_000 } });
  server = await serveGateway({
    keyStore: new MemoryKeyStore([{ key: KEY, id: 'codex' }]),
    quotaStore: quota,
    providers: [
      new LocalProvider(),
      new OpenAIProvider({ baseUrl: openaiMock.url, apiKey: 'sk-upstream-openai-0001', retries: { baseDelayMs: 1 } }),
    ],
    models: [
      { id: 'rosetta-echo', provider: 'local' },
      { id: 'codex-chat', provider: 'openai', upstreamModel: 'exec-command', pricing: { input: 1, output: 8 } },
    ],
    observability: { usageSink: { record: (record: UsageRecord) => void records.push(record) } },
  });
  server.server.on('upgrade', (request: IncomingMessage) => {
    upgrades.push(request.url ?? '');
    if (process.env.SHOW_CODEX_MESSAGES) {
      const { authorization, ...headers } = request.headers;
      console.log(request.url, JSON.stringify(headers), authorization ? 'authorization: Bearer …' : 'no authorization');
    }
  });
  server.server.on('request', (request: IncomingMessage) => {
    if (request.method === 'POST' && request.url?.startsWith('/v1/responses')) posts++;
  });
  server.gateway.attachWebSocket(server.server);
  dir = mkdtempSync(join(tmpdir(), 'rg-codex-ws-'));
  codexHome = join(dir, 'codex-home');
  mkdirSync(codexHome);
  writeFileSync(
    join(codexHome, 'config.toml'),
    [
      'model = "rosetta-echo"',
      'model_provider = "gw"',
      '',
      '[model_providers.gw]',
      'name = "gw"',
      `base_url = "${server.url}/v1"`,
      'env_key = "GW_KEY"',
      'wire_api = "responses"',
      'supports_websockets = true',
      '',
    ].join('\n'),
  );
});
afterAll(async () => {
  await server.close();
  await openaiMock.close();
  rmSync(dir, { recursive: true, force: true });
  // What Codex sent, for a reader of a failure: each message's type and shape.
  if (process.env.SHOW_CODEX_MESSAGES)
    for (const message of messages)
      console.log(
        JSON.stringify({
          ...message,
          input: message.input?.map((item: any) => item.type ?? item.role),
          tools: message.tools?.length,
          instructions: typeof message.instructions,
        }),
      );
});

async function codex(model: string, prompt: string, cwd: string) {
  const env = { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: dir, CODEX_HOME: codexHome, GW_KEY: KEY };
  const args = ['exec', '--skip-git-repo-check', '--json', '-s', 'read-only', '-m', model, prompt];
  const run = await runCli(CODEX, args, { cwd, env });
  expectCleanExit(run);
  return { ...run, events: jsonLines<CodexEvent>(run.stdout) };
}

/** A work directory `dir/NAME/work` holding a token file. */
function workWithToken(name: string): { work: string; file: string; token: string } {
  mkdirSync(join(dir, name));
  return tokenWorkspace(join(dir, name));
}

const agentText = (events: CodexEvent[]): string =>
  events
    .filter((event) => event.item?.type === 'agent_message')
    .map((event) => event.item!.text)
    .join('\n');

const executions = (events: CodexEvent[]) =>
  events
    .filter((event) => event.type === 'item.completed' && event.item?.type === 'command_execution')
    .map((event) => event.item!);

/** What one run did on the wire: the upgrades it opened, its POSTs, its usage records. */
function wire(from: ReturnType<typeof mark>) {
  return {
    upgrades: upgrades.slice(from.upgrades),
    posts: posts - from.posts,
    records: records.slice(from.records),
  };
}

const mark = () => ({ upgrades: upgrades.length, posts, records: records.length, messages: messages.length });

describe('Codex CLI over the Responses WebSocket (supports_websockets = true)', () => {
  it('answers from the local model over the socket', async () => {
    const from = mark();
    const work = join(dir, 'local');
    mkdirSync(work);
    const run = await codex('rosetta-echo', 'Hello over the socket', work);
    expect(agentText(run.events)).toBe('Hello over the socket');
    const seen = wire(from);
    expect(seen.upgrades.length).toBeGreaterThanOrEqual(1);
    expect(seen.upgrades.every((url) => url.startsWith('/v1/responses'))).toBe(true);
    expect(seen.posts).toBe(0);
    expect(seen.records.length).toBeGreaterThanOrEqual(1);
    expect(seen.records.every((record) => record.protocol === 'openai-responses' && !record.error)).toBe(true);
  }, 120_000);

  it('a tool loop with the local model finishes over the socket: exec_command runs, the answer quotes it', async () => {
    const from = mark();
    const { work, file, token } = workWithToken('local-tool');
    const run = await codex('rosetta-echo', `${EXEC_TOOL} ${JSON.stringify({ cmd: `cat ${file}` })}`, work);
    expect(executions(run.events).map((item) => item.aggregated_output)).toEqual([`${token}\n`]);
    expect(agentText(run.events)).toMatch(new RegExp(`^Tool ${EXEC_TOOL} returned: [\\s\\S]*${token}`));
    const seen = wire(from);
    expect(seen.posts).toBe(0);
    // Two model turns (the call, then the answer), each its own usage record.
    expect(seen.records.filter((record) => (record.usage?.outputTokens ?? 0) > 0).length).toBeGreaterThanOrEqual(2);
    // Codex's warm-up (generate: false), then each turn continuing the last answer on the socket with only its new
    // items and store: false: the prompt's messages, then the tool's output.
    const creates = messages.slice(from.messages).filter((message) => message.type === 'response.create');
    expect(creates[0]!.generate).toBe(false);
    for (const create of creates.slice(1)) {
      expect(create.previous_response_id).toEqual(expect.stringMatching(/^resp_/));
      expect(create.store).toBe(false);
    }
    expect(creates.at(-1)!.input.map((item: Record<string, any>) => item.type)).toEqual(['function_call_output']);
  }, 120_000);

  it('a tool loop through an OpenAI chat-completions upstream, each turn charged', async () => {
    const from = mark();
    const before = quota.getAccount('codex').balance;
    const { work, file, token } = workWithToken('chat-tool');
    const command = `cat ${file}`;
    const run = await codex('codex-chat', `Show me the token in the file.\nrun: ${command}`, work);
    expect(executions(run.events)).toEqual([
      expect.objectContaining({
        exit_code: 0,
        command: expect.stringContaining(command),
        aggregated_output: `${token}\n`,
      }),
    ]);
    expect(agentText(run.events)).toContain(token);
    const seen = wire(from);
    expect(seen.posts).toBe(0);
    const charged = seen.records.filter((record) => record.model === 'codex-chat');
    expect(charged.length).toBeGreaterThanOrEqual(2);
    const total = charged.reduce((sum, record) => sum + (record.credits?.charged ?? 0), 0);
    expect(total).toBeGreaterThan(0);
    expect(before - quota.getAccount('codex').balance).toBeCloseTo(total, 6);
  }, 180_000);
});
