/**
 * A call's rate limits: the scopes that count it (its key, and its key × model), admitted before the quota hold
 * (requests, the estimated tokens, a concurrency slot), settled with the tokens used however the call ends.
 */
import type { GenerateRequest, Usage } from '../canonical';
import { GatewayError } from '../errors';
import type { ResolvedModel } from '../models';
import type { ProtocolCodec, StreamEncoder } from '../protocols/types';
import { mergeKeyLimits } from '../stores/rate-limits';
import type {
  KeyRateLimits,
  Principal,
  RateLimitLease,
  RateLimits,
  RateLimitScope,
  RateLimitStore,
} from '../stores/types';
import type { Call } from './call';
import { boundInput, type InputBound } from './input-tokens';
import { logRequest } from './log';

/** The codec method that turns a call's rate-limit state into its protocol's headers. */
export type RateLimitHeaders = ProtocolCodec['rateLimitHeaders'];

const REFUSED_BY = {
  requests: 'requests per minute',
  tokens: 'tokens per minute',
  concurrent: 'calls in flight',
} as const;

/** A scope's limits as the store takes them: only positive integers (`null` and absent both mean none). */
function scopeOf(id: string, limits: RateLimits): RateLimitScope | undefined {
  const { requestsPerMinute, tokensPerMinute, concurrent } = limits;
  if (requestsPerMinute == null && tokensPerMinute == null && concurrent == null) return undefined;
  return {
    id,
    ...(requestsPerMinute != null ? { requestsPerMinute } : {}),
    ...(tokensPerMinute != null ? { tokensPerMinute } : {}),
    ...(concurrent != null ? { concurrent } : {}),
  };
}

/**
 * One gateway's rate limiting: the default limits, a key's own merged over them (each merge made once per limits
 * object), and the store. A principal without limits under a gateway without a default costs one check and nothing
 * else: no store call, no allocation.
 */
export class RateLimiter {
  private readonly merged = new WeakMap<KeyRateLimits, KeyRateLimits>();

  constructor(
    readonly store: RateLimitStore,
    private readonly defaults: KeyRateLimits | undefined,
  ) {}

  /** Whether any limit may count this principal's calls (when false, skip {@link admit} and its estimate). */
  applies(principal: Principal): boolean {
    return this.defaults !== undefined || principal.rateLimits !== undefined;
  }

  /**
   * Admits a call of `tokens` (estimated) to `model` (asked for as `requested`), or throws a 429 `rate_limit` with
   * `Retry-After` and the protocol's headers. Undefined when no limit counts the call.
   */
  async admit(
    principal: Principal,
    model: ResolvedModel,
    requested: string,
    tokens: number,
    requestId: string,
    headersOf: RateLimitHeaders,
  ): Promise<RateSlot | undefined> {
    const scopes = this.scopesFor(principal, model, requested);
    if (scopes === undefined) return undefined;
    let outcome: Awaited<ReturnType<RateLimitStore['acquire']>>;
    try {
      outcome = await this.store.acquire({ scopes, tokens, requestId });
    } catch (error) {
      throw new GatewayError('unavailable', 'The rate-limit store is unavailable; try again later.', {
        cause: error,
        retryAfter: 1,
      });
    }
    const headers = headersOf?.(outcome.state);
    if (!outcome.ok) {
      const seconds = Math.max(1, Math.ceil(outcome.retryAfterMs / 1000));
      logRequest(
        '%s rate limited (%s) for %s; retry in %d ms',
        requestId,
        outcome.reason,
        principal.id,
        outcome.retryAfterMs,
      );
      throw new GatewayError(
        'rate_limit',
        `Rate limit reached for this key on ${REFUSED_BY[outcome.reason]}; try again in ${seconds} s.`,
        {
          code: 'rate_limit_exceeded',
          retryAfter: seconds,
          headers: { ...headers, 'retry-after-ms': String(Math.max(1, outcome.retryAfterMs)) },
        },
      );
    }
    return new RateSlot(this.store, outcome.lease, headers, requestId);
  }

  /** The scopes of a call: the key's, then the key × model's; undefined when none has a limit. */
  private scopesFor(principal: Principal, model: ResolvedModel, requested: string): RateLimitScope[] | undefined {
    const limits = this.limitsOf(principal);
    if (limits === undefined) return undefined;
    const scopes: RateLimitScope[] = [];
    const own = scopeOf(principal.id, limits);
    if (own) scopes.push(own);
    const perModel = limits.models?.[model.id] ?? limits.models?.[requested];
    const modelScope = perModel && scopeOf(`${principal.id}\n${model.id}`, perModel);
    if (modelScope) scopes.push(modelScope);
    return scopes.length > 0 ? scopes : undefined;
  }

  private limitsOf(principal: Principal): KeyRateLimits | undefined {
    const own = principal.rateLimits;
    if (own === undefined) return this.defaults;
    if (this.defaults === undefined) return own;
    let merged = this.merged.get(own);
    if (!merged) {
      merged = mergeKeyLimits(this.defaults, own);
      this.merged.set(own, merged);
    }
    return merged;
  }
}

/**
 * An admitted call's lease, returned once: {@link settle} with the tokens the call used (answered, or a stream
 * however it ended), or {@link release} when it failed (its estimated tokens given back). A failing store is logged.
 */
export class RateSlot {
  private finished = false;

  constructor(
    private readonly store: RateLimitStore,
    private readonly lease: RateLimitLease,
    /** The protocol's rate-limit headers for the answer (undefined: the protocol has none). */
    readonly headers: Record<string, string> | undefined,
    private readonly requestId: string,
  ) {}

  async settle(usedTokens: number): Promise<void> {
    if (this.finished) return;
    this.finished = true;
    try {
      await this.store.settle(this.lease, usedTokens);
    } catch (error) {
      logRequest('%s rate-limit settle failed: %O', this.requestId, error);
    }
  }

  release(): Promise<void> {
    return this.settle(0);
  }
}

/** The tokens a call used, as tokens-per-minute limits count them: every input token (cached ones too) and output. */
export function usedTokens(usage: Usage): number {
  return usage.inputTokens + usage.outputTokens;
}

/** The tokens a text call is admitted on: its input bound and its output cap for every choice. */
export function estimatedTokens(request: GenerateRequest, model: ResolvedModel, inputBound: number): number {
  return inputBound + (request.maxOutputTokens ?? model.maxOutputTokens) * (request.choiceCount ?? 1);
}

/** A text call admitted by its rate limits: its slot, and the input bound its quota hold reuses. */
export interface AdmittedText {
  slot: RateSlot | undefined;
  bound: InputBound;
}

/**
 * Admits a text call (the caller is counted by some limit: {@link RateLimiter.applies}): its input bounded as its
 * quota hold will be, and the bound plus its output cap taken from its tokens per minute.
 */
export async function admitText(
  limiter: RateLimiter,
  call: Call,
  request: GenerateRequest,
  model: ResolvedModel,
): Promise<AdmittedText> {
  const bound = await boundInput(request, model, call.requestId);
  const tokens = estimatedTokens(request, model, bound.bound);
  const slot = await limiter.admit(call.caller, model, request.model, tokens, call.requestId, call.rateLimitHeaders);
  return { slot, bound };
}

/** A stream encoder that also sends the rate-limit headers with the stream's first byte. */
export function withRateLimitHeaders(encoder: StreamEncoder, headers: Record<string, string>): StreamEncoder {
  return { headers: { ...encoder.headers, ...headers }, encode: (part) => encoder.encode(part) };
}
