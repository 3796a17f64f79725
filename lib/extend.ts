/**
 * rosetta-gateway/extend: what codec and provider authors build with (docs/codecs.md, docs/providers.md) — the
 * error helpers, the warnings header, token counting, stream collection and replay, the media fetcher, the built-in
 * codecs, and the built-in providers' constants and model tests. A host mounting the gateway needs none of it.
 */
export { toGatewayError } from './errors';
export { WARNINGS_HEADER, MAX_WARNINGS_HEADER_LENGTH, warningsHeader, describeWarning } from './warnings';
export { PROVIDER_SPECIFICATION_VERSION, DEFAULT_MAX_EMBED_INPUTS } from './providers/types';
export { builtinCodecs } from './protocols/registry';
export { countRequestTokens, countTextTokens, EXACT_COUNT_MAX_CHARS } from './tokenizer';
export { DEFAULT_MAX_IMAGE_TOKENS } from './token-bound';
export { collectStream } from './stream/collect';
export { replayResponse } from './stream/replay';
export { MediaFetcher } from './upstream/fetch-media';
export { DEFAULT_DURATION_BUCKETS, DEFAULT_FIRST_TOKEN_BUCKETS } from './metrics/options';
export { LOCAL_MODELS, LOCAL_IMAGE_LIMITS } from './providers/local';
export { LOCAL_EMBED_DIMENSIONS, LOCAL_EMBED_MAX_DIMENSIONS } from './providers/local/embed';
export { MAX_EMBED_INPUT_TOKENS, MAX_EMBED_REQUEST_TOKENS } from './pipeline/embed-input';
export { isOpenAIReasoningModel } from './providers/openai';
export { ANTHROPIC_VERSION, supportsAdaptiveThinking } from './providers/anthropic';
