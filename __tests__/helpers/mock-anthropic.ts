/** A mock Anthropic Messages upstream on 127.0.0.1 (plain node:http) speaking the real wire protocol. */
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

/** The credential and version the mock insists on, as the real API does. */
/** What the `extras` model adds to its answer, and to its usage. */
export const EXTRAS = {
  container: { id: 'container_mock', expires_at: '2026-11-21T18:00:00Z' },
  context_management: {
    applied_edits: [{ type: 'clear_tool_uses_20250919', cleared_tool_uses: 2, cleared_input_tokens: 120 }],
  },
  stop_details: { type: 'mock_detail' },
  future_field: { from: 'a newer API' },
};
export const EXTRA_USAGE = { server_tool_use: { web_search_requests: 1 }, service_tier: 'priority' };

export const MOCK_ANTHROPIC_KEY = 'sk-ant-upstream-secret-123456789';

/**
 * Behaviour is picked by the upstream model id:
 * - `echo` (or anything else): replies "upstream says: <last user text>"; usage 6 input + 3 cache
 *   read + 2 cache write, output = words.
 * - `thinking`: a signed thinking block, then the echo text; reports thinking tokens.
 * - `tools`: answers with two tool_use blocks (`stop_reason: tool_use`).
 * - `thinking-tools`: a signed thinking block, the text "Let me check.", then two tool_use blocks
 *   (`stop_reason: tool_use`); reports thinking tokens.
 * - `stop-seq`, `max`, `refusal`, `pause`: the echo text with that stop reason (`stop-seq` matched "END").
 * - `late-usage`: streams input usage 0 in message_start and the real figures in message_delta.
 * - `fail-<status>`: answers that status with an Anthropic error body (429 adds Retry-After: 0).
 * - `flaky-500`: 500 on the first call of each distinct prompt, then like `echo`.
 * - `slow`: waits 2 s before answering.
 * - `garbage`: 200 with a body that is not JSON.
 * - `cut`: streams one text delta, then ends without message_stop.
 * - `overloaded`: streams one text delta, then an `event: error` with `overloaded_error`.
 * - `reset`: destroys the socket without answering.
 * - `extras`: the echo text with fields the gateway does not model (not streamed): a `container`,
 *   `context_management` edits, `stop_details`, a future top-level field, and usage's
 *   `server_tool_use` and `service_tier: priority`.
 * - `exec-command`: the script of `exec-command.ts`: a thinking block signed {@link EXEC_SIGNATURE}
 *   and a `tool_use` of `exec_command` (id {@link EXEC_TOOL_USE_ID}) with the command on the last user
 *   turn's `run: ` line; once the last user turn holds a `tool_result`, text quoting it.
 *
 * Like the real API it answers 401 without `x-api-key: MOCK_ANTHROPIC_KEY`, 400 without
 * `anthropic-version`, and 400 for bodies Anthropic would refuse (no max_tokens, a system role,
 * roles that do not alternate, empty text, bad tool ids, tool_use without its tool_result; with
 * thinking on: a budget outside 1024 ≤ budget < max_tokens, temperature other than 1, top_p below
 * 0.95, any top_k, a forced tool_choice, a thinking block without a signature, or a tool loop
 * whose assistant turn does not lead with a thinking block; with thinking off: a `clear_thinking_*`
 * context-management edit). A `system` turn inside `messages` is taken only with a
 * `mid-conversation-system-*` beta (as Claude Code sends it). It serves `POST /v1/messages`, also
 * with `?beta=true`.
 */
export interface MockAnthropic {
  url: string;
  requests: RecordedRequest[];
  /** Requests whose connection the client aborted before the mock finished answering. */
  aborted: number;
  close(): Promise<void>;
}

type Block = { type: string } & Record<string, unknown>;
type Turn = { role: string; content: string | Block[] };

const TOOL_ID = /^[a-zA-Z0-9_-]+$/;

function blocksOf(turn: Turn): Block[] {
  return typeof turn.content === 'string' ? [{ type: 'text', text: turn.content }] : turn.content;
}

