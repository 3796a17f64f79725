/**
 * The OpenAI Agents SDK (`@openai/agents`) through the gateway: an agent with a function tool, run by the SDK's own
 * runner, as a Responses caller (its default: `OpenAIProvider`, POST /v1/responses) and as a chat-completions caller
 * (`OpenAIChatCompletionsModel`, POST /v1/chat/completions), whole and streamed, against an upstream of every kind
 * (chat completions, Responses, Anthropic, Gemini). The scripted upstream calls the agent's `read_file` tool on a file
 * holding a random token and answers with the token once the tool's result comes back, so the run's final output
 * proves the loop went round through both translations.
 * The SDK is not a project dependency: `scripts/install-clients.sh` installs it into `.tmp/clients` (CI runs it and
 * sets REQUIRE_CLIENTS=1, which turns a missing client into a failure), and this file loads it from there. Without it
 * this file prints one line and skips.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { AnthropicProvider, GeminiProvider, MemoryKeyStore, OpenAIProvider, type UsageRecord } from '../../lib';
import { serveGateway, type RunningGateway } from '../helpers/app';
import { CLIENTS_DIR, clientRuns, OPENAI_AGENTS, requireClient, tokenWorkspace } from '../helpers/cli-client';
import { startMockToolLoop, type LoopProtocol, type LoopRequest, type MockToolLoop } from '../helpers/mock-tool-loop';

const runs = clientRuns('openai-agents.test.ts', 'the OpenAI Agents SDK', OPENAI_AGENTS);

/** The part of the SDK this test uses (its own types live in .tmp/clients, outside the type check). */
interface AgentsSdk {
  Agent: new (config: { name: string; instructions: string; tools: unknown[]; model?: unknown }) => unknown;
  Runner: new (config: {
    modelProvider?: unknown;
    tracingDisabled?: boolean;
  }) => {
    run(agent: unknown, input: string, options?: { stream?: boolean }): Promise<AgentsResult>;
  };
  OpenAIProvider: new (options: { apiKey: string; baseURL: string; useResponses?: boolean }) => unknown;
  OpenAIChatCompletionsModel: new (client: unknown, model: string) => unknown;
  tool(options: {
    name: string;
    description: string;
    parameters: unknown;
    execute: (input: { path: string }) => Promise<string> | string;
  }): unknown;
  setTracingDisabled(disabled: boolean): void;
}

/** A run's result; a streamed one is complete once `completed` settles. */
interface AgentsResult {
  finalOutput?: unknown;
  completed?: Promise<void>;
  toTextStream?: () => ReadableStream<string>;
  newItems: Array<{ type: string; rawItem?: Record<string, unknown>; output?: unknown }>;
}

const KEY = 'sk-agents-caller-0123456789';
const UPSTREAMS: readonly LoopProtocol[] = ['chat', 'responses', 'anthropic', 'gemini'];
/** The SDK's two model classes, each the caller of one gateway protocol. */
const CALLERS = [
  { api: 'responses', codec: 'openai-responses' },
  { api: 'chat_completions', codec: 'openai-chat' },
] as const;
const TOKEN = /token-[0-9a-f]{16}/;

/** The file the prompt names, found in the request the upstream received. */
function promptedFile(request: LoopRequest): string {
  const path = /\/\S*?token\.txt/.exec(JSON.stringify(request.body))?.[0];
  if (!path) throw new Error('the prompt names no token.txt');
  return path;
}

let sdk: AgentsSdk;
let OpenAI: new (options: { apiKey: string; baseURL: string; maxRetries?: number }) => unknown;
let z: { object(shape: Record<string, unknown>): unknown; string(): unknown };
let upstream: MockToolLoop;
let server: RunningGateway;
let records: UsageRecord[];
let dir: string;

