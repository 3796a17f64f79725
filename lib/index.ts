/**
 * rosetta-gateway's public API for a host: the factory, the errors, the stores and the providers, and their types.
 * What codec and provider authors build with is in `rosetta-gateway/extend` (./extend.ts); the Redis stores are in
 * `rosetta-gateway/redis`.
 */
export { createGateway, type Gateway, type GatewayLiveState } from './gateway';
export type {
  GatewayOptions,
  GatewayKey,
  RoutingOptions,
  StoreOptions,
  LimitOptions,
  BillingOptions,
  ObservabilityOptions,
} from './options';
export type { MetricsOptions, MetricsBuckets } from './metrics/options';
export type { TracesOptions } from './tracing/call-trace';
export type { MetricsHandler } from './metrics/gateway-metrics';
export { GatewayError, GatewayConfigError, type ErrorKind, type GatewayErrorOptions } from './errors';
export type * from './canonical';
export type { Warn } from './warnings';
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
  StoredThread,
  ThreadStore,
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
export type { DeploymentView, AffinityOutcome, SkipReason } from './routing/router';
export type { DeploymentsHandler } from './routing/health-view';
export { MemoryDeploymentStore, type MemoryDeploymentStoreOptions } from './stores/memory-deployment-store';
export { MemoryRateLimitStore, type MemoryRateLimitStoreOptions } from './stores/memory-rate-limit-store';
export { MemoryKeyStore, fingerprintKey, type MemoryKeyEntry } from './stores/memory-key-store';
export { MemoryResponseStore, type MemoryResponseStoreOptions } from './stores/memory-response-store';
export { MemoryThreadStore, type MemoryThreadStoreOptions } from './stores/memory-thread-store';
export { MemoryUsageLog, type MemoryUsageLogOptions, type UsageQuery } from './stores/memory-usage-log';
export { MemoryQuotaStore, type MemoryQuotaStoreOptions, type MemoryAccount } from './stores/memory-quota-store';
export type { CachePriceRatios, Provider, ProviderCallContext, ProviderGenerateResponse } from './providers/types';
export { LocalProvider, type LocalProviderOptions } from './providers/local';
export { OpenAIProvider, type OpenAIProviderOptions } from './providers/openai';
export { GeminiProvider, type GeminiProviderOptions } from './providers/gemini';
export { AnthropicProvider, type AnthropicProviderOptions, type PromptCaching } from './providers/anthropic';
export type { MaxTokensField } from './providers/openai/encode-request';
export type { ReasoningReplay } from './providers/openai/reasoning-replay';
export type { CacheControlMode } from './providers/openai/cache-markers';
export type { CompatibleVendor } from './providers/openai/presets';
export type { UpstreamTimeouts, UpstreamRetries } from './upstream/upstream-client';
export type { MediaFetchOptions } from './upstream/fetch-media';
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
export type { UsageRecord, UsageOutcome, UsageAttempt, CreditSplit } from './usage/record';
export type { UsageSink, UsageSinkOption, UsageObserver } from './usage/sink';
export type {
  LatencyHistogram,
  SpendTally,
  TallyingUsageLog,
  UsageTallies,
  UsageTally,
  UsageTallyQuery,
} from './usage/tally';