/** Why the real API would refuse thinking in this body (protocols.md 3.5, 5.5), or undefined. */
function thinkingRefusal(body: Record<string, unknown>, messages: Turn[]): string | undefined {
  const thinking = body.thinking as { type?: string; budget_tokens?: number } | undefined;
  for (const [index, turn] of messages.entries()) {
    const unsigned = blocksOf(turn).findIndex(
      (block) => block.type === 'thinking' && (typeof block.signature !== 'string' || block.signature.length === 0),
    );
    if (unsigned !== -1) return `messages.${index}.content.${unsigned}.thinking.signature: Field required`;
  }
  if (thinking?.type !== 'enabled' && thinking?.type !== 'adaptive') {
    const edits = (body.context_management as { edits?: Array<{ type?: string }> } | undefined)?.edits ?? [];
    return edits.some((edit) => edit.type?.startsWith('clear_thinking'))
      ? 'context_management: the clear_thinking strategy requires thinking to be enabled'
      : undefined;
  }
  if (thinking.type === 'enabled') {
    const budget = thinking.budget_tokens;
    if (typeof budget !== 'number' || budget < 1024)
      return 'thinking.enabled.budget_tokens: Input should be greater than or equal to 1024';
    if (budget >= (body.max_tokens as number)) return '`max_tokens` must be greater than `thinking.budget_tokens`';
  }
  if (body.temperature !== undefined && body.temperature !== 1)
    return '`temperature` may only be set to 1 when thinking is enabled';
  if (body.top_p !== undefined && (body.top_p as number) < 0.95)
    return '`top_p` must be greater than or equal to 0.95 when thinking is enabled';
  if (body.top_k !== undefined) return '`top_k` cannot be set when thinking is enabled';
  const choice = (body.tool_choice as { type?: string } | undefined)?.type;
  if (choice === 'any' || choice === 'tool') return 'Thinking may not be enabled when tool_choice forces tool use.';
  const [assistant, results] = messages.slice(-2);
  if (
    assistant?.role === 'assistant' &&
    results?.role === 'user' &&
    blocksOf(results).some((block) => block.type === 'tool_result')
  ) {
    const blocks = blocksOf(assistant);
    if (
      blocks.some((block) => block.type === 'tool_use') &&
      blocks[0]!.type !== 'thinking' &&
      blocks[0]!.type !== 'redacted_thinking'
    ) {
      return `Expected \`thinking\` or \`redacted_thinking\`, but found \`${blocks[0]!.type}\`. When \`thinking\` is enabled, a final \`assistant\` message must start with a thinking block.`;
    }
  }
  return undefined;
}

/** Why the real API would refuse this body, or undefined. `betas`: the request's `anthropic-beta` values. */
function refusal(body: Record<string, unknown>, betas: string): string | undefined {
  const systemRole = betas.split(',').some((beta) => beta.trim().startsWith('mid-conversation-system-'));
  if (typeof body.max_tokens !== 'number') return 'max_tokens: Field required';
  const messages = body.messages as Turn[] | undefined;
  if (!Array.isArray(messages) || messages.length === 0) return 'messages: at least one message is required';
  const thinkingProblem = thinkingRefusal(body, messages);
  if (thinkingProblem) return thinkingProblem;
  let pending: string[] = [];
  for (const [index, turn] of messages.entries()) {
    if (turn.role === 'system' && systemRole) continue;
    if (turn.role !== 'user' && turn.role !== 'assistant')
      return `messages.${index}.role: Input should be 'user' or 'assistant'`;
    if (index > 0 && messages[index - 1]!.role === turn.role)
      return `messages.${index}: roles must alternate between "user" and "assistant"`;
    const blocks = blocksOf(turn);
    if (blocks.length === 0) return `messages.${index}: all messages must have non-empty content`;
    for (const [position, block] of blocks.entries()) {
      if (block.type === 'text' && String(block.text).trim() === '')
        return `messages.${index}.content.${position}: text content blocks must contain non-whitespace text`;
      if (block.type === 'tool_use' && !TOOL_ID.test(String(block.id)))
        return `messages.${index}.content.${position}.tool_use.id: String should match pattern '^[a-zA-Z0-9_-]+$'`;
      if (
        block.type === 'tool_use' &&
        (typeof block.input !== 'object' || block.input === null || Array.isArray(block.input))
      )
        return `messages.${index}.content.${position}.tool_use.input: Input should be an object`;
    }
    if (turn.role === 'user') {
      const answered = blocks.filter((block) => block.type === 'tool_result').map((block) => String(block.tool_use_id));
      const missing = pending.filter((id) => !answered.includes(id));
      if (missing.length > 0)
        return `messages.${index}: tool_use ids were found without tool_result blocks immediately after: ${missing.join(', ')}`;
      const unknown = answered.filter((id) => !pending.includes(id));
      if (unknown.length > 0)
        return `messages.${index}.content: unexpected tool_use_id found in tool_result blocks: ${unknown.join(', ')}`;
      pending = [];
    } else {
      if (pending.length > 0)
        return `messages.${index}: tool_use ids were found without tool_result blocks immediately after: ${pending.join(', ')}`;
      pending = blocks.filter((block) => block.type === 'tool_use').map((block) => String(block.id));
    }
  }
  return undefined;
}

