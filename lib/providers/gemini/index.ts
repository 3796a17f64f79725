/**
 * The Gemini provider: the Gemini Developer API's generateContent and streamGenerateContent (`alt=sse`), and
 * batchEmbedContents.
 */
import { booleanOption } from '../../config-check';
import type { EmbedRequest, EmbedResponse, GenerateRequest, ProviderStreamPart } from '../../canonical';
import type { CallSignal } from '../cancellation';
import type { ModelConfig } from '../../model-config';
import { MediaFetcher, type MediaFetchOptions } from '../../upstream/fetch-media';
import { decodeEventStream } from '../../upstream/sse';
import type { BodySink, StreamedBody } from '../../upstream/dispatch';
import type { UpstreamClient } from '../../upstream/upstream-client';
import {
  maxEmbedInputsOption,
  modelsFor,
  upstreamClientFor,
  type UpstreamProviderOptions,
} from '../../upstream/provider-options';
import type { CachePriceRatios, Provider, ProviderCallContext, ProviderGenerateResponse } from '../types';
import { geminiCachePriceRatios } from './cache-prices';
import { geminiBaseUrl } from './base-url';
import { decodeGenerateContentResponse } from './decode-response';
import { GenerateContentStreamDecoder } from './decode-stream';
import { inlineRequestImageUrls } from './encode-contents';
import { encodeGenerateContentRequest } from './encode-request';
import { checkGeminiModelId, modelPath } from './model-path';
import { remapCredentialFailure } from './upstream-error';
import type { GenerateContentResponse } from './wire-types';
import { GEMINI_MAX_IMAGE_TOKENS } from './image-token-bound';
import { encodeBatchEmbedRequest, GEMINI_MAX_EMBED_INPUTS, parseBatchEmbedText } from './embed';

/** Options of {@link GeminiProvider}. */
export interface GeminiProviderOptions extends UpstreamProviderOptions {
  /** Provider name for the model table and `provider/model` ids. Default `gemini`. */
  name?: string;
  /** Sent as the `x-goog-api-key` header, never in the URL (so it cannot leak into access logs). */
  apiKey?: string;
  /**
   * Base URL of the Gemini API, with or without the API version: a URL whose last path segment is
   * a version (`…/v1beta`, `…/v1`) is used as given; any other gets `/v1beta` (so the root URL that
   * `GOOGLE_GEMINI_BASE_URL` holds for the Google SDK and the Gemini CLI works as is). Default
   * `https://generativelanguage.googleapis.com` (→ `…/v1beta`).
   */
  baseUrl?: string;
  /** Extra headers for every request. */
  headers?: Record<string, string>;
  /**
   * Whether images given by an http(s) URL (an OpenAI `image_url`, an Anthropic `url` source) are
   * downloaded by the gateway and sent inline (`inlineData`, with the served media type). Default
   * true: Gemini's `fileData` takes Files API URIs (and a few special URLs), while arbitrary web
   * URLs are not documented to work. Files API and `gs://` URIs always stay `fileData`. With false,
   * every URL is sent as `fileData` and left to Gemini. A Gemini caller's own body is never changed.
   */
  inlineImageUrls?: boolean;
  /**
   * Whether image URLs may lead to loopback, private (10/8, 172.16/12, 192.168/16), link-local
   * (169.254/16, cloud metadata), unique-local IPv6, unspecified or multicast addresses. Default
   * false: such a URL is refused with a 400, checked on the address the socket actually connects
   * to. Set it only when every caller is trusted (or in tests against a local server).
   */
  allowPrivateNetworks?: boolean;
  /**
   * Limits of image downloads: `timeoutMs` (default 10,000), `maxBytes` (default 20 MB), `maxRedirects` (default 3).
   */
  imageDownload?: Omit<MediaFetchOptions, 'allowPrivateNetworks'>;
  /** Most inputs one upstream `batchEmbedContents` call may carry; larger calls are split. Default 100. */
  maxEmbedInputs?: number;
}

/** Calls the Gemini API over undici: generateContent, and streamGenerateContent as server-sent events. */
export class GeminiProvider implements Provider {
  readonly specificationVersion = 'v1' as const;
  readonly name: string;
  readonly defaultModels: readonly ModelConfig[];
  private readonly client: UpstreamClient;
  private readonly media: MediaFetcher | undefined;
  private readonly embedInputs: number;

