/**
 * A mock Gemini Developer API on 127.0.0.1 (plain node:http) speaking generateContent and
 * streamGenerateContent?alt=sse.
 */
import type http from 'node:http';
import { EXEC_THOUGHT, EXEC_TOOL, execAnswer, execArguments } from './exec-command';
import { startMockServer } from './mock-server';

/** What the mock saw of one request. */
export interface RecordedGeminiRequest {
  method: string;
  url: string;
  /** The model id from the path (`/v1beta/models/{model}:{action}`). */
  model: string;
  action: string;
  headers: http.IncomingHttpHeaders;
  body: Record<string, unknown>;
}

/**
 * Behaviour is picked by the model id in the path:
 * - `echo` (or anything else): replies "upstream says: <last user text>"; usage 11 prompt (2 cached) +
 *   one candidate token per word + 5 thought tokens. Streams one word per event.
 * - `tools`: two function calls without ids; the first carries thoughtSignature `sig-weather`.
 * - `tools-id`: one function call with the id `fc-1`.
 * - `thinking`: a thought part, then text with thoughtSignature `sig-text`.
 * - `blocked`: no candidates, promptFeedback.blockReason SAFETY.
 * - `max-tokens` / `safety`: text finished with MAX_TOKENS / SAFETY.
 * - `fail-<status>`: that status with a Google RPC error body echoing the key (429 adds Retry-After: 0).
 * - `flaky-500`: 500 on the first call of each distinct prompt, then like `echo`.
 * - `slow`: waits 2 s before answering. `garbage`: 200 with a body that is not JSON.
 * - `cut`: streams one event, then ends without a finishReason. `reset`: destroys the socket.
 * - `stream-error`: streams one event, then an event with a top-level 503 error.
 * - `no-usage`: streams without usageMetadata.
 * - `extras`: the echo text with fields the gateway does not model: a candidate's
 *   `groundingMetadata`, `citationMetadata`, `avgLogprobs` and `safetyRatings`, `promptFeedback`,
 *   and usage's `promptTokensDetails` and `toolUsePromptTokenCount`. Streamed, `promptFeedback`
 *   comes on the first event and the candidate's fields on the last.
 * - any id containing `loop`: a two-step function-calling loop, counted by the steps (runs of model
 * contents) with calls since the last user turn that is not only function responses: step 1 calls get_weather, step 2
 *   get_time, each
 *   signed with its own {@link LOOP_SIGNATURES} entry (and led by a thought part signed with
 *   {@link LOOP_THOUGHT_SIGNATURES} when `includeThoughts` is on); then text signed {@link FINAL_TEXT_SIGNATURE}.
 * - any id containing `parallel`: two parallel calls (streamed in one event), only the first signed
 *   ({@link PARALLEL_SIGNATURE}); then text.
 * - any id containing `exec-command`: the script of `exec-command.ts`: a call of `exec_command` signed
 *   {@link EXEC_SIGNATURE} (led by a thought part signed {@link EXEC_THOUGHT_SIGNATURE} when
 *   `includeThoughts` is on) with the command on the last user text's `run: ` line; once its function
 *   response came back, text quoting that response.
 * Models named `gemini-…` check signatures as Google does: one the mock did not mint (other than
 * {@link PLACEHOLDER_SIGNATURE}) is a 400; `gemini-3…` models also answer 400 when the first
 * function call of a step of the current turn carries no signature.
 * A request without the expected `x-goog-api-key` gets Google's answer to a bad key: 400 API_KEY_INVALID.
 */
export interface MockGemini {
  /** The base URL, `http://127.0.0.1:<port>/v1beta`. */
  url: string;
  requests: RecordedGeminiRequest[];
  /** Requests whose connection the client aborted before the mock finished answering. */
  aborted: number;
  close(): Promise<void>;
}

type Json = Record<string, unknown>;

