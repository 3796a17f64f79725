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

/**
 * Copies the fields of an upstream object that the gateway does not model onto the object it
 * encoded (the upstream's replace the encoder's defaults, e.g. `logprobs: null`). `merged` names a
 * modelled field (a usage block) that is returned as the upstream sent it, completed with the
 * encoder's figures.
 */
export function passThroughFields(encoded: JsonObject, upstream: unknown, modelled: ReadonlySet<string>, merged?: string): void {
  if (!isJsonObject(upstream)) return;
  for (const name in upstream) {
    if (!modelled.has(name) && Object.hasOwn(upstream, name)) encoded[name] = upstream[name];
  }
  if (merged !== undefined && isJsonObject(upstream[merged]) && isJsonObject(encoded[merged])) encoded[merged] = { ...encoded[merged], ...upstream[merged] };
}