function lastUserText(body: Record<string, unknown>): string {
  const messages = (body.messages as Turn[] | undefined) ?? [];
  const last = [...messages].reverse().find((turn) => turn.role === 'user');
  if (!last) return '';
  return blocksOf(last)
    .filter((block) => block.type === 'text')
    .map((block) => String(block.text))
    .join('');
}

const STOP_REASONS: Readonly<Record<string, string>> = {
  'stop-seq': 'stop_sequence',
  max: 'max_tokens',
  refusal: 'refusal',
  pause: 'pause_turn',
  tools: 'tool_use',
  'thinking-tools': 'tool_use',
};
const PREAMBLE = 'Let me check.';
const TOOL_USES = [
  { type: 'tool_use', id: 'toolu_01A', name: 'get_weather', input: { city: 'Oslo' } },
  { type: 'tool_use', id: 'toolu_01B', name: 'get_time', input: { zone: 'CET' } },
];
const SIGNATURE = 'EqQBsig-from-anthropic';
const THOUGHT = 'Let me think about it.';

/** The signature on the `exec-command` model's thinking block, and the id of its tool_use. */
export const EXEC_SIGNATURE = 'EqQBsig-exec-command-from-anthropic';
export const EXEC_TOOL_USE_ID = 'toolu_exec_1';

/** The text of a tool_result's content (a string or text blocks). */
function resultText(block: Block): string {
  const content = block.content;
  if (typeof content === 'string') return content;
  return Array.isArray(content) ? (content as Block[]).map((inner) => String(inner.text ?? '')).join('') : '';
}

/**
 * The `exec-command` model's blocks for this body: thinking and the call, or (once its result came back) the answer.
 */
function execCommandBlocks(body: Record<string, unknown>): { content: Block[]; stopReason: string } {
  const messages = (body.messages as Turn[] | undefined) ?? [];
  const last = messages.at(-1);
  const result = last?.role === 'user' ? blocksOf(last).find((block) => block.type === 'tool_result') : undefined;
  if (result) return { content: [{ type: 'text', text: execAnswer(resultText(result)) }], stopReason: 'end_turn' };
  return {
    content: [
      { type: 'thinking', thinking: EXEC_THOUGHT, signature: EXEC_SIGNATURE },
      { type: 'tool_use', id: EXEC_TOOL_USE_ID, name: EXEC_TOOL, input: execArguments(lastUserText(body)) },
    ],
    stopReason: 'tool_use',
  };
}

