/**
 * Upstreams that cache prompts, each in its vendor's dialect, on one loopback server. A prompt is a
 * sequence of blocks; a block costs as many tokens as its JSON has characters (the mock's
 * tokenizer), and what a call reads from the cache is the longest prefix an earlier call wrote.
 *
 * - Anthropic `POST /v1/messages`: explicit breakpoints only. The blocks are read in the order tools →
 *   system → messages; each block with `cache_control` writes the prefix up to it, and a later call
 *   whose prompt begins with a written prefix reads it (`cache_read_input_tokens`), writing the rest
 *   up to its last breakpoint (`cache_creation_input_tokens`, split by TTL in `cache_creation`);
 *   `input_tokens` is what is neither. A 400 in Anthropic's words for what the API refuses: more
 *   than 4 breakpoints, a `ttl: "1h"` one after a 5-minute one, `cache_control` on a `defer_loading`
 *   tool (Anthropic's prompt-caching documentation; the errors quoted in
 *   lib/providers/anthropic/cache-breakpoints.ts).
 * - OpenAI `POST /v1/chat/completions` and `POST /v1/responses`: automatic caching of every prefix of
 *   whole messages (input items), within one `prompt_cache_key` (OpenAI's prompt-caching guide:
 *   requests are routed by the key with the prefix), reported as `prompt_tokens_details.cached_tokens`
 *   (`input_tokens_details.cached_tokens`). For a model id starting `anthropic/` the chat endpoint
 *   speaks OpenRouter fronting Claude instead: explicit `cache_control` on content parts and tools
 *   only (a message's own marks its last block, as LiteLLM reads a tool message's; more than four are
 *   Claude's 400, relayed), writes as `prompt_tokens_details.cache_write_tokens`; `litellm/` speaks LiteLLM fronting Claude:
 *   writes as `prompt_tokens_details.cache_creation_tokens` and `usage.cache_creation_input_tokens`,
 *   reads also as `usage.cache_read_input_tokens` (BerriAI/litellm#11364). Both count the cache in
 *   `prompt_tokens`.
 * - Gemini `…:generateContent` / `…:streamGenerateContent?alt=sse`: implicit caching of every prefix
 *   of whole contents, and explicit caches by name (`cachedContent`, one known: {@link GEMINI_CACHE}),
 *   both in `usageMetadata.cachedContentTokenCount`, a part of `promptTokenCount`.
 */
import type http from 'node:http';
import { createHash } from 'node:crypto';
import { startMockServer } from './mock-server';

/** The answer every dialect gives, and its output token count. */
export const CACHED_ANSWER = 'From the cache.';
export const OUTPUT_TOKENS = 5;

/** The one explicit Gemini cache the mock knows, and its size in tokens. */
export const GEMINI_CACHE = { name: 'cachedContents/handbook', tokens: 3_000 } as const;

/** One request as the mock received it. */
export interface CacheRequest {
  path: string;
  body: Record<string, any>;
}

/** A started mock: where it listens, what it was sent, close(). */
export interface MockPromptCache {
  origin: string;
  readonly requests: CacheRequest[];
  close(): Promise<void>;
}

type Json = Record<string, any>;

const size = (value: unknown): number => JSON.stringify(value).length;
const digest = (value: unknown): string => createHash('sha256').update(JSON.stringify(value)).digest('hex');

/** A prompt block and whether it ends a breakpoint (with its TTL). */
interface Block {
  value: unknown;
  breakpoint?: '5m' | '1h';
}

function anthropicBlocks(body: Json): Block[] {
  const blocks: Block[] = [];
  const add = (value: Json) => {
    const cacheControl = value?.cache_control;
    const { cache_control: _marker, ...rest } = value ?? {};
    blocks.push({ value: rest, ...(cacheControl ? { breakpoint: cacheControl.ttl === '1h' ? '1h' : '5m' } : {}) });
  };
  for (const tool of body.tools ?? []) add(tool);
  const system = typeof body.system === 'string' ? [{ type: 'text', text: body.system }] : (body.system ?? []);
  for (const block of system) add(block);
  for (const message of body.messages ?? []) {
    const content =
      typeof message.content === 'string' ? [{ type: 'text', text: message.content }] : (message.content ?? []);
    blocks.push({ value: { role: message.role } });
    for (const block of content) {
      for (const inner of block.type === 'tool_result' && Array.isArray(block.content) ? block.content : [])
        if (inner.cache_control) add(inner);
      add(block);
    }
  }
  return blocks;
}

