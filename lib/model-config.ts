/**
 * The model table as an operator writes it: each model's id, provider or deployments, prices and limits. Plain
 * configuration, below everything that resolves it (the model table, deployment routing, the options).
 */
import type { RateLimits } from './stores/types';

/**
 * Credits charged per unit of use (docs/operations.md, "Billing"). The cache prices default to the
 * model's `input` price times its provider's vendor ratios (`Provider.cachePriceRatios`; 1 for a
 * provider that declares none).
 */
export interface ModelPricing {
  /** Credits per uncached input token. Default 1. */
  input?: number;
  /** Credits per output token (reasoning included). Default 1. */
  output?: number;
  /** Credits per generated image (image models). Default 1000. */
  image?: number;
  /** Credits per input token read from the upstream's prompt cache. Default: `input` × the vendor's ratio (Anthropic 0.1). */
  cacheRead?: number;
  /** Credits per input token written to the upstream's prompt cache. Default: `input` × the vendor's ratio (Anthropic 1.25). */
  cacheWrite?: number;
  /**
   * Credits per input token written to the prompt cache with the long lifetime (Anthropic's 1-hour
   * TTL, `Usage.cacheWriteLongTokens`). Default: `input` × the vendor's ratio (Anthropic 2).
   */
  cacheWriteLong?: number;
}

/** What a model does: generate text, generate images, or turn inputs into embedding vectors. */
export type ModelType = 'text' | 'image' | 'embedding';

/** One entry of the model table. */
export interface ModelConfig {
  /** The public id callers use. */
  id: string;
  /**
   * The `name` of the provider that serves it: shorthand for one deployment. Required unless `deployments` is given
   * (exactly one of the two).
   */
  provider?: string;
  /** The id sent upstream (by every deployment that gives none). Default: `id`. */
  upstreamModel?: string;
  /**
   * The upstream accounts that serve it, with their weights, priority tiers and own limits (docs/routing.md): calls
   * are spread over them, a failing one is cooled down and retried on another, and a session stays on one while it
   * can. Text models only. Default: the one deployment `provider` names.
   */
  deployments?: readonly DeploymentConfig[];
  /** What it does. Default `text`. An `embedding` model is priced per input token at `pricing.input`. */
  type?: ModelType;
  /** Other ids that lead to this model. */
  aliases?: readonly string[];
  /** Shown by the model lists. Default: `id`. */
  displayName?: string;
  contextWindow?: number;
  /**
   * Output cap used when a request gives none (and for the quota estimate). Default: the gateway's
   * `defaultMaxOutputTokens`.
   */
  maxOutputTokens?: number;
  pricing?: ModelPricing;
  /** Unix seconds, shown by the model lists. Default: when the gateway was created. */
  created?: number;
  /**
   * Models (ids or aliases of this table, of the same type) tried in order when this one fails with a
   * 5xx, a timeout or a connection failure before any byte reached the caller.
   */
  fallbacks?: readonly string[];
}

/**
 * One deployment of a model (docs/routing.md): a provider (one upstream account: its vendor protocol, base URL and
 * key) with the model's id there, how much of the traffic it takes, its priority tier and its own limits.
 */
export interface DeploymentConfig {
  /** The `name` of the provider (the upstream account) that serves it. */
  provider: string;
  /** The id sent upstream. Default: the model's `upstreamModel`, else its `id`. */
  upstreamModel?: string;
  /** Its share of the calls within its tier, relative to the others' (a positive number). Default 1. */
  weight?: number;
  /** Its tier: a lower tier is used first, a higher one only while every deployment below is out. Default 0. */
  priority?: number;
  /**
   * Its id in usage records, metrics, logs and the health view, and in the deployment state store: unique within
   * the model. Two models naming the same deployment share its health and limits. Default
   * `<provider>/<upstreamModel>`.
   */
  name?: string;
  /**
   * Its own requests per minute, tokens (input + output) per minute and calls in flight, counted in the gateway's
   * `rateLimitStore`. A deployment at its limit is skipped, never called. Default: none.
   */
  rateLimits?: RateLimits;
}