/** Answers the `exec-command` model, streamed (each block's start, one delta, stop) or not. */
function answerExecCommand(body: Record<string, unknown>, response: http.ServerResponse): void {
  const { content, stopReason } = execCommandBlocks(body);
  const usage = { input_tokens: 6, output_tokens: 9 };
  if (!body.stream) {
    response.writeHead(200, { 'content-type': 'application/json', 'request-id': 'req_mock' });
    response.end(
      JSON.stringify({
        id: 'msg_exec',
        type: 'message',
        role: 'assistant',
        model: 'exec-command',
        content,
        stop_reason: stopReason,
        stop_sequence: null,
        usage,
      }),
    );
    return;
  }
  response.writeHead(200, { 'content-type': 'text/event-stream', 'request-id': 'req_mock' });
  const event = (payload: { type: string } & Record<string, unknown>) =>
    response.write(`event: ${payload.type}\ndata: ${JSON.stringify(payload)}\n\n`);
  event({
    type: 'message_start',
    message: {
      id: 'msg_exec',
      type: 'message',
      role: 'assistant',
      model: 'exec-command',
      content: [],
      stop_reason: null,
      stop_sequence: null,
      usage: { ...usage, output_tokens: 1 },
    },
  });
  content.forEach((block, index) => {
    if (block.type === 'thinking') {
      event({ type: 'content_block_start', index, content_block: { type: 'thinking', thinking: '', signature: '' } });
      event({ type: 'content_block_delta', index, delta: { type: 'thinking_delta', thinking: block.thinking } });
      event({ type: 'content_block_delta', index, delta: { type: 'signature_delta', signature: block.signature } });
    } else if (block.type === 'tool_use') {
      event({ type: 'content_block_start', index, content_block: { ...block, input: {} } });
      event({
        type: 'content_block_delta',
        index,
        delta: { type: 'input_json_delta', partial_json: JSON.stringify(block.input) },
      });
    } else {
      event({ type: 'content_block_start', index, content_block: { type: 'text', text: '' } });
      event({ type: 'content_block_delta', index, delta: { type: 'text_delta', text: block.text } });
    }
    event({ type: 'content_block_stop', index });
  });
  event({
    type: 'message_delta',
    delta: { stop_reason: stopReason, stop_sequence: null },
    usage: { output_tokens: usage.output_tokens },
  });
  event({ type: 'message_stop' });
  response.end();
}