/** What the API refuses in a body's breakpoints, in its words; undefined when it takes them. */
function refusal(body: Json, blocks: Block[]): string | undefined {
  const count = blocks.filter((block) => block.breakpoint).length + (body.cache_control ? 1 : 0);
  if (count > 4) return `A maximum of 4 blocks with cache_control may be provided. Found ${count}.`;
  let short = false;
  for (const block of blocks) {
    if (block.breakpoint === '5m') short = true;
    if (block.breakpoint === '1h' && short)
      return "a ttl='1h' cache_control block must not come after a ttl='5m' cache_control block. Note that blocks are processed in the following order: `tools`, `system`, `messages`.";
  }
  const deferred = (body.tools ?? []).find((tool: Json) => tool.defer_loading === true && tool.cache_control);
  if (deferred)
    return `Tool '${deferred.name}' cannot have both defer_loading=true and cache_control set. Tools with defer_loading cannot use prompt caching.`;
  return undefined;
}

/**
 * Reads the longest prefix an earlier call wrote, ending at or before the last breakpoint (Anthropic
 * looks back from each breakpoint for a written prefix; the mock looks back without the API's limit of
 * 20 blocks), and writes the prefixes of the breakpoints beyond it.
 */
function explicitCache(cache: Set<string>, blocks: Block[]) {
  const total = blocks.reduce((sum, block) => sum + size(block.value), 0);
  const last = blocks.findLastIndex((block) => block.breakpoint);
  const keys = blocks.map((_block, index) => digest(blocks.slice(0, index + 1).map((block) => block.value)));
  let read = 0;
  let prefix = 0;
  for (let index = 0; index <= last; index++) {
    prefix += size(blocks[index]!.value);
    if (cache.has(keys[index]!)) read = prefix;
  }
  prefix = 0;
  let written5m = 0;
  let written1h = 0;
  let covered = read;
  for (let index = 0; index < blocks.length; index++) {
    prefix += size(blocks[index]!.value);
    const ttl = blocks[index]!.breakpoint;
    if (!ttl || prefix <= covered) continue;
    cache.add(keys[index]!);
    if (ttl === '1h') written1h += prefix - covered;
    else written5m += prefix - covered;
    covered = prefix;
  }
  return { total, read, written5m, written1h, uncached: total - read - written5m - written1h };
}

/** Automatic caching: the longest earlier prefix of whole items (within one key) is read; every prefix is kept. */
function automaticCache(cache: Set<string>, items: unknown[], key: unknown) {
  let read = 0;
  let prefix = 0;
  for (let index = 0; index < items.length; index++) {
    prefix += size(items[index]);
    const hash = digest([key ?? null, items.slice(0, index + 1)]);
    if (cache.has(hash)) read = prefix;
    else cache.add(hash);
  }
  return { total: prefix, read };
}

function send(response: http.ServerResponse, status: number, body: unknown): void {
  response.writeHead(status, { 'content-type': 'application/json' });
  response.end(JSON.stringify(body));
}

function sse(response: http.ServerResponse, events: Array<[string | undefined, unknown]>): void {
  response.writeHead(200, { 'content-type': 'text/event-stream' });
  for (const [name, data] of events)
    response.write(`${name ? `event: ${name}\n` : ''}data: ${JSON.stringify(data)}\n\n`);
  response.end();
}

