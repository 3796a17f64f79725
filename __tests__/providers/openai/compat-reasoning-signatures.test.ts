/**
 * Vendor signatures through OpenAI-compatible endpoints: Gemini 3's thought signatures on Google's endpoint
 * (`extra_content.google.thought_signature`, a 400 "Function call is missing a thought_signature" without them:
 * litellm #25322, #16893) and OpenRouter's `reasoning_details`, each a two-turn tool loop from every caller protocol,
 * the signature travelling in the caller's own carrier. Signatures never cross vendors on a model switch (litellm
 * #32140).
 */
import { MemoryKeyStore, OpenAIProvider } from '../../../lib';
import { type Json, serveGateway, type RunningGateway } from '../../helpers/app';
import {
  ALL_CALLERS,
  anthropicCaller,
  type Caller,
  chatCaller,
  GATEWAY_KEY,
  geminiCaller,
  responsesCaller,
} from '../../helpers/compat-callers';
import { type MockDialect, WEATHER_ANSWER } from '../../helpers/mock-chat-wire';
import { GOOGLE_CALL_ID, GOOGLE_SIGNATURE, startMockGoogleOpenAI } from '../../helpers/mock-google-openai';
import { OPENROUTER_CALL_ID, OPENROUTER_DETAILS, startMockOpenRouter } from '../../helpers/mock-openrouter';

let google: MockDialect;
let openrouter: MockDialect;
let server: RunningGateway;

beforeAll(async () => {
  google = await startMockGoogleOpenAI();
  openrouter = await startMockOpenRouter();
  server = await serveGateway({
    keyStore: new MemoryKeyStore([{ key: GATEWAY_KEY, id: 'caller' }]),
    providers: [
      // The mocks listen on 127.0.0.1, so the dialects are named; on Google's and OpenRouter's hosts they are the default.
      new OpenAIProvider({ name: 'google-compat', baseUrl: google.url, reasoningReplay: 'google' }),
      new OpenAIProvider({ name: 'openrouter', baseUrl: openrouter.url, reasoningReplay: 'reasoning_details' }),
    ],
    models: [
      { id: 'gemini-3-pro-preview', provider: 'google-compat', upstreamModel: 'gemini-3-pro-preview' },
      { id: 'claude-via-openrouter', provider: 'openrouter', upstreamModel: 'anthropic/claude-sonnet-4.5' },
    ],
  });
});
afterAll(async () => {
  await server.close();
  await Promise.all([google.close(), openrouter.close()]);
});

/** The assistant message with tool calls in a mock's last request. */
function sentAssistant(mock: MockDialect): Json {
  const messages = mock.requests.at(-1)!.body.messages as Json[];
  return messages.find((message) => message.role === 'assistant' && message.tool_calls)!;
}

async function loop(caller: Caller, model: string, stream: boolean): Promise<Json> {
  const first = await caller.first(server.url, model, stream);
  expect(first.status).toBe(200);
  const second = await caller.second(server.url, model, stream, first.body);
  expect(second.status).toBe(200);
  expect(JSON.stringify(second.body)).toContain(WEATHER_ANSWER);
  return first.body;
}

describe.each([false, true])("Gemini 3 through Google's OpenAI-compatible endpoint (stream: %s)", (stream) => {
  it.each(ALL_CALLERS.map((caller) => [caller.name, caller] as const))(
    '%s: the tool call goes back with its thought signature in extra_content',
    async (_name, caller) => {
      await loop(caller, 'gemini-3-pro-preview', stream);
      const call = sentAssistant(google).tool_calls[0];
      expect(call.id).toBe(GOOGLE_CALL_ID);
      expect(call.extra_content).toEqual({ google: { thought_signature: GOOGLE_SIGNATURE } });
    },
  );

  it('each caller carries it in its own field', async () => {
    const chat = await chatCaller.first(server.url, 'gemini-3-pro-preview', stream);
    expect(chat.body.choices[0].message.tool_calls[0].id).toMatch(new RegExp(`^${GOOGLE_CALL_ID}__gemsig`));
    const anthropic = await anthropicCaller.first(server.url, 'gemini-3-pro-preview', stream);
    expect(anthropic.body.content.find((block: Json) => block.type === 'tool_use').id).toMatch(/__gemsig/);
    const gemini = await geminiCaller.first(server.url, 'gemini-3-pro-preview', stream);
    expect(gemini.body.candidates[0].content.parts.find((part: Json) => part.functionCall)).toMatchObject({
      thoughtSignature: GOOGLE_SIGNATURE,
    });
    const responses = await responsesCaller.first(server.url, 'gemini-3-pro-preview', stream);
    expect(responses.body.output.find((item: Json) => item.type === 'function_call').call_id).toMatch(/__gemsig/);
  });
});

