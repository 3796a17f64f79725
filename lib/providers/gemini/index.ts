/** The Gemini provider: the Gemini Developer API's generateContent and streamGenerateContent (`alt=sse`). */
import type { GenerateRequest, GenerateResponse, StreamPart } from '../../canonical';
import type { ModelConfig } from '../../models';
import { countRequestTokens, countTextTokens } from '../../tokenizer';
import { readServerSentEvents } from '../http/sse';
import { UpstreamClient, type UpstreamResponse, type UpstreamRetries, type UpstreamTimeouts } from '../http/upstream-client';
import type { Provider, ProviderCallContext } from '../types';
import { decodeGenerateContentResponse } from './decode-response';
import { decodeGenerateContentStream } from './decode-stream';
import { encodeGenerateContentRequest } from './encode-request';
import { modelPath } from './model-path';
import { remapCredentialFailure } from './upstream-error';
import type { GenerateContentResponse } from './wire-types';

/** Options of {@link GeminiProvider}. */
export interface GeminiProviderOptions {
  /** Provider name for the model table and `provider/model` ids. Default `gemini`. */
  name?: string;
  /** Sent as the `x-goog-api-key` header, never in the URL (so it cannot leak into access logs). */
  apiKey?: string;
  /** Base URL including the API version. Default `https://generativelanguage.googleapis.com/v1beta`. */
  baseUrl?: string;
  /** Extra headers for every request. */
  headers?: Record<string, string>;
  timeouts?: UpstreamTimeouts;
  retries?: UpstreamRetries;
  /** Keep-alive connections to the upstream. Default 128. */
  connections?: number;
  /** Models this provider serves when `createGateway` gets no `models`. Default none. */
  models?: readonly ModelConfig[];
}

/** Calls the Gemini API over undici: generateContent, and streamGenerateContent as server-sent events. */
export class GeminiProvider implements Provider {
  readonly specificationVersion = 'v1' as const;
  readonly name: string;
  readonly defaultModels: readonly ModelConfig[];
  private readonly client: UpstreamClient;

  constructor(options: GeminiProviderOptions = {}) {
    this.name = options.name ?? 'gemini';
    this.client = new UpstreamClient({
      name: this.name,
      baseUrl: options.baseUrl ?? 'https://generativelanguage.googleapis.com/v1beta',
      headers: { ...(options.apiKey ? { 'x-goog-api-key': options.apiKey } : {}), ...options.headers },
      ...(options.timeouts ? { timeouts: options.timeouts } : {}),
      ...(options.retries ? { retries: options.retries } : {}),
      ...(options.connections ? { connections: options.connections } : {}),
    });
    this.defaultModels = (options.models ?? []).map((model) => ({ ...model, provider: this.name }));
  }

  async generate(request: GenerateRequest, context: ProviderCallContext): Promise<GenerateResponse> {
    const body = encodeGenerateContentRequest(request, context.upstreamModel);
    let response: GenerateContentResponse;
    try {
      response = await this.client.requestJson<GenerateContentResponse>({ path: modelPath(context.upstreamModel, 'generateContent'), body, signal: context.signal });
    } catch (error) {
      throw remapCredentialFailure(error, this.name);
    }
    return decodeGenerateContentResponse(response, context.upstreamModel, this.name);
  }

  async *stream(request: GenerateRequest, context: ProviderCallContext): AsyncGenerator<StreamPart> {
    const body = encodeGenerateContentRequest(request, context.upstreamModel);
    let response: UpstreamResponse;
    try {
      response = await this.client.request({
        path: modelPath(context.upstreamModel, 'streamGenerateContent'),
        query: { alt: 'sse' },
        body,
        signal: context.signal,
        headers: { accept: 'text/event-stream' },
      });
    } catch (error) {
      throw remapCredentialFailure(error, this.name);
    }
    const events = readServerSentEvents(response.body, this.name, context.signal);
    const estimate = (produced: string) => ({ inputTokens: countRequestTokens(request), outputTokens: countTextTokens(produced) });
    try {
      yield* decodeGenerateContentStream(events, this.name, context.upstreamModel, estimate);
    } finally {
      if (!response.body.destroyed) response.body.destroy();
    }
  }

  close(): Promise<void> {
    return this.client.close();
  }
}