function anthropic(cache: Set<string>, body: Json, response: http.ServerResponse): void {
  const blocks = anthropicBlocks(body);
  const refused = refusal(body, blocks);
  if (refused) {
    send(response, 400, { type: 'error', error: { type: 'invalid_request_error', message: refused } });
    return;
  }
  const figures = explicitCache(cache, blocks);
  const usage = {
    input_tokens: figures.uncached,
    cache_creation_input_tokens: figures.written5m + figures.written1h,
    cache_read_input_tokens: figures.read,
    cache_creation: { ephemeral_5m_input_tokens: figures.written5m, ephemeral_1h_input_tokens: figures.written1h },
    output_tokens: OUTPUT_TOKENS,
  };
  const message = {
    id: 'msg_cache_1',
    type: 'message',
    role: 'assistant',
    model: body.model,
    stop_reason: 'end_turn',
    stop_sequence: null,
  };
  if (!body.stream) {
    send(response, 200, { ...message, content: [{ type: 'text', text: CACHED_ANSWER }], usage });
    return;
  }
  sse(response, [
    [
      'message_start',
      {
        type: 'message_start',
        message: { ...message, content: [], stop_reason: null, usage: { ...usage, output_tokens: 1 } },
      },
    ],
    ['content_block_start', { type: 'content_block_start', index: 0, content_block: { type: 'text', text: '' } }],
    [
      'content_block_delta',
      { type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: CACHED_ANSWER } },
    ],
    ['content_block_stop', { type: 'content_block_stop', index: 0 }],
    [
      'message_delta',
      {
        type: 'message_delta',
        delta: { stop_reason: 'end_turn', stop_sequence: null },
        usage: { output_tokens: OUTPUT_TOKENS },
      },
    ],
    ['message_stop', { type: 'message_stop' }],
  ]);
}

/**
 * A chat body's prompt as blocks with OpenRouter's / LiteLLM's `cache_control` on parts and tools; a message's own
 * `cache_control` (LiteLLM puts a tool message's on its `tool_result`) marks the message's last block. Only these
 * markers cache: both relay to Claude, which caches explicitly.
 */
function chatBlocks(body: Json): Block[] {
  const blocks: Block[] = [];
  const ttl = (cacheControl: Json | undefined) =>
    cacheControl ? { breakpoint: (cacheControl.ttl === '1h' ? '1h' : '5m') as Block['breakpoint'] } : {};
  const add = (value: Json) => {
    const { cache_control: cacheControl, ...rest } = value;
    blocks.push({ value: rest, ...ttl(cacheControl) });
  };
  for (const tool of body.tools ?? []) add(tool);
  for (const message of body.messages ?? []) {
    const { content, tool_calls: calls, cache_control: cacheControl, ...head } = message;
    blocks.push({ value: head });
    if (typeof content === 'string') blocks.push({ value: { type: 'text', text: content } });
    else for (const part of content ?? []) add(part);
    if (calls) blocks.push({ value: calls });
    if (cacheControl) Object.assign(blocks.at(-1)!, ttl(cacheControl));
  }
  return blocks;
}

function chatUsage(caches: Caches, body: Json): Json {
  const model = String(body.model);
  if (model.startsWith('anthropic/') || model.startsWith('litellm/')) {
    if (!caches.router.has(model)) caches.router.set(model, new Set());
    const figures = explicitCache(caches.router.get(model)!, chatBlocks(body));
    const written = figures.written5m + figures.written1h;
    const usage: Json = {
      prompt_tokens: figures.total,
      completion_tokens: OUTPUT_TOKENS,
      total_tokens: figures.total + OUTPUT_TOKENS,
    };
    if (model.startsWith('anthropic/'))
      usage.prompt_tokens_details = { cached_tokens: figures.read, cache_write_tokens: written };
    else {
      usage.prompt_tokens_details = { cached_tokens: figures.read, cache_creation_tokens: written };
      usage.cache_creation_input_tokens = written;
      usage.cache_read_input_tokens = figures.read;
    }
    return usage;
  }
  const { total, read } = automaticCache(caches.openai, body.messages ?? [], body.prompt_cache_key);
  return {
    prompt_tokens: total,
    completion_tokens: OUTPUT_TOKENS,
    total_tokens: total + OUTPUT_TOKENS,
    prompt_tokens_details: { cached_tokens: read },
  };
}

function chat(caches: Caches, body: Json, response: http.ServerResponse): void {
  const model = String(body.model);
  if (model.startsWith('anthropic/') || model.startsWith('litellm/')) {
    const refused = refusal({}, chatBlocks(body));
    // Both relay Claude's 400 in the chat-completions error envelope.
    if (refused) {
      send(response, 400, { error: { message: refused, type: 'invalid_request_error', code: 400 } });
      return;
    }
  }
  const usage = chatUsage(caches, body);
  const head = { id: 'chatcmpl-cache', created: 1, model: body.model };
  if (!body.stream) {
    send(response, 200, {
      ...head,
      object: 'chat.completion',
      choices: [{ index: 0, message: { role: 'assistant', content: CACHED_ANSWER }, finish_reason: 'stop' }],
      usage,
    });
    return;
  }
  const chunk = (choices: unknown[], extra: Json = {}) => ({
    ...head,
    object: 'chat.completion.chunk',
    choices,
    ...extra,
  });
  sse(response, [
    [undefined, chunk([{ index: 0, delta: { role: 'assistant', content: CACHED_ANSWER }, finish_reason: null }])],
    [undefined, chunk([{ index: 0, delta: {}, finish_reason: 'stop' }])],
    [undefined, chunk([], { usage })],
  ]);
}

