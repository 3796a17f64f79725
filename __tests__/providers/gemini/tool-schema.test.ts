/**
 * Claude Code's whole tool list reaches a Gemini upstream that checks schemas as Google does
 * (claude-code-router #187, #489): keywords Gemini does not take are rewritten or dropped, keeping their meaning
 * where a documented keyword can say it, and a Gemini caller's own schemas reach Gemini unchanged.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import request from 'supertest';
import { GeminiProvider, MemoryKeyStore, type ModelConfig } from '../../../lib';
import { geminiToolSchema } from '../../../lib/providers/gemini/tool-schema';
import { serveGateway, type Json, type RunningGateway } from '../../helpers/app';
import { startMockGeminiStrict, type MockGeminiStrict } from '../../helpers/mock-gemini-strict';

const fixture = (name: string): Json =>
  JSON.parse(readFileSync(join(__dirname, '..', '..', 'fixtures', 'claude-code', name), 'utf8')) as Json;
const claudeCodeTools = fixture('tools-2.1.50.json') as unknown as Json[];
const turnOne = fixture('messages-turn-1.json');

const KEY = 'sk-gemini-schema-caller-1';

let mock: MockGeminiStrict;
let server: RunningGateway;

const models: ModelConfig[] = [{ id: 'gem-strict', provider: 'gemini', upstreamModel: 'gemini-2.5-flash' }];

beforeAll(async () => {
  mock = await startMockGeminiStrict();
  server = await serveGateway({
    keyStore: new MemoryKeyStore([{ key: KEY, id: 'caller' }]),
    providers: [new GeminiProvider({ baseUrl: mock.url, apiKey: 'AIza-upstream-key', retries: { baseDelayMs: 1 } })],
    models,
  });
});
afterAll(async () => {
  await server.close();
  await mock.close();
});

const anthropic = (body: Json) =>
  request(server.url).post('/v1/messages').set('x-api-key', KEY).set('anthropic-version', '2023-06-01').send(body);
const lastBody = () => mock.requests[mock.requests.length - 1]!.body as Json;
const declarations = (): Json[] => lastBody().tools[0].functionDeclarations;
const declared = (name: string): Json => declarations().find((declaration) => declaration.name === name)!;

describe("Claude Code's tools to a Gemini upstream", () => {
  it('are all accepted: the 22 tools of a real Claude Code 2.1.50 request, streamed as Claude Code asks', async () => {
    const res = await anthropic({
      model: 'gem-strict',
      max_tokens: 512,
      stream: true,
      messages: [{ role: 'user', content: 'list the files' }],
      tools: claudeCodeTools,
    });
    expect(res.status).toBe(200);
    expect(res.text).toContain('schemas accepted');
    expect(declarations().map((declaration) => declaration.name)).toEqual(claudeCodeTools.map((tool) => tool.name));
  });

  it("are accepted with the recorded turn's tools too (defer_loading, cache_control, draft-07 $schema)", async () => {
    const res = await anthropic({ ...turnOne, model: 'gem-strict', stream: false });
    expect(res.status).toBe(200);
    expect(res.body.content[0].text).toBe('schemas accepted');
  });

  it('keep what the dropped keywords meant', async () => {
    await anthropic({
      model: 'gem-strict',
      max_tokens: 64,
      messages: [{ role: 'user', content: 'hi' }],
      tools: claudeCodeTools,
    });
    // anyOf [{enum}, {const: 'deleted'}] → the const as a one-value enum
    expect(declared('TaskUpdate').parametersJsonSchema.properties.status.anyOf[1]).toEqual({
      type: 'string',
      enum: ['deleted'],
    });
    // an integer's exclusiveMinimum 0 → minimum 1
    const maxTurns = declared('Task').parametersJsonSchema.properties.max_turns;
    expect(maxTurns).toMatchObject({ type: 'integer', minimum: 1, maximum: 9007199254740991 });
    expect(maxTurns.exclusiveMinimum).toBeUndefined();
    // format uri (refused) → said in the description
    const url = declared('WebFetch').parametersJsonSchema.properties.url;
    expect(url.format).toBeUndefined();
    expect(url.description).toBe('The URL to fetch content from (format: uri)');
    // propertyNames {type: string} says nothing of an object: dropped; additionalProperties kept
    const metadata = declared('TaskCreate').parametersJsonSchema.properties.metadata;
    expect(metadata).toEqual({ description: expect.any(String), type: 'object', additionalProperties: {} });
    // documented keywords stay: default, minimum/maximum, minItems/maxItems, minLength, additionalProperties
    expect(declared('TaskOutput').parametersJsonSchema.properties.timeout).toMatchObject({
      default: 30000,
      minimum: 0,
      maximum: 600000,
    });
    expect(declared('AskUserQuestion').parametersJsonSchema.properties.questions).toMatchObject({
      minItems: 1,
      maxItems: 4,
    });
    expect(declared('WebSearch').parametersJsonSchema.properties.query.minLength).toBe(2);
    expect(declared('Read').parametersJsonSchema).toMatchObject({ additionalProperties: false });
    // $schema is nowhere
    expect(JSON.stringify(declarations())).not.toContain('$schema');
  });

  it("leave the caller's own tool objects as they were", async () => {
    const tools = structuredClone(claudeCodeTools);
    await anthropic({ model: 'gem-strict', max_tokens: 64, messages: [{ role: 'user', content: 'hi' }], tools });
    expect(tools).toEqual(claudeCodeTools);
  });
});

describe('an OpenAI caller to a Gemini upstream', () => {
  it('has its tool schemas cleaned the same way', async () => {
    const res = await request(server.url)
      .post('/v1/chat/completions')
      .set('authorization', `Bearer ${KEY}`)
      .send({
        model: 'gem-strict',
        messages: [{ role: 'user', content: 'hi' }],
        tools: claudeCodeTools.map((tool) => ({
          type: 'function',
          function: { name: tool.name, description: tool.description, parameters: tool.input_schema },
        })),
      });
    expect(res.status).toBe(200);
    expect(res.body.choices[0].message.content).toBe('schemas accepted');
  });
});

describe('a Gemini caller to a Gemini upstream', () => {
  it('gets every schema Gemini takes through unchanged', async () => {
    const jsonSchema = {
      type: 'object',
      $defs: { unit: { type: 'string', enum: ['C', 'F'] } },
      properties: {
        city: { type: 'string', title: 'City', minLength: 1, pattern: '^[A-Z]' },
        unit: { $ref: '#/$defs/unit' },
        when: { type: 'string', format: 'date-time' },
        days: { type: 'integer', minimum: 1, maximum: 7, default: 1 },
        tags: { type: 'array', items: { type: 'string' }, minItems: 0, maxItems: 3 },
        extra: { anyOf: [{ type: 'string' }, { type: 'number' }] },
        labels: { type: 'object', additionalProperties: { type: 'string' } },
      },
      required: ['city'],
      propertyOrdering: ['city', 'unit'],
      additionalProperties: false,
    };
    const res = await request(server.url)
      .post('/v1beta/models/gem-strict:generateContent')
      .set('x-goog-api-key', KEY)
      .send({
        contents: [{ role: 'user', parts: [{ text: 'weather?' }] }],
        tools: [{ functionDeclarations: [{ name: 'weather', description: 'w', parametersJsonSchema: jsonSchema }] }],
      });
    expect(res.status).toBe(200);
    expect(declared('weather').parametersJsonSchema).toEqual(jsonSchema);
  });
});

describe('geminiToolSchema', () => {
  const clean = (schema: unknown) => {
    const dropped = new Set<string>();
    return { schema: geminiToolSchema(schema, dropped) as Json, dropped: [...dropped].sort() };
  };

  it('turns a number exclusive bound into the inclusive one with a note, and oneOf into anyOf', () => {
    expect(
      clean({ type: 'number', description: 'Ratio', exclusiveMinimum: 0, exclusiveMaximum: 1, maximum: 0.5 }),
    ).toEqual({
      schema: { type: 'number', description: 'Ratio (greater than 0; less than 1)', minimum: 0, maximum: 0.5 },
      dropped: ['exclusiveMaximum', 'exclusiveMinimum'],
    });
    expect(
      clean({
        oneOf: [
          { type: 'string', const: 'a' },
          { type: 'boolean', const: true },
        ],
      }),
    ).toEqual({
      schema: {
        anyOf: [
          { type: 'string', enum: ['a'] },
          { type: 'boolean', description: '(always true)' },
        ],
      },
      dropped: ['const', 'oneOf'],
    });
  });

  it('says in the description what a dropped constraint said', () => {
    expect(clean({ type: 'array', items: { type: 'string' }, uniqueItems: true, contains: { const: 'x' } })).toEqual({
      schema: { type: 'array', items: { type: 'string' }, description: '(uniqueItems: true; contains: {"const":"x"})' },
      dropped: ['contains', 'uniqueItems'],
    });
  });

  it('returns a schema of only documented keywords equal, and anything not a schema as it is', () => {
    const schema = { type: 'object', properties: { a: { type: 'string', nullable: true, example: 'x' } } };
    expect(clean(schema)).toEqual({ schema, dropped: [] });
    expect(clean(true).schema).toBe(true);
  });
});
