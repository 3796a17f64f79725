/** A JSON object as parsed: the one test every module that reads untyped bodies uses. */
export type JsonObject = Record<string, unknown>;

/** Whether a parsed JSON value is an object (not null, not an array). */
export function isJsonObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * Copies the fields of an upstream object that the gateway does not model onto the object it
 * encoded (the upstream's replace the encoder's defaults, e.g. `logprobs: null`): the same-protocol
 * pass-through of an answer's unmodelled fields (`ResponseOrigin`). `merged` names a modelled field
 * (a usage block) that is returned as the upstream sent it, completed with the encoder's figures.
 */
export function passThroughFields(encoded: JsonObject, upstream: unknown, modelled: ReadonlySet<string>, merged?: string): void {
  if (!isJsonObject(upstream)) return;
  for (const name in upstream) {
    if (!modelled.has(name) && Object.hasOwn(upstream, name)) encoded[name] = upstream[name];
  }
  if (merged !== undefined && isJsonObject(upstream[merged]) && isJsonObject(encoded[merged])) encoded[merged] = { ...encoded[merged], ...upstream[merged] };
}
