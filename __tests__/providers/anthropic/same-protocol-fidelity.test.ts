/**
 * Same-protocol fidelity: an Anthropic caller's body reaches an Anthropic upstream as it sent it,
 * only the gateway's controlled fields (model, stream) changed, though the provider builds it from
 * the canonical request and its `anthropic-messages` extensions. The corpus: Claude Code's recorded-
 * shape bodies (fixtures/claude-code) and bodies using every unmodelled field at every level.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { MemoryKeyStore, MemoryQuotaStore, type ModelConfig } from '../../../lib';
import { AnthropicProvider } from '../../../lib/providers/anthropic';
import { type Json, serveGateway, type RunningGateway } from '../../helpers/app';
import { MOCK_ANTHROPIC_KEY, startMockAnthropic, type MockAnthropic } from '../../helpers/mock-anthropic';

const KEY = 'sk-fidelity-caller-0001';

function fixture(name: string): Json {
  return JSON.parse(readFileSync(join(__dirname, '..', '..', 'fixtures', 'claude-code', name), 'utf8')) as Json;
}

const HEADERS = fixture('headers.json');
const CLAUDE_CODE_BETAS: string = HEADERS['anthropic-beta'].join(',');
const PDF = 'JVBERi0xLjQK';
const PNG = 'iVBORw0KGgo=';

/** Every unmodelled field the codec meets, at every level, in a body the upstream takes (thinking off). */
const EVERY_LEVEL: Json = {
  model: 'fidelity',
  max_tokens: 900,
  system: 'You are terse.',
  temperature: 0.4,
  top_k: 7,
  top_p: 0.8,
  stop_sequences: ['END'],
  service_tier: 'auto',
  container: 'container_abc',
  mcp_servers: [{ type: 'url', url: 'https://mcp.example.com/sse', name: 'example' }],
  metadata: { user_id: 'user-7', note: 'unmodelled metadata key' },
  output_config: { effort: 'low', format: { type: 'json_schema', schema: { type: 'object' } }, future_setting: 1 },
  tool_choice: { type: 'auto', disable_parallel_tool_use: false },
  some_future_field: { kept: true },
  tools: [
    { type: 'web_search_20250305', name: 'web_search', max_uses: 3 },
    {
      name: 'get_weather',
      description: 'Weather',
      input_schema: { type: 'object', properties: { city: { type: 'string' } } },
      strict: true,
      cache_control: { type: 'ephemeral', ttl: '1h' },
    },
    {
      type: 'custom',
      name: 'lookup',
      input_schema: { type: 'object' },
      defer_loading: true,
      input_examples: [{ q: 'x' }],
    },
    { type: 'bash_20250124', name: 'bash' },
  ],
  messages: [
    {
      role: 'user',
      content: [
        {
          type: 'image',
          source: { type: 'base64', media_type: 'image/png', data: PNG },
        },
        { type: 'image', source: { type: 'url', url: 'https://example.com/a.jpg' } },
        {
          type: 'document',
          source: { type: 'base64', media_type: 'application/pdf', data: PDF },
          title: 'report.pdf',
          context: 'Q3',
          citations: { enabled: true },
          cache_control: { type: 'ephemeral', ttl: '1h' },
        },
        { type: 'document', source: { type: 'url', url: 'https://example.com/a.pdf' } },
        {
          type: 'document',
          source: { type: 'text', media_type: 'text/plain', data: 'plain words' },
          title: 'notes',
          context: 'from the wiki',
          citations: { enabled: true },
        },
        {
          type: 'document',
          source: {
            type: 'content',
            content: [
              { type: 'text', text: 'first chunk' },
              { type: 'text', text: 'second chunk' },
            ],
          },
          title: 'chunks',
        },
        { type: 'text', text: 'Look these up.' },
      ],
    },
    {
      role: 'assistant',
      content: [
        { type: 'text', text: 'Searching.' },
        { type: 'server_tool_use', id: 'srvtoolu_01', name: 'web_search', input: { query: 'weather' } },
        {
          type: 'web_search_tool_result',
          tool_use_id: 'srvtoolu_01',
          content: [
            { type: 'web_search_result', url: 'https://example.com', title: 'Example', encrypted_content: 'abc' },
          ],
        },
        {
          type: 'text',
          text: 'Now the tools.',
          citations: [
            {
              type: 'web_search_result_location',
              url: 'https://example.com',
              title: 'Example',
              encrypted_index: 'x',
              cited_text: 'y',
            },
          ],
        },
        {
          type: 'tool_use',
          id: 'toolu_01',
          name: 'get_weather',
          input: { city: 'Oslo' },
          cache_control: { type: 'ephemeral' },
        },
        { type: 'tool_use', id: 'toolu_02', name: 'lookup', input: {} },
      ],
    },
    {
      role: 'user',
      content: [
        {
          type: 'tool_result',
          tool_use_id: 'toolu_01',
          content: '3°C',
          is_error: false,
          cache_control: { type: 'ephemeral' },
        },
        {
          type: 'tool_result',
          tool_use_id: 'toolu_02',
          content: [
            { type: 'text', text: 'the PDF:' },
            {
              type: 'document',
              source: { type: 'base64', media_type: 'application/pdf', data: PDF },
              title: 'found.pdf',
            },
            { type: 'image', source: { type: 'base64', media_type: 'image/png', data: PNG } },
          ],
        },
        { type: 'text', text: 'Summarise.' },
      ],
    },
    { role: 'assistant', content: 'A string answer.' },
    { role: 'user', content: 'And a string question?' },
  ],
};

