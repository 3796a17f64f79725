/**
 * The `anthropic-messages` extensions between the codec and the provider: the canonical request is
 * the one truth (a step's edits reach the upstream, extensions and all), another protocol's
 * extensions never reach an Anthropic body, and an answer's unmodelled fields reach an Anthropic
 * caller only.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { GenerateRequest, GenerateResponse } from '../../../lib/canonical';
import { decodeMessagesRequest } from '../../../lib/protocols/anthropic-messages/decode-request';
import { encodeMessagesResponse } from '../../../lib/protocols/anthropic-messages/encode-response';
import { decodeMessageResponse } from '../../../lib/providers/anthropic/decode-response';
import {
  anthropicBetaHeader,
  anthropicBetaQuery,
  encodeMessagesRequest,
} from '../../../lib/providers/anthropic/encode-request';
import type { Json } from '../../helpers/app';

const OPTIONS = { stream: false, defaultMaxTokens: 4096 };
const TURN_2 = JSON.parse(
  readFileSync(join(__dirname, '..', '..', 'fixtures', 'claude-code', 'messages-turn-2.json'), 'utf8'),
) as Json;

/** What an Anthropic upstream is sent for a body an Anthropic caller sent, after `edit` changed the decoded request. */
function relay(
  body: Json,
  edit: (request: GenerateRequest) => void = () => undefined,
  headers: Record<string, string> = {},
): Json {
  const request = decodeMessagesRequest(body, headers);
  edit(request);
  return encodeMessagesRequest(request, 'upstream-model', OPTIONS);
}

const BODY: Json = {
  model: 'm',
  max_tokens: 500,
  system: 'Be terse.',
  temperature: 0.5,
  context_management: { edits: [{ type: 'clear_tool_uses_20250919' }] },
  tools: [
    { name: 'first', input_schema: { type: 'object' } },
    { name: 'second', input_schema: { type: 'object' }, cache_control: { type: 'ephemeral' } },
  ],
  messages: [
    { role: 'user', content: 'Earlier question.' },
    { role: 'assistant', content: 'Earlier answer.' },
    { role: 'user', content: [{ type: 'text', text: 'Now this.', cache_control: { type: 'ephemeral' } }] },
  ],
};

describe('a step that edits the canonical request is honoured on the same-protocol path', () => {
  it('unedited, the body is the caller’s', () => {
    expect(relay(BODY)).toEqual({ ...BODY, model: 'upstream-model', stream: false });
  });

  it('a changed text, a dropped turn, a dropped tool and a changed temperature reach the upstream, the unmodelled fields kept', () => {
    const sent = relay(BODY, (request) => {
      request.temperature = 0.2;
      request.tools = request.tools!.filter((tool) => tool.name !== 'first');
      request.messages = request.messages.filter(
        (message) =>
          message.role !== 'assistant' &&
          !(message.content[0]?.type === 'text' && message.content[0].text === 'Earlier question.'),
      );
      const last = request.messages.at(-1)!.content[0]!;
      if (last.type === 'text') last.text = 'Edited.';
    });
    expect(sent).toEqual({
      model: 'upstream-model',
      max_tokens: 500,
      stream: false,
      system: 'Be terse.',
      temperature: 0.2,
      context_management: BODY.context_management,
      tools: [{ name: 'second', input_schema: { type: 'object' }, cache_control: { type: 'ephemeral' } }],
      messages: [{ role: 'user', content: [{ type: 'text', text: 'Edited.', cache_control: { type: 'ephemeral' } }] }],
    });
  });

  it('an edited system prompt and output cap, and thinking switched off (its context-management edit with it), reach the upstream of a Claude Code turn', () => {
    const sent = relay(TURN_2, (request) => {
      request.maxOutputTokens = 1000;
      request.reasoning = { ...request.reasoning, enabled: false };
      const system = request.messages[0]!;
      system.content = [{ type: 'text', text: 'A new system prompt.' }];
    });
    expect(sent.max_tokens).toBe(1000);
    expect(sent.system).toEqual([{ type: 'text', text: 'A new system prompt.' }]);
    expect(sent.thinking).toEqual({ type: 'disabled' });
    expect(sent.messages).toEqual(TURN_2.messages);
    expect(sent.tools).toEqual(TURN_2.tools);
    expect(sent.output_config).toEqual(TURN_2.output_config);
    expect(TURN_2.context_management.edits.map((edit: Json) => edit.type)).toEqual(['clear_thinking_20251015']);
    expect(sent).not.toHaveProperty('context_management');
  });

  it('the betas (and so ?beta=true) are the request’s, and go when a step removes them', () => {
    const request = decodeMessagesRequest(BODY, { 'anthropic-beta': ['b-1, b-2', 'b-3'] });
    expect(anthropicBetaHeader(request, 'b-2,c-9')).toBe('b-2,c-9,b-1,b-3');
    expect(anthropicBetaQuery(request)).toEqual({ beta: 'true' });
    delete request.extensions!['anthropic-messages']!.betas;
    expect(anthropicBetaHeader(request, undefined)).toBeUndefined();
    expect(anthropicBetaQuery(request)).toBeUndefined();
  });
});

