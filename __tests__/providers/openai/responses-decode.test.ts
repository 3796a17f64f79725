/**
 * The Responses upstream's decoders on their own: output items → canonical parts, and malformed answers and events →
 * 502 upstream_malformed.
 */
import type { ProviderStreamPart } from '../../../lib';
import { decodeResponsesResponse } from '../../../lib/providers/openai/responses/decode-response';
import { ResponsesStreamDecoder } from '../../../lib/providers/openai/responses/decode-stream';
import type { SseEvent } from '../../../lib/upstream/sse-parser';

const event = (data: unknown): SseEvent =>
  ({ event: undefined, data: typeof data === 'string' ? data : JSON.stringify(data) }) as unknown as SseEvent;

describe('decodeResponsesResponse', () => {
  it('namespaced and custom tool calls, refusals, reasoning with its metadata on it and on the next call', () => {
    const decoded = decodeResponsesResponse(
      {
        id: 'resp_1',
        created_at: 5,
        model: 'm',
        status: 'completed',
        output: [
          {
            type: 'reasoning',
            id: 'rs_1',
            summary: [
              { type: 'summary_text', text: 'A' },
              { type: 'summary_text', text: 'B' },
            ],
            encrypted_content: 'E1',
          },
          { type: 'function_call', call_id: 'c1', namespace: 'fs', name: 'read', arguments: '{}' },
          { type: 'custom_tool_call', call_id: 'c2', name: 'apply_patch', input: '*** patch' },
          { type: 'web_search_call', id: 'ws_1', status: 'completed' },
        ],
        usage: {
          input_tokens: 3,
          output_tokens: 4,
          output_tokens_details: { reasoning_tokens: 2 },
          input_tokens_details: { cached_tokens: 1 },
        },
      },
      'fallback',
      'up',
    );
    expect(decoded.choices[0]!.content).toEqual([
      { type: 'reasoning', text: 'A\n\nB', providerMetadata: { openai: { reasoning: 'rs_1 E1' } } },
      {
        type: 'tool-call',
        id: 'c1',
        name: 'fs__read',
        arguments: '{}',
        providerMetadata: { openai: { reasoning: 'rs_1 E1' } },
      },
      { type: 'tool-call', id: 'c2', name: 'apply_patch', arguments: '{"input":"*** patch"}' },
    ]);
    expect(decoded.choices[0]!.finishReason.unified).toBe('tool-calls');
    expect(decoded.usage).toEqual({ inputTokens: 3, outputTokens: 4, reasoningTokens: 2, cacheReadTokens: 1 });
  });

  it('a reply that is only a refusal is a content-filter finish; missing usage is left for the gateway', () => {
    const decoded = decodeResponsesResponse(
      { status: 'completed', output: [{ type: 'message', content: [{ type: 'refusal', refusal: 'No.' }] }] },
      'm',
      'up',
    );
    expect(decoded.choices[0]!.finishReason.unified).toBe('content-filter');
    expect(decoded.usage).toBeUndefined();
  });

  it.each([
    ['no output array', { status: 'completed' }],
    ['an output item that is not an object', { output: [3] }],
    ['a call without a call_id', { output: [{ type: 'function_call', name: 'f', arguments: '{}' }] }],
  ])('%s → 502 upstream_malformed', (_name, body) => {
    expect(() => decodeResponsesResponse(body, 'm', 'up')).toThrow(
      expect.objectContaining({ kind: 'upstream', code: 'upstream_malformed' }),
    );
  });
});

describe('ResponsesStreamDecoder', () => {
  const created = {
    type: 'response.created',
    response: { id: 'resp_1', model: 'm', created_at: 1, status: 'in_progress' },
  };

  it.each([
    ['not JSON', '{nope'],
    ['no type', { response: {} }],
    ['response.created without its response', { type: 'response.created' }],
    ['an item event without its item', { type: 'response.output_item.added' }],
    ['a delta that is not a string', { type: 'response.output_text.delta', delta: 5 }],
  ] as Array<[string, string | { type?: string }]>)('%s → 502 upstream_malformed', (_name, data) => {
    const decoder = new ResponsesStreamDecoder('up');
    const out: ProviderStreamPart[] = [];
    if (typeof data !== 'string' && data.type !== 'response.created' && data.type !== undefined)
      decoder.accept(event(created), out);
    expect(() => decoder.accept(event(data), out)).toThrow(expect.objectContaining({ code: 'upstream_malformed' }));
  });

  it('a stream that ends before a terminal event is cut', () => {
    const decoder = new ResponsesStreamDecoder('up');
    decoder.accept(event(created), []);
    expect(() => decoder.end()).toThrow(expect.objectContaining({ code: 'upstream_stream_cut' }));
  });

  it('a call sent whole at output_item.done streams its arguments as one delta', () => {
    const decoder = new ResponsesStreamDecoder('up');
    const out: ProviderStreamPart[] = [];
    decoder.accept(event(created), out);
    decoder.accept(
      event({
        type: 'response.output_item.added',
        item: { type: 'function_call', id: 'fc', call_id: 'c1', name: 'f', arguments: '' },
      }),
      out,
    );
    decoder.accept(
      event({
        type: 'response.output_item.done',
        item: { type: 'function_call', id: 'fc', call_id: 'c1', name: 'f', arguments: '{"a":1}' },
      }),
      out,
    );
    decoder.accept(
      event({
        type: 'response.completed',
        response: { status: 'completed', usage: { input_tokens: 1, output_tokens: 2 } },
      }),
      out,
    );
    expect(out).toEqual([
      { type: 'response-start', id: 'resp_1', model: 'm', created: 1 },
      { type: 'tool-call-start', id: 'c1', name: 'f' },
      { type: 'tool-call-delta', id: 'c1', delta: '{"a":1}' },
      { type: 'tool-call-end', id: 'c1' },
      {
        type: 'finish',
        usage: { inputTokens: 1, outputTokens: 2 },
        finishReason: { unified: 'tool-calls', raw: 'completed' },
      },
    ]);
    expect(decoder.done).toBe(true);
  });
});
