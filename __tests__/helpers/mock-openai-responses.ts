/**
 * A mock OpenAI Responses API upstream on 127.0.0.1 (plain node:http) speaking the real wire format: Response objects
 * and the SSE event sequence.
 */
import type http from 'node:http';
import { EXEC_TOOL, execArguments } from './exec-command';
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
 * - `echo` (or anything else): a message "upstream says: <last user text>"; usage 11 input (2 cached) + words.
 * - `tools`: a reasoning item (summary "Need the weather.", `encrypted_content` `enc-<n>` with n the
 *   call's number) and a `get_weather` function call `{"city":"Oslo"}` (call_id `call_w1`); 4 reasoning tokens.
 *   Once the input holds a `function_call_output`, it answers like `echo` with the output's text instead.
 * - `length`: the echo text, `status: "incomplete"`, `incomplete_details.reason: "max_output_tokens"`.
 * - `fail-<status>`: that status with an OpenAI error body (429 adds Retry-After: 0).
 * - `failed`: streamed, `response.created` then `response.failed` (rate limit); not streamed, a `failed` Response.
 * - `error-event`: streamed, one text delta then an `error` event.
 * - `garbage`: a body that is not JSON (streamed: an event that is not JSON).
 * - `cut`: streams `response.created` and one delta, then ends.
 * - `extras`: the echo text with `service_tier` and a server's own `provider` field on the Response.
 * - `builtins`: a built-in tool's item first — a `web_search_call` (id `ws_mock<n>`, its query the
 *   last user text), streamed with its own `response.web_search_call.in_progress` / `.searching` /
 *   `.completed` events — then the echo message, which has fields canonical does not model: `phase`
 *   and a server's own `trace_id` on the item, a `url_citation` annotation and logprobs on its text;
 *   and on the Response `service_tier: "priority"` and a server's own `billing`. Streamed, the
 *   annotation also comes as a `response.output_text.annotation.added` event.
 * - `exec-command`: like `tools`, but the call is `exec_command` (call_id {@link EXEC_RESPONSES_CALL_ID})
 *   with the command on the last user text's `run: ` line (the script of `exec-command.ts`), and the
 *   reasoning item's `encrypted_content` is {@link EXEC_ENCRYPTED_CONTENT}.
 */
export interface MockOpenAIResponses {
  url: string;
  requests: RecordedRequest[];
  close(): Promise<void>;
}

const REASONING_SUMMARY = 'Need the weather.';

/** The `builtins` model's annotation and logprob on its answer's text. */
export const CITATION = {
  type: 'url_citation',
  url: 'https://example.com/a',
  title: 'A',
  start_index: 0,
  end_index: 8,
};
export const LOGPROB = { token: 'upstream', logprob: -0.5, bytes: [117], top_logprobs: [] };

/** The `exec-command` model's call id, and its reasoning item's `encrypted_content`. */
export const EXEC_RESPONSES_CALL_ID = 'call_exec_1';
export const EXEC_ENCRYPTED_CONTENT = 'gAAAAABexec-command-encrypted';

function textOf(content: unknown): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  return content
    .map((part: { text?: unknown; output?: unknown }) => (typeof part.text === 'string' ? part.text : ''))
    .join('');
}

/** The text the echo answers: the last user message's text, or the last tool output. */
function lastText(body: Record<string, unknown>): { text: string; toolOutput: boolean } {
  const input = body.input;
  if (typeof input === 'string') return { text: input, toolOutput: false };
  const items = (input as Array<Record<string, unknown>>) ?? [];
  for (let index = items.length - 1; index >= 0; index--) {
    const item = items[index]!;
    if (item.type === 'function_call_output') return { text: textOf(item.output), toolOutput: true };
    if ((item.type ?? 'message') === 'message' && item.role === 'user')
      return { text: textOf(item.content), toolOutput: false };
  }
  return { text: '', toolOutput: false };
}

