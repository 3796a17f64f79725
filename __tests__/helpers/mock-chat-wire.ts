/**
 * What the OpenAI-compatible mock dialects share: a chat-completions answer written whole or as server-sent chunks, and
 * the script of a two-turn tool loop (a call of `get_weather`, then, once its result is back, the answer).
 */
import type http from 'node:http';
import { startMockServer } from './mock-server';

/** What a mock dialect saw of one request. */
export interface SeenRequest {
  url: string;
  body: Record<string, any>;
}

/** A started mock dialect: its base URL for `OpenAIProvider`, what it was asked, and close(). */
export interface MockDialect {
  url: string;
  requests: SeenRequest[];
  close(): Promise<void>;
}

export type ChatMessage = Record<string, any>;

/** The tool the script calls, and what the answer says once the result is back. */
export const WEATHER_TOOL = 'get_weather';
export const WEATHER_ARGUMENTS = '{"city":"Oslo"}';
export const WEATHER_ANSWER = 'It is 3°C in Oslo.';

/** Whether a `tool` message follows the conversation's last user message (the result of the script's call is back). */
export function toolResultIsBack(body: Record<string, any>): boolean {
  const messages: ChatMessage[] = body.messages ?? [];
  const lastUser = messages.map((message) => message.role).lastIndexOf('user');
  return messages.slice(lastUser + 1).some((message) => message.role === 'tool');
}

/** The assistant messages after the last user message (the current turn's steps), with their indexes. */
export function currentTurnAssistants(body: Record<string, any>): Array<{ index: number; message: ChatMessage }> {
  const messages: ChatMessage[] = body.messages ?? [];
  const lastUser = messages.map((message) => message.role).lastIndexOf('user');
  return messages.flatMap((message, index) =>
    index > lastUser && message.role === 'assistant' ? [{ index, message }] : [],
  );
}

/** An answer as the mock gives it: the whole message, and the same as the stream deltas that make it. */
export interface ScriptedAnswer {
  model: string;
  message: ChatMessage;
  deltas: ChatMessage[];
}

const USAGE = {
  prompt_tokens: 20,
  completion_tokens: 12,
  total_tokens: 32,
  completion_tokens_details: { reasoning_tokens: 5 },
};

/** Writes the answer whole or, for `stream: true`, as chunks, the finish, the usage chunk and `[DONE]`. */
export function sendAnswer(body: Record<string, any>, response: http.ServerResponse, answer: ScriptedAnswer): void {
  const finish = answer.message.tool_calls ? 'tool_calls' : 'stop';
  const head = { id: 'chatcmpl-dialect', created: 1700000000, model: answer.model };
  if (!body.stream) {
    response.writeHead(200, { 'content-type': 'application/json' });
    response.end(
      JSON.stringify({
        ...head,
        object: 'chat.completion',
        choices: [{ index: 0, message: answer.message, finish_reason: finish }],
        usage: USAGE,
      }),
    );
    return;
  }
  response.writeHead(200, { 'content-type': 'text/event-stream' });
  const chunk = (choices: unknown[], extra: Record<string, unknown> = {}) =>
    response.write(`data: ${JSON.stringify({ ...head, object: 'chat.completion.chunk', choices, ...extra })}\n\n`);
  chunk([{ index: 0, delta: { role: 'assistant', content: '' }, finish_reason: null }]);
  for (const delta of answer.deltas) chunk([{ index: 0, delta, finish_reason: null }]);
  chunk([{ index: 0, delta: {}, finish_reason: finish }]);
  chunk([], { usage: USAGE });
  response.end('data: [DONE]\n\n');
}

/** The plain-text fields a compatible server answers its reasoning in. */
export type ReasoningField = 'reasoning_content' | 'reasoning';

/** The script's answer once the call's result is back, after its reasoning in `field` when given. */
export function sendWeatherAnswer(
  body: Record<string, any>,
  response: http.ServerResponse,
  thought?: string,
  field: ReasoningField = 'reasoning_content',
): void {
  const reasoning = thought === undefined ? {} : { [field]: thought };
  sendAnswer(body, response, {
    model: String(body.model),
    message: { role: 'assistant', ...reasoning, content: WEATHER_ANSWER },
    deltas: [...(thought === undefined ? [] : [reasoning]), { content: WEATHER_ANSWER }],
  });
}

/**
 * The script's next step in the `reasoning_content` dialect (DeepSeek, Kimi, Qwen; or `field`): once the call's result
 * is back, the answer; before, a call of `get_weather` (`callId`) whose arguments stream in `argumentPieces` (the first
 * beside the call's id and name). With `thoughts`, each step starts with its reasoning (the call's in the deltas given).
 */
export function sendWeatherStep(
  body: Record<string, any>,
  response: http.ServerResponse,
  step: {
    callId: string;
    argumentPieces: string[];
    thoughts?: { call: string[]; answer: string };
    field?: ReasoningField;
  },
): void {
  const model = String(body.model);
  const { thoughts } = step;
  const field = step.field ?? 'reasoning_content';
  if (toolResultIsBack(body)) {
    sendWeatherAnswer(body, response, thoughts?.answer, field);
    return;
  }
  const call = { index: 0, id: step.callId, type: 'function', function: { name: WEATHER_TOOL } };
  const [first = '', ...rest] = step.argumentPieces;
  sendAnswer(body, response, {
    model,
    message: {
      role: 'assistant',
      content: '',
      ...(thoughts ? { [field]: thoughts.call.join('') } : {}),
      tool_calls: [{ ...call, function: { ...call.function, arguments: step.argumentPieces.join('') } }],
    },
    deltas: [
      ...(thoughts?.call.map((piece) => ({ [field]: piece })) ?? []),
      { tool_calls: [{ ...call, function: { ...call.function, arguments: first } }] },
      ...rest.map((piece) => ({ tool_calls: [{ index: 0, function: { arguments: piece } }] })),
    ],
  });
}

/** Sends an error status with a JSON body in the vendor's own shape. */
export function sendError(response: http.ServerResponse, status: number, body: unknown): void {
  response.writeHead(status, { 'content-type': 'application/json' });
  response.end(JSON.stringify(body));
}

/**
 * Starts a dialect: `handle` answers `POST …/chat/completions` (each request recorded first); anything else is a 404.
 */
export async function startDialect(
  handle: (body: Record<string, any>, response: http.ServerResponse) => void,
): Promise<MockDialect> {
  const requests: SeenRequest[] = [];
  const server = await startMockServer((body, request, response) => {
    requests.push({ url: request.url ?? '', body });
    if (request.method !== 'POST' || !request.url?.endsWith('/chat/completions')) {
      sendError(response, 404, { error: { message: 'not found' } });
      return;
    }
    handle(body, response);
  });
  return { url: `${server.origin}/v1`, requests, close: () => server.close() };
}
