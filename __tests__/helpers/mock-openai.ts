/** A mock OpenAI-compatible upstream on 127.0.0.1 (plain node:http) speaking the real wire protocol. */
import type http from 'node:http';
import { EXEC_THOUGHT, EXEC_TOOL, execAnswer, execArguments } from './exec-command';
import { startMockServer } from './mock-server';

/** What the mock saw of one request. */
export interface RecordedRequest {
  method: string;
  url: string;
  headers: http.IncomingHttpHeaders;
  body: Record<string, unknown>;
}

/**
 * Behaviour is picked by the upstream model id:
 * - `echo` (or anything else): replies "upstream says: <last user text>"; usage 11 prompt + words.
 * - `tools`: answers with two tool calls.
 * - `fail-<status>`: answers that status with an OpenAI error body (429 adds Retry-After: 0).
 * - `flaky-500`: 500 on the first call of each distinct prompt, then like `echo`.
 * - `slow`: waits 2 s before answering.
 * - `garbage`: 200 with a body that is not JSON.
 * - `cut`: streams two chunks, then ends without finish_reason or [DONE].
 * - `reset`: destroys the socket without answering.
 * - `cut-body`: sends a 200's headers and half of its body, then destroys the socket.
 * - `no-usage`: streams without the usage chunk.
 * - `text-tools`: reasoning (in the `reasoning` field), the text "Let me check.", then two parallel
 *   tool calls whose arguments stream in fragments; usage reports 7 reasoning tokens.
 * - `interleaved-tools`: the same two calls, both started before either's arguments, fragments interleaved.
 * - `no-index-tools`: the same two calls, each whole in one delta, with ids but no `index` (as
 *   Gemini's OpenAI-compatible endpoint sends them).
 * - `reasoning`: reasoning in `reasoning_content`, then the echo text; usage reports 5 reasoning tokens.
 * - `length`: the echo text, finished with `length`.
 * - `refusal`: a `refusal` ("I can't help with that.") instead of content, finished with `stop`.
 * - `done-no-finish`: streams the echo text and `[DONE]`, never a `finish_reason`.
 * - `stream-error-<status>`: streams one text delta, then an error chunk `{error: {code: <status>, message}}`
 *   with `finish_reason: "error"` (OpenRouter's shape), and ends.
 * - `rate-limited`: 429 with `Retry-After: 30` and an OpenAI rate-limit body.
 * - `extras`: the echo text with fields the gateway does not model: `logprobs` (when asked for),
 *   a message's `annotations`, `system_fingerprint`, `service_tier`, and a server's own
 *   `provider`, `native_finish_reason` and `usage.cost`; and a `model` of its own (`extras-2024`).
 *   Streamed: `system_fingerprint`, `service_tier` and `provider` on every chunk, an `obfuscation`
 *   padding that differs per chunk, and each word's `logprobs` (when asked for).
 * - `exec-command`: the script of `exec-command.ts`: reasoning (in `reasoning_content`) and a call of
 *   `exec_command` (id {@link EXEC_CALL_ID}) with the command on the last user turn's `run: ` line; once a
 *   `tool` message follows the last user turn, text quoting its content.
 */
export interface MockOpenAI {
  url: string;
  requests: RecordedRequest[];
  /** Requests whose connection the client aborted before the mock finished answering. */
  aborted: number;
  close(): Promise<void>;
}

function lastUserText(body: Record<string, unknown>): string {
  const messages = (body.messages as Array<{ role: string; content: unknown }>) ?? [];
  const last = [...messages].reverse().find((message) => message.role === 'user');
  if (!last) return '';
  if (typeof last.content === 'string') return last.content;
  return (last.content as Array<{ type: string; text?: string }>)
    .filter((part) => part.type === 'text')
    .map((part) => part.text)
    .join('');
}

const chunkHead = (model: string) => ({
  id: 'chatcmpl-mock',
  object: 'chat.completion.chunk',
  created: 1700000000,
  model,
});

/** The id of the `exec-command` model's call. */
export const EXEC_CALL_ID = 'call_exec_1';

/** The `exec-command` model's message for this body: the call, or (once its output came back) the answer. */
function execCommandMessage(body: Record<string, unknown>): Record<string, unknown> {
  const messages = (body.messages as Array<{ role: string; content: unknown }>) ?? [];
  const lastUser = messages.map((message) => message.role).lastIndexOf('user');
  const result = messages.slice(lastUser + 1).find((message) => message.role === 'tool');
  if (result) {
    const output =
      typeof result.content === 'string'
        ? result.content
        : (result.content as Array<{ text?: string }>).map((part) => part.text ?? '').join('');
    return { role: 'assistant', content: execAnswer(output) };
  }
  const call = {
    id: EXEC_CALL_ID,
    type: 'function',
    function: { name: EXEC_TOOL, arguments: JSON.stringify(execArguments(lastUserText(body))) },
  };
  return { role: 'assistant', content: null, reasoning_content: EXEC_THOUGHT, tool_calls: [call] };
}

