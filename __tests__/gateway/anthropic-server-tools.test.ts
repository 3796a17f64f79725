/**
 * Anthropic server tools (web search) through an Anthropic upstream: the answer's `server_tool_use` and
 * `web_search_tool_result` blocks, which no canonical part models, reach an Anthropic caller in place and as the
 * upstream sent them, and a text block keeps its `citations`, non-streamed and streamed (judged by the Anthropic
 * SDK's own accumulation), also when `tool_choice` forces the server tool (which reaches the upstream as sent); a
 * chat-completions caller gets the text alone; a stored answer sends them back in place.
 */
import Anthropic from '@anthropic-ai/sdk';
import type { Request, Response } from 'express';
import { AnthropicProvider, MemoryKeyStore, MemoryResponseStore } from '../../lib';
import { listen, type RunningServer, serveGateway, type RunningGateway } from '../helpers/app';

const KEY = 'sk-server-tools-caller-0001';
const DIRECT = { type: 'direct' };
const CITATION = {
  type: 'web_search_result_location',
  url: 'https://example.com/stone',
  title: 'The Rosetta Stone',
  encrypted_index: 'EpMBCioIAhgBIiQ',
  cited_text: 'The Rosetta Stone is in the British Museum.',
};
const SEARCH = {
  type: 'server_tool_use',
  id: 'srvtoolu_01A',
  name: 'web_search',
  input: { query: 'where is the rosetta stone' },
  caller: DIRECT,
};
const RESULTS = {
  type: 'web_search_tool_result',
  tool_use_id: 'srvtoolu_01A',
  content: [
    {
      type: 'web_search_result',
      url: 'https://example.com/stone',
      title: 'The Rosetta Stone',
      encrypted_content: 'EqgfCioIARgBIiQ3YTAwMjY1Mi1mZjM5',
      page_age: 'April 30, 2025',
    },
  ],
  caller: DIRECT,
};
const PREAMBLE = 'Let me search.';
const ANSWER = 'It is in the British Museum.';
/** The upstream's answer: text, the search, its results, a cited text. */
const CONTENT = [
  { type: 'text', text: PREAMBLE, citations: [] },
  SEARCH,
  RESULTS,
  { type: 'text', text: ANSWER, citations: [CITATION] },
];
const USAGE = { input_tokens: 120, output_tokens: 40, server_tool_use: { web_search_requests: 1 } };

/** The events of that answer as the API streams it: each block's start, deltas and stop. */
function streamEvents(): Array<Record<string, unknown>> {
  const block = (index: number, start: unknown, deltas: unknown[]) => [
    { type: 'content_block_start', index, content_block: start },
    ...deltas.map((delta) => ({ type: 'content_block_delta', index, delta })),
    { type: 'content_block_stop', index },
  ];
  return [
    {
      type: 'message_start',
      message: {
        id: 'msg_search',
        type: 'message',
        role: 'assistant',
        model: 'claude-search',
        content: [],
        stop_reason: null,
        stop_sequence: null,
        usage: { input_tokens: 120, output_tokens: 1 },
      },
    },
    ...block(0, { type: 'text', text: '' }, [{ type: 'text_delta', text: PREAMBLE }]),
    ...block(1, { ...SEARCH, input: {} }, [
      { type: 'input_json_delta', partial_json: '' },
      { type: 'input_json_delta', partial_json: '{"query": "where is' },
      { type: 'input_json_delta', partial_json: ' the rosetta stone"}' },
    ]),
    ...block(2, RESULTS, []),
    ...block(3, { type: 'text', text: '' }, [
      { type: 'citations_delta', citation: CITATION },
      { type: 'text_delta', text: 'It is in ' },
      { type: 'text_delta', text: 'the British Museum.' },
    ]),
    {
      type: 'message_delta',
      delta: { stop_reason: 'end_turn', stop_sequence: null },
      usage: { output_tokens: 40, server_tool_use: { web_search_requests: 1 } },
    },
    { type: 'message_stop' },
  ];
}

let upstream: RunningServer;
let gateway: RunningGateway;
const received: Array<Record<string, any>> = [];

beforeAll(async () => {
  const express = (await import('express')).default;
  const app = express();
  app.use(express.json());
  app.post('/v1/messages', (request: Request, response: Response) => {
    received.push(request.body);
    if (request.body.stream) {
      response.setHeader('content-type', 'text/event-stream');
      for (const event of streamEvents()) response.write(`event: ${event.type}\ndata: ${JSON.stringify(event)}\n\n`);
      response.end();
      return;
    }
    response.json({
      id: 'msg_search',
      type: 'message',
      role: 'assistant',
      model: 'claude-search',
      content: CONTENT,
      stop_reason: 'end_turn',
      stop_sequence: null,
      usage: USAGE,
    });
  });
  upstream = await listen(app);
  gateway = await serveGateway({
    keyStore: new MemoryKeyStore([{ key: KEY, id: 'caller' }]),
    providers: [new AnthropicProvider({ name: 'anthropic', baseUrl: upstream.url, apiKey: 'sk-upstream-0000' })],
    models: [{ id: 'searching', provider: 'anthropic', upstreamModel: 'claude-search' }],
    stores: { responses: new MemoryResponseStore() },
  });
});
afterAll(async () => {
  await gateway.close();
  await upstream.close();
});

