/**
 * A mock upstream on 127.0.0.1 speaking OpenAI chat completions, Anthropic messages and Gemini
 * generateContent (by path), whose usage is what a tokenizer at one token per UTF-8 byte would
 * report: for the quota tests (overspend bound, failed and cancelled streams).
 */
import { startMockServer, type MockServer } from './mock-server';

type Json = Record<string, unknown>;
type Family = 'openai' | 'anthropic' | 'gemini';

/**
 * Behaviour is picked by the upstream model id:
 * - `bytes`: answers the last user text, cut to the output cap (one token per byte); usage is the
 *   UTF-8 bytes of every text in the request (input) and of the answer (output).
 * - `over`: answers "ok" and reports {@link OVER_INPUT_TOKENS} input tokens, more than any bound.
 * - `fail`: streamed, {@link STREAM_TEXT} in two deltas, then the protocol's in-stream error event;
 *   not streamed, a 500 with the protocol's error body.
 * - `cut` (streamed): the same two deltas, then the connection ends without a finish.
 * - `hang` (streamed): the same two deltas, then nothing until the client leaves.
 */
export interface MockMetered extends MockServer {
  /** Streams still held open by `hang`. */
  readonly hanging: number;
}

/** What the `over` model reports as its input. */
export const OVER_INPUT_TOKENS = 100_000;
/** The two deltas the streamed models send before they fail, end or hang. */
export const STREAM_TEXT = ['first words ', 'then more'] as const;
/** The API key every family's mock expects. */
export const METERED_KEY = 'sk-metered-upstream-key-123456';

const bytes = (text: string) => Buffer.byteLength(text);

/**
 * Bytes of every `text` string (and string `content`) in a value, as a tokenizer at one token per byte would count
 * them.
 */
function textBytes(value: unknown): number {
  if (Array.isArray(value)) return value.reduce((sum: number, item) => sum + textBytes(item), 0);
  if (typeof value !== 'object' || value === null) return 0;
  let total = 0;
  for (const [key, inner] of Object.entries(value)) {
    if ((key === 'text' || key === 'content') && typeof inner === 'string') total += bytes(inner);
    else total += textBytes(inner);
  }
  return total;
}

function lastUserText(family: Family, body: Json): string {
  const turns = (family === 'gemini' ? body.contents : body.messages) as Array<{
    role: string;
    content?: unknown;
    parts?: Array<{ text?: string }>;
  }>;
  const last = [...turns].reverse().find((turn) => turn.role === 'user');
  if (!last) return '';
  if (family === 'gemini') return (last.parts ?? []).map((part) => part.text ?? '').join('');
  if (typeof last.content === 'string') return last.content;
  return (last.content as Array<{ text?: string }>).map((block) => block.text ?? '').join('');
}

function outputCap(family: Family, body: Json): number {
  if (family === 'gemini') return Number((body.generationConfig as Json | undefined)?.maxOutputTokens ?? Infinity);
  return Number(body.max_completion_tokens ?? body.max_tokens ?? Infinity);
}

/** `text` cut to at most `cap` UTF-8 bytes, on a character boundary. */
function cutToBytes(text: string, cap: number): string {
  let out = '';
  for (const character of text) {
    if (bytes(out) + bytes(character) > cap) break;
    out += character;
  }
  return out;
}

function answer(
  family: Family,
  model: string,
  text: string,
  usage: { input: number; output: number },
  capped: boolean,
): Json {
  if (family === 'openai') {
    return {
      id: 'chatcmpl-metered',
      object: 'chat.completion',
      created: 1700000000,
      model,
      choices: [{ index: 0, message: { role: 'assistant', content: text }, finish_reason: capped ? 'length' : 'stop' }],
      usage: { prompt_tokens: usage.input, completion_tokens: usage.output, total_tokens: usage.input + usage.output },
    };
  }
  if (family === 'anthropic') {
    return {
      id: 'msg_metered',
      type: 'message',
      role: 'assistant',
      model,
      content: [{ type: 'text', text }],
      stop_reason: capped ? 'max_tokens' : 'end_turn',
      stop_sequence: null,
      usage: { input_tokens: usage.input, output_tokens: usage.output },
    };
  }
  return {
    candidates: [
      { content: { role: 'model', parts: [{ text }] }, finishReason: capped ? 'MAX_TOKENS' : 'STOP', index: 0 },
    ],
    usageMetadata: {
      promptTokenCount: usage.input,
      candidatesTokenCount: usage.output,
      totalTokenCount: usage.input + usage.output,
    },
    modelVersion: model,
  };
}

/** A 500's body in the family's own error shape. */
function errorBody(family: Family): Json {
  if (family === 'openai') return { error: { message: 'The server had an error.', type: 'server_error', code: null } };
  if (family === 'anthropic') return { type: 'error', error: { type: 'api_error', message: 'Internal server error' } };
  return { error: { code: 500, message: 'Internal error encountered.', status: 'INTERNAL' } };
}

