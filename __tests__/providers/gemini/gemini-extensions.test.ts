/**
 * A Gemini caller's unmodelled fields reach a Gemini upstream through extensions.gemini; canonical edits are honoured;
 * no other protocol's extension leaks.
 */
import { MemoryKeyStore, MemoryQuotaStore, type GenerateRequest, type ModelConfig } from '../../../lib';
import { GENERATE_CONTENT } from '../../../lib/protocols/gemini/routes';
import { GeminiProvider } from '../../../lib/providers/gemini';
import { encodeGenerateContentRequest } from '../../../lib/providers/gemini/encode-request';
import { OpenAIProvider } from '../../../lib/providers/openai';
import { AnthropicProvider } from '../../../lib/providers/anthropic';
import { dataEvents, type Json, serveGateway, type RunningGateway } from '../../helpers/app';
import { CANDIDATE_EXTRAS, startMockGemini, type MockGemini } from '../../helpers/mock-gemini';
import { startMockOpenAI, type MockOpenAI } from '../../helpers/mock-openai';
import { MOCK_ANTHROPIC_KEY, startMockAnthropic, type MockAnthropic } from '../../helpers/mock-anthropic';

const KEY = 'sk-gateway-caller-key-extensions';
const UPSTREAM_KEY = 'AIzaSyExtensionsSecret0123456789abcdef';

let mock: MockGemini;
let openaiMock: MockOpenAI;
let anthropicMock: MockAnthropic;
let server: RunningGateway;

const models: ModelConfig[] = [
  { id: 'gem-echo', provider: 'gemini', upstreamModel: 'echo' },
  { id: 'gem-capped', provider: 'gemini', upstreamModel: 'echo', maxOutputTokens: 64 },
  { id: 'gem-extras', provider: 'gemini', upstreamModel: 'extras' },
  { id: 'g3-flash', provider: 'gemini', upstreamModel: 'gemini-3-flash-preview' },
  { id: 'oa-echo', provider: 'openai', upstreamModel: 'echo' },
  { id: 'an-echo', provider: 'anthropic', upstreamModel: 'echo' },
];

beforeAll(async () => {
  [mock, openaiMock, anthropicMock] = await Promise.all([
    startMockGemini({ apiKey: UPSTREAM_KEY }),
    startMockOpenAI(),
    startMockAnthropic(),
  ]);
  server = await serveGateway({
    keyStore: new MemoryKeyStore([{ key: KEY, id: 'caller' }]),
    quotaStore: new MemoryQuotaStore({ balances: { caller: 1_000_000_000 } }),
    providers: [
      new GeminiProvider({ baseUrl: mock.url, apiKey: UPSTREAM_KEY, retries: { max: 0 } }),
      new OpenAIProvider({ baseUrl: openaiMock.url, apiKey: 'sk-upstream-openai', retries: { max: 0 } }),
      new AnthropicProvider({ baseUrl: anthropicMock.url, apiKey: MOCK_ANTHROPIC_KEY, retries: { max: 0 } }),
    ],
    models,
  });
});
afterAll(async () => {
  await server.close();
  await Promise.all([mock.close(), openaiMock.close(), anthropicMock.close()]);
});

