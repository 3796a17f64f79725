/**
 * A scripted tool loop on every upstream protocol (chat completions, Responses, Anthropic messages, Gemini), answered
 * whole or streamed as the request asks: while the conversation it receives holds fewer than `steps` tool results, it
 * calls the tool `add` with `{ step: results + 1 }`; then it answers `done: ` and every tool result's text it saw, in
 * order. So a client's final answer proves the upstream received the whole conversation. Each request is recorded
 * with what the mock read from it (system text, tool names, tool results), and the input tokens it reports grow with
 * the conversation (`inputTokensFor`), so a caller's usage shows whether the full prompt was sent.
 *
 * A {@link LoopScript} makes the same loop call a real client's own tool: another tool name, arguments read from the
 * request, another closing text, and plain text for a request that does not offer the tool (a client's title or
 * summary request).
 */
import type { ServerResponse } from 'node:http';
import { startMockServer, type MockServer } from './mock-server';

export type LoopProtocol = 'chat' | 'responses' | 'anthropic' | 'gemini';

/** What the mock read from one request. */
export interface LoopRequest {
  protocol: LoopProtocol;
  stream: boolean;
  /** Everything the request said as system text (JSON of the protocol's system fields). */
  system: string;
  toolNames: string[];
  /** The tool results' contents, as JSON text, in order. */
  results: string[];
  body: Record<string, any>;
}

export interface MockToolLoop extends MockServer {
  requests: LoopRequest[];
}

/** What the script calls, and how it closes; every field defaults to the `add` loop's. */
export interface LoopScript {
  /** The tool called (default `add`). */
  tool?: string;
  /** The call's arguments for a request, `step` counting from 1 (default `{ step }`). */
  args?: (request: LoopRequest, step: number) => Record<string, unknown>;
  /** The closing text (default `done: ` and the tool results' `rN-tag`s). */
  text?: (request: LoopRequest) => string;
  /** Whether a request that does not offer `tool` is answered with the closing text rather than a call (default false). */
  textUnlessOffered?: boolean;
}

/** The input tokens the mock reports for a request holding `results` tool results. */
export function inputTokensFor(results: number): number {
  return 100 + 10 * results;
}

function protocolOf(url: string): LoopProtocol {
  if (url.includes('/chat/completions')) return 'chat';
  if (url.includes('/responses')) return 'responses';
  if (url.includes('/messages')) return 'anthropic';
  return 'gemini';
}

const json = (value: unknown) => JSON.stringify(value ?? null);

function read(protocol: LoopProtocol, body: Record<string, any>, url: string): LoopRequest {
  const stream = protocol === 'gemini' ? url.includes(':streamGenerateContent') : body.stream === true;
  let system = '';
  let toolNames: string[] = [];
  let results: string[] = [];
  if (protocol === 'chat') {
    const messages: any[] = body.messages ?? [];
    system = json(messages.filter((m) => m.role === 'system' || m.role === 'developer'));
    toolNames = (body.tools ?? []).map((tool: any) => tool.function?.name);
    results = messages.filter((m) => m.role === 'tool').map((m) => json(m.content));
  } else if (protocol === 'responses') {
    const input: any[] = Array.isArray(body.input) ? body.input : [];
    system = json([body.instructions, input.filter((i) => i.role === 'system' || i.role === 'developer')]);
    toolNames = (body.tools ?? []).map((tool: any) => tool.name);
    results = input.filter((i) => i.type === 'function_call_output').map((i) => json(i.output));
  } else if (protocol === 'anthropic') {
    system = json(body.system);
    toolNames = (body.tools ?? []).map((tool: any) => tool.name);
    for (const message of body.messages ?? [])
      if (Array.isArray(message.content))
        for (const block of message.content) if (block.type === 'tool_result') results.push(json(block.content));
  } else {
    system = json(body.systemInstruction);
    toolNames = (body.tools ?? []).flatMap((tool: any) => (tool.functionDeclarations ?? []).map((f: any) => f.name));
    for (const content of body.contents ?? [])
      for (const part of content.parts ?? []) if (part.functionResponse) results.push(json(part.functionResponse));
  }
  return { protocol, stream, system, toolNames, results, body };
}

/** One move of the script: a tool call, or the closing text. */
interface Move {
  call?: { name: string; args: Record<string, unknown>; id: string };
  text?: string;
}

function doneText(request: LoopRequest): string {
  const seen = request.results.map((result) => /r\d+-[a-z0-9]+/.exec(result)?.[0] ?? '?');
  return `done: ${seen.join(' ')}`;
}

/** The script's next move for a request: a call of its tool, or the closing text. */
function nextMove(request: LoopRequest, steps: number, script: LoopScript): Move {
  const tool = script.tool ?? 'add';
  const text = script.text ?? doneText;
  const done = request.results.length;
  const offered = !script.textUnlessOffered || request.toolNames.includes(tool);
  if (done >= steps || !offered) return { text: text(request) };
  const step = done + 1;
  const args = script.args ? script.args(request, step) : { step };
  return { call: { name: tool, args, id: `call_loop_${step}_${Date.now().toString(36)}` } };
}

function sse(response: ServerResponse, events: Array<{ event?: string; data: unknown }>, done = false): void {
  response.writeHead(200, { 'content-type': 'text/event-stream' });
  for (const { event, data } of events)
    response.write(`${event ? `event: ${event}\n` : ''}data: ${JSON.stringify(data)}\n\n`);
  if (done) response.write('data: [DONE]\n\n');
  response.end();
}

function whole(response: ServerResponse, body: unknown): void {
  response.writeHead(200, { 'content-type': 'application/json' });
  response.end(JSON.stringify(body));
}

