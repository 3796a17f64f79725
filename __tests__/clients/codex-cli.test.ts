/**
 * Codex CLI (`codex exec`, the `@openai/codex` devDependency) through the gateway's POST /v1/responses:
 * answers and a tool turn from the local model, and Codex's own tool loop (`exec_command`) through an
 * upstream of each kind: OpenAI chat completions, Anthropic, Gemini and the OpenAI Responses API.
 */
import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { LocalProvider, MemoryKeyStore, MemoryQuotaStore, type ModelConfig } from '../../lib';
import { AnthropicProvider } from '../../lib/providers/anthropic';
import { GeminiProvider } from '../../lib/providers/gemini';
import { OpenAIProvider } from '../../lib/providers/openai';
import { serveGateway, type RunningGateway } from '../helpers/app';
import { runCli } from '../helpers/cli-client';
import { EXEC_THOUGHT, EXEC_TOOL } from '../helpers/exec-command';
import {
  EXEC_SIGNATURE,
  EXEC_TOOL_USE_ID,
  MOCK_ANTHROPIC_KEY,
  startMockAnthropic,
  type MockAnthropic,
} from '../helpers/mock-anthropic';
import {
  EXEC_SIGNATURE as GEMINI_EXEC_SIGNATURE,
  EXEC_THOUGHT_SIGNATURE,
  startMockGemini,
  type MockGemini,
} from '../helpers/mock-gemini';
import { EXEC_CALL_ID, startMockOpenAI, type MockOpenAI } from '../helpers/mock-openai';
import {
  EXEC_ENCRYPTED_CONTENT,
  EXEC_RESPONSES_CALL_ID,
  startMockOpenAIResponses,
  type MockOpenAIResponses,
} from '../helpers/mock-openai-responses';

const CODEX = process.env.CODEX_BIN ?? join(__dirname, '..', '..', 'node_modules', '.bin', 'codex');
const KEY = 'sk-codex-key-0123456789';
const GEMINI_KEY = 'AIzaSyCodexMock0123456789abcdefghijk';

const models: ModelConfig[] = [
  { id: 'rosetta-echo', provider: 'local' },
  { id: 'codex-chat', provider: 'openai', upstreamModel: 'exec-command' },
  { id: 'codex-claude', provider: 'anthropic', upstreamModel: 'exec-command' },
  { id: 'codex-gemini', provider: 'gemini', upstreamModel: 'gemini-3-exec-command' },
  { id: 'codex-responses', provider: 'responses-upstream', upstreamModel: 'exec-command' },
];

/** One line of `codex exec --json` (a JSON event). */
type CodexEvent = {
  type: string;
  item?: { type: string; command?: string; aggregated_output?: string; exit_code?: number; text?: string };
} & Record<string, unknown>;

interface Run {
  code: number | null;
  events: CodexEvent[];
  stdout: string;
  stderr: string;
}

let openaiMock: MockOpenAI;
let anthropicMock: MockAnthropic;
let geminiMock: MockGemini;
let responsesMock: MockOpenAIResponses;
let server: RunningGateway;
let dir: string;
let codexHome: string;

beforeAll(async () => {
  openaiMock = await startMockOpenAI();
  anthropicMock = await startMockAnthropic();
  geminiMock = await startMockGemini({ apiKey: GEMINI_KEY });
  responsesMock = await startMockOpenAIResponses();
  server = await serveGateway({
    keyStore: new MemoryKeyStore([{ key: KEY, id: 'codex' }]),
    quotaStore: new MemoryQuotaStore({ balances: { codex: 100_000_000 } }),
    providers: [
      new LocalProvider(),
      new OpenAIProvider({ baseUrl: openaiMock.url, apiKey: 'sk-upstream-openai-0001', retries: { baseDelayMs: 1 } }),
      new AnthropicProvider({ baseUrl: anthropicMock.url, apiKey: MOCK_ANTHROPIC_KEY, retries: { baseDelayMs: 1 } }),
      new GeminiProvider({ baseUrl: geminiMock.url, apiKey: GEMINI_KEY, retries: { baseDelayMs: 1 } }),
      new OpenAIProvider({
        name: 'responses-upstream',
        baseUrl: responsesMock.url,
        apiKey: 'sk-upstream-responses-0001',
        responsesModels: ['exec-command'],
        retries: { baseDelayMs: 1 },
      }),
    ],
    models,
  });
  dir = mkdtempSync(join(tmpdir(), 'rg-codex-'));
  codexHome = join(dir, 'codex-home');
  mkdirSync(codexHome);
  // protocols.md 7.1: a custom provider speaking the Responses API, its key read from GW_KEY.
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
      '',
    ].join('\n'),
  );
});
afterAll(async () => {
  await server.close();
  await Promise.all([openaiMock.close(), anthropicMock.close(), geminiMock.close(), responsesMock.close()]);
  rmSync(dir, { recursive: true, force: true });
});