function responses(caches: Caches, body: Json, response: http.ServerResponse): void {
  const input = typeof body.input === 'string' ? [{ role: 'user', content: body.input }] : (body.input ?? []);
  const items = body.instructions ? [{ instructions: body.instructions }, ...input] : input;
  const { total, read } = automaticCache(caches.openai, items, body.prompt_cache_key);
  const answer = {
    id: 'resp_cache_1',
    object: 'response',
    created_at: 1,
    status: 'completed',
    model: body.model,
    output: [
      {
        type: 'message',
        id: 'msg_cache_1',
        status: 'completed',
        role: 'assistant',
        content: [{ type: 'output_text', text: CACHED_ANSWER, annotations: [] }],
      },
    ],
    usage: {
      input_tokens: total,
      input_tokens_details: { cached_tokens: read },
      output_tokens: OUTPUT_TOKENS,
      output_tokens_details: { reasoning_tokens: 0 },
      total_tokens: total + OUTPUT_TOKENS,
    },
  };
  if (!body.stream) {
    send(response, 200, answer);
    return;
  }
  sse(response, [['response.completed', { type: 'response.completed', sequence_number: 0, response: answer }]]);
}

function gemini(caches: Caches, body: Json, request: http.IncomingMessage, response: http.ServerResponse): void {
  const cachedContent = body.cachedContent ?? body.cached_content;
  if (cachedContent !== undefined && cachedContent !== GEMINI_CACHE.name) {
    send(response, 403, {
      error: { code: 403, message: `CachedContent not found (or permission denied)`, status: 'PERMISSION_DENIED' },
    });
    return;
  }
  const items = [body.systemInstruction ?? null, body.tools ?? null, ...(body.contents ?? [])];
  const implicit = automaticCache(caches.gemini, items, body.model);
  const explicit = cachedContent ? GEMINI_CACHE.tokens : 0;
  const usageMetadata = {
    promptTokenCount: implicit.total + explicit,
    candidatesTokenCount: OUTPUT_TOKENS,
    totalTokenCount: implicit.total + explicit + OUTPUT_TOKENS,
    ...(implicit.read + explicit > 0 ? { cachedContentTokenCount: implicit.read + explicit } : {}),
  };
  const answer = {
    candidates: [{ content: { role: 'model', parts: [{ text: CACHED_ANSWER }] }, finishReason: 'STOP', index: 0 }],
    usageMetadata,
    modelVersion: 'gemini-cache',
    responseId: 'gemini-cache-1',
  };
  if (request.url?.includes(':streamGenerateContent')) sse(response, [[undefined, answer]]);
  else send(response, 200, answer);
}

interface Caches {
  anthropic: Set<string>;
  /** Per model: each is its own Claude deployment. */
  router: Map<string, Set<string>>;
  openai: Set<string>;
  gemini: Set<string>;
}

/** Starts the mock; every dialect's cache starts empty. */
export async function startMockPromptCache(): Promise<MockPromptCache> {
  const requests: CacheRequest[] = [];
  const caches: Caches = { anthropic: new Set(), router: new Map(), openai: new Set(), gemini: new Set() };
  const server = await startMockServer((body, request, response) => {
    const path = request.url ?? '';
    requests.push({ path, body });
    if (path.startsWith('/v1/messages')) anthropic(caches.anthropic, body, response);
    else if (path.startsWith('/v1/chat/completions')) chat(caches, body, response);
    else if (path.startsWith('/v1/responses')) responses(caches, body, response);
    else if (path.includes('GenerateContent') || path.includes('generateContent'))
      gemini(caches, { ...body, model: path.split(':')[0] }, request, response);
    else send(response, 404, { error: { message: `no route ${path}` } });
  });
  return { origin: server.origin, requests, close: () => server.close() };
}
