/**
 * A Responses caller → a Responses upstream: the caller's body (Codex's real shape) reaches the upstream as sent but
 * for the gateway's fields; edits to the canonical request count; nothing crosses protocols.
 */
import { MemoryKeyStore, MemoryQuotaStore, OpenAIProvider } from '../../../lib';
import { decodeChatRequest } from '../../../lib/protocols/openai-chat/decode-request';
import { decodeResponsesRequest } from '../../../lib/protocols/openai-responses/decode-request';
import { encodeResponsesRequest } from '../../../lib/providers/openai/responses/encode-request';
import { buildApp, listen, type Json, type RunningServer } from '../../helpers/app';
import { startMockOpenAIResponses, type MockOpenAIResponses } from '../../helpers/mock-openai-responses';

const KEY = 'sk-responses-same-protocol';
let mock: MockOpenAIResponses;
let server: RunningServer;

beforeAll(async () => {
  mock = await startMockOpenAIResponses();
  const { app } = buildApp({
    keyStore: new MemoryKeyStore([{ key: KEY, id: 'caller' }]),
    quotaStore: new MemoryQuotaStore({ balances: { caller: 10_000_000 } }),
    providers: [
      new OpenAIProvider({
        baseUrl: mock.url,
        apiKey: 'sk-up',
        responsesModels: ['echo'],
        reasoningModels: () => true,
      }),
    ],
    models: [{ id: 'gpt-5-codex', provider: 'openai', upstreamModel: 'echo' }],
  });
  server = await listen(app);
});
afterAll(async () => {
  await server.close();
  await mock.close();
});

const PARAMETERS = {
  type: 'object',
  properties: { cmd: { type: 'string' } },
  required: ['cmd'],
  additionalProperties: false,
};

/** Codex 0.169's body on a later turn (protocols.md 7.2), and the fields a server of its own adds. */
const CODEX: Json = {
  model: 'gpt-5-codex',
  stream: true,
  input: [
    { type: 'message', role: 'developer', content: [{ type: 'input_text', text: 'You are Codex, a coding agent.' }] },
    {
      type: 'message',
      role: 'user',
      content: [{ type: 'input_text', text: '<environment_context>cwd /tmp</environment_context>' }],
    },
    { type: 'message', role: 'user', content: [{ type: 'input_text', text: 'List the files.' }] },
    {
      type: 'reasoning',
      id: 'rs_0a1b',
      summary: [{ type: 'summary_text', text: '**Listing files**\n\nI will run ls.' }],
      encrypted_content: 'gAAAAABo-opaque_token==',
    },
    { type: 'function_call', call_id: 'call_ls1', name: 'exec_command', arguments: '{"cmd":"ls"}' },
    { type: 'function_call_output', call_id: 'call_ls1', output: 'a.txt\nb.txt' },
    { type: 'message', role: 'assistant', content: [{ type: 'output_text', text: 'Two files.' }] },
    { type: 'message', role: 'user', content: [{ type: 'input_text', text: 'Thanks.' }] },
  ],
  tools: [
    { type: 'function', name: 'exec_command', description: 'Runs a command', strict: false, parameters: PARAMETERS },
    {
      type: 'namespace',
      name: 'mcp_fs',
      description: 'Filesystem server',
      tools: [{ type: 'function', name: 'read', description: 'Reads a file', parameters: PARAMETERS }],
    },
    {
      type: 'custom',
      name: 'apply_patch',
      description: 'Applies a patch',
      format: { type: 'grammar', syntax: 'lark', definition: 'start: /.+/' },
    },
    { type: 'web_search', external_web_access: false },
  ],
  tool_choice: 'auto',
  parallel_tool_calls: true,
  reasoning: { effort: 'medium', summary: 'auto' },
  store: false,
  include: ['reasoning.encrypted_content'],
  prompt_cache_key: '0199-session',
  client_metadata: { originator: 'codex_exec' },
  text: { verbosity: 'low' },
  service_tier: 'priority',
  a_server_field: { kept: true },
};

