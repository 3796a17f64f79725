/**
 * The real Claude Code CLI (`claude -p`) searching the web through the gateway to an Anthropic upstream, offline.
 * Claude Code's `WebSearch` tool does not search itself: it sends its own streamed messages request, with the server
 * tool `web_search_20250305` alone, forced by `tool_choice: {type: "tool", name: "web_search"}` (which the gateway must
 * pass on, not refuse), and reads the answer's `server_tool_use`, `web_search_tool_result` (each result's title and url)
 * and text blocks into the tool result it gives the model ("Web search results for query: …\n\nLinks: [{title, url}]
 * …"). So the search reaches the model only if the gateway relays those blocks from the upstream to Claude Code.
 *
 * The scripted upstream: (1) the main turn calls `WebSearch`; (2) the search request is answered with the search, a
 * result whose title and url hold a random token, and a text citing it (the text itself does not hold the token);
 * (3) the next main turn, carrying WebSearch's `tool_result`, is answered with the token only if that result holds
 * it. Claude Code must print the token. Tool search is turned off (`ENABLE_TOOL_SEARCH=false`) so that `WebSearch`
 * is offered at once rather than deferred. Claude Code is not a project dependency: `scripts/install-clients.sh`
 * installs it into `.tmp/clients` (CI sets REQUIRE_CLIENTS=1); `CLAUDE_CODE_BIN` points at another copy. Without it
 * this file prints one line and skips.
 */
import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Request, Response } from 'express';
import { AnthropicProvider, MemoryKeyStore } from '../../lib';
import { listen, serveGateway, TEST_KEY, type RunningGateway, type RunningServer } from '../helpers/app';
import { claudeCodeRuns, expectCleanExit, requireClaudeCode, runClaudeCode } from '../helpers/cli-client';

const runs = claudeCodeRuns('claude-code-web-search.test.ts');

/** A model id Claude Code knows: with one it does not, its search request leaves `tool_choice` at `auto`. */
const MODEL = 'claude-sonnet-4-6';
const QUERY = 'rosetta gateway search token';
const WEB_SEARCH_CALL = 'toolu_01WebSearchCall';
const SERVER_CALL = 'srvtoolu_01Search';

type Json = Record<string, any>;
type Block = Json;

/** Whether a request offers the server tool `web_search_20250305` (WebSearch's own request). */
function offersServerSearch(body: Json): boolean {
  return (body.tools ?? []).some((tool: Json) => tool.type === 'web_search_20250305');
}

/** Whether a request offers Claude Code's `WebSearch` tool (a main turn). */
function offersWebSearch(body: Json): boolean {
  return (body.tools ?? []).some((tool: Json) => tool.name === 'WebSearch');
}

/** The `tool_result` blocks of a request's last user message. */
function toolResults(body: Json): Block[] {
  const last = (body.messages ?? []).at(-1);
  if (last?.role !== 'user' || !Array.isArray(last.content)) return [];
  return last.content.filter((block: Block) => block.type === 'tool_result');
}

/** A block's text: a string, or the text of its parts. */
function textOf(content: unknown): string {
  if (typeof content === 'string') return content;
  if (Array.isArray(content)) return content.map((part: Json) => part.text ?? JSON.stringify(part)).join('');
  return '';
}

/** Streams an answer of `blocks` as the API does: each block's start, its deltas and its stop. */
function streamAnswer(
  response: Response,
  model: string,
  blocks: Array<{ start: Block; deltas: Json[] }>,
  stop: string,
) {
  response.setHeader('content-type', 'text/event-stream');
  const send = (event: Json) => response.write(`event: ${event.type}\ndata: ${JSON.stringify(event)}\n\n`);
  send({
    type: 'message_start',
    message: {
      id: `msg_${randomBytes(6).toString('hex')}`,
      type: 'message',
      role: 'assistant',
      model,
      content: [],
      stop_reason: null,
      stop_sequence: null,
      usage: { input_tokens: 50, output_tokens: 1 },
    },
  });
  blocks.forEach(({ start, deltas }, index) => {
    send({ type: 'content_block_start', index, content_block: start });
    for (const delta of deltas) send({ type: 'content_block_delta', index, delta });
    send({ type: 'content_block_stop', index });
  });
  send({ type: 'message_delta', delta: { stop_reason: stop, stop_sequence: null }, usage: { output_tokens: 20 } });
  send({ type: 'message_stop' });
  response.end();
}

const text = (words: string, citations?: Json[]) => ({
  start: { type: 'text', text: '', ...(citations && { citations: [] }) },
  deltas: [
    ...(citations ?? []).map((citation) => ({ type: 'citations_delta', citation })),
    { type: 'text_delta', text: words },
  ],
});

