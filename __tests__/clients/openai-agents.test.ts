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
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { CLIENTS_DIR, clientRuns, OPENAI_AGENTS, requireClient } from '../helpers/cli-client';
import { toolLoopJudge, UPSTREAMS, type JudgeRound } from '../helpers/tool-loop-judge';

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
/** The SDK's two model classes, each the caller of one gateway protocol. */
const CALLERS = [
  { api: 'responses', codec: 'openai-responses' },
  { api: 'chat_completions', codec: 'openai-chat' },
] as const;

let sdk: AgentsSdk;
let OpenAI: new (options: { apiKey: string; baseURL: string; maxRetries?: number }) => unknown;
let z: { object(shape: Record<string, unknown>): unknown; string(): unknown };

beforeAll(() => {
  if (!runs) return;
  requireClient('the OpenAI Agents SDK', OPENAI_AGENTS);
  // The SDK, and the openai client and zod it was installed with.
  sdk = require(OPENAI_AGENTS) as AgentsSdk;
  OpenAI = require(join(CLIENTS_DIR, 'node_modules', 'openai')).default;
  z = require(join(CLIENTS_DIR, 'node_modules', 'zod')).z;
  sdk.setTracingDisabled(true);
});
/** The upstream calls the agent's own `read_file` tool on the file the prompt names. */
const judge = toolLoopJudge({
  runs,
  name: 'openai-agents',
  key: KEY,
  keyId: 'agents',
  tool: 'read_file',
  args: (file) => ({ path: file }),
});

/**
 * Runs an agent with a `read_file` tool on the round's model through the gateway with the SDK's runner, as a caller of
 * `api`, whole or streamed, on the round's prompt: the result, and the paths the tool was asked to read.
 */
async function runAgent(
  api: 'responses' | 'chat_completions',
  round: JudgeRound,
  stream: boolean,
): Promise<{ result: AgentsResult; read: string[] }> {
  const { model, prompt } = round;
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
  const baseURL = `${judge.url}/v1`;
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
  const result = await runner.run(agent, prompt, { stream });
  if (stream) {
    // A streamed run ends once its text stream is read to the end.
    const reader = result.toTextStream!().getReader();
    while (!(await reader.read()).done);
    await result.completed;
  }
  return { result, read };
}

(runs ? describe : describe.skip)('the OpenAI Agents SDK through the gateway', () => {
  describe.each(CALLERS)('as a $api caller', ({ api, codec }) => {
    describe.each([false, true])('streamed: %s', (stream) => {
      it.each(UPSTREAMS)(
        'to the %s upstream: the agent runs read_file, the upstream gets its result, the output is the token',
        async (protocol) => {
          const round = judge.begin(protocol);
          const { result, read } = await runAgent(api, round, stream);

          // The SDK ran its tool once, on the file the upstream named, and the run ended on the upstream's text.
          expect(read).toEqual([round.file]);
          expect(result.finalOutput).toBe(round.answer);
          const outputs = result.newItems.filter((item) => item.type === 'tool_call_output_item');
          expect(outputs).toHaveLength(1);
          expect(JSON.stringify(outputs[0]!.output)).toContain(round.token);
          // The upstream of this kind saw the loop, and nothing else: every call offered read_file, streamed or not as
          // the run was; the first had no tool result, then the tool's result came back.
          judge.expectLoop(round, { stream });
          // Both calls came in through the SDK model's protocol, streamed or not, and went out to this upstream.
          await judge.expectBilled(round, codec, { stream });
        },
        60_000,
      );
    });
  });
});