  constructor(options: GeminiProviderOptions = {}) {
    this.name = options.name ?? 'gemini';
    booleanOption('GeminiProvider', 'inlineImageUrls', options.inlineImageUrls, true);
    this.media =
      options.inlineImageUrls === false
        ? undefined
        : new MediaFetcher(
            {
              ...options.imageDownload,
              ...(options.allowPrivateNetworks !== undefined
                ? { allowPrivateNetworks: options.allowPrivateNetworks }
                : {}),
            },
            'imageDownload.',
          );
    this.client = upstreamClientFor(options, this.name, geminiBaseUrl(options.baseUrl), {
      ...(options.apiKey ? { 'x-goog-api-key': options.apiKey } : {}),
      ...options.headers,
    });
    this.defaultModels = modelsFor(options, this.name);
    this.embedInputs = maxEmbedInputsOption(options.maxEmbedInputs, GEMINI_MAX_EMBED_INPUTS);
  }

  /** The request with its image URLs downloaded and inlined, when `inlineImageUrls` is on. */
  private async withInlineImages(request: GenerateRequest, signal: CallSignal): Promise<GenerateRequest> {
    const media = this.media;
    return media ? inlineRequestImageUrls(request, (download) => media.fetch(download), signal) : request;
  }

  /** Gemini's cache prices for this model's generation (see ./cache-prices.ts). */
  cachePriceRatios(upstreamModel: string): CachePriceRatios {
    return geminiCachePriceRatios(upstreamModel);
  }

  /** The most input tokens one image costs a Gemini model (see ./image-token-bound.ts). */
  maxImageTokens(): number {
    return GEMINI_MAX_IMAGE_TOKENS;
  }

  async generate(request: GenerateRequest, context: ProviderCallContext): Promise<ProviderGenerateResponse> {
    const upstream = this.client.forCall(context);
    const body = encodeGenerateContentRequest(
      await this.withInlineImages(request, upstream.signal),
      context.upstreamModel,
      context.warn,
    );
    let response: GenerateContentResponse;
    try {
      response = await upstream.requestJson<GenerateContentResponse>({
        path: modelPath(context.upstreamModel, 'generateContent'),
        body,
      });
    } catch (error) {
      throw remapCredentialFailure(error, this.name);
    }
    const decoded = decodeGenerateContentResponse(response, context.upstreamModel, this.name);
    if (response.usageMetadata) return decoded;
    // No usage reported: left out for the gateway to count.
    const { usage: _unreported, ...unmetered } = decoded;
    return unmetered;
  }

  stream(request: GenerateRequest, context: ProviderCallContext): AsyncIterable<ProviderStreamPart> {
    const upstream = this.client.forCall(context);
    const signal = upstream.signal;
    const open = async (sink: BodySink): Promise<StreamedBody> => {
      const body = encodeGenerateContentRequest(
        await this.withInlineImages(request, signal),
        context.upstreamModel,
        context.warn,
      );
      try {
        return await upstream.stream(
          {
            path: modelPath(context.upstreamModel, 'streamGenerateContent'),
            query: { alt: 'sse' },
            body,
            headers: { accept: 'text/event-stream' },
          },
          sink,
        );
      } catch (error) {
        throw remapCredentialFailure(error, this.name);
      }
    };
    return decodeEventStream(
      open,
      new GenerateContentStreamDecoder(this.name, context.upstreamModel),
      this.name,
      signal,
      this.client.redactor,
    );
  }

  /** `maxEmbedInputs` (default 100). */
  maxEmbedInputs(): number {
    return this.embedInputs;
  }

  /** `batchEmbedContents` for the whole batch the gateway hands over (./embed.ts). */
  async embed(request: EmbedRequest, context: ProviderCallContext): Promise<EmbedResponse> {
    const upstream = context.upstreamModel;
    const path = modelPath(upstream, 'batchEmbedContents');
    const resource =
      upstream.startsWith('models/') || upstream.startsWith('tunedModels/') ? upstream : `models/${upstream}`;
    const body = encodeBatchEmbedRequest(request, resource);
    const read = (text: string) => parseBatchEmbedText(text, request.inputs.length, this.name, upstream);
    try {
      return await this.client.forCall(context).requestJson({ path, body }, read);
    } catch (error) {
      throw remapCredentialFailure(error, this.name);
    }
  }

  /** A model id must name one Gemini model resource: it is a segment of the URL path ({@link checkGeminiModelId}). */
  checkModelId(upstreamModel: string): void {
    checkGeminiModelId(upstreamModel);
  }

  async close(): Promise<void> {
    await Promise.all([this.client.close(), this.media?.close()]);
  }
}
