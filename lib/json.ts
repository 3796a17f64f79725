/** A JSON object as parsed: the one test every module that reads untyped bodies uses. */
export type JsonObject = Record<string, unknown>;

/** Whether a parsed JSON value is an object (not null, not an array). */
export function isJsonObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * The keys of a wire object that are not in `modelled`, as a new object, or undefined when there
 * are none (so the common object with nothing extra costs no allocation): what a decoder puts in
 * an `extensions` entry. A `for...in` over own keys; no copy of the values.
 */
export function unmodelledFields(object: JsonObject, modelled: ReadonlySet<string>): JsonObject | undefined {
  let fields: JsonObject | undefined;
  for (const name in object) {
    if (modelled.has(name) || !Object.hasOwn(object, name)) continue;
    (fields ??= {})[name] = object[name];
  }
  return fields;
}