describe('wire shapes the canonical messages do not say are rebuilt', () => {
  it('consecutive turns of one role stay apart; a system message inside messages stays in place', () => {
    const body = {
      model: 'm',
      max_tokens: 10,
      messages: [
        { role: 'user', content: 'one' },
        { role: 'user', content: [{ type: 'text', text: 'two' }] },
        { role: 'system', content: 'in place' },
        { role: 'assistant', content: 'three' },
        { role: 'assistant', content: 'four' },
      ],
    };
    expect(relay(body).messages).toEqual(body.messages);
  });

  it('a signed thinking block with its unmodelled keys, and unsigned or other vendors’ thinking left out', () => {
    const body = {
      model: 'm',
      max_tokens: 10,
      messages: [
        { role: 'user', content: 'q' },
        {
          role: 'assistant',
          content: [
            { type: 'thinking', thinking: 'mine', signature: 'sig-a', cache_control: { type: 'ephemeral' } },
            { type: 'thinking', thinking: 'unsigned', signature: '' },
            { type: 'text', text: 'a' },
          ],
        },
        { role: 'user', content: 'q2' },
      ],
    };
    expect(relay(body).messages[1]).toEqual({
      role: 'assistant',
      content: [body.messages[1]!.content[0], body.messages[1]!.content[2]],
    });
  });
});

describe('no extension of another protocol reaches an Anthropic body', () => {
  it('request, message, part and tool extensions under other keys are ignored', () => {
    const foreign = {
      'openai-chat': { fields: { logprobs: true, marker_openai: 1 } },
      gemini: { fields: { safetySettings: ['marker_gemini'] } },
      'my-codec': { marker_host: true },
    };
    const request: GenerateRequest = {
      model: 'm',
      stream: false,
      messages: [
        { role: 'system', content: [{ type: 'text', text: 'sys', extensions: foreign }], extensions: foreign },
        { role: 'user', content: [{ type: 'text', text: 'hi', extensions: foreign }], extensions: foreign },
      ],
      tools: [{ name: 'f', parameters: { type: 'object' }, extensions: foreign }],
      reasoning: { effort: 'high' },
      extensions: foreign,
    };
    const body = encodeMessagesRequest(request, 'up', OPTIONS);
    expect(JSON.stringify(body)).not.toMatch(/marker_|logprobs|safetySettings/);
    expect(body).toEqual({
      model: 'up',
      max_tokens: 4096,
      stream: false,
      system: [{ type: 'text', text: 'sys' }],
      messages: [{ role: 'user', content: [{ type: 'text', text: 'hi' }] }],
      tools: [{ name: 'f', input_schema: { type: 'object' } }],
      thinking: { type: 'enabled', budget_tokens: 2048 },
    });
  });
});

describe('an answer’s unmodelled fields', () => {
  const upstream = {
    id: 'msg_1',
    type: 'message',
    role: 'assistant',
    model: 'claude-x',
    content: [{ type: 'text', text: 'Hi' }],
    stop_reason: 'end_turn',
    stop_sequence: null,
    container: { id: 'container_1', expires_at: '2026-11-21T18:00:00Z' },
    context_management: { applied_edits: [{ type: 'clear_tool_uses_20250919' }] },
    future_field: 1,
    usage: {
      input_tokens: 4,
      output_tokens: 2,
      cache_read_input_tokens: 0,
      cache_creation_input_tokens: 0,
      service_tier: 'priority',
      cache_creation: { ephemeral_5m_input_tokens: 0, ephemeral_1h_input_tokens: 0 },
    },
  };

  it('travel in the response’s anthropic-messages extension, never as a second copy of what canonical says', () => {
    const decoded = decodeMessageResponse(upstream, 'fallback');
    expect(decoded).not.toHaveProperty('origin');
    expect(decoded.extensions).toEqual({
      'anthropic-messages': {
        fields: { container: upstream.container, context_management: upstream.context_management, future_field: 1 },
        usage: { service_tier: 'priority', cache_creation: upstream.usage.cache_creation },
      },
    });
  });

  it('reach an Anthropic caller from its own key only', () => {
    const response: GenerateResponse = {
      id: 'msg_1',
      model: 'claude-x',
      created: 0,
      choices: [{ index: 0, content: [{ type: 'text', text: 'Hi' }], finishReason: { unified: 'stop' } }],
      usage: { inputTokens: 4, outputTokens: 2 },
      extensions: {
        'anthropic-messages': {
          fields: { container: upstream.container, future_field: 1 },
          usage: { service_tier: 'priority' },
        },
        'openai-chat': { fields: { system_fingerprint: 'fp_marker' } },
      },
    };
    const body = encodeMessagesResponse(response);
    expect(body).toMatchObject({
      container: upstream.container,
      future_field: 1,
      context_management: { applied_edits: [] },
    });
    expect(body.usage).toMatchObject({ input_tokens: 4, output_tokens: 2, service_tier: 'priority' });
    expect(JSON.stringify(body)).not.toContain('fp_marker');
  });
});