function anthropic(): Anthropic {
  return new Anthropic({ baseURL: gateway.url, apiKey: KEY, maxRetries: 0 });
}

const REQUEST = {
  model: 'searching',
  max_tokens: 256,
  tools: [{ type: 'web_search_20250305' as const, name: 'web_search' as const, max_uses: 2 }],
  messages: [{ role: 'user' as const, content: 'Where is the Rosetta Stone?' }],
};

describe('Anthropic server-tool blocks from an Anthropic upstream', () => {
  it('non-streamed: an Anthropic caller gets the upstream content as it was, citations included', async () => {
    const message = await anthropic().messages.create(REQUEST);
    expect(message.content).toEqual(CONTENT);
    expect(message.stop_reason).toBe('end_turn');
    expect(message.usage.server_tool_use).toEqual({ web_search_requests: 1 });
    // The caller's server tool reached the upstream.
    expect(received.at(-1)!.tools).toEqual(REQUEST.tools);
  });

  it("a tool_choice forcing the server tool (Claude Code's WebSearch request) reaches the upstream as sent", async () => {
    const tool_choice = { type: 'tool' as const, name: 'web_search' };
    const final = await anthropic()
      .messages.stream({ ...REQUEST, tool_choice })
      .finalMessage();
    expect(final.content).toEqual(CONTENT);
    expect(received.at(-1)!.tools).toEqual(REQUEST.tools);
    expect(received.at(-1)!.tool_choice).toEqual(tool_choice);
  });

  it('streamed: the SDK accumulates the same content, from events with contiguous indices', async () => {
    const final = await anthropic().messages.stream(REQUEST).finalMessage();
    expect(final.content).toEqual(CONTENT);
    expect(final.stop_reason).toBe('end_turn');

    const events: Array<Record<string, any>> = [];
    for await (const event of await anthropic().messages.create({ ...REQUEST, stream: true })) events.push(event);
    const blockEvents = events.filter((event) => event.type.startsWith('content_block_'));
    // Each block starts at the next index, its deltas and stop name it, and it stops before the next starts.
    let open: number | undefined;
    let next = 0;
    for (const event of blockEvents) {
      if (event.type === 'content_block_start') {
        expect(open).toBeUndefined();
        expect(event.index).toBe(next);
        open = next++;
      } else {
        expect(event.index).toBe(open);
        if (event.type === 'content_block_stop') open = undefined;
      }
    }
    expect(open).toBeUndefined();
    expect(next).toBe(CONTENT.length);
    const starts = blockEvents.filter((event) => event.type === 'content_block_start');
    expect(starts.map((event) => event.content_block.type)).toEqual([
      'text',
      'server_tool_use',
      'web_search_tool_result',
      'text',
    ]);
    expect(starts[2]!.content_block).toEqual(RESULTS);
    const deltas = blockEvents.filter((event) => event.type === 'content_block_delta').map((event) => event.delta);
    expect(deltas).toContainEqual({ type: 'citations_delta', citation: CITATION });
    expect(events[0]!.type).toBe('message_start');
    expect(events.at(-1)!.type).toBe('message_stop');
  });

  it('a chat-completions caller gets the text alone', async () => {
    const post = (stream: boolean) =>
      fetch(`${gateway.url}/v1/chat/completions`, {
        method: 'POST',
        headers: { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' },
        body: JSON.stringify({ model: 'searching', stream, messages: [{ role: 'user', content: 'Where?' }] }),
      });
    const response = await post(false);
    expect(response.status).toBe(200);
    const body = (await response.json()) as any;
    expect(body.choices[0].message.content).toBe(PREAMBLE + ANSWER);
    expect(body.choices[0].finish_reason).toBe('stop');

    const streamed = await (await post(true)).text();
    const chunks = streamed
      .split('\n')
      .filter((line) => line.startsWith('data: {'))
      .map((line) => JSON.parse(line.slice(6)));
    expect(chunks.map((chunk) => chunk.choices?.[0]?.delta?.content ?? '').join('')).toBe(PREAMBLE + ANSWER);
    expect(streamed).not.toContain('srvtoolu_01A');
  });

  it.each([false, true])(
    'a Responses caller (stream: %s) gets the text, and its next turn sends the blocks back in place',
    async (stream) => {
      const post = (body: Record<string, unknown>) =>
        fetch(`${gateway.url}/v1/responses`, {
          method: 'POST',
          headers: { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' },
          body: JSON.stringify({ model: 'searching', stream, ...body }),
        });
      const first = await post({ input: 'Where is the Rosetta Stone?' });
      expect(first.status).toBe(200);
      const answer = await first.text();
      expect(answer).not.toContain('srvtoolu_01A');
      const id = /"id":"(resp_[^"]+)"/.exec(answer)![1];
      const second = await post({ input: 'Thanks.', previous_response_id: id });
      expect(second.status).toBe(200);
      await second.text();
      // The answer's text without citations goes back as plain text; the rest as the upstream sent it.
      const text = (words: string) => [{ type: 'text', text: words }];
      expect(received.at(-1)!.messages).toEqual([
        { role: 'user', content: text('Where is the Rosetta Stone?') },
        { role: 'assistant', content: [{ type: 'text', text: PREAMBLE }, ...CONTENT.slice(1)] },
        { role: 'user', content: text('Thanks.') },
      ]);
    },
  );
});
