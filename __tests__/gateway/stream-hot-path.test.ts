/** The streaming hot path: writes coalesced per tick, and upstream connections kept after a stream's end. */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { ServerResponse } from 'node:http';
import { OpenAIProvider } from '../../lib';
import type { GenerateRequest, ProviderStreamPart, StreamPart } from '../../lib/canonical';
import { StreamMeter } from '../../lib/stream/meter';
import { CoalescingWriter } from '../../lib/http/send';
import { countRequestTokens, countTextTokens, ProducedText } from '../../lib/tokenizer';
import { ChatStreamEncoder } from '../../lib/protocols/openai-chat/encode-stream';
import { decodeEventStream } from '../../lib/upstream/sse';
import type { BodySink, StreamedBody } from '../../lib/upstream/dispatch';
import { ChatStreamDecoder } from '../../lib/providers/openai/decode-stream';
import { GatewayError } from '../../lib/errors';

/** A stand-in for a ServerResponse that records what reaches it. */
function recordingResponse() {
  const calls: Array<['write' | 'end', string]> = [];
  const response = {
    destroyed: false,
    writableNeedDrain: false,
    write(text: string) {
      calls.push(['write', text]);
      return true;
    },
    end(text: string) {
      calls.push(['end', text]);
    },
  };
  return { response, calls, writer: new CoalescingWriter(response as unknown as ServerResponse) };
}

const tick = () => new Promise<void>((resolve) => process.nextTick(resolve));

describe('CoalescingWriter', () => {
  it('writes everything queued in one tick as one chunk, at the end of the tick', async () => {
    const { writer, calls } = recordingResponse();
    writer.write('a');
    writer.write('b');
    await Promise.resolve();
    writer.write('c');
    expect(calls).toEqual([]);
    await tick();
    expect(calls).toEqual([['write', 'abc']]);
    writer.write('d');
    await tick();
    expect(calls).toEqual([
      ['write', 'abc'],
      ['write', 'd'],
    ]);
  });

  it('writes at once when a tick queues 16 KiB, so a provider that never waits cannot queue its whole stream', () => {
    const { writer, calls } = recordingResponse();
    writer.write('x'.repeat(10_000));
    expect(calls).toEqual([]);
    writer.write('y'.repeat(10_000));
    expect(calls.map(([method, text]) => [method, text.length])).toEqual([['write', 20_000]]);
  });

  it('ends with what is still queued, and reports the client’s backpressure', () => {
    const { writer, calls, response } = recordingResponse();
    expect(writer.write('last')).toBe(true);
    response.writableNeedDrain = true;
    expect(writer.write(' words')).toBe(false);
    writer.end();
    expect(calls).toEqual([['end', 'last words']]);
  });

  it('writes nothing to a destroyed response', async () => {
    const { writer, calls, response } = recordingResponse();
    writer.write('gone');
    response.destroyed = true;
    await tick();
    writer.end();
    expect(calls).toEqual([]);
  });
});