/** The signatures of the two loop steps' function calls (standard base64, with and without padding). */
export const LOOP_SIGNATURES = ['Cs4BAY89a1+loop/step1==', 'Cs4BAY89a1+loop/step2='] as const;
/** The signatures of the loop steps' thought parts. */
export const LOOP_THOUGHT_SIGNATURES = ['Ct0BAY89thought+step1/0', 'Ct0BAY89thought+step2/0'] as const;
/** The signature on the last part of a loop's (or the parallel model's) final text answer. */
export const FINAL_TEXT_SIGNATURE = 'Cq8BAY89final+text/sig=';
/** The signature on the first of the parallel model's two calls. */
export const PARALLEL_SIGNATURE = 'Cp0BAY89parallel+first/call==';
/** The signatures of the `exec-command` model's function call and thought part. */
export const EXEC_SIGNATURE = 'Cs4BAY89exec+command/call=';
export const EXEC_THOUGHT_SIGNATURE = 'Ct0BAY89exec+command/thought';
/** Google's documented placeholder for history the model did not sign. */
export const PLACEHOLDER_SIGNATURE = 'skip_thought_signature_validator';

const MINTED: ReadonlySet<string> = new Set([
  'sig-weather',
  'sig-text',
  ...LOOP_SIGNATURES,
  ...LOOP_THOUGHT_SIGNATURES,
  FINAL_TEXT_SIGNATURE,
  PARALLEL_SIGNATURE,
  EXEC_SIGNATURE,
  EXEC_THOUGHT_SIGNATURE,
  PLACEHOLDER_SIGNATURE,
]);

type Part = Json & { functionCall?: Json; functionResponse?: Json; thoughtSignature?: string };
type Content = { role?: string; parts?: Part[] };

const signatureOf = (part: Part): unknown => part.thoughtSignature ?? part.thought_signature;
const isCall = (part: Part): boolean => (part.functionCall ?? part.function_call) !== undefined;

/**
 * The steps of the current function-calling loop: after the last user turn that is not only function
 * responses, each run of consecutive model contents (one response, however a client recorded it) as its parts.
 */
function currentTurnSteps(body: Json): Part[][] {
  const contents = (body.contents as Content[]) ?? [];
  const steps: Part[][] = [];
  let previousModel = false;
  for (const content of contents) {
    const parts = content.parts ?? [];
    if ((content.role ?? 'user') === 'user') {
      if (parts.some((part) => (part.functionResponse ?? part.function_response) === undefined)) steps.length = 0;
      previousModel = false;
      continue;
    }
    if (previousModel) steps.at(-1)!.push(...parts);
    else steps.push([...parts]);
    previousModel = true;
  }
  return steps;
}

/** Google's refusal of this body's signatures for this model, or undefined. */
function signatureRefusal(model: string, body: Json): string | undefined {
  if (!model.startsWith('gemini-')) return undefined;
  const contents = (body.contents as Content[]) ?? [];
  for (const [index, content] of contents.entries()) {
    for (const part of content.parts ?? []) {
      const signature = signatureOf(part);
      if (signature !== undefined && !MINTED.has(String(signature)))
        return `Thought signature is not valid (contents[${index}]).`;
    }
  }
  if (!model.startsWith('gemini-3')) return undefined;
  for (const step of currentTurnSteps(body)) {
    const first = step.find(isCall);
    if (first && signatureOf(first) === undefined)
      return 'Function call is missing a thought_signature in functionCall parts. This is required for tools to work correctly.';
  }
  return undefined;
}

function includesThoughts(body: Json): boolean {
  const config = (body.generationConfig ?? body.generation_config) as
    | { thinkingConfig?: { includeThoughts?: boolean } }
    | undefined;
  return config?.thinkingConfig?.includeThoughts === true;
}

