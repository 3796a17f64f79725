/**
 * Builds a tool call's arguments from the tool's JSON Schema: the required properties, each with a value the schema
 * accepts.
 */

type Schema = Record<string, unknown>;

/** What a string value may be taken from: the prompt's words after the tool name, and a path or URL it mentions. */
export interface ArgumentHints {
  /** The prompt's text after the tool name (the whole prompt when it names no tool). */
  text: string;
  /** The first path-like word of the prompt (`/tmp/a.txt`, `./src`, `~/notes.md`, `C:\data`), if any. */
  path?: string;
  /** The first http(s) URL of the prompt, if any. */
  url?: string;
}

/** Nesting depth from which an array gets only the items its `minItems` demands (so a recursive schema ends). */
const MAX_DEPTH = 8;
/** Nesting depth at which filling stops whatever the schema demands (a schema no finite value satisfies). */
const HARD_DEPTH = 32;
/** How many `$ref`s and combinators are followed to reach one value's schema. */
const MAX_RESOLVE = 16;

/** Fixed example values for the string formats a schema may demand. */
const FORMAT_EXAMPLES: Readonly<Record<string, string>> = Object.freeze({
  'date-time': '2025-01-01T00:00:00Z',
  date: '2025-01-01',
  time: '00:00:00Z',
  email: 'user@example.com',
  uri: 'https://example.com/',
  url: 'https://example.com/',
  uuid: '00000000-0000-4000-8000-000000000000',
  ipv4: '127.0.0.1',
  ipv6: '::1',
  hostname: 'example.com',
});

/** Words of a property name that make it a path (`file_path`, `notebookPath`, `dir`) or a URL (`url`, `page_link`). */
const PATH_WORDS: ReadonlySet<string> = new Set([
  'path',
  'file',
  'filename',
  'filepath',
  'dir',
  'directory',
  'folder',
  'cwd',
]);
const URL_WORDS: ReadonlySet<string> = new Set(['url', 'uri', 'link', 'href']);

/** The words of a property name: split at `_`, `-`, `.` and lower-to-upper case changes, lower-cased. */
function nameWords(property: string): string[] {
  return property
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .split(/[\s_.-]+/)
    .map((word) => word.toLowerCase());
}