describe.each([false, true])('a signed thinking model through OpenRouter (stream: %s)', (stream) => {
  it.each(ALL_CALLERS.map((caller) => [caller.name, caller] as const))(
    '%s: the tool-call turn goes back with its reasoning_details, unchanged',
    async (_name, caller) => {
      await loop(caller, 'claude-via-openrouter', stream);
      const sent = sentAssistant(openrouter);
      expect(sent.tool_calls[0].id).toBe(OPENROUTER_CALL_ID);
      expect(sent.reasoning_details).toEqual(OPENROUTER_DETAILS);
    },
  );

  it('an Anthropic caller carries the blocks in its thinking signature', async () => {
    const first = await anthropicCaller.first(server.url, 'claude-via-openrouter', stream);
    const thinking = first.body.content.find((block: Json) => block.type === 'thinking');
    expect(thinking.signature).toBe(`openrouter:${JSON.stringify(OPENROUTER_DETAILS)}`);
  });
});

describe('a model switch mid-session: signatures never cross vendors', () => {
  it("OpenRouter's reasoning blocks (an Anthropic signature inside) never reach Google; the unsigned call gets the placeholder", async () => {
    const first = await anthropicCaller.first(server.url, 'claude-via-openrouter', false);
    const second = await anthropicCaller.second(server.url, 'gemini-3-pro-preview', false, first.body);
    expect(second.status).toBe(200);
    const sent = JSON.stringify(google.requests.at(-1)!.body);
    expect(sent).not.toMatch(/reasoning_details|ErUBCkYI|gAAAAAB|Weather needs a tool call/);
    expect(sentAssistant(google).tool_calls[0]).toMatchObject({
      id: OPENROUTER_CALL_ID,
      extra_content: { google: { thought_signature: 'skip_thought_signature_validator' } },
    });
  });

  it("Google's thought signatures never reach OpenRouter", async () => {
    const first = await chatCaller.first(server.url, 'gemini-3-pro-preview', false);
    await chatCaller.second(server.url, 'claude-via-openrouter', false, first.body);
    const sent = JSON.stringify(openrouter.requests.at(-1)!.body);
    expect(sent).not.toContain(GOOGLE_SIGNATURE);
    expect(sent).not.toMatch(/extra_content|gemsig/);
    expect(sentAssistant(openrouter).tool_calls[0].id).toBe(GOOGLE_CALL_ID);
  });

  it('Anthropic-signed thinking from Claude Code history never reaches Google or OpenRouter', async () => {
    const history = {
      content: [
        { type: 'thinking', thinking: 'Claude thought.', signature: 'EqQBCkgIAnthropicSignature0002' },
        { type: 'tool_use', id: 'toolu_01Switch', name: 'get_weather', input: { city: 'Oslo' } },
      ],
    };
    await anthropicCaller.second(server.url, 'gemini-3-pro-preview', false, history);
    await anthropicCaller.second(server.url, 'claude-via-openrouter', false, history);
    for (const mock of [google, openrouter]) {
      const sent = JSON.stringify(mock.requests.at(-1)!.body);
      expect(sent).not.toMatch(/EqQBCkgIAnthropicSignature0002|Claude thought/);
    }
    expect(sentAssistant(openrouter).reasoning_details).toBeUndefined();
  });
});