/** The scripted Anthropic upstream, recording every request; `token` is what the search finds. */
function scriptedUpstream(received: Json[], token: () => string) {
  return (request: Request, response: Response) => {
    const body = request.body as Json;
    received.push(body);
    const model = body.model ?? MODEL;
    if (offersServerSearch(body)) {
      // (2) WebSearch's request: the search, its one result (the token in title and url), a text citing it.
      const url = `https://example.com/${token()}`;
      const title = `Search result ${token()}`;
      const input = JSON.stringify({ query: QUERY });
      streamAnswer(
        response,
        model,
        [
          {
            start: { type: 'server_tool_use', id: SERVER_CALL, name: 'web_search', input: {} },
            deltas: [{ type: 'input_json_delta', partial_json: input }],
          },
          {
            start: {
              type: 'web_search_tool_result',
              tool_use_id: SERVER_CALL,
              content: [
                {
                  type: 'web_search_result',
                  url,
                  title,
                  encrypted_content: 'EqgfCioIARgBIiQ3YTAwMjY1Mi1mZjM5',
                  page_age: 'April 30, 2025',
                },
              ],
            },
            deltas: [],
          },
          text('The page above answers the query.', [
            {
              type: 'web_search_result_location',
              url,
              title,
              encrypted_index: 'EpMBCioIAhgBIiQ',
              cited_text: 'The page above answers the query.',
            },
          ]),
        ],
        'end_turn',
      );
      return;
    }
    if (offersWebSearch(body)) {
      const results = toolResults(body);
      if (results.length > 0) {
        // (3) The main turn carrying WebSearch's result: the token only if the result holds it.
        const found = results.some((result) => textOf(result.content).includes(token()));
        streamAnswer(
          response,
          model,
          [text(found ? `The search found ${token()}.` : 'The search found nothing.')],
          'end_turn',
        );
        return;
      }
      // (1) The main turn: call WebSearch.
      streamAnswer(
        response,
        model,
        [
          {
            start: { type: 'tool_use', id: WEB_SEARCH_CALL, name: 'WebSearch', input: {} },
            deltas: [{ type: 'input_json_delta', partial_json: JSON.stringify({ query: QUERY }) }],
          },
        ],
        'tool_use',
      );
      return;
    }
    // Any side call of Claude Code's: a short answer.
    streamAnswer(response, model, [text('ok')], 'end_turn');
  };
}

(runs ? describe : describe.skip)('Claude Code WebSearch through the gateway to an Anthropic upstream', () => {
  const received: Json[] = [];
  let token = '';
  let upstream: RunningServer;
  let server: RunningGateway;
  let dir: string;

  beforeAll(async () => {
    const express = (await import('express')).default;
    const app = express();
    app.use(express.json({ limit: '20mb' }));
    app.post(
      '/v1/messages',
      scriptedUpstream(received, () => token),
    );
    upstream = await listen(app);
    server = await serveGateway({
      keyStore: new MemoryKeyStore([{ key: TEST_KEY, id: 'claude-code' }]),
      providers: [new AnthropicProvider({ name: 'anthropic', baseUrl: upstream.url, apiKey: 'sk-upstream-0000' })],
      models: [{ id: MODEL, provider: 'anthropic', upstreamModel: MODEL }],
    });
    dir = mkdtempSync(join(tmpdir(), 'rg-claude-web-search-'));
  });
  afterAll(async () => {
    await server.close();
    await upstream.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('WebSearch gets the search result the upstream sent, and the model answers with its token', async () => {
    requireClaudeCode();
    token = `token-${randomBytes(8).toString('hex')}`;
    const work = join(dir, 'work');
    const home = join(dir, 'home');
    mkdirSync(work);
    mkdirSync(home);

    const run = await runClaudeCode(`Search the web for "${QUERY}" and tell me what you find.`, {
      cwd: work,
      home,
      baseUrl: server.url,
      model: MODEL,
      args: ['--allowedTools', 'WebSearch'],
      env: { ENABLE_TOOL_SEARCH: 'false', ANTHROPIC_SMALL_FAST_MODEL: MODEL, ANTHROPIC_DEFAULT_HAIKU_MODEL: MODEL },
    });

    expectCleanExit(run);
    expect(run.stdout).toContain(token);
    // (2) WebSearch's own request: the server tool alone, forced, streamed, asking for the query.
    const searches = received.filter(offersServerSearch);
    expect(searches).toHaveLength(1);
    const search = searches[0]!;
    expect(search.tools).toEqual([expect.objectContaining({ type: 'web_search_20250305', name: 'web_search' })]);
    expect(search.tool_choice).toEqual({ type: 'tool', name: 'web_search' });
    expect(search.stream).toBe(true);
    expect(JSON.stringify(search.messages)).toContain(QUERY);
    // (3) The main turn after it carries WebSearch's result, which holds the token only the search result had.
    const answered = received.filter((body) => offersWebSearch(body) && toolResults(body).length > 0);
    expect(answered).toHaveLength(1);
    const results = toolResults(answered[0]!);
    expect(results).toEqual([expect.objectContaining({ tool_use_id: WEB_SEARCH_CALL })]);
    expect(results[0]!.is_error).toBeFalsy();
    expect(textOf(results[0]!.content)).toContain(token);
    // In that order: the call of WebSearch, its search, the result.
    const order = received.map((body) =>
      offersServerSearch(body) ? 'search' : offersWebSearch(body) ? 'main' : 'side',
    );
    expect(order.filter((kind) => kind !== 'side')).toEqual(['main', 'search', 'main']);
  }, 120_000);
});
