/** The Gemini model list (`GET /v1beta/models`, paged) and single model (`GET /v1beta/models/{id}`). */
import { GatewayError } from '../../errors';
import { headerValue } from '../shared/credentials';
import type { EncodedResponse, HttpRequestView, ModelInfo, ModelListRoutes } from '../types';

/**
 * What a listed text model may be called with through this codec (an image model: nothing; it is called with OpenAI
 * images).
 */
export const SUPPORTED_GENERATION_METHODS: readonly string[] = Object.freeze([
  'generateContent',
  'streamGenerateContent',
  'countTokens',
]);

/** What a listed embedding model may be called with through this codec. */
export const EMBEDDING_METHODS: readonly string[] = Object.freeze(['embedContent', 'batchEmbedContents']);

/** Models of this gateway carry no version of their own; the list shows this one. */
const MODEL_VERSION = '001';
const DEFAULT_PAGE_SIZE = 50;
const MAX_PAGE_SIZE = 1000;

/**
 * One model. Like Google's own list (which shows Imagen models with `predict` only), the list holds
 * every model the key may use, and `supportedGenerationMethods` says what this protocol can do with
 * it: an image model has none (it is called with OpenAI images, `POST /v1/images/generations`).
 */
function encodeModel(model: ModelInfo) {
  const text = model.type === 'text';
  return {
    name: `models/${model.id}`,
    version: MODEL_VERSION,
    displayName: model.displayName,
    description:
      text || model.type === 'embedding'
        ? `${model.displayName}, served by the ${model.ownedBy} provider.`
        : `${model.displayName}, an image model served by the ${model.ownedBy} provider: call it with POST /v1/images/generations (OpenAI images).`,
    ...(model.contextWindow !== undefined ? { inputTokenLimit: model.contextWindow } : {}),
    ...(model.maxOutputTokens !== undefined ? { outputTokenLimit: model.maxOutputTokens } : {}),
    supportedGenerationMethods: text
      ? [...SUPPORTED_GENERATION_METHODS]
      : model.type === 'embedding'
        ? [...EMBEDDING_METHODS]
        : [],
  };
}

function queryValue(query: URLSearchParams, name: string, snakeName: string): string | undefined {
  const value = query.get(name) ?? query.get(snakeName);
  return value === null || value === '' ? undefined : value;
}

/** `pageSize`: default 50, at most 1000 (larger values are lowered, as the Google API does). */
export function pageSizeOf(query: URLSearchParams): number {
  const raw = queryValue(query, 'pageSize', 'page_size');
  if (raw === undefined) return DEFAULT_PAGE_SIZE;
  if (!/^\d+$/.test(raw))
    throw new GatewayError('invalid_request', 'pageSize: must be a non-negative integer', { param: 'pageSize' });
  const size = Number(raw);
  return size === 0 ? DEFAULT_PAGE_SIZE : Math.min(size, MAX_PAGE_SIZE);
}

/** The opaque page token: the offset of the next page. */
export function pageToken(offset: number): string {
  return Buffer.from(`offset:${offset}`).toString('base64url');
}

function offsetOf(query: URLSearchParams, total: number): number {
  const raw = queryValue(query, 'pageToken', 'page_token');
  if (raw === undefined) return 0;
  const match = /^offset:(\d+)$/.exec(Buffer.from(raw, 'base64url').toString('utf8'));
  const offset = match ? Number(match[1]) : Number.NaN;
  if (!(offset >= 0 && offset <= total))
    throw new GatewayError('invalid_request', 'pageToken: is not a page token this list returned', {
      param: 'pageToken',
    });
  return offset;
}

function encodeList(models: readonly ModelInfo[], request: HttpRequestView): EncodedResponse {
  const size = pageSizeOf(request.query);
  const offset = offsetOf(request.query, models.length);
  const page = models.slice(offset, offset + size);
  const next = offset + page.length;
  return {
    status: 200,
    body: { models: page.map(encodeModel), ...(next < models.length ? { nextPageToken: pageToken(next) } : {}) },
  };
}

function encodeOne(model: ModelInfo): EncodedResponse {
  return { status: 200, body: encodeModel(model) };
}

/**
 * The Gemini list routes. `/v1beta/models` is always Gemini's; `/v1/models` (which @google/genai 3.x calls)
 * is claimed only when the request carries a Gemini credential, so Bearer callers keep the OpenAI shape.
 */
export const geminiModelList: ModelListRoutes = Object.freeze({
  paths: Object.freeze(['/v1beta/models', '/v1/models']),
  claims: (request: HttpRequestView) =>
    request.path.startsWith('/v1beta') ||
    headerValue(request.headers, 'x-goog-api-key') !== undefined ||
    request.query.has('key'),
  encodeList,
  encodeModel: encodeOne,
});
