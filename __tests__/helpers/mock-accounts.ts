/**
 * A mock OpenAI-compatible upstream on 127.0.0.1 serving several accounts, told apart by their Bearer key: each
 * account's calls are counted, and each can be told to answer with an error (a 500, a 429 with `Retry-After`, a 401)
 * or to cut its streams after the first chunk, until told otherwise. Chat completions, streamed and not.
 */
import { startMockServer } from './mock-server';

/**
 * How an account answers: normally, with this status (and `Retry-After` seconds, for a 429), or (`break`) a stream
 * that is cut after its first chunk (a non-streamed call is answered normally).
 */
export type AccountMode = 'ok' | 'break' | { status: number; retryAfter?: number };

export interface MockAccounts {
  /** The base URL for an `OpenAIProvider` (with `/v1`). */
  url: string;
  /** Calls each key received (answered or not). */
  calls: Map<string, number>;
  /** The prompt texts each key received, in order. */
  prompts: Map<string, string[]>;
  /** Makes an account answer `mode` from now on. */
  setMode(key: string, mode: AccountMode): void;
  reset(): void;
  close(): Promise<void>;
}

export async function startMockAccounts(): Promise<MockAccounts> {
  const calls = new Map<string, number>();
  const prompts = new Map<string, string[]>();
  const modes = new Map<string, AccountMode>();
  const server = await startMockServer((body, request, response) => {
    const key = (request.headers.authorization ?? '').replace(/^Bearer /, '');
    calls.set(key, (calls.get(key) ?? 0) + 1);
    const messages = (body.messages as Array<{ role: string; content: unknown }>) ?? [];
    const last = [...messages].reverse().find((message) => message.role === 'user');
    const text = typeof last?.content === 'string' ? last.content : JSON.stringify(last?.content ?? '');
    if (!prompts.has(key)) prompts.set(key, []);
    prompts.get(key)!.push(text);
    const mode = modes.get(key) ?? 'ok';
    if (mode !== 'ok' && mode !== 'break') {
      const headers: Record<string, string> = { 'content-type': 'application/json' };
      if (mode.retryAfter !== undefined) headers['retry-after'] = String(mode.retryAfter);
      response.writeHead(mode.status, headers);
      response.end(JSON.stringify({ error: { message: `mock account failure ${mode.status}`, type: 'server_error' } }));
      return;
    }
    const model = String(body.model);
    const answer = `served by ${model}`;
    const usage = { prompt_tokens: 10, completion_tokens: 3, total_tokens: 13 };
    if (body.stream) {
      response.writeHead(200, { 'content-type': 'text/event-stream' });
      const head = { id: 'chatcmpl-acc', object: 'chat.completion.chunk', created: 1700000000, model };
      const chunk = (choices: unknown[], extra: Record<string, unknown> = {}) =>
        response.write(`data: ${JSON.stringify({ ...head, choices, ...extra })}\n\n`);
      chunk([{ index: 0, delta: { role: 'assistant', content: answer }, finish_reason: null }]);
      if (mode === 'break') {
        setTimeout(() => response.socket?.destroy(), 10);
        return;
      }
      chunk([{ index: 0, delta: {}, finish_reason: 'stop' }]);
      chunk([], { usage });
      response.end('data: [DONE]\n\n');
      return;
    }
    response.writeHead(200, { 'content-type': 'application/json' });
    response.end(
      JSON.stringify({
        id: 'chatcmpl-acc',
        object: 'chat.completion',
        created: 1700000000,
        model,
        choices: [{ index: 0, message: { role: 'assistant', content: answer }, finish_reason: 'stop' }],
        usage,
      }),
    );
  });
  return {
    url: `${server.origin}/v1`,
    calls,
    prompts,
    setMode: (key, mode) => modes.set(key, mode),
    reset: () => {
      calls.clear();
      prompts.clear();
      modes.clear();
    },
    close: () => server.close(),
  };
}

/** A deterministic generator in [0, 1) (mulberry32), for draws a test must repeat exactly. */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
