/**
 * A mock upstream that replays scripted streams, event for event, in each protocol's own SSE framing: the quirky chunk
 * shapes real servers send (OpenAI-compatible servers, Responses servers, Anthropic-compatible servers, Gemini).
 */
import { startMockServer } from './mock-server';

/** One event of a script: a JSON object (sent as one `data:` line), or a raw data line (`[DONE]`). */
export type ScriptEvent = Record<string, unknown> | string;

/** Scripts by upstream model id; which framing a script gets depends on the path it is asked on. */
export type StreamScripts = Record<string, readonly ScriptEvent[]>;

/** What the mock saw of one request. */
export interface QuirkRequest {
  url: string;
  model: string;
  body: Record<string, unknown>;
}

export interface MockStreamQuirks {
  /** The origin (`http://127.0.0.1:<port>`): chat and Responses under `/v1`, Anthropic at the root, Gemini under `/v1beta`. */
  origin: string;
  requests: QuirkRequest[];
  close(): Promise<void>;
}

/**
 * How each upstream frames an event. Chat completions: `data: <json>` only (OpenAI's stream has no `event:` lines;
 * `[DONE]` as a data line). Responses and Anthropic Messages: `event: <type>` then `data: <json>`, the event name equal
 * to the payload's `type` (both APIs document named events). Gemini `alt=sse`: `data: <json>` with CRLF line ends,
 * as Google's servers send them.
 */
type Framing = 'chat' | 'named' | 'gemini';

function frame(event: ScriptEvent, framing: Framing): string {
  const data = typeof event === 'string' ? event : JSON.stringify(event);
  if (framing === 'gemini') return `data: ${data}\r\n\r\n`;
  if (framing === 'named' && typeof event !== 'string' && typeof event.type === 'string')
    return `event: ${event.type}\ndata: ${data}\n\n`;
  return `data: ${data}\n\n`;
}

/** The framing and the model id of a streamed request, or undefined for a path the mock does not serve. */
function route(url: string, body: Record<string, unknown>): { framing: Framing; model: string } | undefined {
  const gemini = /\/models\/([^/:]+):streamGenerateContent\?alt=sse$/.exec(url);
  if (gemini) return { framing: 'gemini', model: decodeURIComponent(gemini[1]!) };
  if (body.stream !== true) return undefined;
  const model = String(body.model);
  if (url === '/v1/chat/completions') return { framing: 'chat', model };
  if (url === '/v1/responses' || url === '/v1/messages') return { framing: 'named', model };
  return undefined;
}

/**
 * Starts the mock: a streamed request for a model with a script gets a 200 `text/event-stream` whose events are the
 * script's, each written on its own; anything else is a 404 with an OpenAI-shaped error body.
 */
export async function startMockStreamQuirks(scripts: StreamScripts): Promise<MockStreamQuirks> {
  const requests: QuirkRequest[] = [];
  const server = await startMockServer((body, request, response) => {
    const url = request.url ?? '';
    const target = route(url, body);
    const script = target && scripts[target.model];
    if (!target || !script) {
      response.writeHead(404, { 'content-type': 'application/json' });
      response.end(JSON.stringify({ error: { message: `no script for ${url}`, type: 'not_found' } }));
      return;
    }
    requests.push({ url, model: target.model, body });
    response.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
    for (const event of script) response.write(frame(event, target.framing));
    response.end();
  });
  return { origin: server.origin, requests, close: () => server.close() };
}
