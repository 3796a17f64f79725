/** Percent-decoding of caller text (a path segment, a model id) that may not be valid percent-encoding. */

/**
 * `text` percent-decoded once; as it is when it is not valid percent-encoding (a lone `%`, a broken UTF-8 sequence).
 */
export function percentDecode(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}
