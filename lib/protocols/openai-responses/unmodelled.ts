/** Collects a wire object's unmodelled keys into the protocol's extension (allocated only when there is one). */
import type { Extensions } from '../../canonical';
import type { JsonObject } from '../../json';
import { RESPONSES } from '../../wire/openai/responses-extensions';

/** The keys of `raw` not in `modelled`, as sent; undefined when there are none. */
export function unmodelledFields(raw: JsonObject, modelled: ReadonlySet<string>): JsonObject | undefined {
  let extra: JsonObject | undefined;
  for (const name in raw) {
    if (!modelled.has(name) && Object.hasOwn(raw, name) && raw[name] !== undefined) (extra ??= {})[name] = raw[name];
  }
  return extra;
}

/** `{extensions: {'openai-responses': fields}}`, or nothing without fields. */
export function extensionOf(fields: JsonObject | undefined): { extensions?: Extensions } {
  return fields ? { extensions: { [RESPONSES]: fields } } : {};
}

/** `{extensions: …}` for the unmodelled keys of `raw` plus `also` (keys the decoder adds), or nothing. */
export function withUnmodelled(
  raw: JsonObject,
  modelled: ReadonlySet<string>,
  also?: JsonObject,
): { extensions?: Extensions } {
  const extra = unmodelledFields(raw, modelled);
  if (!also) return extensionOf(extra);
  return extensionOf(extra ? { ...extra, ...also } : also);
}
