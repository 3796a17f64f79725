/** The two spellings of a Gemini request field (camelCase, and the snake_case the REST API also accepts). */

/** `inlineData` → `inline_data`. */
export function snakeCase(name: string): string {
  return name.replace(/[A-Z]/g, (letter) => `_${letter.toLowerCase()}`);
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
  const value = object[keyOf(object, name)];
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
