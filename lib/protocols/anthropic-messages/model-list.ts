/** The Anthropic model list: `GET /v1/models` pages (`limit`, `after_id`, `before_id`) and `GET /v1/models/{id}`. */
import { GatewayError } from '../../errors';
import { invalidField } from '../shared/validate';
import type { ModelInfo } from '../types';

/** Page size when `limit` is absent, and the largest accepted. */
const DEFAULT_LIMIT = 20;
const MAX_LIMIT = 1000;

/** Unix seconds → RFC 3339 (`2025-09-29T00:00:00Z`). */
export function rfc3339(unixSeconds: number): string {
  return new Date(unixSeconds * 1000).toISOString().replace(/\.000Z$/, 'Z');
}

/** One model in the Anthropic shape. */
export function encodeAnthropicModel(model: ModelInfo) {
  return {
    type: 'model' as const,
    id: model.id,
    display_name: model.displayName,
    created_at: rfc3339(model.created),
    max_input_tokens: model.contextWindow ?? null,
    max_tokens: model.maxOutputTokens ?? null,
    capabilities: null,
    // Typed as always present by @anthropic-ai/sdk 1.x; the gateway's models are all current.
    lifecycle: 'active' as const,
    line: null,
    deprecated_at: null,
    retires_at: null,
  };
}

function parseLimit(raw: string | null): number {
  if (raw === null) return DEFAULT_LIMIT;
  const limit = /^\d+$/.test(raw) ? Number(raw) : NaN;
  if (!(limit >= 1 && limit <= MAX_LIMIT)) invalidField('limit', `must be an integer from 1 to ${MAX_LIMIT}`);
  return limit;
}

function indexOfId(models: readonly ModelInfo[], id: string, param: string): number {
  const index = models.findIndex((model) => model.id === id);
  return index === -1 ? invalidField(param, `no model with id '${id}'`) : index;
}

/**
 * A page of the list, in model-table order. `after_id` starts after that model, `before_id` ends
 * before it (the `limit` models nearest to it); `has_more` says whether models lie beyond the page
 * in the direction of travel.
 */
export function encodeAnthropicModelPage(models: readonly ModelInfo[], query: URLSearchParams) {
  const limit = parseLimit(query.get('limit'));
  const afterId = query.get('after_id');
  const beforeId = query.get('before_id');
  if (afterId !== null && beforeId !== null) invalidField('before_id', 'cannot be combined with after_id');
  let page: readonly ModelInfo[];
  let hasMore: boolean;
  if (beforeId !== null) {
    const end = indexOfId(models, beforeId, 'before_id');
    const start = Math.max(0, end - limit);
    page = models.slice(start, end);
    hasMore = start > 0;
  } else {
    const start = afterId === null ? 0 : indexOfId(models, afterId, 'after_id') + 1;
    page = models.slice(start, start + limit);
    hasMore = start + limit < models.length;
  }
  return {
    data: page.map(encodeAnthropicModel),
    has_more: hasMore,
    first_id: page[0]?.id ?? null,
    last_id: page[page.length - 1]?.id ?? null,
  };
}

/** The models the messages protocol can call: text models only. */
export function messageModels(models: readonly ModelInfo[]): ModelInfo[] {
  return models.filter((model) => model.type === 'text');
}

/** One model, or a 404 for a model this protocol cannot call. */
export function encodeAnthropicModelOrThrow(model: ModelInfo) {
  if (model.type !== 'text')
    throw new GatewayError(
      'not_found',
      `The model '${model.id}' is not a text model and cannot be used with the messages API.`,
      { code: 'model_not_found' },
    );
  return encodeAnthropicModel(model);
}