export async function startMockOpenAIResponses(): Promise<MockOpenAIResponses> {
  const requests: RecordedRequest[] = [];
  let calls = 0;
  const server = await startMockServer((body, request, response) => {
    requests.push({ method: request.method!, url: request.url!, headers: request.headers, body });
    const number = ++calls;
    const model = String(body.model ?? '');
    const send = (status: number, payload: unknown, headers: Record<string, string> = {}) => {
      response.writeHead(status, { 'content-type': 'application/json', ...headers });
      response.end(JSON.stringify(payload));
    };
    if (!request.url!.endsWith('/responses'))
      return send(404, { error: { message: `no route ${request.url}`, type: 'invalid_request_error' } });
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
    if (model === 'garbage' && !body.stream) {
      response.writeHead(200, { 'content-type': 'application/json' });
      return response.end('{"output": [ not json');
    }
    const { text: said, toolOutput } = lastText(body);
    const text = `upstream says: ${said}`;
    const words = text.split(/(?= )/);
    const id = `resp_mock${number}`;
    const exec = model === 'exec-command';
    const callTurn = (model === 'tools' || exec) && !toolOutput;
    const reasoningItem = {
      type: 'reasoning',
      id: `rs_mock${number}`,
      summary: [{ type: 'summary_text', text: REASONING_SUMMARY }],
      encrypted_content: exec ? EXEC_ENCRYPTED_CONTENT : `enc-${number}`,
    };
    const call = exec
      ? { call_id: EXEC_RESPONSES_CALL_ID, name: EXEC_TOOL, arguments: JSON.stringify(execArguments(said)) }
      : { call_id: 'call_w1', name: 'get_weather', arguments: '{"city":"Oslo"}' };
    const callItem = { type: 'function_call', id: `fc_mock${number}`, ...call, status: 'completed' };
    const messageItem = {
      type: 'message',
      id: `msg_mock${number}`,
      status: 'completed',
      role: 'assistant',
      content: [{ type: 'output_text', text, annotations: [] }],
    };
    const builtins = model === 'builtins';
    const searchItem = {
      type: 'web_search_call',
      id: `ws_mock${number}`,
      status: 'completed',
      action: { type: 'search', query: said },
    };
    if (builtins) {
      Object.assign(messageItem, { phase: 'final_answer', trace_id: 'tr-1' });
      messageItem.content = [{ type: 'output_text', text, annotations: [CITATION], logprobs: [LOGPROB] } as never];
    }
    const output = callTurn ? [reasoningItem, callItem] : builtins ? [searchItem, messageItem] : [messageItem];
    const reasoningTokens = callTurn ? 4 : 0;
    const outputTokens = (callTurn ? 6 : words.length) + reasoningTokens;
    const usage = {
      input_tokens: 11,
      input_tokens_details: { cached_tokens: 2 },
      output_tokens: outputTokens,
      output_tokens_details: { reasoning_tokens: reasoningTokens },
      total_tokens: 11 + outputTokens,
    };
    const incomplete = model === 'length';
    const responseObject = (status: string, withOutput: boolean) => ({
      id,
      object: 'response',
      created_at: 1700000000,
      status,
      model: model === 'extras' ? 'extras-2024' : model,
      output: withOutput ? output : [],
      usage: withOutput ? usage : null,
      error: null,
      incomplete_details: incomplete && withOutput ? { reason: 'max_output_tokens' } : null,
      ...(model === 'extras' ? { service_tier: 'flex', provider: 'mock-cloud' } : {}),
      ...(builtins ? { service_tier: 'priority', billing: { payer: 'developer' } } : {}),
    });
    const finalStatus = incomplete ? 'incomplete' : 'completed';
    if (!body.stream) {
      if (model === 'failed')
        return send(200, {
          ...responseObject('failed', false),
          error: { code: 'rate_limit_exceeded', message: 'Slow down' },
        });
      return send(200, responseObject(finalStatus, true));
    }
    response.writeHead(200, { 'content-type': 'text/event-stream' });
    let sequence = 0;
    const event = (type: string, payload: Record<string, unknown>) =>
      response.write(`event: ${type}\ndata: ${JSON.stringify({ type, sequence_number: sequence++, ...payload })}\n\n`);
    if (model === 'garbage') return response.end('event: response.created\ndata: {not json\n\n');
    event('response.created', { response: responseObject('in_progress', false) });
    event('response.in_progress', { response: responseObject('in_progress', false) });
    if (model === 'failed') {
      event('response.failed', {
        response: { ...responseObject('failed', false), error: { code: 'rate_limit_exceeded', message: 'Slow down' } },
      });
      return response.end();
    }
    if (callTurn) {
      event('response.output_item.added', {
        output_index: 0,
        item: { type: 'reasoning', id: reasoningItem.id, summary: [] },
      });
      event('response.reasoning_summary_part.added', {
        item_id: reasoningItem.id,
        output_index: 0,
        summary_index: 0,
        part: { type: 'summary_text', text: '' },
      });
      for (const piece of [REASONING_SUMMARY.slice(0, 8), REASONING_SUMMARY.slice(8)])
        event('response.reasoning_summary_text.delta', {
          item_id: reasoningItem.id,
          output_index: 0,
          summary_index: 0,
          delta: piece,
        });
      event('response.reasoning_summary_text.done', {
        item_id: reasoningItem.id,
        output_index: 0,
        summary_index: 0,
        text: REASONING_SUMMARY,
      });
      event('response.output_item.done', { output_index: 0, item: reasoningItem });
      event('response.output_item.added', {
        output_index: 1,
        item: { ...callItem, arguments: '', status: 'in_progress' },
      });
      const half = Math.ceil(callItem.arguments.length / 2);
      for (const piece of [callItem.arguments.slice(0, half), callItem.arguments.slice(half)])
        event('response.function_call_arguments.delta', { item_id: callItem.id, output_index: 1, delta: piece });
      event('response.function_call_arguments.done', {
        item_id: callItem.id,
        output_index: 1,
        arguments: callItem.arguments,
      });
      event('response.output_item.done', { output_index: 1, item: callItem });
    } else {
      let index = 0;
      if (builtins) {
        const searching = { item_id: searchItem.id, output_index: 0 };
        event('response.output_item.added', { output_index: 0, item: { ...searchItem, status: 'in_progress' } });
        event('response.web_search_call.in_progress', searching);
        event('response.web_search_call.searching', searching);
        event('response.web_search_call.completed', searching);
        event('response.output_item.done', { output_index: 0, item: searchItem });
        index = 1;
      }
      const at = { item_id: messageItem.id, output_index: index, content_index: 0 };
      event('response.output_item.added', {
        output_index: index,
        item: { ...messageItem, status: 'in_progress', content: [] },
      });
      event('response.content_part.added', { ...at, part: { type: 'output_text', text: '', annotations: [] } });
      for (const word of words) {
        event('response.output_text.delta', { ...at, delta: word, logprobs: [] });
        if (model === 'cut') return response.end();
        if (model === 'error-event') {
          event('error', { code: 'server_error', message: 'The model failed mid-answer.', param: null });
          return response.end();
        }
      }
      if (builtins)
        event('response.output_text.annotation.added', { ...at, annotation_index: 0, annotation: CITATION });
      event('response.output_text.done', { ...at, text, logprobs: [] });
      event('response.content_part.done', { ...at, part: messageItem.content[0] });
      event('response.output_item.done', { output_index: index, item: messageItem });
    }
    event(incomplete ? 'response.incomplete' : 'response.completed', { response: responseObject(finalStatus, true) });
    response.end();
  });
  return { url: `${server.origin}/v1`, requests, close: () => server.close() };
}
