/**
 * The local model's tool arguments: built from a tool's JSON Schema so the schema accepts them, with strings from the
 * prompt.
 */
import Ajv2020 from 'ajv/dist/2020';
import { buildArguments } from '../../../lib/providers/local/tool-arguments';

const ajv = new Ajv2020({ strict: false, validateFormats: false });

function expectValid(schema: Record<string, unknown>, value: unknown): void {
  const validate = ajv.compile(schema);
  expect({ valid: validate(value), errors: validate.errors ?? null }).toEqual({ valid: true, errors: null });
}

/** Claude Code 2.1's `Read` tool schema (its required property and a few optional ones). */
const READ = {
  $schema: 'https://json-schema.org/draft/2020-12/schema',
  type: 'object',
  properties: {
    file_path: { description: 'The absolute path to the file to read', type: 'string' },
    offset: { type: 'integer', minimum: 0 },
    limit: { type: 'integer', exclusiveMinimum: 0 },
  },
  required: ['file_path'],
  additionalProperties: false,
};

describe('buildArguments', () => {
  it('fills a path property with the path the prompt mentions, and only the required properties', () => {
    const value = buildArguments(READ, { text: 'the file /tmp/x/token.txt', path: '/tmp/x/token.txt' });
    expect(value).toEqual({ file_path: '/tmp/x/token.txt' });
    expectValid(READ, value);
  });

  it('gives the path to properties whose name has a path word only', () => {
    const schema = {
      type: 'object',
      properties: {
        notebookPath: { type: 'string' },
        target_dir: { type: 'string' },
        direction: { type: 'string' },
        profile: { type: 'string' },
      },
      required: ['notebookPath', 'target_dir', 'direction', 'profile'],
    };
    expect(buildArguments(schema, { text: 'open ./a.ipynb', path: './a.ipynb' })).toEqual({
      notebookPath: './a.ipynb',
      target_dir: './a.ipynb',
      direction: 'open ./a.ipynb',
      profile: 'open ./a.ipynb',
    });
  });

  it('gives every kind of required property a value its schema accepts', () => {
    const schema = {
      type: 'object',
      $defs: {
        point: {
          type: 'object',
          properties: { x: { type: 'number', minimum: 2.5 }, y: { type: 'number', exclusiveMaximum: 0 } },
          required: ['x', 'y'],
        },
      },
      properties: {
        unit: { type: 'string', enum: ['celsius', 'fahrenheit'] },
        kind: { const: 'weather' },
        city: { type: 'string', minLength: 2, maxLength: 40 },
        code: { type: 'string', minLength: 8 },
        days: { type: 'integer', minimum: 3, maximum: 10 },
        ratio: { type: 'number', maximum: 0.5 },
        verbose: { type: 'boolean' },
        nothing: { type: 'null' },
        when: { type: 'string', format: 'date-time' },
        tags: { type: 'array', items: { type: 'string' }, minItems: 2 },
        none: { type: 'array', items: { type: 'string' }, maxItems: 0 },
        origin: { $ref: '#/$defs/point' },
        either: { anyOf: [{ type: 'null' }, { type: 'integer', minimum: 7 }] },
        both: {
          allOf: [
            { type: 'object', properties: { a: { type: 'string' } }, required: ['a'] },
            { properties: { b: { type: 'boolean' } }, required: ['b'] },
          ],
        },
        maybe: { type: ['null', 'string'] },
        nested: {
          type: 'object',
          properties: { inner: { type: 'object', properties: { deep: { type: 'integer' } }, required: ['deep'] } },
          required: ['inner'],
        },
        withDefault: { type: 'string', default: 'preset' },
        optional: { type: 'string' },
      },
      required: [
        'unit',
        'kind',
        'city',
        'code',
        'days',
        'ratio',
        'verbose',
        'nothing',
        'when',
        'tags',
        'none',
        'origin',
        'either',
        'both',
        'maybe',
        'nested',
        'withDefault',
      ],
      additionalProperties: false,
    };
    const value = buildArguments(schema, { text: 'Oslo' });
    expectValid(schema, value);
    expect(value).toMatchObject({
      unit: 'celsius',
      kind: 'weather',
      city: 'Oslo',
      code: 'OsloOslo',
      days: 3,
      verbose: false,
      withDefault: 'preset',
      either: 7,
    });
    expect(value).not.toHaveProperty('optional');
  });

  it('takes a Gemini-style (upper-case) type and stops filling a self-referencing schema', () => {
    const tree = {
      $defs: {
        node: {
          type: 'object',
          properties: { children: { type: 'array', items: { $ref: '#/$defs/node' } } },
          required: ['children'],
        },
      },
      $ref: '#/$defs/node',
    };
    expectValid(tree, buildArguments(tree, { text: '' }));
    const gemini = {
      type: 'OBJECT',
      properties: { city: { type: 'STRING' }, count: { type: 'INTEGER' } },
      required: ['city', 'count'],
    };
    expect(buildArguments(gemini, { text: 'Paris' })).toEqual({ city: 'Paris', count: 1 });
  });

  it('uses the property name when the prompt gives no text, and a URL for a URL property', () => {
    const schema = {
      type: 'object',
      properties: { query: { type: 'string' }, url: { type: 'string' } },
      required: ['query', 'url'],
    };
    expect(buildArguments(schema, { text: '' })).toEqual({ query: 'query', url: 'url' });
    expect(buildArguments(schema, { text: 'fetch https://example.org/a', url: 'https://example.org/a' })).toEqual({
      query: 'fetch https://example.org/a',
      url: 'https://example.org/a',
    });
  });

  it('stays bounded on a schema that demands the impossible (a caller controls the schema)', () => {
    const hostile = {
      $defs: {
        pair: {
          type: 'object',
          properties: { left: { $ref: '#/$defs/pair' }, right: { $ref: '#/$defs/pair' } },
          required: ['left', 'right'],
        },
      },
      type: 'object',
      properties: {
        tree: { $ref: '#/$defs/pair' },
        many: { type: 'array', items: { type: 'string' }, minItems: 1e9 },
        long: { type: 'string', minLength: 1e9 },
      },
      required: ['tree', 'many', 'long'],
    };
    const json = JSON.stringify(buildArguments(hostile, { text: 'x' }));
    expect(json.length).toBeLessThan(200_000);
  });
});
