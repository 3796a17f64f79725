/** Canonical EmbedRequest ↔ an OpenAI-compatible `/embeddings` (OpenAI, Azure, vLLM, Ollama, Voyage, Mistral…). */
import createDebug from 'debug';
import type { EmbedRequest, EmbedResponse } from '../../canonical';
import {
  type EmbeddingVector,
  parseWithoutVectors,
  takeVector,
  vectorFloat32,
  WireVector,
} from '../../canonical/vectors';
import { GatewayError } from '../../errors';
import { reportDrop, type Warn } from '../../warnings';
import type { EmbeddingsRequestExtension } from '../../wire/openai/extensions';

const log = createDebug('rosetta:provider');

/** Inputs per upstream call when the options give no `maxEmbedInputs` (OpenAI's limit). */
export const OPENAI_MAX_EMBED_INPUTS = 2048;

/**
 * The upstream body: the inputs (strings, or token-id arrays), `dimensions` and `user`, with an OpenAI embeddings
 * caller's unmodelled fields under them. `encoding_format: 'base64'` when an OpenAI embeddings caller asked for base64
 * and `base64` allows it (the answer is then bytes to copy, not numbers to parse and print); otherwise the upstream's
 * default, floats, which every compatible server answers (the gateway encodes base64 itself when it must). `taskType`
 * and `title` have no counterpart: dropped with a warning.
 */
export function encodeEmbeddingsRequest(
  request: EmbedRequest,
  upstreamModel: string,
  base64: boolean,
  warn?: Warn,
): Record<string, unknown> {
  const extension = request.extensions?.['openai-embeddings'] as EmbeddingsRequestExtension | undefined;
  const body: Record<string, unknown> = { ...extension?.fields, model: upstreamModel, input: request.inputs };
  if (base64 && extension?.encodingFormat === 'base64') body.encoding_format = 'base64';
  if (request.dimensions !== undefined) body.dimensions = request.dimensions;
  if (request.user !== undefined) body.user = request.user;
  for (const setting of ['taskType', 'title'] as const) {
    if (request[setting] !== undefined)
      reportDrop(log, warn, {
        type: 'unsupported-setting',
        setting,
        details: 'OpenAI-compatible embeddings have no task type or title',
      });
  }
  return body;
}

/** The upstream answer's fields the gateway reads. */
export interface EmbeddingsBody {
  data?: Array<{ index?: number; embedding?: unknown }>;
  model?: string;
  usage?: { prompt_tokens?: number; total_tokens?: number };
}

function malformed(upstream: string, what: string): never {
  throw new GatewayError('upstream', `The upstream ${upstream} embeddings answer ${what}.`, {
    code: 'upstream_malformed',
  });
}

/** A vector as the upstream sent it: JSON numbers as they are, base64 (little-endian float32) decoded. */
function vectorOf(embedding: unknown, upstream: string): EmbeddingVector {
  if (Array.isArray(embedding)) {
    if (!embedding.every((value) => typeof value === 'number'))
      malformed(upstream, 'holds a vector that is not numbers');
    return embedding as number[];
  }
  if (typeof embedding === 'string') return vectorFloat32(new WireVector(embedding, 'base64'));
  return malformed(upstream, 'holds an item without an embedding');
}

/**
 * The upstream's answer read from its text: its vectors kept as the upstream wrote them ({@link WireVector}: no number
 * parsed), the rest parsed (`parseWithoutVectors`).
 */
export function parseEmbeddingsText(
  text: string,
  inputs: number,
  upstream: string,
  fallbackModel: string,
): EmbedResponse {
  const { body, cut } = parseWithoutVectors(text, 'embedding');
  return decodeEmbeddingsResponse(body as EmbeddingsBody, inputs, upstream, fallbackModel, cut);
}

/** The vectors in input order (by each item's `index`), the model, and the usage when the upstream reported it. */
export function decodeEmbeddingsResponse(
  body: EmbeddingsBody,
  inputs: number,
  upstream: string,
  fallbackModel: string,
  cut: readonly string[] = [],
): EmbedResponse {
  if (!Array.isArray(body?.data)) malformed(upstream, 'has no data');
  const vectors: EmbeddingVector[] = new Array(inputs);
  const read = (embedding: unknown) => vectorOf(embedding, upstream);
  body.data.forEach((item, position) => {
    const index = typeof item?.index === 'number' ? item.index : position;
    if (!Number.isInteger(index) || index < 0 || index >= inputs || vectors[index] !== undefined)
      malformed(upstream, `has an item at index ${index} for ${inputs} inputs`);
    vectors[index] = takeVector(item.embedding, cut, read) ?? malformed(upstream, 'holds a vector that is not numbers');
  });
  if (body.data.length !== inputs) malformed(upstream, `has ${body.data.length} embeddings for ${inputs} inputs`);
  const response: EmbedResponse = { vectors, model: body.model ?? fallbackModel };
  const tokens = body.usage?.prompt_tokens ?? body.usage?.total_tokens;
  if (typeof tokens === 'number' && Number.isFinite(tokens) && tokens >= 0) response.usage = { inputTokens: tokens };
  return response;
}
