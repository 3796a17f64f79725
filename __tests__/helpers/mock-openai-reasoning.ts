/**
 * A mock OpenAI reasoning model (o-series / gpt-5) on 127.0.0.1, over chat completions and the Responses API,
 * answering a too small output cap the way OpenAI does:
 *
 * - chat completions, `max_completion_tokens` below {@link REFUSED_BELOW}: HTTP 400
 *   `{"error": {"message": "Could not finish the message because max_tokens or model output limit was reached.
 *   Please try again with higher max_tokens.", "type": "invalid_request_error", "param": null, "code": null}}` —
 *   the body reported by users probing gpt-5 / o3-mini with a one-token cap (litellm #35061; the same text quoted in
 *   several projects' tests of OpenAI and Azure). Where exactly OpenAI stops refusing and starts answering is not
 *   documented: the mock draws the line at {@link REFUSED_BELOW}.
 * - chat completions, a cap at least that but below what the model reasons ({@link REASONING_SPEND}): 200 with
 *   `content: ""`, `finish_reason: "length"` and every completion token a reasoning token (the "empty answer" OpenAI's
 *   community forum reports for gpt-5 with a small `max_completion_tokens`).
 * - chat completions with `max_tokens`: 400 `unsupported_parameter` (reasoning models take only
 *   `max_completion_tokens`).
 * - Responses, `max_output_tokens` below 16: HTTP 400 `{"error": {"message": "Invalid 'max_output_tokens': integer
 *   below minimum value. Expected a value >= 16, but got 1 instead.", "type": "invalid_request_error", "param":
 *   "max_output_tokens", "code": "integer_below_min_value"}}` (the body quoted in litellm #31451 / PR #31536 and
 *   cc-switch #7103, for Claude Code's and Claude Desktop's `max_tokens: 1` probes).
 * - Responses, a cap of 16 or more but below the reasoning: `status: "incomplete"`,
 *   `incomplete_details.reason: "max_output_tokens"`, a reasoning item only, every output token a reasoning token
 *   (OpenAI's reasoning guide: the answer is `incomplete` with that reason when the cap is reached).
 * - any cap that leaves room: the reasoning, then "upstream says: <last user text>".
 */
import type http from 'node:http';
import { startMockServer } from './mock-server';

/** Below this `max_completion_tokens` the mock's chat completions refuse with the 400 above. */
export const REFUSED_BELOW = 16;
/** The Responses API's documented minimum `max_output_tokens`. */
export const RESPONSES_MINIMUM = 16;
/** How many tokens the mock model reasons before it writes its answer. */
export const REASONING_SPEND = 24;
/** The prompt's token count the mock reports. */
export const PROMPT_TOKENS = 9;

/** The exact message of OpenAI's chat-completions refusal for a cap used up before anything could be written. */
export const CAP_EXHAUSTED_MESSAGE =
  'Could not finish the message because max_tokens or model output limit was reached. Please try again with higher max_tokens.';

/** What the mock saw of one request. */
export interface RecordedReasoningRequest {
  url: string;
  headers: http.IncomingHttpHeaders;
  body: Record<string, unknown>;
}

export interface MockOpenAIReasoning {
  /** The base URL with `/v1`, for `OpenAIProvider.baseUrl`. */
  url: string;
  requests: RecordedReasoningRequest[];
  close(): Promise<void>;
}

function textOf(content: unknown): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  return content.map((part: { text?: unknown }) => (typeof part.text === 'string' ? part.text : '')).join('');
}

function lastUserText(messages: unknown): string {
  if (typeof messages === 'string') return messages;
  const list = Array.isArray(messages) ? (messages as Array<{ role?: string; content?: unknown }>) : [];
  const last = [...list].reverse().find((message) => message.role === 'user');
  return last ? textOf(last.content) : '';
}

function sendJson(response: http.ServerResponse, status: number, payload: unknown): void {
  response.writeHead(status, { 'content-type': 'application/json' });
  response.end(JSON.stringify(payload));
}

function invalid(message: string, param: string | null, code: string | null) {
  return { error: { message, type: 'invalid_request_error', param, code } };
}

