/**
 * A mock Anthropic Messages API on 127.0.0.1 that checks a conversation as Anthropic does before it answers,
 * refusing with Anthropic's 400 (`{"type": "error", "error": {"type": "invalid_request_error", "message": …}}`) and
 * the messages Anthropic writes (quoted in litellm #16711, new-api #1854 and the projects that match on them):
 * - "messages.N.content.M: text content blocks must be non-empty" — an empty text block (in a turn or a
 *   `tool_result`), and "…: text content blocks must contain non-whitespace text" for one of only whitespace;
 * - "messages.N.content.M: each tool_use must have a single result. Found multiple `tool_result` blocks with id: ID";
 * - "messages.N.content.M: unexpected `tool_use_id` found in `tool_result` blocks: ID. Each `tool_result` block must
 *   have a corresponding `tool_use` block in the previous message.";
 * - "messages.N: `tool_use` ids were found without `tool_result` blocks immediately after: ID. Each `tool_use` block
 *   must have a corresponding `tool_result` block in the next message.";
 * - "messages: text content blocks must be non-empty" for a turn whose string content is empty.
 * A conversation it takes gets a short text answer (streamed when asked).
 */
import { startMockServer } from './mock-server';

type Json = Record<string, unknown>;
type Block = { type: string } & Json;

export interface MockAnthropicStrict {
  /** The base URL, for `AnthropicProvider.baseUrl`. */
  url: string;
  /** The bodies it was sent, in order. */
  bodies: Json[];
  close(): Promise<void>;
}

function blocks(content: unknown): Block[] {
  return Array.isArray(content) ? (content as Block[]) : [];
}

/** The first text problem of a list of blocks at `at`, or undefined. */
function textProblem(list: Block[], at: string): string | undefined {
  for (const [index, block] of list.entries()) {
    if (block.type === 'text' && typeof block.text === 'string') {
      if (block.text === '') return `${at}.content.${index}: text content blocks must be non-empty`;
      if (block.text.trim() === '')
        return `${at}.content.${index}: text content blocks must contain non-whitespace text`;
    }
    if (block.type === 'tool_result') {
      const inner = textProblem(blocks(block.content), `${at}.content.${index}`);
      if (inner) return inner;
    }
  }
  return undefined;
}

/** The first thing Anthropic would refuse in `messages`, as its message, or undefined. */
export function conversationProblem(messages: Json[]): string | undefined {
  for (const [n, message] of messages.entries()) {
    if (message.content === '') return 'messages: text content blocks must be non-empty';
    const list = blocks(message.content);
    const text = textProblem(list, `messages.${n}`);
    if (text) return text;
    const previous = messages[n - 1];
    const calls = previous?.role === 'assistant' ? blocks(previous.content).filter((b) => b.type === 'tool_use') : [];
    const ids = new Set(calls.map((call) => String(call.id)));
    const seen = new Set<string>();
    for (const [m, block] of list.entries()) {
      if (block.type !== 'tool_result') continue;
      const id = String(block.tool_use_id);
      if (!ids.has(id))
        return `messages.${n}.content.${m}: unexpected \`tool_use_id\` found in \`tool_result\` blocks: ${id}. Each \`tool_result\` block must have a corresponding \`tool_use\` block in the previous message.`;
      if (seen.has(id))
        return `messages.${n}.content.${m}: each tool_use must have a single result. Found multiple \`tool_result\` blocks with id: ${id}`;
      seen.add(id);
    }
    if (message.role === 'user') {
      const missing = [...ids].filter((id) => !seen.has(id));
      if (missing.length > 0)
        return `messages.${n - 1}: \`tool_use\` ids were found without \`tool_result\` blocks immediately after: ${missing.join(', ')}. Each \`tool_use\` block must have a corresponding \`tool_result\` block in the next message.`;
    }
  }
  return undefined;
}

export async function startMockAnthropicStrict(): Promise<MockAnthropicStrict> {
  const bodies: Json[] = [];
  const server = await startMockServer((body, _request, response) => {
    bodies.push(body);
    const problem = conversationProblem(Array.isArray(body.messages) ? (body.messages as Json[]) : []);
    if (problem) {
      response.writeHead(400, { 'content-type': 'application/json', 'request-id': 'req_strict' });
      response.end(JSON.stringify({ type: 'error', error: { type: 'invalid_request_error', message: problem } }));
      return;
    }
    const usage = { input_tokens: 20, output_tokens: 2 };
    const message = {
      id: 'msg_strict',
      type: 'message',
      role: 'assistant',
      model: String(body.model),
      content: [{ type: 'text', text: 'history accepted' }],
      stop_reason: 'end_turn',
      stop_sequence: null,
      usage,
    };
    if (!body.stream) {
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end(JSON.stringify(message));
      return;
    }
    response.writeHead(200, { 'content-type': 'text/event-stream' });
    const event = (type: string, data: Json) =>
      response.write(`event: ${type}\ndata: ${JSON.stringify({ type, ...data })}\n\n`);
    event('message_start', {
      message: { ...message, content: [], stop_reason: null, usage: { ...usage, output_tokens: 0 } },
    });
    event('content_block_start', { index: 0, content_block: { type: 'text', text: '' } });
    event('content_block_delta', { index: 0, delta: { type: 'text_delta', text: 'history accepted' } });
    event('content_block_stop', { index: 0 });
    event('message_delta', { delta: { stop_reason: 'end_turn', stop_sequence: null }, usage: { output_tokens: 2 } });
    event('message_stop', {});
    response.end();
  });
  return { url: server.origin, bodies, close: () => server.close() };
}