async function sent(body: Json, stream: boolean): Promise<Json> {
  const res = await fetch(`${server.url}/v1/responses`, {
    method: 'POST',
    headers: { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' },
    body: JSON.stringify({ ...body, stream }),
  });
  expect(res.status).toBe(200);
  await res.text();
  return mock.requests.at(-1)!.body;
}

describe("same protocol: the upstream gets the caller's body with only the gateway's fields changed", () => {
  it.each([false, true])("Codex's body (stream: %s)", async (stream) => {
    const upstream = await sent(CODEX, stream);
    const { max_output_tokens, ...rest } = upstream;
    expect(typeof max_output_tokens).toBe('number');
    expect(rest).toEqual({ ...CODEX, model: 'echo', stream });
  });

  it('the plain SDK body: a string input and instructions', async () => {
    const body = {
      model: 'gpt-5-codex',
      instructions: 'Be terse.',
      input: 'hi',
      max_output_tokens: 50,
      metadata: { team: 'a' },
      text: { format: { type: 'json_schema', name: 'answer', schema: PARAMETERS, strict: true } },
    };
    const upstream = await sent(body, false);
    expect(upstream).toEqual({
      ...body,
      model: 'echo',
      stream: false,
      input: [{ type: 'message', role: 'user', content: [{ type: 'input_text', text: 'hi' }] }],
      store: false,
      include: ['reasoning.encrypted_content'],
    });
  });
});

describe('the canonical request is the truth', () => {
  it("edits to it reach the upstream over the caller's own fields", () => {
    const request = decodeResponsesRequest(CODEX);
    request.maxOutputTokens = 77;
    request.reasoning = { enabled: true, effort: 'high' };
    request.toolChoice = { type: 'required' };
    request.tools = request.tools!.filter((tool) => tool.name !== 'apply_patch');
    request.messages.push({ role: 'user', content: [{ type: 'text', text: 'One more.' }] });
    const body = encodeResponsesRequest(request, 'gpt-5', { stream: false, reasoningModel: true });
    expect(body.max_output_tokens).toBe(77);
    expect(body.reasoning).toEqual({ effort: 'high', summary: 'auto' });
    expect(body.tool_choice).toBe('required');
    expect((body.tools as Json[]).map((tool) => tool.name)).toEqual(['exec_command', 'mcp_fs', undefined]);
    expect((body.input as Json[]).at(-1)).toEqual({
      type: 'message',
      role: 'user',
      content: [{ type: 'input_text', text: 'One more.' }],
    });
  });

  it('the upstream is never asked to store: the gateway keeps conversations and resends them whole', () => {
    const request = decodeResponsesRequest({ ...CODEX, store: true });
    expect(encodeResponsesRequest(request, 'gpt-5', { stream: false, reasoningModel: true }).store).toBe(false);
  });

  it("a chat-completions caller's own fields never reach a Responses upstream", () => {
    const request = decodeChatRequest({
      model: 'm',
      messages: [
        { role: 'developer', content: 'Rules.' },
        { role: 'user', content: [{ type: 'text', text: 'hi', cache_control: { type: 'ephemeral' } }] },
      ],
      logprobs: true,
      top_logprobs: 2,
      stream_options: { include_usage: true },
      prediction: { type: 'content', content: 'x' },
      tools: [{ type: 'function', function: { name: 'f', parameters: PARAMETERS, examples: [1] } }],
      stop: ['END'],
      seed: 3,
    });
    const body = encodeResponsesRequest(request, 'gpt-5', { stream: false });
    expect(body).toEqual({
      model: 'gpt-5',
      instructions: 'Rules.',
      input: [{ type: 'message', role: 'user', content: [{ type: 'input_text', text: 'hi' }] }],
      stream: false,
      store: false,
      tools: [{ type: 'function', name: 'f', parameters: PARAMETERS }],
    });
  });
});