export async function startMockAnthropic(): Promise<MockAnthropic> {
  const requests: RecordedRequest[] = [];
  const seen = new Set<string>();
  const timers = new Set<NodeJS.Timeout>();
  const server = await startMockServer(
    (body, request, response) => {
      requests.push({ method: request.method!, url: request.url!, headers: request.headers, body });
      const send = (status: number, payload: unknown, headers: Record<string, string> = {}) => {
        response.writeHead(status, { 'content-type': 'application/json', 'request-id': 'req_mock', ...headers });
        response.end(JSON.stringify(payload));
      };
      const error = (status: number, type: string, message: string, headers: Record<string, string> = {}) =>
        send(status, { type: 'error', error: { type, message }, request_id: 'req_mock' }, headers);
      if (request.method !== 'POST' || (request.url !== '/v1/messages' && request.url !== '/v1/messages?beta=true'))
        return error(404, 'not_found_error', `no route ${request.method} ${request.url}`);
      if (request.headers['x-api-key'] !== MOCK_ANTHROPIC_KEY)
        return error(401, 'authentication_error', 'invalid x-api-key');
      if (request.headers['anthropic-version'] !== '2023-06-01')
        return error(400, 'invalid_request_error', 'anthropic-version: header is required');
      const model = String(body.model ?? '');
      const failure = /^fail-(\d{3})$/.exec(model);
      if (failure) {
        const status = Number(failure[1]);
        return error(
          status,
          status === 529 ? 'overloaded_error' : 'mock_error',
          `mock failure ${status} for key ${MOCK_ANTHROPIC_KEY}`,
          status === 429 ? { 'retry-after': '0' } : {},
        );
      }
      if (model === 'reset') return request.socket.destroy();
      if (model === 'garbage') {
        response.writeHead(200, { 'content-type': 'application/json' });
        return response.end('{"content": [ not json');
      }
      const invalid = refusal(body, String(request.headers['anthropic-beta'] ?? ''));
      if (invalid) return error(400, 'invalid_request_error', invalid);
      if (model === 'exec-command') return answerExecCommand(body, response);
      const text = `upstream says: ${lastUserText(body)}`;
      if (model === 'flaky-500' && !seen.has(text)) {
        seen.add(text);
        return error(500, 'api_error', 'flaky');
      }
      const words = text.split(/(?= )/);
      const thinking = model === 'thinking' || model === 'thinking-tools';
      const toolUses = model === 'tools' || model === 'thinking-tools';
      const outputTokens = words.length + (thinking ? 5 : 0);
      const inputUsage = { input_tokens: 6, cache_read_input_tokens: 3, cache_creation_input_tokens: 2 };
      const stopReason = STOP_REASONS[model] ?? 'end_turn';
      const stopSequence = model === 'stop-seq' ? 'END' : null;
      const details = thinking ? { output_tokens_details: { thinking_tokens: 5 } } : {};
      const answer = () => {
        if (!body.stream) {
          const thought = thinking ? [{ type: 'thinking', thinking: THOUGHT, signature: SIGNATURE }] : [];
          const content =
            model === 'tools'
              ? TOOL_USES
              : model === 'thinking-tools'
                ? [...thought, { type: 'text', text: PREAMBLE, citations: null }, ...TOOL_USES]
                : [...thought, { type: 'text', text, citations: null }];
          const extras = model === 'extras' ? EXTRAS : {};
          return send(200, {
            id: 'msg_mock',
            type: 'message',
            role: 'assistant',
            model,
            content,
            stop_reason: stopReason,
            stop_sequence: stopSequence,
            ...extras,
            usage: {
              ...inputUsage,
              output_tokens: outputTokens,
              ...details,
              service_tier: 'standard',
              ...(model === 'extras' ? EXTRA_USAGE : {}),
            },
          });
        }
        response.writeHead(200, { 'content-type': 'text/event-stream', 'request-id': 'req_mock' });
        const event = (payload: { type: string } & Record<string, unknown>) =>
          response.write(`event: ${payload.type}\ndata: ${JSON.stringify(payload)}\n\n`);
        const startUsage =
          model === 'late-usage'
            ? { input_tokens: 0, cache_read_input_tokens: 0, cache_creation_input_tokens: 0 }
            : inputUsage;
        event({
          type: 'message_start',
          message: {
            id: 'msg_mock',
            type: 'message',
            role: 'assistant',
            model,
            content: [],
            stop_reason: null,
            stop_sequence: null,
            usage: { ...startUsage, output_tokens: 1 },
          },
        });
        let index = 0;
        if (thinking) {
          event({
            type: 'content_block_start',
            index,
            content_block: { type: 'thinking', thinking: '', signature: '' },
          });
          event({ type: 'ping' });
          event({ type: 'content_block_delta', index, delta: { type: 'thinking_delta', thinking: THOUGHT } });
          event({ type: 'content_block_delta', index, delta: { type: 'signature_delta', signature: SIGNATURE } });
          event({ type: 'content_block_stop', index: index++ });
        }
        if (model === 'thinking-tools') {
          event({ type: 'content_block_start', index, content_block: { type: 'text', text: '' } });
          event({ type: 'content_block_delta', index, delta: { type: 'text_delta', text: PREAMBLE } });
          event({ type: 'content_block_stop', index: index++ });
        }
        if (toolUses) {
          for (const tool of TOOL_USES) {
            event({ type: 'content_block_start', index, content_block: { ...tool, input: {} } });
            const json = JSON.stringify(tool.input);
            for (const piece of ['', json.slice(0, 5), json.slice(5)])
              event({ type: 'content_block_delta', index, delta: { type: 'input_json_delta', partial_json: piece } });
            event({ type: 'content_block_stop', index: index++ });
          }
        } else {
          event({ type: 'content_block_start', index, content_block: { type: 'text', text: '' } });
          if (!thinking) event({ type: 'ping' });
          for (const word of words) {
            event({ type: 'content_block_delta', index, delta: { type: 'text_delta', text: word } });
            if (model === 'cut') return response.end();
            if (model === 'overloaded') {
              event({ type: 'error', error: { type: 'overloaded_error', message: 'Overloaded' } });
              return response.end();
            }
          }
          event({ type: 'content_block_stop', index });
        }
        const finalUsage =
          model === 'late-usage'
            ? { ...inputUsage, output_tokens: outputTokens }
            : { output_tokens: outputTokens, ...details };
        event({
          type: 'message_delta',
          delta: { stop_reason: stopReason, stop_sequence: stopSequence },
          usage: finalUsage,
        });
        event({ type: 'message_stop' });
        response.end();
      };
      if (model !== 'slow') return answer();
      const timer = setTimeout(() => {
        timers.delete(timer);
        answer();
      }, 2000);
      timers.add(timer);
    },
    () => {
      for (const timer of timers) clearTimeout(timer);
    },
  );
  return {
    url: server.origin,
    requests,
    get aborted() {
      return server.aborted;
    },
    close: () => server.close(),
  };
}