function answerChat(request: LoopRequest, move: Move, response: ServerResponse): void {
  const usage = { prompt_tokens: inputTokensFor(request.results.length), completion_tokens: 5, total_tokens: 0 };
  const call = move.call && {
    id: move.call.id,
    type: 'function',
    function: { name: move.call.name, arguments: JSON.stringify(move.call.args) },
  };
  const finish = call ? 'tool_calls' : 'stop';
  const head = { id: 'chatcmpl-loop', object: 'chat.completion', created: 1, model: 'loop' };
  if (!request.stream) {
    const message = call
      ? { role: 'assistant', content: null, tool_calls: [call] }
      : { role: 'assistant', content: move.text };
    whole(response, { ...head, choices: [{ index: 0, message, finish_reason: finish }], usage });
    return;
  }
  const chunk = (delta: unknown, finish_reason: string | null = null) => ({
    data: { ...head, object: 'chat.completion.chunk', choices: [{ index: 0, delta, finish_reason }] },
  });
  const delta = call
    ? { role: 'assistant', tool_calls: [{ index: 0, ...call }] }
    : { role: 'assistant', content: move.text };
  sse(
    response,
    [chunk(delta), chunk({}, finish), { data: { ...head, object: 'chat.completion.chunk', choices: [], usage } }],
    true,
  );
}

function answerResponses(request: LoopRequest, move: Move, response: ServerResponse): void {
  const usage = { input_tokens: inputTokensFor(request.results.length), output_tokens: 5, total_tokens: 0 };
  const item = move.call
    ? {
        type: 'function_call',
        id: `fc_${move.call.id}`,
        call_id: move.call.id,
        name: move.call.name,
        arguments: JSON.stringify(move.call.args),
        status: 'completed',
      }
    : {
        type: 'message',
        id: 'msg_loop',
        role: 'assistant',
        status: 'completed',
        content: [{ type: 'output_text', text: move.text, annotations: [] }],
      };
  const done = {
    id: 'resp_loop',
    object: 'response',
    created_at: 1,
    status: 'completed',
    model: 'loop',
    output: [item],
    usage,
  };
  if (!request.stream) {
    whole(response, done);
    return;
  }
  const started = { ...done, status: 'in_progress', output: [], usage: null };
  const events: Array<{ event?: string; data: unknown }> = [
    { event: 'response.created', data: { type: 'response.created', response: started } },
    { event: 'response.output_item.added', data: { type: 'response.output_item.added', output_index: 0, item } },
  ];
  if (move.text !== undefined)
    events.push({
      event: 'response.output_text.delta',
      data: {
        type: 'response.output_text.delta',
        output_index: 0,
        content_index: 0,
        item_id: 'msg_loop',
        delta: move.text,
      },
    });
  events.push(
    { event: 'response.output_item.done', data: { type: 'response.output_item.done', output_index: 0, item } },
    { event: 'response.completed', data: { type: 'response.completed', response: done } },
  );
  sse(response, events);
}

function answerAnthropic(request: LoopRequest, move: Move, response: ServerResponse): void {
  const usage = { input_tokens: inputTokensFor(request.results.length), output_tokens: 5 };
  const block = move.call
    ? { type: 'tool_use', id: `toolu_${move.call.id}`, name: move.call.name, input: move.call.args }
    : { type: 'text', text: move.text };
  const stop = move.call ? 'tool_use' : 'end_turn';
  const message = { id: 'msg_upstream_loop', type: 'message', role: 'assistant', model: 'loop', stop_sequence: null };
  if (!request.stream) {
    whole(response, { ...message, content: [block], stop_reason: stop, usage });
    return;
  }
  const started = move.call ? { ...block, input: {} } : { type: 'text', text: '' };
  const delta = move.call
    ? { type: 'input_json_delta', partial_json: JSON.stringify(move.call.args) }
    : { type: 'text_delta', text: move.text };
  sse(response, [
    {
      event: 'message_start',
      data: { type: 'message_start', message: { ...message, content: [], stop_reason: null, usage } },
    },
    { event: 'content_block_start', data: { type: 'content_block_start', index: 0, content_block: started } },
    { event: 'content_block_delta', data: { type: 'content_block_delta', index: 0, delta } },
    { event: 'content_block_stop', data: { type: 'content_block_stop', index: 0 } },
    {
      event: 'message_delta',
      data: { type: 'message_delta', delta: { stop_reason: stop, stop_sequence: null }, usage: { output_tokens: 5 } },
    },
    { event: 'message_stop', data: { type: 'message_stop' } },
  ]);
}

function answerGemini(request: LoopRequest, move: Move, response: ServerResponse): void {
  const part = move.call ? { functionCall: { name: move.call.name, args: move.call.args } } : { text: move.text };
  const body = {
    candidates: [{ content: { role: 'model', parts: [part] }, finishReason: 'STOP', index: 0 }],
    usageMetadata: {
      promptTokenCount: inputTokensFor(request.results.length),
      candidatesTokenCount: 5,
      totalTokenCount: inputTokensFor(request.results.length) + 5,
    },
    modelVersion: 'loop',
  };
  if (request.stream) sse(response, [{ data: body }]);
  else whole(response, body);
}

const ANSWER = { chat: answerChat, responses: answerResponses, anthropic: answerAnthropic, gemini: answerGemini };

/** Starts the mock; the script runs `steps` tool calls before its closing text. */
export async function startMockToolLoop(steps: number, script: LoopScript = {}): Promise<MockToolLoop> {
  const requests: LoopRequest[] = [];
  const server = await startMockServer((body, request, response) => {
    const url = request.url ?? '';
    const protocol = protocolOf(url);
    const read_ = read(protocol, (body ?? {}) as Record<string, any>, url);
    requests.push(read_);
    ANSWER[protocol](read_, nextMove(read_, steps, script), response);
  });
  return Object.assign(server, { requests });
}
