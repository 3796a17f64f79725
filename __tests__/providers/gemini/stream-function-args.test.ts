/**
 * Gemini 3's streamed function-call arguments (`streamFunctionCallArguments`: `partialArgs` and `willContinue` on
 * `functionCall` pieces, Vertex AI): an Anthropic caller gets them as `input_json_delta`s while they stream, whose
 * accumulation (the Anthropic SDK's MessageStream) is the whole input; a Gemini caller gets the pieces unchanged; a
 * call that comes whole is unchanged. Judge: a mock in that dialect (`mock-gemini-stream-args.ts`).
 */
import Anthropic from '@anthropic-ai/sdk';
import { GeminiProvider, MemoryKeyStore } from '../../../lib';
import { PartialArgsWriter, parseJsonPath } from '../../../lib/providers/gemini/partial-args';
import { serveGateway, type Json, type RunningGateway } from '../../helpers/app';
import {
  STREAMED_ARGS,
  STREAMED_PIECES,
  startMockGeminiStreamArgs,
  type MockGeminiStreamArgs,
} from '../../helpers/mock-gemini-stream-args';

const KEY = 'sk-gemini-stream-args-1';
let mock: MockGeminiStreamArgs;
let server: RunningGateway;

beforeAll(async () => {
  mock = await startMockGeminiStreamArgs();
  server = await serveGateway({
    keyStore: new MemoryKeyStore([{ key: KEY, id: 'caller' }]),
    providers: [new GeminiProvider({ baseUrl: `${mock.origin}/v1beta`, apiKey: 'up', retries: { max: 0 } })],
    models: [
      { id: 'gemini-partial', provider: 'gemini', upstreamModel: 'gemini-3-pro-partial' },
      { id: 'gemini-3-pro', provider: 'gemini', upstreamModel: 'gemini-3-pro' },
    ],
  });
});
afterAll(async () => {
  await server.close();
  await mock.close();
});

const TOOL = {
  name: 'get_weather',
  description: 'The weather at a place',
  input_schema: { type: 'object' as const, properties: { location: { type: 'string' } } },
};

describe('an Anthropic caller', () => {
  it('gets the streamed arguments as input_json_deltas that add up to the whole input', async () => {
    const client = new Anthropic({ apiKey: KEY, baseURL: server.url, maxRetries: 0 });
    const stream = client.messages.stream({
      model: 'gemini-partial',
      max_tokens: 256,
      tools: [TOOL],
      messages: [{ role: 'user', content: 'Weather in Boston?' }],
    });
    const fragments: string[] = [];
    stream.on('inputJson', (fragment) => fragments.push(fragment));
    const message = await stream.finalMessage();
    const toolUse = message.content.find((block) => block.type === 'tool_use');
    expect(toolUse).toMatchObject({ type: 'tool_use', name: 'get_weather', input: STREAMED_ARGS });
    expect(fragments.length).toBeGreaterThanOrEqual(4);
    expect(fragments[0]).toBe('{"location":"Boston');
    expect(message.stop_reason).toBe('tool_use');
  });
});

describe('a Gemini caller', () => {
  async function streamed(model: string, toolConfig?: Json): Promise<Json[]> {
    const response = await fetch(`${server.url}/v1beta/models/${model}:streamGenerateContent?alt=sse`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-goog-api-key': KEY },
      body: JSON.stringify({
        contents: [{ role: 'user', parts: [{ text: 'Weather in Boston?' }] }],
        tools: [{ functionDeclarations: [{ name: 'get_weather', parameters: { type: 'object' } }] }],
        ...(toolConfig ? { toolConfig } : {}),
      }),
    });
    expect(response.status).toBe(200);
    const text = await response.text();
    return text
      .split(/\r?\n\r?\n/)
      .filter((event) => event.startsWith('data: '))
      .map((event) => JSON.parse(event.slice(6)) as Json);
  }
  const functionCalls = (chunks: Json[]) =>
    chunks.flatMap((chunk) =>
      (chunk.candidates?.[0]?.content?.parts ?? []).filter((part: Json) => part.functionCall !== undefined),
    );

  it('with streamFunctionCallArguments: the setting reaches the upstream and the pieces come back unchanged', async () => {
    const chunks = await streamed('gemini-3-pro', {
      functionCallingConfig: { mode: 'AUTO', streamFunctionCallArguments: true },
    });
    expect(mock.requests.at(-1)!.toolConfig.functionCallingConfig.streamFunctionCallArguments).toBe(true);
    expect(functionCalls(chunks)).toEqual(STREAMED_PIECES);
    expect(chunks.at(-1)!.candidates[0].finishReason).toBe('STOP');
  });

  it('without it: the call comes whole, as before', async () => {
    const calls = functionCalls(await streamed('gemini-3-pro'));
    expect(calls).toHaveLength(1);
    expect(calls[0].functionCall).toMatchObject({ name: 'get_weather', args: STREAMED_ARGS });
  });
});

describe('the arguments writer', () => {
  it('reads dotted, indexed and bracketed paths', () => {
    expect(parseJsonPath('$.foo.bar[0].data')).toEqual(['foo', 'bar', 0, 'data']);
    expect(parseJsonPath("$['a.b'][12]")).toEqual(['a.b', 12]);
    expect(parseJsonPath('foo')).toBeUndefined();
  });

  it('writes nested objects and arrays as valid JSON, whatever the order of siblings', () => {
    const writer = new PartialArgsWriter();
    const text = [
      { jsonPath: '$.a[0].b', stringValue: 'x', willContinue: true },
      { jsonPath: '$.a[0].b', stringValue: 'y' },
      { jsonPath: '$.a[0].c', numberValue: 1 },
      { jsonPath: '$.a[1].b', stringValue: 'z' },
      { jsonPath: '$.d.e.f', boolValue: false },
      { jsonPath: '$.g', stringValue: 'open', willContinue: true },
    ]
      .map((arg) => writer.write(arg))
      .join('');
    expect(JSON.parse(text + writer.finish())).toEqual({
      a: [{ b: 'xy', c: 1 }, { b: 'z' }],
      d: { e: { f: false } },
      g: 'open',
    });
    expect(new PartialArgsWriter().finish()).toBe('{}');
  });
});