function isSchema(value: unknown): value is Schema {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Resolves a local `$ref` (`#/$defs/x`, `#/definitions/x`) against the root schema; anything else resolves to `{}`. */
function resolveRef(ref: string, root: Schema): Schema {
  if (!ref.startsWith('#')) return {};
  let target: unknown = root;
  for (const token of ref.slice(1).split('/').filter(Boolean)) {
    const key = decodeURIComponent(token).replace(/~1/g, '/').replace(/~0/g, '~');
    target = isSchema(target) ? target[key] : undefined;
  }
  return isSchema(target) ? target : {};
}

/** The schema with `$ref` followed, the first non-null `anyOf`/`oneOf` branch taken and `allOf` merged. */
function effective(schema: Schema, root: Schema, hops: number): Schema {
  if (hops > MAX_RESOLVE) return schema;
  if (typeof schema.$ref === 'string') {
    const { $ref, ...rest } = schema;
    return effective({ ...resolveRef($ref as string, root), ...rest }, root, hops + 1);
  }
  for (const keyword of ['anyOf', 'oneOf'] as const) {
    const branches = schema[keyword];
    if (Array.isArray(branches) && branches.length > 0) {
      const { [keyword]: _branches, ...rest } = schema;
      const branch = branches.find((item) => isSchema(item) && item.type !== 'null') ?? branches[0];
      return effective({ ...rest, ...(isSchema(branch) ? branch : {}) }, root, hops + 1);
    }
  }
  if (Array.isArray(schema.allOf)) {
    const { allOf, ...rest } = schema;
    let merged: Schema = rest;
    for (const part of allOf) {
      if (!isSchema(part)) continue;
      const resolved = effective(part, root, hops + 1);
      merged = {
        ...merged,
        ...resolved,
        properties: { ...(merged.properties as Schema | undefined), ...(resolved.properties as Schema | undefined) },
        required: [
          ...new Set([
            ...((merged.required as string[] | undefined) ?? []),
            ...((resolved.required as string[] | undefined) ?? []),
          ]),
        ],
      };
    }
    return merged;
  }
  return schema;
}

/** The schema's type: the first non-null one it names (case-insensitive), else what its keywords imply. */
function typeOf(schema: Schema): string {
  const types = (Array.isArray(schema.type) ? schema.type : [schema.type])
    .filter((type): type is string => typeof type === 'string')
    .map((type) => type.toLowerCase());
  const named = types.find((type) => type !== 'null') ?? types[0];
  if (named !== undefined) return named;
  if (isSchema(schema.properties)) return 'object';
  if (schema.items !== undefined || Array.isArray(schema.prefixItems)) return 'array';
  return 'string';
}

function numberValue(schema: Schema, integer: boolean): number {
  let low = typeof schema.minimum === 'number' ? schema.minimum : undefined;
  if (typeof schema.exclusiveMinimum === 'number') low = Math.max(low ?? -Infinity, schema.exclusiveMinimum + 1);
  let high = typeof schema.maximum === 'number' ? schema.maximum : undefined;
  if (typeof schema.exclusiveMaximum === 'number') high = Math.min(high ?? Infinity, schema.exclusiveMaximum - 1);
  let value = low ?? Math.min(1, high ?? 1);
  if (high !== undefined && value > high) value = high;
  return integer ? Math.ceil(value) : value;
}

/** What one fill may spend, so a hostile schema (huge `minItems`/`minLength`, fan-out recursion) stays cheap. */
interface Fill {
  root: Schema;
  hints: ArgumentHints;
  /** Values still to be made; when none are left, objects and arrays come out empty. */
  values: number;
  /** String characters still to be spent; when none are left, strings come out empty. */
  chars: number;
}

/** Values one call's arguments may hold, and string characters in all. */
const MAX_VALUES = 1_000;
const MAX_CHARS = 100_000;

function stringValue(schema: Schema, property: string, fill: Fill): string {
  const { hints } = fill;
  const format = typeof schema.format === 'string' ? FORMAT_EXAMPLES[schema.format] : undefined;
  let value: string;
  const words = nameWords(property);
  if (words.some((word) => PATH_WORDS.has(word)) && hints.path !== undefined) value = hints.path;
  else if (
    (words.some((word) => URL_WORDS.has(word)) || schema.format === 'uri' || schema.format === 'url') &&
    hints.url !== undefined
  )
    value = hints.url;
  else if (format !== undefined) value = format;
  else value = hints.text.length > 0 ? hints.text : property;
  if (typeof schema.maxLength === 'number' && value.length > schema.maxLength)
    value = value.slice(0, Math.max(0, schema.maxLength));
  if (typeof schema.minLength === 'number' && value.length < schema.minLength)
    value = value.padEnd(Math.min(schema.minLength, fill.chars), value.length > 0 ? value : 'x');
  value = value.slice(0, fill.chars);
  fill.chars -= value.length;
  return value;
}

function arrayValue(schema: Schema, property: string, fill: Fill, depth: number): unknown[] {
  const min = typeof schema.minItems === 'number' ? schema.minItems : 0;
  const max = typeof schema.maxItems === 'number' ? schema.maxItems : Infinity;
  const count = Math.min(depth >= MAX_DEPTH ? min : Math.min(Math.max(min, 1), max), fill.values);
  const prefix = Array.isArray(schema.prefixItems) ? schema.prefixItems : [];
  const items: unknown[] = [];
  for (let index = 0; index < count && fill.values > 0; index++) {
    const item = prefix[index] ?? schema.items;
    items.push(valueFor(isSchema(item) ? item : {}, property, fill, depth + 1));
  }
  return items;
}

function objectValue(schema: Schema, fill: Fill, depth: number): Record<string, unknown> {
  const properties = isSchema(schema.properties) ? schema.properties : {};
  const required = Array.isArray(schema.required)
    ? schema.required.filter((name): name is string => typeof name === 'string')
    : [];
  const value: Record<string, unknown> = {};
  if (depth >= HARD_DEPTH) return value;
  for (const name of required) {
    if (fill.values <= 0) break;
    const property = properties[name];
    value[name] = valueFor(isSchema(property) ? property : {}, name, fill, depth + 1);
  }
  return value;
}

function valueFor(raw: Schema, property: string, fill: Fill, depth: number): unknown {
  fill.values--;
  const schema = effective(raw, fill.root, 0);
  if ('const' in schema) return schema.const;
  if (Array.isArray(schema.enum) && schema.enum.length > 0) return schema.enum[0];
  if ('default' in schema) return schema.default;
  switch (typeOf(schema)) {
    case 'object':
      return objectValue(schema, fill, depth);
    case 'array':
      return arrayValue(schema, property, fill, depth);
    case 'integer':
      return numberValue(schema, true);
    case 'number':
      return numberValue(schema, false);
    case 'boolean':
      return false;
    case 'null':
      return null;
    default:
      return stringValue(schema, property, fill);
  }
}

/**
 * Arguments for a tool with this parameter schema: an object holding every required property,
 * recursively. A value is the schema's `const`, else its first `enum` value, else its `default`,
 * else by type: a string whose name has a path word (`file_path`, `notebookPath`, `dir`, …) gets
 * the prompt's path, one with a URL word (`url`, `link`, …) its URL, a string with a known `format` a fixed example,
 * any other string the
 * prompt's text (or the property's name when that is empty), clipped or padded to its length
 * bounds; numbers their lower bound (1 without one, kept under the upper bound); booleans `false`;
 * arrays `minItems` items, at least one above the eighth level of nesting; objects their own
 * required properties. One call makes at most 1,000 values and 100,000 string characters; past
 * that, values come out empty (and may no longer satisfy a schema that demands more).
 */
export function buildArguments(parameters: Schema, hints: ArgumentHints): Record<string, unknown> {
  const value = valueFor(parameters, '', { root: parameters, hints, values: MAX_VALUES, chars: MAX_CHARS }, 0);
  return isSchema(value) ? value : {};
}