/** Answers the `exec-command` model, streamed (one delta per field, the call whole) or not. */
function answerExecCommand(body: Record<string, unknown>, response: http.ServerResponse): void {
  const message = execCommandMessage(body);
  const finish = message.tool_calls ? 'tool_calls' : 'stop';
  const usage = { prompt_tokens: 11, completion_tokens: 9, total_tokens: 20 };
  if (!body.stream) {
    response.writeHead(200, { 'content-type': 'application/json' });
    response.end(
      JSON.stringify({
        id: 'chatcmpl-exec',
        object: 'chat.completion',
        created: 1700000000,
        model: 'exec-command',
        choices: [{ index: 0, message, finish_reason: finish }],
        usage,
      }),
    );
    return;
  }
  response.writeHead(200, { 'content-type': 'text/event-stream' });
  const chunk = (delta: Record<string, unknown>, finishReason: string | null = null) =>
    response.write(
      `data: ${JSON.stringify({ ...chunkHead('exec-command'), choices: [{ index: 0, delta, finish_reason: finishReason }] })}\n\n`,
    );
  chunk({ role: 'assistant', content: '' });
  if (message.reasoning_content) chunk({ reasoning_content: message.reasoning_content });
  if (message.content) chunk({ content: message.content });
  const calls = (message.tool_calls as Array<Record<string, unknown>> | undefined) ?? [];
  for (const [index, call] of calls.entries()) chunk({ tool_calls: [{ index, ...call }] });
  chunk({}, finish);
  if ((body.stream_options as { include_usage?: boolean } | undefined)?.include_usage)
    response.write(`data: ${JSON.stringify({ ...chunkHead('exec-command'), choices: [], usage })}\n\n`);
  response.end('data: [DONE]\n\n');
}

/** The two calls the scripted tool models make. */
const PARALLEL_CALLS = [
  { id: 'call_w1', name: 'get_weather', arguments: '{"city":"Oslo","unit":"C"}' },
  { id: 'call_t2', name: 'get_time', arguments: '{"zone":"CET"}' },
];
const REASONING_TEXT = 'The user wants two facts.';
const PREAMBLE = 'Let me check.';

/** Three pieces of a call's arguments, so every call streams in fragments. */
function fragments(args: string): string[] {
  return [args.slice(0, 4), args.slice(4, 11), args.slice(11)];
}

/** The stream deltas (each one chunk's `delta`) of the scripted models, or undefined for the others. */
function scriptedDeltas(model: string, text: string): Array<Record<string, unknown>> | undefined {
  const start = (call: (typeof PARALLEL_CALLS)[number], index: number) => ({
    tool_calls: [{ index, id: call.id, type: 'function', function: { name: call.name, arguments: '' } }],
  });
  const piece = (index: number, args: string) => ({ tool_calls: [{ index, function: { arguments: args } }] });
  switch (model) {
    case 'text-tools':
      return [
        { reasoning: REASONING_TEXT.slice(0, 9) },
        { reasoning: REASONING_TEXT.slice(9) },
        { content: PREAMBLE },
        ...PARALLEL_CALLS.flatMap((call, index) => [
          start(call, index),
          ...fragments(call.arguments).map((args) => piece(index, args)),
        ]),
      ];
    case 'interleaved-tools': {
      const pieces = PARALLEL_CALLS.map((call) => fragments(call.arguments));
      return [
        { content: PREAMBLE },
        ...PARALLEL_CALLS.map(start),
        ...[0, 1, 2].flatMap((step) => PARALLEL_CALLS.map((_call, index) => piece(index, pieces[index]![step]!))),
      ];
    }
    case 'no-index-tools':
      return PARALLEL_CALLS.map((call) => ({
        tool_calls: [{ id: call.id, type: 'function', function: { name: call.name, arguments: call.arguments } }],
      }));
    case 'reasoning':
      return [{ reasoning_content: REASONING_TEXT }, ...text.split(/(?= )/).map((word) => ({ content: word }))];
    case 'refusal':
      return [{ refusal: "I can't " }, { refusal: 'help with that.' }];
    default:
      return undefined;
  }
}

/** The non-streamed message of the scripted models. */
function scriptedMessage(model: string, text: string): Record<string, unknown> {
  const toolCalls = PARALLEL_CALLS.map((call) => ({
    id: call.id,
    type: 'function',
    function: { name: call.name, arguments: call.arguments },
  }));
  if (model === 'reasoning') return { role: 'assistant', content: text, reasoning_content: REASONING_TEXT };
  if (model === 'refusal') return { role: 'assistant', content: null, refusal: "I can't help with that." };
  if (model === 'text-tools')
    return { role: 'assistant', content: PREAMBLE, reasoning: REASONING_TEXT, tool_calls: toolCalls };
  return { role: 'assistant', content: model === 'interleaved-tools' ? PREAMBLE : null, tool_calls: toolCalls };
}