/**
 * Runs `codex exec --json -m MODEL [OPTIONS] PROMPT` in `cwd`, stdin closed, with only the gateway's key in its
 * environment.
 */
async function codex(model: string, prompt: string, cwd: string, options: string[] = []): Promise<Run> {
  const env = { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: dir, CODEX_HOME: codexHome, GW_KEY: KEY };
  const args = ['exec', '--skip-git-repo-check', '--json', '-s', 'read-only', '-m', model, ...options, prompt];
  const run = await runCli(CODEX, args, { cwd, env });
  const events = run.stdout
    .split('\n')
    .filter((line) => line.startsWith('{'))
    .map((line) => JSON.parse(line) as CodexEvent);
  return { ...run, events };
}

/** A work directory holding `token.txt` with a random token: only running a command can read it. */
function workWithToken(name: string): { work: string; file: string; token: string } {
  const work = join(dir, name);
  mkdirSync(work);
  const token = `token-${randomBytes(8).toString('hex')}`;
  const file = join(work, 'token.txt');
  writeFileSync(file, `${token}\n`);
  return { work, file, token };
}

const agentText = (run: Run): string =>
  run.events
    .filter((event) => event.item?.type === 'agent_message')
    .map((event) => event.item!.text)
    .join('\n');

/**
 * One tool loop: Codex asked to run `cat token.txt` through `model`; the run, and the token only the command could
 * read.
 */
async function execLoop(model: string, options: string[] = []): Promise<{ run: Run; token: string; command: string }> {
  const { work, file, token } = workWithToken(model);
  const command = `cat ${file}`;
  const run = await codex(model, `Show me the token in the file.\nrun: ${command}`, work, options);
  expect({ code: run.code, stderr: run.code === 0 ? '' : run.stderr }).toEqual({ code: 0, stderr: '' });
  const executions = run.events
    .filter((event) => event.type === 'item.completed' && event.item?.type === 'command_execution')
    .map((event) => event.item!);
  expect(executions).toEqual([
    expect.objectContaining({
      exit_code: 0,
      status: 'completed',
      command: expect.stringContaining(command),
      aggregated_output: `${token}\n`,
    }),
  ]);
  expect(agentText(run)).toContain(token);
  return { run, token, command };
}

