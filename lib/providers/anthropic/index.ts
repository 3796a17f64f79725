/** The Anthropic Messages provider: Claude models over POST /v1/messages, streamed or not. */
import { positiveInteger } from '../../config-check';
import type { GenerateRequest, ProviderStreamPart } from '../../canonical';
import { GatewayConfigError } from '../../errors';
import type { ModelConfig } from '../../model-config';
import type { BodySink } from '../../upstream/dispatch';
import { decodeEventStream } from '../../upstream/sse';
import type { UpstreamClient } from '../../upstream/upstream-client';
import { modelsFor, upstreamClientFor, type UpstreamProviderOptions } from '../../upstream/provider-options';
import type { CachePriceRatios, Provider, ProviderCallContext, ProviderGenerateResponse } from '../types';
import type { PromptCaching } from './cache-breakpoints';
import { ANTHROPIC_CACHE_PRICE_RATIOS } from './cache-prices';
import { decodeMessageResponse, reportedAnthropicUsage, type AnthropicMessageResponse } from './decode-response';
import { MessageStreamDecoder } from './decode-stream';
import { supportsAdaptiveThinking } from './adaptive-thinking';
import {
  anthropicBetaHeader,
  anthropicBetaQuery,
  encodeMessagesRequest,
  type EncodeMessagesOptions,
} from './encode-request';
import { ANTHROPIC_MAX_IMAGE_TOKENS } from './image-token-bound';

export { supportsAdaptiveThinking } from './adaptive-thinking';
export type { PromptCaching } from './cache-breakpoints';

/** The `anthropic-version` header sent with every request. */
export const ANTHROPIC_VERSION = '2023-06-01';

/** Options of {@link AnthropicProvider}. */
export interface AnthropicProviderOptions extends UpstreamProviderOptions {
  /** Provider name for the model table and `provider/model` ids. Default `anthropic`. */
  name?: string;
  /** Sent as `x-api-key`. */
  apiKey?: string;
  /** Base URL without the version path (the provider appends `/v1/messages`). Default `https://api.anthropic.com`. */
  baseUrl?: string;
  /** Extra headers for every request (e.g. an `anthropic-beta` list, which is merged with a caller's own). */
  headers?: Record<string, string>;
  /**
   * `max_tokens` for a request without an output cap (Anthropic requires one; the gateway normally sets it). Default
   * 4096.
   */
  defaultMaxTokens?: number;
  /**
   * Which upstream model ids take adaptive thinking. For callers of another protocol that ask for
   * reasoning, such a model gets `thinking: {type: "adaptive"}` with `output_config.effort` (the
   * caller's effort, or its budget bucketed: up to 1024 tokens `low`, up to 8192 `medium`, more
   * `high`); any other model gets `{type: "enabled", budget_tokens}` (the caller's budget, or
   * 1024/1024/8192/24576/32768/65536 for minimal/low/medium/high/xhigh/max), kept within
   * 1024 ≤ budget < max_tokens. Anthropic callers' own `thinking` always passes through.
   *
   * Default: Claude Opus 4.7 and later, Sonnet 4.6 and later, any family from major version 5,
   * recognised from ids like `claude-opus-4-7` (an assumption from third-party documentation, not
   * verified against the live API).
   */
  adaptiveThinking?: (upstreamModel: string) => boolean;
  /**
   * Whose prompt-cache breakpoints (`cache_control`) the upstream gets. `caller`: those the caller
   * set — an Anthropic caller's, or a chat-completions caller's `cache_control` on content parts and
   * tools (the OpenRouter and LiteLLM convention). `auto`: those, and when a request has none (every
   * Gemini and Responses caller, a client that sets none), the gateway's own on the last tool, the
   * system prompt and the last user turn, as Claude Code places its own. Caching writes cost 1.25 times
   * the input price and reads a tenth, so `auto` pays off from the second call that repeats a prefix
   * of at least the model's minimum (1024 tokens and more); a one-off call with a long prompt costs up
   * to a quarter more on its input. Either way, at most 4 breakpoints are sent (the earliest of the
   * conversation dropped first, with a warning). Default `caller`.
   */
  promptCaching?: PromptCaching;
}

function lowerCaseKeys(headers: Record<string, string> | undefined): Record<string, string> {
  return Object.fromEntries(Object.entries(headers ?? {}).map(([name, value]) => [name.toLowerCase(), value]));
}

/**
 * Calls the Anthropic Messages API over undici. Callers of any protocol are translated; Anthropic
 * callers' bodies (and `anthropic-beta` headers, with `?beta=true` when they carry betas) pass
 * through with only the model, `max_tokens` and `stream` set by the gateway.
 */