/** The loop models' answer for the step the body has reached. */
function loopAnswer(body: Json): { parts: Json[]; finishReason: string } {
  const step = currentTurnSteps(body).filter((parts) => parts.some(isCall)).length;
  const calls = [
    { name: 'get_weather', args: { city: 'Oslo' } },
    { name: 'get_time', args: { zone: 'CET' } },
  ];
  const call = calls[step];
  if (!call)
    return {
      parts: [{ text: `Done after ${calls.length} steps.`, thoughtSignature: FINAL_TEXT_SIGNATURE }],
      finishReason: 'STOP',
    };
  const thought = includesThoughts(body)
    ? [{ text: `Step ${step + 1}: call ${call.name}.`, thought: true, thoughtSignature: LOOP_THOUGHT_SIGNATURES[step] }]
    : [];
  return { parts: [...thought, { functionCall: call, thoughtSignature: LOOP_SIGNATURES[step] }], finishReason: 'STOP' };
}

/** The parallel model's answer: two calls (the first signed), then, once answered, text. */
function parallelAnswer(body: Json): { parts: Json[]; finishReason: string } {
  if (currentTurnSteps(body).some((parts) => parts.some(isCall)))
    return { parts: [{ text: 'Both answered.', thoughtSignature: FINAL_TEXT_SIGNATURE }], finishReason: 'STOP' };
  return {
    parts: [
      { functionCall: { name: 'get_weather', args: { city: 'Oslo' } }, thoughtSignature: PARALLEL_SIGNATURE },
      { functionCall: { name: 'get_time', args: { zone: 'CET' } } },
    ],
    finishReason: 'STOP',
  };
}

/**
 * The `exec-command` model's answer: the signed call, or (once its function response came back) text quoting that
 * response.
 */
function execCommandAnswer(body: Json): { parts: Json[]; finishReason: string } {
  const contents = (body.contents as Content[]) ?? [];
  const response = contents
    .at(-1)
    ?.parts?.find((part) => (part.functionResponse ?? part.function_response) !== undefined);
  if (response)
    return {
      parts: [{ text: execAnswer(JSON.stringify(response.functionResponse ?? response.function_response)) }],
      finishReason: 'STOP',
    };
  const thought = includesThoughts(body)
    ? [{ text: EXEC_THOUGHT, thought: true, thoughtSignature: EXEC_THOUGHT_SIGNATURE }]
    : [];
  return {
    parts: [
      ...thought,
      { functionCall: { name: EXEC_TOOL, args: execArguments(lastUserText(body)) }, thoughtSignature: EXEC_SIGNATURE },
    ],
    finishReason: 'STOP',
  };
}

const STATUS_NAMES: Record<number, string> = {
  400: 'INVALID_ARGUMENT',
  401: 'UNAUTHENTICATED',
  403: 'PERMISSION_DENIED',
  404: 'NOT_FOUND',
  429: 'RESOURCE_EXHAUSTED',
  500: 'INTERNAL',
  503: 'UNAVAILABLE',
};

function lastUserText(body: Json): string {
  const contents = (body.contents as Array<{ role?: string; parts?: Array<{ text?: string }> }>) ?? [];
  const last = [...contents]
    .reverse()
    .find(
      (content) => (content.role ?? 'user') === 'user' && content.parts?.some((part) => typeof part.text === 'string'),
    );
  return last?.parts?.flatMap((part) => (typeof part.text === 'string' ? [part.text] : [])).join('') ?? '';
}

/** What the `extras` model adds to its candidate, and to its usage. */
export const CANDIDATE_EXTRAS = {
  groundingMetadata: {
    webSearchQueries: ['mock query'],
    groundingChunks: [{ web: { uri: 'https://example.com/', title: 'Example' } }],
  },
  citationMetadata: { citationSources: [{ startIndex: 0, endIndex: 8, uri: 'https://example.com/' }] },
  avgLogprobs: -0.25,
  safetyRatings: [{ category: 'HARM_CATEGORY_HARASSMENT', probability: 'NEGLIGIBLE' }],
};
export const USAGE_EXTRAS = { promptTokensDetails: [{ modality: 'TEXT', tokenCount: 11 }], toolUsePromptTokenCount: 4 };