async function generate(model: string, body: Json, stream = false): Promise<{ status: number; text: string }> {
  const action = stream ? 'streamGenerateContent?alt=sse' : 'generateContent';
  const res = await fetch(`${server.url}/v1beta/models/${model}:${action}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-goog-api-key': KEY },
    body: JSON.stringify(body),
  });
  return { status: res.status, text: await res.text() };
}
const lastSent = () => mock.requests.at(-1)!.body as Json;

const WEATHER_SCHEMA = { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] };

/** A Gemini caller's body with an unmodelled field at every level the codec decodes. */
const CAMEL_BODY = {
  contents: [
    {
      role: 'user',
      parts: [
        { text: 'What is in these, and the weather?' },
        {
          inlineData: { mimeType: 'image/png', data: 'iVBORw0KGgo=' },
          mediaResolution: { level: 'MEDIA_RESOLUTION_HIGH' },
        },
        {
          fileData: { fileUri: 'https://generativelanguage.googleapis.com/v1beta/files/clip-1', mimeType: 'video/mp4' },
          videoMetadata: { startOffset: '1s', endOffset: '5s', fps: 2 },
        },
        { fileData: { fileUri: 'https://example.com/cat.jpg', mimeType: 'image/jpeg' } },
      ],
    },
    {
      role: 'model',
      parts: [
        { text: 'I should look up the weather.', thought: true, thoughtSignature: 'sig-thought' },
        { text: 'An unsigned thought summary.', thought: true },
        { functionCall: { id: 'fc-1', name: 'get_weather', args: { city: 'Oslo' } }, thoughtSignature: 'sig-call' },
        { thoughtSignature: 'sig-alone' },
      ],
    },
    {
      role: 'user',
      parts: [
        {
          functionResponse: {
            id: 'fc-1',
            name: 'get_weather',
            response: { output: { temp_c: 3 } },
            willContinue: false,
          },
          partMetadata: { source: 'tool' },
        },
      ],
    },
    { role: 'user', parts: [{ text: 'Short answer please.' }], futureContentField: 1 },
  ],
  systemInstruction: { role: 'system', parts: [{ text: 'Be brief.' }] },
  tools: [
    {
      functionDeclarations: [
        {
          name: 'get_weather',
          description: 'Weather for a city',
          parametersJsonSchema: WEATHER_SCHEMA,
          behavior: 'BLOCKING',
        },
      ],
    },
    { googleSearch: {} },
    { codeExecution: {}, urlContext: {} },
  ],
  toolConfig: {
    functionCallingConfig: { mode: 'AUTO' },
    retrievalConfig: { latLng: { latitude: 59.9, longitude: 10.7 } },
  },
  safetySettings: [{ category: 'HARM_CATEGORY_HARASSMENT', threshold: 'BLOCK_NONE' }],
  labels: { team: 'search' },
  generationConfig: {
    temperature: 0.4,
    topP: 0.9,
    topK: 20,
    stopSequences: ['END'],
    seed: 3,
    responseModalities: ['TEXT'],
    presencePenalty: 0.1,
    frequencyPenalty: 0.2,
    responseLogprobs: true,
    logprobs: 2,
    mediaResolution: 'MEDIA_RESOLUTION_LOW',
    thinkingConfig: { thinkingBudget: 50000, includeThoughts: false },
  },
  futureTopLevelField: { enabled: true },
};

/** The same kind of body spelt in snake_case, as the REST API also accepts it. */
const SNAKE_BODY = {
  contents: [
    {
      parts: [
        { text: 'Hi' },
        {
          inline_data: { mime_type: 'image/png', data: 'iVBORw0KGgo=' },
          media_resolution: { level: 'MEDIA_RESOLUTION_LOW' },
        },
      ],
    },
    {
      role: 'model',
      parts: [{ function_call: { name: 'get_weather', args: { snake_key: 1 } }, thought_signature: 'sig-snake' }],
    },
    { role: 'user', parts: [{ function_response: { name: 'get_weather', response: { output: 'ok' } } }] },
  ],
  system_instruction: { parts: [{ text: 'Be brief.' }] },
  tools: [
    { function_declarations: [{ name: 'get_weather', parameters_json_schema: WEATHER_SCHEMA }], google_search: {} },
  ],
  tool_config: { function_calling_config: { mode: 'ANY', allowed_function_names: ['get_weather'] } },
  safety_settings: [{ category: 'HARM_CATEGORY_HARASSMENT', threshold: 'BLOCK_NONE' }],
  generation_config: {
    max_output_tokens: 12,
    top_k: 3,
    response_modalities: ['TEXT'],
    thinking_config: { thinking_level: 'LOW', include_thoughts: true },
  },
};

describe('same-protocol fidelity: the body a Gemini upstream gets is the caller’s, only the controlled fields changed', () => {
  it.each([false, true])('camelCase, every level (streamed: %s): the output cap is the gateway’s', async (stream) => {
    const res = await generate('gem-capped', CAMEL_BODY, stream);
    expect(res.status).toBe(200);
    expect(lastSent()).toEqual({
      ...CAMEL_BODY,
      generationConfig: { ...CAMEL_BODY.generationConfig, maxOutputTokens: 64 },
    });
  });

  it.each([false, true])('snake_case spellings are kept (streamed: %s)', async (stream) => {
    const res = await generate('gem-echo', SNAKE_BODY, stream);
    expect(res.status).toBe(200);
    expect(lastSent()).toEqual(SNAKE_BODY);
  });

  it('a model that validates signatures gets the placeholder on the unsigned current-turn call, in the call’s spelling', async () => {
    const contents = [
      { role: 'user', parts: [{ text: 'Weather?' }] },
      { role: 'model', parts: [{ function_call: { name: 'get_weather', args: { city: 'Oslo' } } }] },
      { role: 'user', parts: [{ function_response: { name: 'get_weather', response: { output: '3C' } } }] },
    ];
    expect(
      (await generate('g3-flash', { contents, labels: { a: 'b' }, generation_config: { max_output_tokens: 100 } }))
        .status,
    ).toBe(200);
    expect(lastSent()).toEqual({
      contents: [
        contents[0],
        {
          role: 'model',
          parts: [
            {
              function_call: { name: 'get_weather', args: { city: 'Oslo' } },
              thought_signature: 'skip_thought_signature_validator',
            },
          ],
        },
        contents[2],
      ],
      labels: { a: 'b' },
      generation_config: { max_output_tokens: 100 },
    });
  });
});

describe('the gateway’s own translation where canonical says the same thing', () => {
  it('an OpenAPI `parameters` schema goes as the equivalent parametersJsonSchema; responseSchema as responseJsonSchema', async () => {
    const body = {
      contents: [{ role: 'user', parts: [{ text: 'x' }] }],
      tools: [
        {
          functionDeclarations: [
            { name: 'f', parameters: { type: 'OBJECT', properties: { a: { type: 'STRING', nullable: true } } } },
          ],
        },
      ],
      generationConfig: {
        responseMimeType: 'application/json',
        responseSchema: { type: 'OBJECT', properties: { b: { type: 'INTEGER' } } },
      },
    };
    expect((await generate('gem-capped', body)).status).toBe(200);
    expect(lastSent()).toEqual({
      contents: body.contents,
      tools: [
        {
          functionDeclarations: [
            { name: 'f', parametersJsonSchema: { type: 'object', properties: { a: { type: ['string', 'null'] } } } },
          ],
        },
      ],
      generationConfig: {
        responseMimeType: 'application/json',
        responseJsonSchema: { type: 'object', properties: { b: { type: 'integer' } } },
        maxOutputTokens: 64,
      },
    });
  });
});

/** The canonical request the Gemini codec decodes from a generateContent body. */
function decode(body: Json): GenerateRequest {
  return GENERATE_CONTENT.decode(
    { method: 'POST', path: '/v1beta/models/m:generateContent', headers: {}, query: new URLSearchParams(), body },
    { model: 'm', action: 'generateContent' },
  );
}

describe('edits to the canonical request are honoured on a same-protocol call', () => {
  it('changed text, a dropped message, a dropped tool and a new temperature reach the upstream body, the unmodelled fields kept', () => {
    const request = decode(CAMEL_BODY);
    const userTurn = request.messages[1]!;
    expect(userTurn.role).toBe('user');
    const first = userTurn.content[0]!;
    if (first.type !== 'text') throw new Error('expected text');
    first.text = 'Redacted question.';
    request.messages = request.messages.filter(
      (message) =>
        !(
          message.role === 'user' &&
          message.content.some((part) => part.type === 'text' && part.text === 'Short answer please.')
        ),
    );
    request.tools = [];
    request.toolChoice = undefined;
    request.temperature = 0.9;
    const body = encodeGenerateContentRequest(request, 'echo');
    const contents = body.contents as Json[];
    expect(contents).toHaveLength(3);
    expect(contents[0]!.parts[0]).toEqual({ text: 'Redacted question.' });
    expect(contents[0]!.parts[2]).toEqual(CAMEL_BODY.contents[0]!.parts[2]);
    expect(JSON.stringify(body)).not.toContain('Short answer please.');
    expect(body.tools).toEqual([{ googleSearch: {} }, { codeExecution: {}, urlContext: {} }]);
    expect(body.toolConfig).toEqual({ retrievalConfig: CAMEL_BODY.toolConfig.retrievalConfig });
    expect(body.generationConfig).toEqual({ ...CAMEL_BODY.generationConfig, temperature: 0.9 });
    expect(body.safetySettings).toEqual(CAMEL_BODY.safetySettings);
  });

  it('a new system prompt and a changed reasoning budget are sent in Gemini’s terms', () => {
    const request = decode(CAMEL_BODY);
    request.messages[0] = { ...request.messages[0]!, content: [{ type: 'text', text: 'Answer in French.' }] };
    request.reasoning = { ...request.reasoning, budgetTokens: 1024 };
    const body = encodeGenerateContentRequest(request, 'echo');
    expect(body.systemInstruction).toEqual({ role: 'system', parts: [{ text: 'Answer in French.' }] });
    expect((body.generationConfig as Json).thinkingConfig).toEqual({ thinkingBudget: 1024, includeThoughts: false });
  });
});

describe('no other protocol’s extension reaches a Gemini upstream', () => {
  it('Anthropic and OpenAI extensions at every level are ignored', () => {
    const foreign = {
      'anthropic-messages': { cache_control: { type: 'ephemeral' } },
      'openai-chat': { logprobs: true, fields: { store: true } },
    };
    const request: GenerateRequest = {
      model: 'm',
      stream: false,
      messages: [
        { role: 'system', content: [{ type: 'text', text: 'sys', extensions: foreign }], extensions: foreign },
        { role: 'user', content: [{ type: 'text', text: 'hi', extensions: foreign }], extensions: foreign },
      ],
      tools: [{ name: 'f', parameters: { type: 'object' }, extensions: foreign }],
      extensions: foreign,
    };
    const body = encodeGenerateContentRequest(request, 'echo');
    expect(body).toEqual({
      contents: [{ role: 'user', parts: [{ text: 'hi' }] }],
      systemInstruction: { parts: [{ text: 'sys' }] },
      tools: [{ functionDeclarations: [{ name: 'f', parametersJsonSchema: { type: 'object' } }] }],
    });
  });

  it('a Gemini caller’s unmodelled fields reach neither an OpenAI nor an Anthropic upstream', async () => {
    for (const [model, sent] of [
      ['oa-echo', () => openaiMock.requests.at(-1)!.body],
      ['an-echo', () => anthropicMock.requests.at(-1)!.body],
    ] as const) {
      const contents = [
        {
          role: 'user',
          parts: [
            { text: 'Look' },
            {
              inlineData: { mimeType: 'image/png', data: 'iVBORw0KGgo=' },
              mediaResolution: { level: 'MEDIA_RESOLUTION_HIGH' },
            },
          ],
        },
        { role: 'model', parts: [{ text: 'ok' }] },
        CAMEL_BODY.contents[3]!,
      ];
      const res = await generate(model, { ...CAMEL_BODY, contents });
      expect(res).toMatchObject({ status: 200 });
      expect(JSON.stringify(sent())).not.toMatch(
        /safetySettings|HARM_CATEGORY|labels|googleSearch|responseModalities|videoMetadata|mediaResolution|futureTopLevelField|retrievalConfig/,
      );
    }
  });
});

describe('answers: a Gemini upstream’s unmodelled fields, streamed', () => {
  const body = { contents: [{ role: 'user', parts: [{ text: 'ground it' }] }] };

  it('reach a Gemini caller on the chunks that carried them: promptFeedback first, the candidate’s fields with the last text', async () => {
    const res = await generate('gem-extras', body, true);
    expect(res.status).toBe(200);
    const chunks = dataEvents(res.text);
    expect(chunks[0]).toMatchObject({ promptFeedback: { safetyRatings: [] }, responseId: 'resp-mock-1' });
    expect(chunks.slice(1).some((chunk) => 'promptFeedback' in chunk)).toBe(false);
    const last = chunks.findLast((chunk) => chunk.candidates[0].content.parts.some((part: Json) => part.text))!;
    expect(last.candidates[0]).toMatchObject({ content: { parts: [{ text: ' it' }] }, ...CANDIDATE_EXTRAS });
    expect(chunks.filter((chunk) => chunk.candidates[0].groundingMetadata)).toHaveLength(1);
  });

  it('reach no streamed caller of another protocol', async () => {
    const chat = await fetch(`${server.url}/v1/chat/completions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${KEY}` },
      body: JSON.stringify({ model: 'gem-extras', stream: true, messages: [{ role: 'user', content: 'ground it' }] }),
    });
    const messages = await fetch(`${server.url}/v1/messages`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-api-key': KEY },
      body: JSON.stringify({
        model: 'gem-extras',
        stream: true,
        max_tokens: 100,
        messages: [{ role: 'user', content: 'ground it' }],
      }),
    });
    for (const res of [chat, messages]) {
      expect(res.status).toBe(200);
      expect(await res.text()).not.toMatch(/groundingMetadata|example\.com|avgLogprobs|promptFeedback|HARM_CATEGORY/);
    }
  });
});
