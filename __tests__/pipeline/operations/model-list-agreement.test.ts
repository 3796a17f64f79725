/**
 * The model list and the single-model get agree in every shape: every model a list shows can be got, in the same form,
 * and a model no list shows is a 404 everywhere.
 */
import request from 'supertest';
import { LocalProvider, type ModelConfig } from '../../../lib';
import { buildApp, testOptions, TEST_KEY, type Json } from '../../helpers/app';

const LIMITED_KEY = 'sk-limited-list-key-0123456789';
const models: ModelConfig[] = [
  { id: 'rosetta-echo', provider: 'local', aliases: ['echo-alias'], contextWindow: 128_000, maxOutputTokens: 4096 },
  { id: 'rosetta-image', provider: 'local', type: 'image' },
  { id: 'second-image', provider: 'local', type: 'image', upstreamModel: 'rosetta-image' },
  { id: 'second-echo', provider: 'local', upstreamModel: 'rosetta-echo' },
];
const base = testOptions({ providers: [new LocalProvider()], models });
const { app } = buildApp({
  ...base,
  keys: [...(base.keys ?? []), { key: LIMITED_KEY, id: 'limited', allowedModels: ['rosetta-echo', 'second-image'] }],
});

interface Shape {
  name: string;
  headers: (key: string) => Record<string, string>;
  list: string;
  get: (id: string) => string;
  ids: (body: Json) => string[];
  /** The list's entry for a model, to compare with the get's body. */
  entry: (body: Json, id: string) => Json;
  /** Every page of the list (one page of up to 1000 models). */
  query: string;
}

const SHAPES: Shape[] = [
  {
    name: 'OpenAI',
    headers: (key) => ({ authorization: `Bearer ${key}` }),
    list: '/v1/models',
    get: (id) => `/v1/models/${id}`,
    query: '',
    ids: (body) => body.data.map((model: Json) => model.id),
    entry: (body, id) => body.data.find((model: Json) => model.id === id),
  },
  {
    name: 'Anthropic',
    headers: (key) => ({ 'x-api-key': key, 'anthropic-version': '2023-06-01' }),
    list: '/v1/models',
    get: (id) => `/v1/models/${id}`,
    query: '?limit=1000',
    ids: (body) => body.data.map((model: Json) => model.id),
    entry: (body, id) => body.data.find((model: Json) => model.id === id),
  },
  {
    name: 'Gemini (/v1beta)',
    headers: (key) => ({ 'x-goog-api-key': key }),
    list: '/v1beta/models',
    get: (id) => `/v1beta/models/${id}`,
    query: '?pageSize=1000',
    ids: (body) => body.models.map((model: Json) => model.name.replace(/^models\//, '')),
    entry: (body, id) => body.models.find((model: Json) => model.name === `models/${id}`),
  },
  {
    name: 'Gemini (/v1)',
    headers: (key) => ({ 'x-goog-api-key': key }),
    list: '/v1/models',
    get: (id) => `/v1/models/${id}`,
    query: '?pageSize=1000',
    ids: (body) => body.models.map((model: Json) => model.name.replace(/^models\//, '')),
    entry: (body, id) => body.models.find((model: Json) => model.name === `models/${id}`),
  },
];

const ALL_IDS = ['rosetta-echo', 'rosetta-image', 'second-image', 'second-echo'];

describe.each(SHAPES)('$name: list and get agree', (shape) => {
  it.each([
    ['a key for every model', TEST_KEY],
    ['a key limited to some models', LIMITED_KEY],
  ])('for %s', async (_label, key) => {
    const list = await request(app).get(`${shape.list}${shape.query}`).set(shape.headers(key));
    expect(list.status).toBe(200);
    const listed = shape.ids(list.body);
    expect(listed.length).toBeGreaterThan(0);
    for (const id of ALL_IDS) {
      const got = await request(app).get(shape.get(id)).set(shape.headers(key));
      if (listed.includes(id)) {
        expect({ id, status: got.status }).toEqual({ id, status: 200 });
        expect(got.body).toEqual(shape.entry(list.body, id));
      } else {
        expect({ id, status: got.status }).toEqual({ id, status: 404 });
      }
    }
  });
});

describe('every shape lists the models its callers can call', () => {
  const listed = async (shape: Shape) =>
    shape.ids((await request(app).get(`${shape.list}${shape.query}`).set(shape.headers(TEST_KEY))).body);

  it('OpenAI and Gemini list text and image models (images: POST /v1/images/generations); Anthropic lists the text models its messages API can call', async () => {
    expect(await listed(SHAPES[0]!)).toEqual(ALL_IDS);
    expect(await listed(SHAPES[1]!)).toEqual(['rosetta-echo', 'second-echo']);
    expect(await listed(SHAPES[2]!)).toEqual(ALL_IDS);
    expect(await listed(SHAPES[3]!)).toEqual(ALL_IDS);
  });

  it('Gemini says what each model can be called with: generateContent for text models, nothing for image models', async () => {
    const echo = await request(app).get('/v1beta/models/rosetta-echo').set('x-goog-api-key', TEST_KEY);
    expect(echo.body.supportedGenerationMethods).toEqual(['generateContent', 'streamGenerateContent', 'countTokens']);
    const image = await request(app).get('/v1beta/models/rosetta-image').set('x-goog-api-key', TEST_KEY);
    expect(image.status).toBe(200);
    expect(image.body).toMatchObject({
      name: 'models/rosetta-image',
      supportedGenerationMethods: [],
      description: expect.stringContaining('/v1/images/generations'),
    });
  });
});
