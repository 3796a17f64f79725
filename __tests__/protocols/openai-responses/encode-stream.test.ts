/**
 * Raw bytes of the Responses stream: the exact event sequence for text, a tool call, reasoning, a length cut and an
 * upstream error.
 */
import type { StreamPart } from '../../../lib/canonical';
import { GatewayError } from '../../../lib/errors';
import { decodeResponsesRequest } from '../../../lib/protocols/openai-responses/decode-request';
import { ResponsesStreamEncoder } from '../../../lib/protocols/openai-responses/encode-stream';

interface Event {
  event: string;
  data: Record<string, any>;
}

const START: StreamPart = { type: 'response-start', id: 'chatcmpl-s1', model: 'm', created: 1_700_000_000 };
const USAGE = { inputTokens: 10, outputTokens: 4 };

/** Encodes the parts and parses the bytes back, checking every event's framing on the way. */
function run(
  parts: StreamPart[],
  body: Record<string, unknown> = { model: 'm', input: 'x', stream: true },
): { raw: string; events: Event[] } {
  const encoder = new ResponsesStreamEncoder(decodeResponsesRequest(body));
  const raw = parts.map((part) => encoder.encode(part)).join('');
  expect(raw.endsWith('\n\n')).toBe(true);
  const events = raw
    .slice(0, -2)
    .split('\n\n')
    .map((block) => {
      const match = /^event: ([a-z_.]+)\ndata: (.+)$/.exec(block);
      if (!match) throw new Error(`bad frame: ${block}`);
      const data = JSON.parse(match[2]!);
      expect(data.type).toBe(match[1]);
      return { event: match[1]!, data };
    });
  expect(events.map((event) => event.data.sequence_number)).toEqual(events.map((_event, index) => index));
  expect(raw).not.toContain('[DONE]');
  return { raw, events };
}

const types = (events: Event[]) => events.map((event) => event.event);

