/** The upstream-provider contract: what a provider must do for the gateway to route calls to it. */
import type {
  CallWarning,
  EmbedRequest,
  EmbedResponse,
  GenerateRequest,
  GenerateResponse,
  ImageRequest,
  ImageResponse,
  ProviderStreamPart,
  Usage,
} from '../canonical';
import type { ModelConfig } from '../model-config';
import type { MaybePromise } from '../stores/types';

/**
 * A non-streamed answer as a provider gives it: `usage` holds the figures the upstream reported and
 * leaves out the rest (`usage` itself may be left out). The gateway counts what is missing with its
 * tokenizer — the input from the request, the output from the answer's content — before the answer
 * is charged or shown, as it does for a stream's `finish` part (`ProviderFinishPart`). A
 * {@link GenerateResponse} with complete usage is one.
 */
export type ProviderGenerateResponse = Omit<GenerateResponse, 'usage'> & { usage?: Partial<Usage> };

/**
 * The prices of cached input at a vendor, as multiples of the model's input price: what the
 * gateway charges by default for the cache figures of a call's usage (docs/operations.md,
 * "Billing"). A model's `pricing` overrides each price.
 */
export interface CachePriceRatios {
  /** An input token read from the prompt cache, e.g. Anthropic 0.1. */
  cacheRead: number;
  /** An input token written to the prompt cache, e.g. Anthropic 1.25 (the 5-minute TTL). */
  cacheWrite: number;
  /** An input token written with the long lifetime (`Usage.cacheWriteLongTokens`), e.g. Anthropic 2 (the 1-hour TTL). */
  cacheWriteLong: number;
}

/** What the gateway hands a provider with each call. */
export interface ProviderCallContext {
  /** The model id to send upstream (from the model table; may differ from `request.model`). */
  upstreamModel: string;
  /** Aborted when the caller disconnects or the call times out; pass it to every upstream request. */
  signal: AbortSignal;
  /** The gateway's request id, for logs and upstream correlation headers. */
  requestId: string;
  /**
   * Headers to send with every upstream HTTP request of this call: the gateway's hop headers
   * (`x-rosetta-hops`, `x-rosetta-gateway`; docs/errors.md, "Request loops"), by which a gateway
   * that this call reaches again, directly or through other gateways, refuses it instead of
   * looping. Never a secret. The gateway always sets them; a provider that calls over HTTP sends them.
   */
  upstreamHeaders?: Readonly<Record<string, string>>;
  /**
   * Records a {@link CallWarning}: a setting or tool of the request this provider did not send
   * upstream because the upstream cannot take it (docs/providers.md, "Warnings"). The gateway
   * always sets it and shows the call's warnings to the caller (the `x-rosetta-warnings` header)
   * and on `GenerateResponse.warnings`; a repeated warning counts once. Optional: a context made by
   * hand may leave it out. A drop that would change the answer is not a warning: throw a
   * `GatewayError` (`invalid_request`) instead.
   */
  warn?: (warning: CallWarning) => void;
  /**
   * A hint: the most times this call's upstream request should be sent again after a failure a retry may cure (a
   * connection failure, a 429, a 5xx). The gateway sets 0 while another deployment of the model would take the call
   * (docs/routing.md, *Retries*): that deployment is the retry, and a failing account is not called again. Absent:
   * the provider's own policy. The built-in providers hand it to their upstream client (never above its
   * `retries.max`); a provider that ignores it still works, only slower to move off a failing account.
   */
  retries?: number;
}

/**
 * An upstream provider. `specificationVersion` versions this contract: a provider written for a
 * later version is refused at creation rather than misused.
 *
 * Text providers implement `generate`, and `stream` if they can stream (the gateway otherwise
 * serves streams by generating and replaying). Image providers implement `generateImage`, embedding providers `embed`.
 * Failures are thrown as `GatewayError`s (kinds `upstream`, `upstream_timeout`, `rate_limit`, …).
 */
export interface Provider {
  readonly specificationVersion: 'v1';
  /** A short name for logs and `provider/model` ids, e.g. `local`, `openai`. */
  readonly name: string;
  /**
   * The models this provider serves when the gateway's `models` option is not given (each naming
   * this provider's `name`). Optional; default: none.
   */
  readonly defaultModels?: readonly ModelConfig[];
  /**
   * The call's answer, whole. Its `usage` may leave out figures the upstream did not report ({@link
   * ProviderGenerateResponse}).
   */
  generate?(request: GenerateRequest, context: ProviderCallContext): MaybePromise<ProviderGenerateResponse>;
  /**
   * The call's answer as canonical parts. The `finish` part may leave out usage figures the
   * upstream did not report; the gateway counts them ({@link ProviderStreamPart}).
   */
  stream?(request: GenerateRequest, context: ProviderCallContext): AsyncIterable<ProviderStreamPart>;
  generateImage?(request: ImageRequest, context: ProviderCallContext): MaybePromise<ImageResponse>;
  /**
   * One vector per input, in order. The gateway never hands it more inputs than {@link maxEmbedInputs} allows at the
   * model: it splits a larger call into batches and joins their vectors. `usage` is the upstream's own report, left
   * out when it reports none (the gateway then charges its own count). Token-id inputs to an upstream that takes
   * only text are a `GatewayError` (`invalid_request`) that says so.
   */
  embed?(request: EmbedRequest, context: ProviderCallContext): MaybePromise<EmbedResponse>;
  /**
   * The most inputs one upstream embedding call may carry at `upstreamModel`. Default
   * `DEFAULT_MAX_EMBED_INPUTS` (2,048, OpenAI's limit).
   */
  maxEmbedInputs?(upstreamModel: string): number;
  /** Counts the input tokens of a request (used for quota estimates and count-tokens endpoints). */
  countTokens?(request: GenerateRequest, context: Omit<ProviderCallContext, 'signal'>): MaybePromise<number>;
  /**
   * The most input tokens one image can cost at `upstreamModel`. A provider without `countTokens`
   * has its calls held at an upper bound of their input (docs/stores.md, "Overspend bound"): text at
   * one token per UTF-8 byte, each image at this figure. Default: `DEFAULT_MAX_IMAGE_TOKENS` (4,128).
   */
  maxImageTokens?(upstreamModel: string): number;
  /**
   * The vendor's prices of cached input at `upstreamModel`, as multiples of the input price: the
   * default `cacheRead`, `cacheWrite` and `cacheWriteLong` prices of the models this provider serves
   * (a model's `pricing` overrides them). Optional; default 1 for each (a cached token costs what
   * an input token costs, the safe guess for a vendor the gateway does not know).
   */
  cachePriceRatios?(upstreamModel: string): CachePriceRatios;
  /**
   * Refuses, by throwing a `GatewayError` (kind `invalid_request`, `param: 'model'`), an upstream
   * model id chosen by the caller (a `provider/model` id) that this upstream cannot take safely,
   * e.g. a `/` where its URL path has no room for one. Called before any hold or upstream call.
   * Optional: the gateway's own checks (docs/errors.md, "Path confinement") apply to every provider.
   */
  checkModelId?(upstreamModel: string): void;
  init?(): MaybePromise<void>;
  close?(): MaybePromise<void>;
}

/** The most inputs per upstream embedding call for a provider that does not say ({@link Provider.maxEmbedInputs}). */
export const DEFAULT_MAX_EMBED_INPUTS = 2048;

/** The provider contract version this gateway implements. */
export const PROVIDER_SPECIFICATION_VERSION = 'v1';