function usage(candidates: number, extra: Json = {}): Json {
  return {
    promptTokenCount: 11,
    cachedContentTokenCount: 2,
    candidatesTokenCount: candidates,
    thoughtsTokenCount: 5,
    totalTokenCount: 16 + candidates,
    ...extra,
  };
}

/** The parts and finish reason a model answers with. */
function answerFor(model: string, text: string, body: Json): { parts: Json[]; finishReason: string } {
  if (model.includes('loop')) return loopAnswer(body);
  if (model.includes('parallel')) return parallelAnswer(body);
  if (model.includes('exec-command')) return execCommandAnswer(body);
  switch (model) {
    case 'tools':
      return {
        parts: [
          { functionCall: { name: 'get_weather', args: { city: 'Oslo' } }, thoughtSignature: 'sig-weather' },
          { functionCall: { name: 'get_time', args: { zone: 'CET' } } },
        ],
        finishReason: 'STOP',
      };
    case 'tools-id':
      return {
        parts: [{ functionCall: { id: 'fc-1', name: 'get_weather', args: { city: 'Bergen' } } }],
        finishReason: 'STOP',
      };
    case 'thinking':
      return {
        parts: [
          { text: 'Let me think.', thought: true },
          { text: 'The answer.', thoughtSignature: 'sig-text' },
        ],
        finishReason: 'STOP',
      };
    case 'max-tokens':
      return { parts: [{ text }], finishReason: 'MAX_TOKENS' };
    case 'safety':
      return { parts: [{ text }], finishReason: 'SAFETY' };
    default:
      return { parts: [{ text }], finishReason: 'STOP' };
  }
}

/**
 * Splits text parts into one part per word, so a stream carries several events; with `groupCalls`, parallel calls share
 * one event.
 */
function streamedParts(parts: Json[], groupCalls = false): Json[][] {
  const events = parts.flatMap((part) =>
    typeof part.text === 'string' && !part.thoughtSignature
      ? (part.text as string).split(/(?= )/).map((word) => [{ ...part, text: word }])
      : [[part]],
  );
  if (!groupCalls) return events;
  return events.reduce<Json[][]>((grouped, event) => {
    const last = grouped.at(-1);
    if (last?.every((part) => part.functionCall) && event[0]!.functionCall) last.push(...event);
    else grouped.push(event);
    return grouped;
  }, []);
}