export class AnthropicProvider implements Provider {
  readonly specificationVersion = 'v1' as const;
  readonly name: string;
  readonly defaultModels: readonly ModelConfig[];
  private readonly client: UpstreamClient;
  private readonly defaultMaxTokens: number;
  private readonly configuredBeta: string | undefined;
  private readonly adaptiveThinking: (upstreamModel: string) => boolean;
  private readonly promptCaching: PromptCaching;

  constructor(options: AnthropicProviderOptions = {}) {
    this.name = options.name ?? 'anthropic';
    this.defaultMaxTokens = positiveInteger('AnthropicProvider', 'defaultMaxTokens', options.defaultMaxTokens, 4096);
    if (options.adaptiveThinking !== undefined && typeof options.adaptiveThinking !== 'function') {
      throw new GatewayConfigError(
        'ERR_GATEWAY_INVALID_OPTION',
        'adaptiveThinking must be a function (upstreamModel: string) => boolean.',
        'adaptiveThinking',
      );
    }
    this.adaptiveThinking = options.adaptiveThinking ?? supportsAdaptiveThinking;
    if (options.promptCaching !== undefined && options.promptCaching !== 'caller' && options.promptCaching !== 'auto') {
      throw new GatewayConfigError(
        'ERR_GATEWAY_INVALID_OPTION',
        `promptCaching must be 'caller' or 'auto', not ${JSON.stringify(options.promptCaching)}.`,
        'promptCaching',
      );
    }
    this.promptCaching = options.promptCaching ?? 'caller';
    const { 'anthropic-beta': beta, ...headers } = lowerCaseKeys(options.headers);
    this.configuredBeta = beta;
    this.client = upstreamClientFor(options, this.name, options.baseUrl ?? 'https://api.anthropic.com', {
      'anthropic-version': ANTHROPIC_VERSION,
      ...(options.apiKey ? { 'x-api-key': options.apiKey } : {}),
      ...headers,
    });
    this.defaultModels = modelsFor(options, this.name);
  }

  /** Per-request headers: correlation id, the accept type, and the merged `anthropic-beta` list. */
  private requestHeaders(request: GenerateRequest, accept: string): Record<string, string> {
    const beta = anthropicBetaHeader(request, this.configuredBeta);
    return beta ? { accept, 'anthropic-beta': beta } : { accept };
  }

  private encodeOptions(context: ProviderCallContext, stream: boolean): EncodeMessagesOptions {
    return {
      stream,
      defaultMaxTokens: this.defaultMaxTokens,
      adaptiveThinking: this.adaptiveThinking(context.upstreamModel),
      warn: context.warn,
      promptCaching: this.promptCaching,
    };
  }

  /** Anthropic's cache prices, the same for every Claude model (see ./cache-prices.ts). */
  cachePriceRatios(): CachePriceRatios {
    return ANTHROPIC_CACHE_PRICE_RATIOS;
  }

  /** The most input tokens one image costs a Claude model (see ./image-token-bound.ts). */
  maxImageTokens(): number {
    return ANTHROPIC_MAX_IMAGE_TOKENS;
  }

  async generate(request: GenerateRequest, context: ProviderCallContext): Promise<ProviderGenerateResponse> {
    const body = encodeMessagesRequest(request, context.upstreamModel, this.encodeOptions(context, false));
    const query = anthropicBetaQuery(request);
    const response = await this.client.forCall(context).requestJson<AnthropicMessageResponse>({
      path: '/v1/messages',
      ...(query ? { query } : {}),
      body,
      headers: this.requestHeaders(request, 'application/json'),
    });
    // The figures the upstream left out are left out for the gateway to count (each on its own: an input count is kept
    // without an output count).
    const decoded = decodeMessageResponse(response, context.upstreamModel, this.name);
    const usage = reportedAnthropicUsage(response.usage, decoded.usage);
    return usage === decoded.usage ? decoded : { ...decoded, usage };
  }

  stream(request: GenerateRequest, context: ProviderCallContext): AsyncIterable<ProviderStreamPart> {
    const upstream = this.client.forCall(context);
    const open = (sink: BodySink) => {
      const body = encodeMessagesRequest(request, context.upstreamModel, this.encodeOptions(context, true));
      const query = anthropicBetaQuery(request);
      const headers = this.requestHeaders(request, 'text/event-stream');
      return upstream.stream({ path: '/v1/messages', ...(query ? { query } : {}), body, headers }, sink);
    };
    const decoder = new MessageStreamDecoder(this.name);
    return decodeEventStream(open, decoder, this.name, upstream.signal, this.client.redactor);
  }

  close(): Promise<void> {
    return this.client.close();
  }
}