describe('an upstream stream that ends after [DONE]', () => {
  /** An OpenAI-compatible upstream that streams a short answer, then ends the body 30 ms after `[DONE]`. */
  async function lingeringUpstream() {
    const state = { connections: 0, cutOff: 0, ended: 0 };
    const server = http.createServer((request, response) => {
      request.resume();
      request.on('end', () => {
        response.on('close', () => {
          if (!response.writableFinished) state.cutOff++;
          else state.ended++;
        });
        response.writeHead(200, { 'content-type': 'text/event-stream' });
        const head = { id: 'chatcmpl-1', object: 'chat.completion.chunk', created: 1, model: 'm' };
        const event = (body: unknown) => response.write(`data: ${JSON.stringify(body)}\n\n`);
        event({ ...head, choices: [{ index: 0, delta: { role: 'assistant', content: 'hi' }, finish_reason: null }] });
        event({ ...head, choices: [{ index: 0, delta: {}, finish_reason: 'stop' }] });
        event({ ...head, choices: [], usage: { prompt_tokens: 3, completion_tokens: 1, total_tokens: 4 } });
        response.write('data: [DONE]\n\n');
        setTimeout(() => response.end(), 30);
      });
    });
    server.on('connection', () => state.connections++);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    return {
      state,
      url: `http://127.0.0.1:${port}/v1`,
      close: () =>
        new Promise<void>((resolve) => {
          server.closeAllConnections();
          server.close(() => resolve());
        }),
    };
  }

  it('is read to its end, not torn down: its connection is reused by the next call', async () => {
    const upstream = await lingeringUpstream();
    const provider = new OpenAIProvider({ baseUrl: upstream.url, apiKey: 'sk-upstream' });
    try {
      for (let call = 0; call < 3; call++) {
        const parts: ProviderStreamPart[] = [];
        // As the gateway does: stop at `finish` (the iterator's return() runs at once).
        for await (const part of provider.stream(
          { model: 'm', stream: true, messages: [{ role: 'user', content: [{ type: 'text', text: 'hi' }] }] },
          { upstreamModel: 'm', signal: new AbortController().signal, requestId: `req_${call}` },
        )) {
          parts.push(part);
          if (part.type === 'finish') break;
        }
        expect(parts.at(-1)).toMatchObject({ type: 'finish', usage: { inputTokens: 3, outputTokens: 1 } });
        // The body's end has been written and the response closed before the next call (a loaded machine
        // may take longer than the 30 ms the upstream lingers), then the client is given time to read it.
        while (upstream.state.ended + upstream.state.cutOff <= call)
          await new Promise((resolve) => setTimeout(resolve, 10));
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      expect(upstream.state.cutOff).toBe(0);
      expect(upstream.state.connections).toBe(1);
    } finally {
      await provider.close();
      await upstream.close();
    }
  });
});

describe('ProducedText', () => {
  it('gives back everything added, in order, across its periodic joins', () => {
    const produced = new ProducedText();
    let expected = '';
    for (let index = 0; index < 1000; index++) {
      const piece = index % 7 === 0 ? '' : `w${index} `;
      produced.add(piece);
      expected += piece;
      if (index === 300) expect(produced.text()).toBe(expected);
    }
    expect(produced.text()).toBe(expected);
    expect(produced.text()).toBe(expected);
  });
});

describe('ChatStreamDecoder without upstream usage', () => {
  it('finishes without usage, and the meter counts everything the stream produced: text, a streamed tool call and a held parallel one', () => {
    const decoder = new ChatStreamDecoder('mock');
    const out: ProviderStreamPart[] = [];
    const chunk = (delta: Record<string, unknown>, finish: string | null = null) => ({
      event: '',
      id: '',
      data: JSON.stringify({ id: 'c', model: 'm', created: 1, choices: [{ index: 0, delta, finish_reason: finish }] }),
    });
    const events = [
      chunk({ content: 'Checking. ' }),
      chunk({ tool_calls: [{ index: 0, id: 'a', function: { name: 'weather', arguments: '{"city":' } }] }),
      // A second call starts while the first's arguments are incomplete: it is held and sent whole at the end.
      chunk({ tool_calls: [{ index: 1, id: 'b', function: { name: 'time', arguments: '{"zone":"CET"}' } }] }),
      chunk({ tool_calls: [{ index: 0, function: { arguments: '"Oslo"}' } }] }),
      chunk({}, 'tool_calls'),
      { event: '', id: '', data: '[DONE]' },
    ];
    for (const event of events) decoder.accept(event, out);
    expect(decoder.done).toBe(true);
    expect(out.map((part) => part.type)).toEqual([
      'response-start',
      'text-start',
      'text-delta',
      'text-end',
      'tool-call-start',
      'tool-call-delta',
      'tool-call-delta',
      'tool-call-end',
      'tool-call-start',
      'tool-call-delta',
      'tool-call-end',
      'finish',
    ]);
    expect(out.at(-1)).toEqual({ type: 'finish', finishReason: { unified: 'tool-calls', raw: 'tool_calls' } });
    const request: GenerateRequest = {
      model: 'm',
      stream: true,
      messages: [{ role: 'user', content: [{ type: 'text', text: 'Weather and time in Oslo?' }] }],
    };
    const meter = new StreamMeter(request, 999);
    const relayed = out.map((part) => meter.observe(part));
    const usage = {
      inputTokens: countRequestTokens(request),
      outputTokens: countTextTokens('Checking. weather{"city":"Oslo"}time{"zone":"CET"}'),
    };
    expect(relayed.at(-1)).toEqual({
      type: 'finish',
      usage,
      finishReason: { unified: 'tool-calls', raw: 'tool_calls' },
    });
    expect(meter.usage()).toEqual(usage);
  });
});

describe('ChatStreamEncoder', () => {
  it('writes each chunk byte for byte as JSON.stringify of the chunk would, with the head serialized once', () => {
    const encoder = new ChatStreamEncoder(true);
    const parts: StreamPart[] = [
      { type: 'response-start', id: 'abc"1', model: 'm\u00e9/x', created: 1_700_000_000 },
      { type: 'text-start', id: '0' },
      { type: 'text-delta', id: '0', delta: 'Hi "there"\n' },
      { type: 'text-end', id: '0' },
      { type: 'tool-call-start', id: 'call_1', name: 'f' },
      { type: 'tool-call-delta', id: 'call_1', delta: '{"a":' },
      { type: 'tool-call-delta', id: 'call_1', delta: '1}' },
      { type: 'tool-call-end', id: 'call_1' },
      {
        type: 'finish',
        usage: { inputTokens: 3, outputTokens: 5, cacheReadTokens: 1 },
        finishReason: { unified: 'tool-calls' },
      },
    ];
    const text = parts.map((part) => encoder.encode(part)).join('');
    const head = {
      id: 'chatcmpl-abc"1',
      object: 'chat.completion.chunk',
      created: 1_700_000_000,
      model: 'm\u00e9/x',
      system_fingerprint: null,
    };
    const chunk = (delta: unknown, finishReason: string | null = null) => ({
      ...head,
      choices: [{ index: 0, delta, logprobs: null, finish_reason: finishReason }],
      usage: null,
    });
    const expected = [
      chunk({ role: 'assistant', content: '', refusal: null }),
      chunk({ content: 'Hi "there"\n' }),
      chunk({ tool_calls: [{ index: 0, id: 'call_1', type: 'function', function: { name: 'f', arguments: '' } }] }),
      chunk({ tool_calls: [{ index: 0, function: { arguments: '{"a":' } }] }),
      chunk({ tool_calls: [{ index: 0, function: { arguments: '1}' } }] }),
      chunk({}, 'tool_calls'),
      {
        ...head,
        choices: [],
        usage: {
          prompt_tokens: 3,
          completion_tokens: 5,
          total_tokens: 8,
          prompt_tokens_details: { cached_tokens: 1, audio_tokens: 0 },
          completion_tokens_details: {
            reasoning_tokens: 0,
            audio_tokens: 0,
            accepted_prediction_tokens: 0,
            rejected_prediction_tokens: 0,
          },
        },
      },
    ];
    expect(text).toBe(`${expected.map((value) => `data: ${JSON.stringify(value)}\n\n`).join('')}data: [DONE]\n\n`);
  });
});

describe('decodeEventStream (the upstream stream driver)', () => {
  /** An upstream body the test feeds by hand, through the sink the driver opens it with. */
  function fakeUpstream() {
    let sink: BodySink | undefined;
    const body = {
      paused: false,
      /** How it was let go of: true = read to its end (completed), false = aborted. */
      released: undefined as boolean | undefined,
      resume() {
        this.paused = false;
      },
      release(completed: boolean) {
        this.released ??= completed;
      },
    };
    return {
      body,
      push: (text: string) => {
        if (!sink!.onData(Buffer.from(text))) body.paused = true;
      },
      fail: (error: Error) => sink!.onError(error),
      open: (opened: BodySink): Promise<StreamedBody> => {
        sink = opened;
        return Promise.resolve(body);
      },
    };
  }
  const event = (data: unknown) => `data: ${typeof data === 'string' ? data : JSON.stringify(data)}\n\n`;
  const head = { id: 'chatcmpl-1', object: 'chat.completion.chunk', created: 1, model: 'm' };
  const text = (content: string) =>
    event({ ...head, choices: [{ index: 0, delta: { content }, finish_reason: null }] });
  const decoderFor = () => new ChatStreamDecoder('mock');
  const tick = () => new Promise((resolve) => setImmediate(resolve));

  it('gives the parts of every read in order; after [DONE] the rest of the body is read (released as completed), not aborted', async () => {
    const upstream = fakeUpstream();
    const parts = decodeEventStream(upstream.open, decoderFor(), 'mock', new AbortController().signal);
    const first = parts.next();
    await tick();
    upstream.push(text('Hel') + text('lo'));
    expect((await first).value).toMatchObject({ type: 'response-start' });
    expect((await parts.next()).value).toMatchObject({ type: 'text-start' });
    expect((await parts.next()).value).toMatchObject({ type: 'text-delta', delta: 'Hel' });
    expect((await parts.next()).value).toMatchObject({ type: 'text-delta', delta: 'lo' });
    const pending = parts.next();
    upstream.push(event({ ...head, choices: [{ index: 0, delta: {}, finish_reason: 'stop' }] }) + event('[DONE]'));
    expect((await pending).value).toMatchObject({ type: 'text-end' });
    expect((await parts.next()).value).toMatchObject({ type: 'finish', finishReason: { unified: 'stop' } });
    expect(await parts.next()).toEqual({ value: undefined, done: true });
    expect(upstream.body.released).toBe(true);
  });

  it('pauses the body while the consumer lags a whole read behind, and resumes it once caught up', async () => {
    const upstream = fakeUpstream();
    const parts = decodeEventStream(upstream.open, decoderFor(), 'mock', new AbortController().signal);
    const first = parts.next();
    await tick();
    upstream.push(text('a'));
    await first;
    upstream.push(text('b'));
    await tick();
    expect(upstream.body.paused).toBe(true);
    for (let index = 0; index < 3; index++) await parts.next(); // text-start, 'a', 'b'
    expect(upstream.body.paused).toBe(false);
    await parts.return!();
  });

  it('a refused event: the parts before it first, then the error; the upstream request is aborted', async () => {
    const upstream = fakeUpstream();
    const parts = decodeEventStream(upstream.open, decoderFor(), 'mock', new AbortController().signal);
    const first = parts.next();
    await tick();
    upstream.push(text('ok') + event('{not json'));
    const seen: string[] = [(await first).value.type];
    await expect(
      (async () => {
        for (;;) {
          const next = await parts.next();
          if (next.done) break;
          seen.push(next.value.type);
        }
      })(),
    ).rejects.toMatchObject({ kind: 'upstream', code: 'upstream_malformed' });
    expect(seen).toEqual(['response-start', 'text-start', 'text-delta']);
    expect(upstream.body.released).toBe(false);
  });

  it('a body that breaks off is a 502 after what came before it; a consumer that stops early aborts the upstream request', async () => {
    const broken = fakeUpstream();
    const parts = decodeEventStream(broken.open, decoderFor(), 'mock', new AbortController().signal);
    const first = parts.next();
    await tick();
    broken.push(text('x'));
    await first;
    broken.fail(new Error('socket hang up'));
    await parts.next();
    await parts.next();
    await expect(parts.next()).rejects.toMatchObject({
      kind: 'upstream',
      status: 502,
      code: 'upstream_connection_failed',
    });

    const early = fakeUpstream();
    const stopped = decodeEventStream(early.open, decoderFor(), 'mock', new AbortController().signal);
    const started = stopped.next();
    await tick();
    early.push(text('y'));
    await started;
    expect(await stopped.return!()).toEqual({ value: undefined, done: true });
    expect(early.body.released).toBe(false);
  });

  it('sends nothing until the first next(), and a failure to open surfaces there', async () => {
    const open = jest.fn(() => Promise.reject(new GatewayError('upstream_timeout', 'slow')));
    const parts = decodeEventStream(open, decoderFor(), 'mock', new AbortController().signal);
    expect(open).not.toHaveBeenCalled();
    await expect(parts.next()).rejects.toMatchObject({ kind: 'upstream_timeout' });
    expect(open).toHaveBeenCalledTimes(1);
  });
});
