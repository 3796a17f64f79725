/**
 * Canonical EmbedRequest ↔ Gemini `batchEmbedContents`: one upstream call for a batch (the gateway splits larger calls
 * to `maxEmbedInputs`, default 100).
 */
import type { EmbedRequest, EmbedResponse } from '../../canonical';
import { parseWithoutVectors, takeVector, WireVector } from '../../canonical/vectors';
import { GatewayError } from '../../errors';

/** Inputs per upstream call when the options give no `maxEmbedInputs` (Gemini's batch limit). */
export const GEMINI_MAX_EMBED_INPUTS = 100;

/**
 * The `batchEmbedContents` body: one request per input, each naming the model (`models/<id>`), with `taskType`,
 * `title` and `outputDimensionality` (from `dimensions`). Gemini embeds text only: token-id input is a 400 that says
 * so (the gateway cannot turn another tokenizer's ids back into text it is sure of).
 */
export function encodeBatchEmbedRequest(request: EmbedRequest, resource: string): Record<string, unknown> {
  const requests = request.inputs.map((input, index) => {
    if (typeof input !== 'string')
      throw new GatewayError(
        'invalid_request',
        `Input ${index} is token ids; Gemini embedding models take text only, so send the text itself.`,
        { param: 'input', code: 'unsupported_input' },
      );
    const item: Record<string, unknown> = { model: resource, content: { parts: [{ text: input }] } };
    if (request.taskType !== undefined) item.taskType = request.taskType;
    if (request.title !== undefined) item.title = request.title;
    if (request.dimensions !== undefined) item.outputDimensionality = request.dimensions;
    return item;
  });
  return { requests };
}

/** The answer's fields the gateway reads. */
export interface BatchEmbedBody {
  embeddings?: Array<{ values?: unknown }>;
}

/**
 * The vectors in order. Gemini reports no usage for embeddings: the gateway charges its own count. `cut`: the vectors'
 * text taken out before parsing ({@link parseBatchEmbedText}).
 */
export function decodeBatchEmbedResponse(
  body: BatchEmbedBody,
  inputs: number,
  upstream: string,
  model: string,
  cut: readonly string[] = [],
): EmbedResponse {
  const malformed = (what: string): never => {
    throw new GatewayError('upstream', `The upstream ${upstream} embeddings answer ${what}.`, {
      code: 'upstream_malformed',
    });
  };
  const numbers = (values: unknown) =>
    Array.isArray(values) && values.every((value) => typeof value === 'number') ? (values as number[]) : undefined;
  if (!Array.isArray(body?.embeddings)) return malformed('has no embeddings');
  if (body.embeddings.length !== inputs) malformed(`has ${body.embeddings.length} embeddings for ${inputs} inputs`);
  const vectors = body.embeddings.map((embedding) => {
    const vector = takeVector(embedding?.values, cut, numbers);
    // Gemini writes numbers: a base64 string where `values` belongs is not a vector.
    if (vector === undefined || (vector instanceof WireVector && vector.form !== 'json'))
      return malformed('holds an embedding without numeric values');
    return vector;
  });
  return { vectors, model };
}

/** The answer read from its text, each vector's numbers kept as Gemini wrote them (no number parsed). */
export function parseBatchEmbedText(text: string, inputs: number, upstream: string, model: string): EmbedResponse {
  const { body, cut } = parseWithoutVectors(text, 'values');
  return decodeBatchEmbedResponse(body as BatchEmbedBody, inputs, upstream, model, cut);
}
