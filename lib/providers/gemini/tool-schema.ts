/**
 * A tool's JSON Schema cleaned to what Gemini takes for a function's `parametersJsonSchema`: the keywords Google
 * documents are kept as they are, the rest rewritten where a documented keyword says the same (`const` → a one-value
 * `enum`, `exclusiveMinimum` → `minimum`, `oneOf` → `anyOf`) or dropped, with what they said moved into the
 * description where it matters (docs/translation.md, "Coding-agent probes and upstream strictness").
 */

/** A JSON Schema object (or any JSON value, where a schema is expected but something else came). */
type Schema = Record<string, unknown>;

/**
 * The keywords Gemini documents for a function's parameters, in either of its two forms: the JSON Schema subset of
 * `parametersJsonSchema` / `responseJsonSchema` (`$id`, `$defs`, `$ref`, `$anchor`, `type`, `format`, `title`,
 * `description`, `enum`, `items`, `prefixItems`, `minItems`, `maxItems`, `minimum`, `maximum`, `anyOf`, `oneOf`,
 * `properties`, `additionalProperties`, `required`, and Google's `propertyOrdering`), and the fields of the OpenAPI
 * `Schema` object of `parameters` (`nullable`, `example`, `default`, `minLength`, `maxLength`, `pattern`,
 * `minProperties`, `maxProperties`, beside those). Anything else is refused by `parameters` with a 400 "Invalid JSON
 * payload received. Unknown name …: Cannot find field." (claude-code-router #187, #489).
 */
export const GEMINI_SCHEMA_KEYWORDS: ReadonlySet<string> = new Set([
  '$id',
  '$defs',
  '$ref',
  '$anchor',
  'type',
  'format',
  'title',
  'description',
  'enum',
  'items',
  'prefixItems',
  'minItems',
  'maxItems',
  'minimum',
  'maximum',
  'anyOf',
  'properties',
  'additionalProperties',
  'required',
  'propertyOrdering',
  'nullable',
  'example',
  'default',
  'minLength',
  'maxLength',
  'pattern',
  'minProperties',
  'maxProperties',
]);

/**
 * The `format` values Gemini's Schema documents: `float` and `double` for numbers, `int32` and `int64` for
 * integers, `enum` and `date-time` for strings. The Gemini API refuses other string formats (`uri`, `email`, …).
 */
export const GEMINI_FORMATS: ReadonlySet<string> = new Set(['float', 'double', 'int32', 'int64', 'enum', 'date-time']);

/** Keywords with no meaning for the model, dropped without a note. */
const SILENT = new Set(['$schema', '$comment', 'examples', 'readOnly', 'writeOnly', 'deprecated']);

/** Keywords whose value is one schema, cleaned in place. */
const SCHEMA_VALUED = new Set(['items', 'additionalProperties']);
/** Keywords whose value is a list of schemas. */
const SCHEMA_LISTS = new Set(['anyOf', 'prefixItems']);
/** Keywords whose value maps names to schemas. */
const SCHEMA_MAPS = new Set(['properties', '$defs']);

function isSchema(value: unknown): value is Schema {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Where a cleaning records what it dropped: the keyword names, each once. */
export type DroppedKeywords = Set<string>;

/** `propertyNames: {type: 'string'}` says nothing of a JSON object (every key is a string). */
function saysNothing(keyword: string, value: unknown): boolean {
  return keyword === 'propertyNames' && isSchema(value) && Object.keys(value).every((key) => key === 'type');
}

/** One schema cleaned (a new object; `schema` is not touched), its dropped keywords added to `dropped`. */
function cleanSchema(schema: Schema, dropped: DroppedKeywords): Schema {
  const out: Schema = {};
  const notes: string[] = [];
  const bounds: Array<[string, number]> = [];
  const isInteger = schema.type === 'integer';
  for (const [keyword, value] of Object.entries(schema)) {
    if (GEMINI_SCHEMA_KEYWORDS.has(keyword)) {
      if (keyword === 'format' && !(typeof value === 'string' && GEMINI_FORMATS.has(value))) {
        notes.push(`format: ${String(value)}`);
        dropped.add('format');
      } else out[keyword] = cleanValue(keyword, value, dropped);
      continue;
    }
    dropped.add(keyword);
    if (SILENT.has(keyword) || saysNothing(keyword, value)) continue;
    switch (keyword) {
      case 'const':
        if (typeof value === 'string' || typeof value === 'number') out.enum = [value];
        else notes.push(`always ${JSON.stringify(value)}`);
        break;
      case 'oneOf':
        out.anyOf = cleanValue('anyOf', value, dropped);
        break;
      case 'exclusiveMinimum':
      case 'exclusiveMaximum':
        if (typeof value === 'number') bounds.push([keyword, value]);
        break;
      default:
        notes.push(`${keyword}: ${JSON.stringify(value)}`);
    }
  }
  for (const [keyword, value] of bounds) {
    const lower = keyword === 'exclusiveMinimum';
    const bound = lower ? 'minimum' : 'maximum';
    // An integer's exclusive bound is the next integer's inclusive one; a number's is kept as a note too.
    const inclusive = isInteger ? (lower ? Math.floor(value) + 1 : Math.ceil(value) - 1) : value;
    const given = out[bound];
    out[bound] =
      typeof given === 'number' ? (lower ? Math.max(given, inclusive) : Math.min(given, inclusive)) : inclusive;
    if (!isInteger) notes.push(`${lower ? 'greater' : 'less'} than ${value}`);
  }
  if (notes.length > 0) {
    const note = `(${notes.join('; ')})`;
    out.description = typeof out.description === 'string' && out.description ? `${out.description} ${note}` : note;
  }
  return out;
}

function cleanValue(keyword: string, value: unknown, dropped: DroppedKeywords): unknown {
  if (SCHEMA_VALUED.has(keyword)) return isSchema(value) ? cleanSchema(value, dropped) : value;
  if (SCHEMA_LISTS.has(keyword) && Array.isArray(value))
    return value.map((entry) => (isSchema(entry) ? cleanSchema(entry, dropped) : entry));
  if (SCHEMA_MAPS.has(keyword) && isSchema(value)) {
    const map: Schema = {};
    for (const [name, entry] of Object.entries(value))
      map[name] = isSchema(entry) ? cleanSchema(entry, dropped) : entry;
    return map;
  }
  return value;
}

/**
 * `schema` cleaned for Gemini (a copy; the caller's object is not changed): every keyword Gemini documents kept as
 * it is, so a schema written for Gemini comes back equal; the names of the keywords rewritten or dropped are added
 * to `dropped`.
 */
export function geminiToolSchema(schema: unknown, dropped: DroppedKeywords): unknown {
  return isSchema(schema) ? cleanSchema(schema, dropped) : schema;
}
