/**
 * What the generated validators (`schema.validator.ts`, scripts/validator-source.cjs) call at run time, in one module
 * of the gateway's own, so that the gateway needs no part of ajv when it runs (ajv is a build-time tool here).
 */

/** A string's length in Unicode code points, as JSON Schema's `minLength` / `maxLength` count it. */
export function ucs2length(text: string): number {
  let points = 0;
  for (let index = 0; index < text.length; index++) {
    points++;
    const unit = text.charCodeAt(index);
    // A high surrogate followed by a low one is a single code point.
    if (unit >= 0xd800 && unit <= 0xdbff && index + 1 < text.length) {
      const next = text.charCodeAt(index + 1);
      if (next >= 0xdc00 && next <= 0xdfff) index++;
    }
  }
  return points;
}
