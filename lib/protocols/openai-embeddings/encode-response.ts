/**
 * Canonical EmbedResponse → the embeddings response body (`object: "list"`), written as JSON text: each vector's text
 * goes in as the upstream wrote it when the encodings agree, converted when they do not (lib/canonical/vectors.ts),
 * never as an array of numbers for `JSON.stringify` to print again.
 */
import type { EmbedResponse } from '../../canonical';
import { JsonText, vectorBase64, vectorJson } from '../../canonical/vectors';
import type { EncodingFormat } from './decode-request';

/** The embeddings response: one `data[]` item per input, in input order; `usage` the tokens charged. */
export function encodeEmbeddingsResponse(
  response: EmbedResponse,
  format: EncodingFormat,
  inputTokens: number,
): JsonText {
  const base64 = format === 'base64';
  const items: string[] = new Array(response.vectors.length);
  for (let index = 0; index < items.length; index++) {
    const vector = response.vectors[index]!;
    const embedding = base64 ? `"${vectorBase64(vector)}"` : vectorJson(vector);
    items[index] = `{"object":"embedding","index":${index},"embedding":${embedding}}`;
  }
  const tokens = JSON.stringify(inputTokens);
  return new JsonText(
    `{"object":"list","data":[${items.join(',')}],"model":${JSON.stringify(response.model)},` +
      `"usage":{"prompt_tokens":${tokens},"total_tokens":${tokens}}}`,
  );
}