describe('ResponsesStreamEncoder', () => {
  it('a text answer', () => {
    const { events } = run([
      START,
      { type: 'text-start', id: 't' },
      { type: 'text-delta', id: 't', delta: 'Hel' },
      { type: 'text-delta', id: 't', delta: 'lo' },
      { type: 'text-end', id: 't' },
      { type: 'finish', usage: USAGE, finishReason: { unified: 'stop' } },
    ]);
    expect(types(events)).toEqual([
      'response.created',
      'response.in_progress',
      'response.output_item.added',
      'response.content_part.added',
      'response.output_text.delta',
      'response.output_text.delta',
      'response.output_text.done',
      'response.content_part.done',
      'response.output_item.done',
      'response.completed',
    ]);
    const created = events[0]!.data.response;
    expect(created).toMatchObject({
      id: 'resp_s1',
      object: 'response',
      status: 'in_progress',
      output: [],
      usage: null,
      temperature: 1,
      tools: [],
    });
    expect(events[2]!.data).toMatchObject({
      output_index: 0,
      item: { type: 'message', id: 'msg_s1_0', status: 'in_progress', role: 'assistant', content: [] },
    });
    expect(events[3]!.data).toMatchObject({
      item_id: 'msg_s1_0',
      output_index: 0,
      content_index: 0,
      part: { type: 'output_text', text: '', annotations: [] },
    });
    expect(events[4]!.data).toMatchObject({ item_id: 'msg_s1_0', output_index: 0, content_index: 0, delta: 'Hel' });
    expect(events[6]!.data).toMatchObject({ text: 'Hello' });
    expect(events[8]!.data.item).toEqual({
      type: 'message',
      id: 'msg_s1_0',
      status: 'completed',
      role: 'assistant',
      content: [{ type: 'output_text', text: 'Hello', annotations: [], logprobs: [] }],
    });
    const done = events[9]!.data.response;
    expect(done).toMatchObject({
      status: 'completed',
      output: [events[8]!.data.item],
      usage: {
        input_tokens: 10,
        output_tokens: 4,
        total_tokens: 14,
        input_tokens_details: { cached_tokens: 0 },
        output_tokens_details: { reasoning_tokens: 0 },
      },
    });
  });

  it('a tool call, under the caller namespace', () => {
    const body = {
      model: 'm',
      input: 'x',
      stream: true,
      tools: [
        {
          type: 'namespace',
          name: 'crm',
          tools: [{ type: 'function', name: 'lookup', parameters: { type: 'object' } }],
        },
      ],
    };
    const { events } = run(
      [
        START,
        { type: 'tool-call-start', id: 'call_1', name: 'crm__lookup' },
        { type: 'tool-call-delta', id: 'call_1', delta: '{"q":' },
        { type: 'tool-call-delta', id: 'call_1', delta: '"x"}' },
        { type: 'tool-call-end', id: 'call_1' },
        { type: 'finish', usage: USAGE, finishReason: { unified: 'tool-calls' } },
      ],
      body,
    );
    expect(types(events)).toEqual([
      'response.created',
      'response.in_progress',
      'response.output_item.added',
      'response.function_call_arguments.delta',
      'response.function_call_arguments.delta',
      'response.function_call_arguments.done',
      'response.output_item.done',
      'response.completed',
    ]);
    expect(events[2]!.data.item).toEqual({
      type: 'function_call',
      id: 'fc_s1_0',
      status: 'in_progress',
      call_id: 'call_1',
      name: 'lookup',
      namespace: 'crm',
      arguments: '',
    });
    expect(events[3]!.data).toMatchObject({ item_id: 'fc_s1_0', output_index: 0, delta: '{"q":' });
    expect(events[5]!.data).toMatchObject({ arguments: '{"q":"x"}' });
    expect(events[6]!.data.item).toMatchObject({
      status: 'completed',
      arguments: '{"q":"x"}',
      name: 'lookup',
      namespace: 'crm',
    });
    expect(events[7]!.data.response.status).toBe('completed');
  });

  it('reasoning, then text: summary events, the signature in encrypted_content when included', () => {
    const { events } = run(
      [
        START,
        { type: 'reasoning-start', id: 'r' },
        { type: 'reasoning-delta', id: 'r', delta: 'Think' },
        { type: 'reasoning-end', id: 'r', signature: 'EqQBsig==' },
        { type: 'text-start', id: 't' },
        { type: 'text-delta', id: 't', delta: 'Hi' },
        { type: 'text-end', id: 't' },
        { type: 'finish', usage: { ...USAGE, reasoningTokens: 2 }, finishReason: { unified: 'stop' } },
      ],
      {
        model: 'm',
        input: 'x',
        stream: true,
        include: ['reasoning.encrypted_content'],
        reasoning: { summary: 'auto' },
      },
    );
    expect(types(events)).toEqual([
      'response.created',
      'response.in_progress',
      'response.output_item.added',
      'response.reasoning_summary_part.added',
      'response.reasoning_summary_text.delta',
      'response.reasoning_summary_text.done',
      'response.reasoning_summary_part.done',
      'response.output_item.done',
      'response.output_item.added',
      'response.content_part.added',
      'response.output_text.delta',
      'response.output_text.done',
      'response.content_part.done',
      'response.output_item.done',
      'response.completed',
    ]);
    expect(events[2]!.data.item).toEqual({ type: 'reasoning', id: 'rs_s1_0', summary: [] });
    expect(events[4]!.data).toMatchObject({ item_id: 'rs_s1_0', output_index: 0, summary_index: 0, delta: 'Think' });
    expect(events[7]!.data.item).toEqual({
      type: 'reasoning',
      id: 'rs_s1_0',
      summary: [{ type: 'summary_text', text: 'Think' }],
      encrypted_content: 'rosetta.signature:EqQBsig==',
    });
    expect(events[8]!.data).toMatchObject({ output_index: 1, item: { id: 'msg_s1_1' } });
    expect(events[14]!.data.response.usage.output_tokens_details.reasoning_tokens).toBe(2);
  });

  it('a length cut ends with response.incomplete', () => {
    const { events } = run([
      START,
      { type: 'text-start', id: 't' },
      { type: 'text-delta', id: 't', delta: 'one two' },
      { type: 'text-end', id: 't' },
      { type: 'finish', usage: USAGE, finishReason: { unified: 'length' } },
    ]);
    const last = events[events.length - 1]!;
    expect(last.event).toBe('response.incomplete');
    expect(last.data.response).toMatchObject({
      status: 'incomplete',
      incomplete_details: { reason: 'max_output_tokens' },
    });
    expect(last.data.response.output[0].status).toBe('incomplete');
    expect(types(events)).not.toContain('response.completed');
  });

  it('an upstream error after the start ends with response.failed carrying the error', () => {
    const { events } = run([
      START,
      { type: 'text-start', id: 't' },
      { type: 'text-delta', id: 't', delta: 'par' },
      { type: 'error', error: new GatewayError('upstream', 'The upstream broke off.') },
    ]);
    expect(types(events)).toEqual([
      'response.created',
      'response.in_progress',
      'response.output_item.added',
      'response.content_part.added',
      'response.output_text.delta',
      'response.failed',
    ]);
    expect(events[5]!.data.response).toMatchObject({
      status: 'failed',
      error: { code: 'server_error', message: 'The upstream broke off.' },
    });
    expect(events[5]!.data).not.toHaveProperty('error');
  });
});