/** The SSE frames of a stream's start and its two deltas, and of the in-stream error, per family. */
function streamFrames(family: Family, model: string, input: number): { head: string[]; error: string } {
  if (family === 'openai') {
    const chunk = (delta: Json) =>
      `data: ${JSON.stringify({ id: 'chatcmpl-metered', object: 'chat.completion.chunk', created: 1700000000, model, choices: [{ index: 0, delta, finish_reason: null }] })}\n\n`;
    return {
      head: [chunk({ role: 'assistant', content: '' }), ...STREAM_TEXT.map((text) => chunk({ content: text }))],
      error: `data: ${JSON.stringify({ error: { message: 'The server had an error while processing your request.', type: 'server_error', code: 500 } })}\n\n`,
    };
  }
  if (family === 'anthropic') {
    const event = (name: string, data: Json) => `event: ${name}\ndata: ${JSON.stringify({ type: name, ...data })}\n\n`;
    return {
      head: [
        event('message_start', {
          message: {
            id: 'msg_metered',
            type: 'message',
            role: 'assistant',
            model,
            content: [],
            stop_reason: null,
            stop_sequence: null,
            usage: { input_tokens: input, output_tokens: 1 },
          },
        }),
        event('content_block_start', { index: 0, content_block: { type: 'text', text: '' } }),
        ...STREAM_TEXT.map((text) => event('content_block_delta', { index: 0, delta: { type: 'text_delta', text } })),
      ],
      error: event('error', { error: { type: 'overloaded_error', message: 'Overloaded' } }),
    };
  }
  const data = (body: Json) => `data: ${JSON.stringify(body)}\n\n`;
  return {
    head: STREAM_TEXT.map((text) =>
      data({
        candidates: [{ content: { role: 'model', parts: [{ text }] }, index: 0 }],
        usageMetadata: { promptTokenCount: input },
        modelVersion: model,
      }),
    ),
    error: data({
      error: { code: 503, message: 'The model is overloaded. Please try again later.', status: 'UNAVAILABLE' },
    }),
  };
}

/** Starts the mock. Base URLs: OpenAI `<origin>/v1`, Anthropic `<origin>`, Gemini `<origin>/v1beta`. */
export async function startMockMetered(): Promise<MockMetered> {
  const open = new Set<() => void>();
  const server = await startMockServer(
    (body, request, response) => {
      const url = request.url ?? '';
      const gemini = /^\/v1beta\/models\/([^:]+):(\w+)/.exec(url);
      const family: Family = gemini ? 'gemini' : url.startsWith('/v1/messages') ? 'anthropic' : 'openai';
      const key =
        family === 'openai'
          ? request.headers.authorization?.replace(/^Bearer /, '')
          : family === 'anthropic'
            ? request.headers['x-api-key']
            : request.headers['x-goog-api-key'];
      if (key !== METERED_KEY) {
        response
          .writeHead(401, { 'content-type': 'application/json' })
          .end(JSON.stringify({ error: { message: 'bad key' } }));
        return;
      }
      const model = gemini ? decodeURIComponent(gemini[1]!) : String(body.model);
      const streamed = gemini ? gemini[2] === 'streamGenerateContent' : body.stream === true;
      const input = textBytes(
        family === 'gemini' ? [body.contents, body.systemInstruction] : [body.messages, body.system],
      );
      if (!streamed) {
        if (model === 'fail') {
          response.writeHead(500, { 'content-type': 'application/json' }).end(JSON.stringify(errorBody(family)));
          return;
        }
        if (model === 'over') {
          response
            .writeHead(200, { 'content-type': 'application/json' })
            .end(JSON.stringify(answer(family, model, 'ok', { input: OVER_INPUT_TOKENS, output: 1 }, false)));
          return;
        }
        const wanted = lastUserText(family, body);
        const text = cutToBytes(wanted, outputCap(family, body));
        response
          .writeHead(200, { 'content-type': 'application/json' })
          .end(JSON.stringify(answer(family, model, text, { input, output: bytes(text) }, text !== wanted)));
        return;
      }
      const frames = streamFrames(family, model, input);
      response.writeHead(200, { 'content-type': 'text/event-stream' });
      for (const frame of frames.head) response.write(frame);
      if (model === 'fail') response.end(frames.error);
      else if (model === 'cut') response.end();
      else {
        const release = () => response.end();
        open.add(release);
        response.on('close', () => open.delete(release));
      }
    },
    () => {
      for (const release of open) release();
    },
  );
  return Object.defineProperty(server, 'hanging', { get: () => open.size }) as MockMetered;
}