export async function startMockGemini(options: { apiKey: string }): Promise<MockGemini> {
  const requests: RecordedGeminiRequest[] = [];
  const seen = new Set<string>();
  const server = await startMockServer((body, request, response) => {
    const url = new URL(request.url!, 'http://mock');
    const match = /^\/v1beta\/models\/(.+):(generateContent|streamGenerateContent)$/.exec(url.pathname);
    const model = match?.[1] ?? '';
    const action = match?.[2] ?? '';
    requests.push({ method: request.method!, url: request.url!, model, action, headers: request.headers, body });
    const send = (status: number, payload: unknown, headers: Record<string, string> = {}) => {
      response.writeHead(status, { 'content-type': 'application/json; charset=UTF-8', ...headers });
      response.end(JSON.stringify(payload));
    };
    const rpcError = (status: number, message: string, details?: Json[]) => ({
      error: { code: status, message, status: STATUS_NAMES[status] ?? 'UNKNOWN', ...(details ? { details } : {}) },
    });
    if (!match || request.method !== 'POST') return send(404, rpcError(404, `Unknown path ${url.pathname}`));
    const key = request.headers['x-goog-api-key'];
    if (key !== options.apiKey) {
      return send(
        400,
        rpcError(400, 'API key not valid. Please pass a valid API key.', [
          {
            '@type': 'type.googleapis.com/google.rpc.ErrorInfo',
            reason: 'API_KEY_INVALID',
            domain: 'googleapis.com',
            metadata: { service: 'generativelanguage.googleapis.com' },
          },
        ]),
      );
    }
    const failure = /^fail-(\d{3})$/.exec(model);
    if (failure) {
      const status = Number(failure[1]);
      return send(
        status,
        rpcError(status, `mock failure ${status} for key ${String(key)}`),
        status === 429 ? { 'retry-after': '0' } : {},
      );
    }
    const refusal = signatureRefusal(model, body);
    if (refusal) return send(400, rpcError(400, refusal));
    if (model === 'reset') return request.socket.destroy();
    if (model === 'garbage') {
      response.writeHead(200, { 'content-type': 'application/json' });
      return response.end('{"candidates": [ not json');
    }
    const text = `upstream says: ${lastUserText(body)}`;
    if (model === 'flaky-500' && !seen.has(text)) {
      seen.add(text);
      return send(500, rpcError(500, 'flaky'));
    }
    const identity = { modelVersion: `${model}-001`, responseId: 'resp-mock-1' };
    const answer = () => {
      const words = text.split(' ').length;
      if (model === 'blocked') {
        const blocked = {
          promptFeedback: { blockReason: 'SAFETY', safetyRatings: [] },
          usageMetadata: { promptTokenCount: 7, totalTokenCount: 7 },
          ...identity,
        };
        if (action === 'generateContent') return send(200, blocked);
        response.writeHead(200, { 'content-type': 'text/event-stream' });
        return response.end(`data: ${JSON.stringify(blocked)}\r\n\r\n`);
      }
      const { parts, finishReason } = answerFor(model, text, body);
      if (action === 'generateContent') {
        if (model === 'extras')
          return send(200, {
            candidates: [{ content: { role: 'model', parts }, finishReason, index: 0, ...CANDIDATE_EXTRAS }],
            usageMetadata: usage(words, USAGE_EXTRAS),
            promptFeedback: { safetyRatings: [] },
            ...identity,
          });
        return send(200, {
          candidates: [{ content: { role: 'model', parts }, finishReason, index: 0, safetyRatings: [] }],
          usageMetadata: usage(words),
          ...identity,
        });
      }
      if (url.searchParams.get('alt') !== 'sse') return send(400, rpcError(400, 'this mock only streams with alt=sse'));
      response.writeHead(200, { 'content-type': 'text/event-stream' });
      const events = streamedParts(parts, model.includes('parallel'));
      events.forEach((eventParts, index) => {
        const last = index === events.length - 1;
        const extras =
          model === 'extras'
            ? { ...(index === 0 ? { promptFeedback: { safetyRatings: [] } } : {}), ...(last ? CANDIDATE_EXTRAS : {}) }
            : {};
        const { promptFeedback, ...candidateExtras } = extras as Json;
        const chunk: Json = {
          candidates: [
            {
              content: { role: 'model', parts: eventParts },
              ...(last ? { finishReason } : {}),
              index: 0,
              ...candidateExtras,
            },
          ],
          ...(promptFeedback ? { promptFeedback } : {}),
          ...identity,
        };
        if (model !== 'no-usage') chunk.usageMetadata = usage(Math.ceil(((index + 1) * words) / events.length));
        if ((model === 'cut' || model === 'stream-error') && index > 0) return;
        response.write(`data: ${JSON.stringify(chunk)}\r\n\r\n`);
      });
      if (model === 'stream-error')
        response.write(`data: ${JSON.stringify(rpcError(503, 'The model is overloaded.'))}\r\n\r\n`);
      response.end();
    };
    if (model === 'slow') setTimeout(answer, 2000).unref();
    else answer();
  });
  return {
    url: `${server.origin}/v1beta`,
    requests,
    get aborted() {
      return server.aborted;
    },
    close: () => server.close(),
  };
}
