/** rosetta-gateway's public API. */
export { createGateway, type Gateway } from './gateway';
export type { GatewayOptions, GatewayKey, RoutingOptions } from './options';
export {
  DEFAULT_DURATION_BUCKETS,
  DEFAULT_FIRST_TOKEN_BUCKETS,
  type MetricsOptions,
  type MetricsBuckets,
} from './metrics/options';
export type { MetricsHandler } from './metrics/gateway-metrics';
export {
  GatewayError,
  GatewayConfigError,
  toGatewayError,
  STATUS_BY_KIND,
  type ErrorKind,
  type GatewayErrorOptions,
} from './errors';
export type * from './canonical';
export { WARNINGS_HEADER, MAX_WARNINGS_HEADER_LENGTH, warningsHeader, describeWarning, type Warn } from './warnings';
export type { DeploymentConfig, ModelConfig, ModelPricing, ModelType } from './model-config';
export type {
  KeyStore,
  QuotaStore,
  Principal,
  Reservation,
  ReservationInfo,
  ReserveResult,
  Settlement,
  SettleInfo,
  MaybePromise,
  ResponseStore,
  StoredResponse,
  RateLimits,
  KeyRateLimits,
  RateLimitStore,
  RateLimitScope,
  RateLimitLease,
  RateLimitResult,
  RateLimitState,
  RateLimitCounter,
  DeploymentStateStore,
  DeploymentState,
  DeploymentFailure,
} from './stores/types';
export type { DeploymentStrategy } from './routing/select';
export type { DeploymentView, DeploymentsHandler, AffinityOutcome, SkipReason } from './routing/router';
export { SESSION_HEADERS } from './routing/session';
export { MemoryDeploymentStore, type MemoryDeploymentStoreOptions } from './stores/memory-deployment-store';
export { MemoryRateLimitStore, type MemoryRateLimitStoreOptions } from './stores/memory-rate-limit-store';
export { MemoryKeyStore, fingerprintKey, type MemoryKeyEntry } from './stores/memory-key-store';
export {
  MemoryResponseStore,
  MEMORY_RESPONSE_STORE_DEFAULTS,
  type MemoryResponseStoreOptions,
} from './stores/memory-response-store';
export {
  MemoryUsageLog,
  DEFAULT_USAGE_QUERY_LIMIT,
  type MemoryUsageLogOptions,
  type UsageQuery,
} from './stores/memory-usage-log';
export { MemoryQuotaStore, type MemoryQuotaStoreOptions, type MemoryAccount } from './stores/memory-quota-store';
export type { CachePriceRatios, Provider, ProviderCallContext, ProviderGenerateResponse } from './providers/types';
export { abortSignalOf, type CallCancellation, type CallSignal } from './providers/cancellation';
export { callSignal } from './providers/call-context';
export { PROVIDER_SPECIFICATION_VERSION, DEFAULT_MAX_EMBED_INPUTS } from './providers/types';
export { LocalProvider, LOCAL_MODELS, LOCAL_IMAGE_LIMITS, type LocalProviderOptions } from './providers/local';
export { LOCAL_EMBED_DIMENSIONS, LOCAL_EMBED_MAX_DIMENSIONS } from './providers/local/embed';
export { MAX_EMBED_INPUT_TOKENS, MAX_EMBED_REQUEST_TOKENS } from './pipeline/embed-input';
export { OpenAIProvider, isOpenAIReasoningModel, type OpenAIProviderOptions } from './providers/openai';
export { GeminiProvider, type GeminiProviderOptions } from './providers/gemini';
export {
  AnthropicProvider,
  ANTHROPIC_VERSION,
  supportsAdaptiveThinking,
  type AnthropicProviderOptions,
  type PromptCaching,
} from './providers/anthropic';
export type { MaxTokensField } from './providers/openai/encode-request';
export type { ReasoningReplay } from './providers/openai/reasoning-replay';
export type { CacheControlMode } from './providers/openai/cache-markers';
export type { UpstreamTimeouts, UpstreamRetries } from './upstream/upstream-client';
export { MediaFetcher, type MediaFetchOptions } from './upstream/fetch-media';
export type { UpstreamProviderOptions } from './upstream/provider-options';
export type {
  ProtocolCodec,
  Operation,
  HttpRequestView,
  RouteMatch,
  RouteParams,
  CodecRoute,
  GenerateRoute,
  CountTokensRoute,
  ImageRoute,
  EmbedRoute,
  ConversationState,
  StoredResponseMatch,
  StoredResponseRoutes,
  CallView,
  ErrorContext,
  EncodedResponse,
  StreamEncoder,
  ModelInfo,
  ModelListRoutes,
} from './protocols/types';
export { builtinCodecs } from './protocols/registry';
export type { UsageRecord, UsageOutcome, UsageAttempt, CreditSplit } from './usage/record';
export {
  MAX_PENDING_USAGE_RECORDS,
  type UsageSink,
  type UsageSinkOption,
  type UsageObserver,
} from './usage/sink';
export { countRequestTokens, countTextTokens, EXACT_COUNT_MAX_CHARS } from './tokenizer';
export { DEFAULT_MAX_IMAGE_TOKENS } from './token-bound';
export { collectStream } from './stream/collect';
export { replayResponse } from './stream/replay';