/** Thinking with every field of its own, the body's, and a signed history to replay. */
const THINKING: Json = {
  model: 'fidelity',
  max_tokens: 4000,
  system: [{ type: 'text', text: 'Be brief.', cache_control: { type: 'ephemeral' } }],
  thinking: { type: 'enabled', budget_tokens: 2048, display: 'summarized' },
  temperature: 1,
  context_management: {
    edits: [
      { type: 'clear_thinking_20251015', keep: { type: 'thinking_turns', value: 1 } },
      { type: 'clear_tool_uses_20250919' },
    ],
  },
  messages: [
    { role: 'user', content: [{ type: 'text', text: 'Think first.' }] },
    {
      role: 'assistant',
      content: [
        { type: 'thinking', thinking: 'I will check.', signature: 'EqQBsig-1' },
        { type: 'redacted_thinking', data: 'EmwKAhgBEgy' },
        { type: 'tool_use', id: 'toolu_9', name: 'get_weather', input: { city: 'Bergen' } },
      ],
    },
    {
      role: 'user',
      content: [{ type: 'tool_result', tool_use_id: 'toolu_9', content: [{ type: 'text', text: 'rain' }] }],
    },
  ],
  tools: [{ name: 'get_weather', input_schema: { type: 'object', properties: { city: { type: 'string' } } } }],
};

/** Adaptive thinking with an omitted display and an effort, as Claude Code sends it, with a system message in place. */
const ADAPTIVE: Json = {
  model: 'fidelity',
  max_tokens: 32000,
  thinking: { type: 'adaptive', display: 'omitted' },
  output_config: { effort: 'max' },
  messages: [
    { role: 'user', content: 'Hello' },
    { role: 'system', content: [{ type: 'text', text: 'Plan mode is on.', cache_control: { type: 'ephemeral' } }] },
    {
      role: 'assistant',
      content: [
        { type: 'thinking', thinking: '', signature: 'EqQBsig-2' },
        { type: 'text', text: 'Hi.' },
      ],
    },
    { role: 'system', content: 'Plan mode is off.' },
    { role: 'user', content: 'Bye' },
  ],
};

/** The corpus: each body, the betas it is sent with, and the upstream it goes to. */
const CORPUS: Array<[string, Json, string | undefined]> = [
  ['Claude Code, turn 1', { ...fixture('messages-turn-1.json'), model: 'fidelity' }, CLAUDE_CODE_BETAS],
  [
    'Claude Code, turn 2 (signed thinking, parallel tool uses and their results)',
    { ...fixture('messages-turn-2.json'), model: 'fidelity' },
    CLAUDE_CODE_BETAS,
  ],
  ['every unmodelled field at every level', EVERY_LEVEL, undefined],
  [
    'thinking with a fixed budget, its display, context management',
    THINKING,
    'interleaved-thinking-2025-05-14,context-management-2025-06-27',
  ],
  ['adaptive thinking and system messages inside messages', ADAPTIVE, 'mid-conversation-system-2026-04-07'],
];

let mock: MockAnthropic;
let server: RunningGateway;

beforeAll(async () => {
  mock = await startMockAnthropic();
  const models: ModelConfig[] = [{ id: 'fidelity', provider: 'anthropic', upstreamModel: 'echo' }];
  server = await serveGateway({
    keyStore: new MemoryKeyStore([{ key: KEY, id: 'caller' }]),
    quotaStore: new MemoryQuotaStore({ balances: { caller: 100_000_000 } }),
    providers: [new AnthropicProvider({ baseUrl: mock.url, apiKey: MOCK_ANTHROPIC_KEY, retries: { max: 0 } })],
    models,
  });
});
afterAll(async () => {
  await server.close();
  await mock.close();
});

async function send(body: Json, betas: string | undefined): Promise<{ status: number; text: string }> {
  const headers: Record<string, string> = {
    'content-type': 'application/json',
    'x-api-key': KEY,
    'anthropic-version': '2023-06-01',
    ...(betas ? { 'anthropic-beta': betas } : {}),
  };
  const response = await fetch(`${server.url}/v1/messages${betas ? '?beta=true' : ''}`, {
    method: 'POST',
    headers,
    body: JSON.stringify(body),
  });
  return { status: response.status, text: await response.text() };
}

describe.each(CORPUS)('%s reaches an Anthropic upstream as the caller sent it', (_name, body, betas) => {
  it.each([false, true])('stream: %s', async (stream) => {
    const { status, text } = await send({ ...body, stream }, betas);
    expect({ status, text: status === 200 ? 'ok' : text }).toEqual({ status: 200, text: 'ok' });
    const sent = mock.requests.at(-1)!;
    expect(sent.body).toEqual({ ...body, model: 'echo', stream });
    expect(sent.url).toBe(betas ? '/v1/messages?beta=true' : '/v1/messages');
    expect(sent.headers['anthropic-beta']).toBe(betas);
  });
});
