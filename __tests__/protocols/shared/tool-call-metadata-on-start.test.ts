/**
 * Stream encoders write a tool call's metadata when the call starts: no part is held back to move a value from its end.
 */
import type { StreamPart } from '../../../lib';
import { encodeMessagesStream } from '../../../lib/protocols/anthropic-messages/encode-stream';
import { encodeChatStream } from '../../../lib/protocols/openai-chat/encode-stream';
import { splitToolId } from '../../../lib/protocols/shared/signature-carrier';
import type { CallView, StreamEncoder } from '../../../lib/protocols/types';

const CALL: CallView = {
  requestId: 'req_1',
  http: { method: 'POST', path: '/', headers: {}, query: new URLSearchParams(), body: {} },
};

const SIGNATURE = 'Cs4BAY89a1+start/sig==';
const START: StreamPart = {
  type: 'tool-call-start',
  id: 'call_1',
  name: 'get_weather',
  providerMetadata: { gemini: { thoughtSignature: SIGNATURE } },
};

/** The JSON data of each `data:` line in a piece of an event stream. */
function dataOf(text: string): Array<Record<string, any>> {
  return text
    .split('\n')
    .filter((line) => line.startsWith('data: {'))
    .map((line) => JSON.parse(line.slice('data: '.length)));
}

/** What the encoder writes for the `tool-call-start` alone, after `response-start`. */
function writtenOnStart(encoder: StreamEncoder): string {
  encoder.encode({ type: 'response-start', id: 'resp-1', model: 'm', created: 1 });
  return encoder.encode(START);
}

describe('tool-call metadata on the start part', () => {
  it('chat completions: the chunk naming the call is written on its start, its id carrying the signature', () => {
    const encoder = encodeChatStream({ model: 'm', messages: [], stream: true });
    const chunks = dataOf(writtenOnStart(encoder));
    expect(chunks).toHaveLength(1);
    const call = chunks[0]!.choices[0].delta.tool_calls[0];
    expect(call).toMatchObject({ index: 0, type: 'function', function: { name: 'get_weather', arguments: '' } });
    expect(splitToolId(call.id)).toEqual({ id: 'call_1', carried: { vendor: 'gemini', signature: SIGNATURE } });
    expect(
      dataOf(encoder.encode({ type: 'tool-call-delta', id: 'call_1', delta: '{"city":' }))[0]!.choices[0].delta
        .tool_calls[0].function.arguments,
    ).toBe('{"city":');
  });

  it('Anthropic messages: content_block_start of the tool_use is written on its start, its id carrying the signature', () => {
    const encoder = encodeMessagesStream({ model: 'm', messages: [], stream: true }, CALL);
    const events = dataOf(writtenOnStart(encoder));
    const start = events.find((event) => event.type === 'content_block_start');
    expect(start).toMatchObject({ index: 0, content_block: { type: 'tool_use', name: 'get_weather', input: {} } });
    expect(splitToolId(start!.content_block.id)).toEqual({
      id: 'call_1',
      carried: { vendor: 'gemini', signature: SIGNATURE },
    });
    const delta = dataOf(encoder.encode({ type: 'tool-call-delta', id: 'call_1', delta: '{"city":' }));
    expect(delta).toEqual([
      { type: 'content_block_delta', index: 0, delta: { type: 'input_json_delta', partial_json: '{"city":' } },
    ]);
  });
});