beforeAll(async () => {
  if (!runs) return;
  requireClient('the OpenAI Agents SDK', OPENAI_AGENTS);
  // The SDK, and the openai client and zod it was installed with.
  sdk = require(OPENAI_AGENTS) as AgentsSdk;
  OpenAI = require(join(CLIENTS_DIR, 'node_modules', 'openai')).default;
  z = require(join(CLIENTS_DIR, 'node_modules', 'zod')).z;
  sdk.setTracingDisabled(true);
  // The agent's own tool, called on the file the prompt names; the closing text quotes the token its result held.
  upstream = await startMockToolLoop(1, {
    tool: 'read_file',
    args: (request) => ({ path: promptedFile(request) }),
    text: (request) => {
      const token = request.results.map((result) => TOKEN.exec(result)?.[0]).find(Boolean);
      return token ? `The token is ${token}.` : 'no token came back';
    },
  });
  const common = { apiKey: 'sk-upstream-0000', retries: { max: 0 } };
  records = [];
  server = await serveGateway({
    keyStore: new MemoryKeyStore([{ key: KEY, id: 'agents' }]),
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
  dir = mkdtempSync(join(tmpdir(), 'rg-openai-agents-'));
});
afterAll(async () => {
  if (!runs) return;
  await server?.close();
  await upstream?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

/** The usage records of calls of `model` received at or after `since`, once `count` of them have arrived. */
async function recordsOf(model: string, since: number, count: number): Promise<UsageRecord[]> {
  const mine = () => records.filter((record) => record.model === model && record.timings.received >= since);
  for (let tries = 0; mine().length < count && tries < 200; tries++) await new Promise((r) => setTimeout(r, 10));
  return mine();
}

/**
 * Runs an agent with a `read_file` tool on `model` through the gateway with the SDK's runner, as a caller of `api`,
 * whole or streamed: the result, the token in the file and the paths the tool was asked to read.
 */
async function runAgent(
  api: 'responses' | 'chat_completions',
  model: string,
  stream: boolean,
): Promise<{ result: AgentsResult; token: string; file: string; read: string[] }> {
  const { file, token } = tokenWorkspace(mkdtempSync(join(dir, 'run-')));
  const read: string[] = [];
  const readFile = sdk.tool({
    name: 'read_file',
    description: 'Reads a text file and returns its contents.',
    parameters: z.object({ path: z.string() }),
    execute: ({ path }) => {
      read.push(path);
      return readFileSync(path, 'utf8');
    },
  });
  const baseURL = `${server.url}/v1`;
  // Responses is the SDK's default: its provider resolves the model name. Chat completions: the SDK's chat model.
  const runner = new sdk.Runner({
    modelProvider: new sdk.OpenAIProvider({ apiKey: KEY, baseURL, useResponses: true }),
    tracingDisabled: true,
  });
  const agent = new sdk.Agent({
    name: 'Token reader',
    instructions: 'You read files with read_file and report what they say.',
    tools: [readFile],
    model:
      api === 'responses'
        ? model
        : new sdk.OpenAIChatCompletionsModel(new OpenAI({ apiKey: KEY, baseURL, maxRetries: 0 }), model),
  });
  const result = await runner.run(agent, `Read the file ${file} and tell me the token in it.`, { stream });
  if (stream) {
    // A streamed run ends once its text stream is read to the end.
    const reader = result.toTextStream!().getReader();
    while (!(await reader.read()).done);
    await result.completed;
  }
  return { result, token, file, read };
}

(runs ? describe : describe.skip)('the OpenAI Agents SDK through the gateway', () => {
  describe.each(CALLERS)('as a $api caller', ({ api, codec }) => {
    describe.each([false, true])('streamed: %s', (stream) => {
      it.each(UPSTREAMS)(
        'to the %s upstream: the agent runs read_file, the upstream gets its result, the output is the token',
        async (protocol) => {
          const model = `via-${protocol}`;
          const from = upstream.requests.length;
          const since = Date.now();
          const { result, token, file, read } = await runAgent(api, model, stream);

          // The SDK ran its tool once, on the file the upstream named, and the run ended on the upstream's text.
          expect(read).toEqual([file]);
          expect(result.finalOutput).toBe(`The token is ${token}.`);
          const outputs = result.newItems.filter((item) => item.type === 'tool_call_output_item');
          expect(outputs).toHaveLength(1);
          expect(JSON.stringify(outputs[0]!.output)).toContain(token);
          // The upstream of this kind saw the loop: the call offered read_file, then the tool's result came back.
          const looped = upstream.requests.slice(from);
          expect(looped.map((request) => [request.protocol, request.stream, request.results.length])).toEqual([
            [protocol, stream, 0],
            [protocol, stream, 1],
          ]);
          for (const request of looped) expect(request.toolNames).toEqual(['read_file']);
          expect(looped[1]!.results[0]).toContain(token);
          // Both calls came in through the SDK model's protocol and went out to this upstream.
          const calls = await recordsOf(model, since, 2);
          expect(calls.map((call) => [call.protocol, call.stream, call.provider, call.outcome])).toEqual([
            [codec, stream, protocol, 'ok'],
            [codec, stream, protocol, 'ok'],
          ]);
        },
        60_000,
      );
    });
  });
});
