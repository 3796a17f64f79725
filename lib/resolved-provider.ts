/**
 * A provider resolved once, at creation, into the one shape the pipeline calls: every text
 * provider can generate, stream and count its input, whichever of those it implements itself.
 */
import type {
  EmbedRequest,
  EmbedResponse,
  GenerateRequest,
  GenerateResponse,
  ImageRequest,
  ImageResponse,
  ProviderStreamPart,
} from './canonical';
import { GatewayError } from './errors';
import type { ModelConfig } from './model-config';
import {
  DEFAULT_MAX_EMBED_INPUTS,
  type CachePriceRatios,
  type Provider,
  type ProviderCallContext,
  type ProviderGenerateResponse,
} from './providers/types';
import type { MaybePromise } from './stores/types';
import { collectParts } from './stream/collect';
import { replayResponse } from './stream/replay';
import { completeResponseUsage, countRequestTokens } from './tokenizer';
import { DEFAULT_MAX_IMAGE_TOKENS } from './token-bound';

/** The context a count gets: a call's context without its signal. */
export type CountContext = Omit<ProviderCallContext, 'signal'>;

/**
 * A {@link Provider} with its optional methods filled in. The model table routes a text model only
 * to a provider with `serves.text` and an image model only to one with `serves.image`, so the
 * methods of the other kind are never called.
 */
export interface ResolvedProvider {
  readonly name: string;
  /** The kinds of call the provider serves. */
  readonly serves: { readonly text: boolean; readonly image: boolean; readonly embedding: boolean };
  /** The provider's `defaultModels`; none when it declares none. */
  readonly defaultModels: readonly ModelConfig[];
  /**
   * `generate`, or the provider's stream collected into a response; either way the usage figures
   * the provider left out counted (the one place a non-streamed answer's usage is completed; a
   * stream's is completed by `StreamMeter`).
   */
  generate(request: GenerateRequest, context: ProviderCallContext): MaybePromise<GenerateResponse>;
  /** `stream`, or the provider's `generate` replayed as parts. */
  stream(request: GenerateRequest, context: ProviderCallContext): AsyncIterable<ProviderStreamPart>;
  generateImage(request: ImageRequest, context: ProviderCallContext): MaybePromise<ImageResponse>;
  embed(request: EmbedRequest, context: ProviderCallContext): MaybePromise<EmbedResponse>;
  /** The most inputs per upstream embedding call at a model. Default `DEFAULT_MAX_EMBED_INPUTS` (2,048). */
  maxEmbedInputs(upstreamModel: string): number;
  /** Whether `countInput` is the provider's own count (`countTokens`) rather than the gateway's tokenizer. */
  readonly countsInput: boolean;
  /** The input tokens of a request: the provider's `countTokens`, else the gateway's tokenizer. */
  countInput(request: GenerateRequest, context: CountContext): MaybePromise<number>;
  /** The most input tokens one image can cost at a model. Default `DEFAULT_MAX_IMAGE_TOKENS`. */
  maxImageTokens(upstreamModel: string): number;
  /** The provider's `cachePriceRatios`; {@link NO_CACHE_DISCOUNT} when it has none. */
  cachePriceRatios(upstreamModel: string): CachePriceRatios;
  /** The provider's `checkModelId`; accepts every id when it has none. */
  checkModelId(upstreamModel: string): void;
  init(): MaybePromise<void>;
  close(): MaybePromise<void>;
}

/** The cache prices of a provider that declares none: a cached token costs what an input token costs. */
export const NO_CACHE_DISCOUNT: CachePriceRatios = Object.freeze({ cacheRead: 1, cacheWrite: 1, cacheWriteLong: 1 });

/** Resolves a provider checked by `resolveOptions` (it implements at least one way to serve a call). */
export function resolveProvider(provider: Provider): ResolvedProvider {
  const answer = answerOf(provider);
  const generate = async (request: GenerateRequest, context: ProviderCallContext) =>
    completeResponseUsage(await answer(request, context), request);
  return {
    name: provider.name,
    serves: {
      text: Boolean(provider.generate ?? provider.stream),
      image: Boolean(provider.generateImage),
      embedding: Boolean(provider.embed),
    },
    defaultModels: provider.defaultModels ?? [],
    generate,
    stream: provider.stream
      ? provider.stream.bind(provider)
      : (request, context) => replayResponse(generate(request, context)),
    generateImage: provider.generateImage ? provider.generateImage.bind(provider) : unserved(provider, 'image'),
    embed: provider.embed ? provider.embed.bind(provider) : unserved(provider, 'embedding'),
    maxEmbedInputs: provider.maxEmbedInputs ? provider.maxEmbedInputs.bind(provider) : () => DEFAULT_MAX_EMBED_INPUTS,
    countsInput: Boolean(provider.countTokens),
    countInput: provider.countTokens ? provider.countTokens.bind(provider) : (request) => countRequestTokens(request),
    maxImageTokens: provider.maxImageTokens ? provider.maxImageTokens.bind(provider) : () => DEFAULT_MAX_IMAGE_TOKENS,
    cachePriceRatios: provider.cachePriceRatios ? provider.cachePriceRatios.bind(provider) : () => NO_CACHE_DISCOUNT,
    checkModelId: provider.checkModelId ? provider.checkModelId.bind(provider) : () => undefined,
    init: provider.init ? provider.init.bind(provider) : () => undefined,
    close: provider.close ? provider.close.bind(provider) : () => undefined,
  };
}

/** The provider's answer as it gives it, usage possibly partial: `generate`, or its stream collected. */
function answerOf(
  provider: Provider,
): (request: GenerateRequest, context: ProviderCallContext) => MaybePromise<ProviderGenerateResponse> {
  if (provider.generate) return provider.generate.bind(provider);
  const stream = provider.stream?.bind(provider);
  if (stream) return (request, context) => collectParts(stream(request, context));
  return unserved(provider, 'text');
}

/** A method for a kind of call the model table never routes to this provider. */
function unserved(provider: Provider, kind: 'text' | 'image' | 'embedding'): () => never {
  return () => {
    throw new GatewayError('internal', `The provider '${provider.name}' does not serve ${kind} calls.`);
  };
}