/** The chat-completions answer for a cap the model can work within (or the empty, length-stopped one). */
function chat(body: Record<string, unknown>, response: http.ServerResponse) {
  if (body.max_tokens !== undefined)
    return sendJson(
      response,
      400,
      invalid(
        "Unsupported parameter: 'max_tokens' is not supported with this model. Use 'max_completion_tokens' instead.",
        'max_tokens',
        'unsupported_parameter',
      ),
    );
  const cap = typeof body.max_completion_tokens === 'number' ? body.max_completion_tokens : 100_000;
  if (cap < REFUSED_BELOW) return sendJson(response, 400, invalid(CAP_EXHAUSTED_MESSAGE, null, null));
  const text = `upstream says: ${lastUserText(body.messages)}`;
  const answerTokens = text.split(' ').length;
  const exhausted = cap < REASONING_SPEND + answerTokens;
  const content = exhausted ? '' : text;
  const reasoning = exhausted ? cap : REASONING_SPEND;
  const completion = exhausted ? cap : REASONING_SPEND + answerTokens;
  const usage = {
    prompt_tokens: PROMPT_TOKENS,
    completion_tokens: completion,
    total_tokens: PROMPT_TOKENS + completion,
    completion_tokens_details: { reasoning_tokens: reasoning },
  };
  const finish = exhausted ? 'length' : 'stop';
  const head = { id: 'chatcmpl-reasoning', created: 1700000000, model: String(body.model) };
  if (!body.stream)
    return sendJson(response, 200, {
      ...head,
      object: 'chat.completion',
      choices: [{ index: 0, message: { role: 'assistant', content, refusal: null }, finish_reason: finish }],
      usage,
    });
  response.writeHead(200, { 'content-type': 'text/event-stream' });
  const chunk = (payload: Record<string, unknown>) =>
    response.write(`data: ${JSON.stringify({ ...head, object: 'chat.completion.chunk', ...payload })}\n\n`);
  chunk({ choices: [{ index: 0, delta: { role: 'assistant', content: '' }, finish_reason: null }] });
  if (content) chunk({ choices: [{ index: 0, delta: { content }, finish_reason: null }] });
  chunk({ choices: [{ index: 0, delta: {}, finish_reason: finish }] });
  chunk({ choices: [], usage });
  response.end('data: [DONE]\n\n');
}

/** The Responses answer: refused below 16, incomplete while the cap is used up reasoning, else the echo. */
function responses(body: Record<string, unknown>, response: http.ServerResponse) {
  const cap = typeof body.max_output_tokens === 'number' ? body.max_output_tokens : 100_000;
  if (cap < RESPONSES_MINIMUM)
    return sendJson(
      response,
      400,
      invalid(
        `Invalid 'max_output_tokens': integer below minimum value. Expected a value >= ${RESPONSES_MINIMUM}, but got ${cap} instead.`,
        'max_output_tokens',
        'integer_below_min_value',
      ),
    );
  const text = `upstream says: ${lastUserText(body.input)}`;
  const answerTokens = text.split(' ').length;
  const exhausted = cap < REASONING_SPEND + answerTokens;
  const reasoningItem = { type: 'reasoning', id: 'rs_probe', summary: [], encrypted_content: 'enc-probe' };
  const messageItem = {
    type: 'message',
    id: 'msg_probe',
    status: 'completed',
    role: 'assistant',
    content: [{ type: 'output_text', text, annotations: [] }],
  };
  const output = exhausted ? [reasoningItem] : [reasoningItem, messageItem];
  const reasoning = exhausted ? cap : REASONING_SPEND;
  const outputTokens = exhausted ? cap : REASONING_SPEND + answerTokens;
  const finished = {
    id: 'resp_probe',
    object: 'response',
    created_at: 1700000000,
    status: exhausted ? 'incomplete' : 'completed',
    incomplete_details: exhausted ? { reason: 'max_output_tokens' } : null,
    error: null,
    model: String(body.model),
    output,
    usage: {
      input_tokens: PROMPT_TOKENS,
      input_tokens_details: { cached_tokens: 0 },
      output_tokens: outputTokens,
      output_tokens_details: { reasoning_tokens: reasoning },
      total_tokens: PROMPT_TOKENS + outputTokens,
    },
  };
  if (!body.stream) return sendJson(response, 200, finished);
  response.writeHead(200, { 'content-type': 'text/event-stream' });
  let sequence = 0;
  const event = (type: string, payload: Record<string, unknown>) =>
    response.write(`event: ${type}\ndata: ${JSON.stringify({ type, sequence_number: sequence++, ...payload })}\n\n`);
  const started = { ...finished, status: 'in_progress', incomplete_details: null, output: [], usage: null };
  event('response.created', { response: started });
  event('response.in_progress', { response: started });
  event('response.output_item.added', { output_index: 0, item: { ...reasoningItem, encrypted_content: undefined } });
  event('response.output_item.done', { output_index: 0, item: reasoningItem });
  if (!exhausted) {
    const at = { item_id: messageItem.id, output_index: 1, content_index: 0 };
    event('response.output_item.added', { output_index: 1, item: { ...messageItem, content: [] } });
    event('response.content_part.added', { ...at, part: { type: 'output_text', text: '', annotations: [] } });
    event('response.output_text.delta', { ...at, delta: text, logprobs: [] });
    event('response.output_text.done', { ...at, text, logprobs: [] });
    event('response.content_part.done', { ...at, part: messageItem.content[0] });
    event('response.output_item.done', { output_index: 1, item: messageItem });
  }
  event(exhausted ? 'response.incomplete' : 'response.completed', { response: finished });
  response.end();
}

export async function startMockOpenAIReasoning(): Promise<MockOpenAIReasoning> {
  const requests: RecordedReasoningRequest[] = [];
  const server = await startMockServer((body, request, response) => {
    requests.push({ url: request.url!, headers: request.headers, body });
    if (request.url!.endsWith('/chat/completions')) return chat(body, response);
    if (request.url!.endsWith('/responses')) return responses(body, response);
    sendJson(response, 404, invalid(`no route ${request.url}`, null, null));
  });
  return { url: `${server.origin}/v1`, requests, close: () => server.close() };
}