export async function startMockOpenAI(): Promise<MockOpenAI> {
  const requests: RecordedRequest[] = [];
  const seen = new Set<string>();
  const server = await startMockServer((body, request, response) => {
    requests.push({ method: request.method!, url: request.url!, headers: request.headers, body });
    const model = String(body.model ?? '');
    const send = (status: number, payload: unknown, headers: Record<string, string> = {}) => {
      response.writeHead(status, { 'content-type': 'application/json', ...headers });
      response.end(JSON.stringify(payload));
    };
    const failure = /^fail-(\d{3})$/.exec(model);
    if (failure) {
      const status = Number(failure[1]);
      return send(
        status,
        {
          error: {
            message: `mock failure ${status} for key sk-upstream-secret-123456789`,
            type: 'mock_error',
            param: null,
            code: null,
          },
        },
        status === 429 ? { 'retry-after': '0' } : {},
      );
    }
    if (model === 'rate-limited') {
      return send(
        429,
        {
          error: {
            message: 'Rate limit reached for requests',
            type: 'requests',
            param: null,
            code: 'rate_limit_exceeded',
          },
        },
        { 'retry-after': '30' },
      );
    }
    if (model === 'reset') return request.socket.destroy();
    if (model === 'exec-command') return answerExecCommand(body, response);
    if (model === 'cut-body') {
      response.writeHead(200, { 'content-type': 'application/json', 'content-length': '200' });
      response.write('{"id":"chatcmpl-cut","object":"chat.completion","choices":[');
      return setTimeout(() => request.socket.destroy(), 20);
    }
    if (model === 'garbage') {
      response.writeHead(200, { 'content-type': 'application/json' });
      return response.end('{"choices": [ not json');
    }
    const text = `upstream says: ${lastUserText(body)}`;
    if (model === 'flaky-500' && !seen.has(text)) {
      seen.add(text);
      return send(500, { error: { message: 'flaky', type: 'server_error' } });
    }
    if (request.url!.endsWith('/images/generations')) {
      const n = Number(body.n ?? 1);
      return send(200, {
        created: 1700000000,
        data: Array.from({ length: n }, () => ({ b64_json: Buffer.from('not really a png').toString('base64') })),
        usage: { input_tokens: 5, output_tokens: 100 },
      });
    }
    const completionTokens = text.split(' ').length;
    const usage = {
      prompt_tokens: 11,
      completion_tokens: completionTokens,
      total_tokens: 11 + completionTokens,
      prompt_tokens_details: { cached_tokens: 2 },
      completion_tokens_details: { reasoning_tokens: 0 },
    };
    const toolCalls = [
      { id: 'call_a', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Oslo"}' } },
      { id: 'call_b', type: 'function', function: { name: 'get_time', arguments: '{"zone":"CET"}' } },
    ];
    const scripted = scriptedDeltas(model, text);
    const streamError = /^stream-error-(\d{3})$/.exec(model);
    const reasoningTokens = model === 'text-tools' ? 7 : model === 'reasoning' ? 5 : 0;
    if (reasoningTokens > 0) {
      usage.completion_tokens += reasoningTokens;
      usage.total_tokens += reasoningTokens;
      usage.completion_tokens_details.reasoning_tokens = reasoningTokens;
    }
    const scriptedFinish = model === 'reasoning' || model === 'refusal' ? 'stop' : 'tool_calls';
    if (scripted && !body.stream) {
      return send(200, {
        id: 'chatcmpl-mock',
        object: 'chat.completion',
        created: 1700000000,
        model,
        choices: [{ index: 0, message: scriptedMessage(model, text), finish_reason: scriptedFinish }],
        usage,
      });
    }
    if (model === 'extras' && !body.stream) {
      const logprobs = body.logprobs
        ? {
            content: [{ token: 'upstream', logprob: -0.25, bytes: [...Buffer.from('upstream')], top_logprobs: [] }],
            refusal: null,
          }
        : null;
      const annotations = [
        {
          type: 'url_citation',
          url_citation: { url: 'https://example.com/', title: 'Example', start_index: 0, end_index: 8 },
        },
      ];
      return send(200, {
        id: 'chatcmpl-extras',
        object: 'chat.completion',
        created: 1700000000,
        model: 'extras-2024',
        provider: 'mock-cloud',
        choices: [
          {
            index: 0,
            message: { role: 'assistant', content: text, refusal: null, annotations },
            logprobs,
            finish_reason: 'stop',
            native_finish_reason: 'STOP',
          },
        ],
        usage: { ...usage, cost: 0.00042 },
        service_tier: 'flex',
        system_fingerprint: 'fp_mock',
      });
    }
    if (model === 'length' && !body.stream) {
      return send(200, {
        id: 'chatcmpl-mock',
        object: 'chat.completion',
        created: 1700000000,
        model,
        choices: [{ index: 0, message: { role: 'assistant', content: text }, finish_reason: 'length' }],
        usage,
      });
    }
    if (body.stream && (scripted || streamError || model === 'length' || model === 'done-no-finish')) {
      response.writeHead(200, { 'content-type': 'text/event-stream' });
      const event = (payload: unknown) => response.write(`data: ${JSON.stringify(payload)}\n\n`);
      const delta = (payload: Record<string, unknown>, finish: string | null = null) =>
        event({ ...chunkHead(model), choices: [{ index: 0, delta: payload, finish_reason: finish }] });
      delta({ role: 'assistant', content: '' });
      if (streamError) {
        delta({ content: 'partial ' });
        event({
          ...chunkHead(model),
          error: { code: Number(streamError[1]), message: 'Provider returned error: overloaded' },
          choices: [{ index: 0, delta: { content: '' }, finish_reason: 'error' }],
        });
        return response.end();
      }
      for (const payload of scripted ?? text.split(/(?= )/).map((word) => ({ content: word }))) delta(payload);
      if (model !== 'done-no-finish') delta({}, scripted ? scriptedFinish : 'length');
      if ((body.stream_options as { include_usage?: boolean } | undefined)?.include_usage)
        event({ ...chunkHead(model), choices: [], usage });
      return response.end('data: [DONE]\n\n');
    }
    const answer = () => {
      if (!body.stream) {
        const message =
          model === 'tools'
            ? { role: 'assistant', content: null, tool_calls: toolCalls }
            : { role: 'assistant', content: text };
        return send(200, {
          id: 'chatcmpl-mock',
          object: 'chat.completion',
          created: 1700000000,
          model,
          choices: [{ index: 0, message, finish_reason: model === 'tools' ? 'tool_calls' : 'stop' }],
          usage,
        });
      }
      response.writeHead(200, { 'content-type': 'text/event-stream' });
      const event = (payload: unknown) => response.write(`data: ${JSON.stringify(payload)}\n\n`);
      // `extras` streams as OpenAI does: stream-level fields on every chunk, per-chunk padding, and log-probabilities
      // when asked for.
      let padding = 0;
      const head = () =>
        model === 'extras'
          ? {
              ...chunkHead('extras-2024'),
              service_tier: 'flex',
              system_fingerprint: 'fp_mock',
              provider: 'mock-cloud',
              obfuscation: 'x'.repeat(++padding),
            }
          : chunkHead(model);
      const wordLogprobs = (word: string, position: number) =>
        model === 'extras' && body.logprobs
          ? {
              logprobs: {
                content: [
                  { token: word, logprob: -0.5 * (position + 1), bytes: [...Buffer.from(word)], top_logprobs: [] },
                ],
                refusal: null,
              },
            }
          : {};
      event({ ...head(), choices: [{ index: 0, delta: { role: 'assistant', content: '' }, finish_reason: null }] });
      if (model === 'tools') {
        toolCalls.forEach((call, index) => {
          event({
            ...chunkHead(model),
            choices: [
              {
                index: 0,
                delta: {
                  tool_calls: [
                    { index, id: call.id, type: 'function', function: { name: call.function.name, arguments: '' } },
                  ],
                },
                finish_reason: null,
              },
            ],
          });
          const args = call.function.arguments;
          for (const piece of [args.slice(0, 5), args.slice(5)])
            event({
              ...chunkHead(model),
              choices: [
                { index: 0, delta: { tool_calls: [{ index, function: { arguments: piece } }] }, finish_reason: null },
              ],
            });
        });
      } else {
        for (const [position, word] of text.split(/(?= )/).entries()) {
          event({
            ...head(),
            choices: [{ index: 0, delta: { content: word }, ...wordLogprobs(word, position), finish_reason: null }],
          });
          if (model === 'cut') return response.end();
        }
      }
      event({
        ...head(),
        choices: [{ index: 0, delta: {}, finish_reason: model === 'tools' ? 'tool_calls' : 'stop' }],
      });
      if (model !== 'no-usage' && (body.stream_options as { include_usage?: boolean } | undefined)?.include_usage)
        event({ ...head(), choices: [], usage });
      response.end('data: [DONE]\n\n');
    };
    if (model === 'slow') setTimeout(answer, 2000);
    else answer();
  });
  return {
    url: `${server.origin}/v1`,
    requests,
    get aborted() {
      return server.aborted;
    },
    close: () => server.close(),
  };
}