describe('Codex CLI through POST /v1/responses', () => {
  it('answers from the local model', async () => {
    const work = join(dir, 'local');
    mkdirSync(work);
    const run = await codex('rosetta-echo', 'Hello from Codex', work);
    expect({ code: run.code, stderr: run.code === 0 ? '' : run.stderr }).toEqual({ code: 0, stderr: '' });
    expect(agentText(run)).toBe('Hello from Codex');
    const completed = run.events.find((event) => event.type === 'turn.completed') as
      | { usage?: { input_tokens: number; output_tokens: number } }
      | undefined;
    expect(completed?.usage?.input_tokens).toBeGreaterThan(0);
    expect(completed?.usage?.output_tokens).toBeGreaterThan(0);
  }, 120_000);

  it('a tool turn with the local model, offline: a prompt naming exec_command makes the call, the answer quotes its output', async () => {
    const { work, file, token } = workWithToken('local-tool');
    const run = await codex('rosetta-echo', `${EXEC_TOOL} ${JSON.stringify({ cmd: `cat ${file}` })}`, work);
    expect({ code: run.code, stderr: run.code === 0 ? '' : run.stderr }).toEqual({ code: 0, stderr: '' });
    const executions = run.events.filter(
      (event) => event.type === 'item.completed' && event.item?.type === 'command_execution',
    );
    expect(executions.map((event) => event.item!.aggregated_output)).toEqual([`${token}\n`]);
    expect(agentText(run)).toMatch(new RegExp(`^Tool ${EXEC_TOOL} returned: [\\s\\S]*${token}`));
  }, 120_000);

  it('an OpenAI chat-completions upstream: exec_command runs, its output goes back under the call id, the text quotes it', async () => {
    const before = openaiMock.requests.length;
    const { run, token, command } = await execLoop('codex-chat');
    expect(run.events).toContainEqual(
      expect.objectContaining({
        type: 'item.completed',
        item: expect.objectContaining({ type: 'reasoning', text: EXEC_THOUGHT }),
      }),
    );
    const [first, second, ...more] = openaiMock.requests.slice(before);
    expect(more).toEqual([]);
    expect((first!.body.tools as Array<{ function: { name: string } }>).map((tool) => tool.function.name)).toContain(
      EXEC_TOOL,
    );
    const messages = second!.body.messages as Array<Record<string, unknown>>;
    const [assistant, result] = messages.slice(-2);
    expect(assistant).toMatchObject({
      role: 'assistant',
      tool_calls: [
        {
          id: EXEC_CALL_ID,
          type: 'function',
          function: { name: EXEC_TOOL, arguments: JSON.stringify({ cmd: command }) },
        },
      ],
    });
    expect(result).toMatchObject({ role: 'tool', tool_call_id: EXEC_CALL_ID, content: expect.stringContaining(token) });
  }, 120_000);

  it('an Anthropic upstream with thinking on: the signed thinking block of turn one comes back with the tool_use, the tool_result carries the output', async () => {
    const before = anthropicMock.requests.length;
    // A reasoning effort turns Anthropic thinking on, and with it the mock's checks of a thinking tool loop
    // (protocols.md 3.5).
    const { token, command } = await execLoop('codex-claude', ['-c', 'model_reasoning_effort="high"']);
    const [first, second, ...more] = anthropicMock.requests.slice(before);
    expect(more).toEqual([]);
    expect(second!.body.thinking).toEqual(
      expect.objectContaining({ type: expect.stringMatching(/^(enabled|adaptive)$/) }),
    );
    expect((first!.body.tools as Array<{ name: string }>).map((tool) => tool.name)).toContain(EXEC_TOOL);
    const messages = second!.body.messages as Array<{ role: string; content: Array<Record<string, unknown>> }>;
    const [assistant, result] = messages.slice(-2);
    expect(assistant).toEqual({
      role: 'assistant',
      content: [
        { type: 'thinking', thinking: EXEC_THOUGHT, signature: EXEC_SIGNATURE },
        { type: 'tool_use', id: EXEC_TOOL_USE_ID, name: EXEC_TOOL, input: { cmd: command } },
      ],
    });
    expect(result!.role).toBe('user');
    expect(result!.content).toEqual([expect.objectContaining({ type: 'tool_result', tool_use_id: EXEC_TOOL_USE_ID })]);
    expect(JSON.stringify(result!.content[0]!.content)).toContain(token);
  }, 120_000);

  it("a Gemini upstream: the call's and the thought's signatures of turn one come back on their parts, the functionResponse carries the output", async () => {
    const before = geminiMock.requests.length;
    const { token, command } = await execLoop('codex-gemini');
    const [first, second, ...more] = geminiMock.requests.slice(before);
    expect(more).toEqual([]);
    const declarations = (first!.body.tools as Array<{ functionDeclarations?: Array<{ name: string }> }>).flatMap(
      (tool) => tool.functionDeclarations ?? [],
    );
    expect(declarations.map((declaration) => declaration.name)).toContain(EXEC_TOOL);
    const contents = second!.body.contents as Array<{ role: string; parts: Array<Record<string, unknown>> }>;
    const [model, result] = contents.slice(-2);
    expect(model!.role).toBe('model');
    expect(model!.parts).toContainEqual(
      expect.objectContaining({
        functionCall: expect.objectContaining({ name: EXEC_TOOL, args: { cmd: command } }),
        thoughtSignature: GEMINI_EXEC_SIGNATURE,
      }),
    );
    expect(model!.parts).toContainEqual(
      expect.objectContaining({ thought: true, thoughtSignature: EXEC_THOUGHT_SIGNATURE }),
    );
    expect(result!.parts).toEqual([
      expect.objectContaining({ functionResponse: expect.objectContaining({ name: EXEC_TOOL }) }),
    ]);
    expect(JSON.stringify(result!.parts[0]!.functionResponse)).toContain(token);
  }, 120_000);

  it("an OpenAI Responses upstream: Codex's body passes through, the reasoning item's encrypted_content and the call come back verbatim", async () => {
    const before = responsesMock.requests.length;
    const { token, command } = await execLoop('codex-responses');
    const [first, second, ...more] = responsesMock.requests.slice(before);
    expect(more).toEqual([]);
    expect(first!.body).toMatchObject({
      model: 'exec-command',
      stream: true,
      store: false,
      include: ['reasoning.encrypted_content'],
    });
    expect((first!.body.tools as Array<{ name?: string }>).map((tool) => tool.name)).toContain(EXEC_TOOL);
    const input = second!.body.input as Array<Record<string, unknown>>;
    expect(input).toContainEqual(
      expect.objectContaining({ type: 'reasoning', encrypted_content: EXEC_ENCRYPTED_CONTENT }),
    );
    expect(input).toContainEqual(
      expect.objectContaining({
        type: 'function_call',
        call_id: EXEC_RESPONSES_CALL_ID,
        name: EXEC_TOOL,
        arguments: JSON.stringify({ cmd: command }),
      }),
    );
    const output = input.find((item) => item.type === 'function_call_output');
    expect(output).toMatchObject({ call_id: EXEC_RESPONSES_CALL_ID });
    expect(JSON.stringify(output!.output)).toContain(token);
  }, 120_000);
});
