/** The two spellings of a Gemini field (camelCase, and the snake_case the REST API accepts), for codec and provider. */

/**
 * Snake-case spellings already worked out: field names are constants of the Gemini codec and
 * provider, so the map stays small.
 */
const snakeSpellings = new Map<string, string>();
const MAX_REMEMBERED_SPELLINGS = 512;

/**
 * `inlineData` → `inline_data`. Remembered: a request asks for the snake spelling of every field it
 * does not send (most of `generationConfig`'s), and a regular-expression replace for each one was
 * the larger part of decoding a small Gemini request.
 */
export function snakeCase(name: string): string {
  let snake = snakeSpellings.get(name);
  if (snake === undefined) {
    snake = name.replace(/[A-Z]/g, (letter) => `_${letter.toLowerCase()}`);
    if (snakeSpellings.size < MAX_REMEMBERED_SPELLINGS) snakeSpellings.set(name, snake);
  }
  return snake;
}

/**
 * The key under which `object` carries the field `name`: the camelCase one, else the snake_case one.
 * For a missing field (to name it in an error), the spelling of `parentKey`, the key that holds `object`.
 */
export function keyOf(object: Record<string, unknown>, name: string, parentKey?: string): string {
  if (object[name] !== undefined) return name;
  const snake = snakeCase(name);
  return object[snake] !== undefined || parentKey?.includes('_') ? snake : name;
}

/**
 * A known field of a validated request object, under either spelling (camelCase wins when both are sent).
 * Only called at known places: keys inside user data (function args, schemas) are never renamed.
 */
export function field<T>(object: Record<string, unknown>, name: string): T | undefined {
  // Looked up directly rather than through keyOf: most calls ask for a field the request does not
  // send, and each lookup of a missing key walks to Object.prototype.
  let value = object[name];
  if (value === undefined) value = object[snakeCase(name)];
  return value === null || value === undefined ? undefined : (value as T);
}

/** Schema `properties` that accept each field under both spellings. */
export function bothSpellings(properties: Record<string, unknown>): Record<string, unknown> {
  const both: Record<string, unknown> = {};
  for (const [name, schema] of Object.entries(properties)) {
    both[name] = schema;
    both[snakeCase(name)] = schema;
  }
  return both;
}
