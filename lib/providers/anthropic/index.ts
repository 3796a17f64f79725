/** The Anthropic Messages provider: Claude models over POST /v1/messages, streamed or not. */
import type { GenerateRequest, GenerateResponse, StreamPart } from '../../canonical';
import { GatewayConfigError } from '../../errors';
import type { ModelConfig } from '../../models';
import { readServerSentEvents } from '../http/sse';
import { UpstreamClient, type UpstreamRetries, type UpstreamTimeouts } from '../http/upstream-client';
import type { Provider, ProviderCallContext } from '../types';
import { decodeMessageResponse, type AnthropicMessageResponse } from './decode-response';
import { decodeMessageStream } from './decode-stream';
import { anthropicBetaHeader, encodeMessagesRequest } from './encode-request';

/** The `anthropic-version` header sent with every request. */
export const ANTHROPIC_VERSION = '2023-06-01';

/** Options of {@link AnthropicProvider}. */
export interface AnthropicProviderOptions {
  /** Provider name for the model table and `provider/model` ids. Default `anthropic`. */
  name?: string;
  /** Sent as `x-api-key`. */
  apiKey?: string;
  /** Base URL without the version path (the provider appends `/v1/messages`). Default `https://api.anthropic.com`. */
  baseUrl?: string;
  /** Extra headers for every request (e.g. an `anthropic-beta` list, which is merged with a caller's own). */
  headers?: Record<string, string>;
  /** `max_tokens` for a request without an output cap (Anthropic requires one; the gateway normally sets it). Default 4096. */
  defaultMaxTokens?: number;
  timeouts?: UpstreamTimeouts;
  retries?: UpstreamRetries;
  /** Keep-alive connections to the upstream. Default 128. */
  connections?: number;
  /** Models this provider serves when `createGateway` gets no `models`. Default none. */
  models?: readonly ModelConfig[];
}

function lowerCaseKeys(headers: Record<string, string> | undefined): Record<string, string> {
  return Object.fromEntries(Object.entries(headers ?? {}).map(([name, value]) => [name.toLowerCase(), value]));
}

/**
 * Calls the Anthropic Messages API over undici. Callers of any protocol are translated; Anthropic
 * callers' bodies (and `anthropic-beta` headers) pass through with only the model, `max_tokens`
 * and `stream` set by the gateway.
 */
export class AnthropicProvider implements Provider {
  readonly specificationVersion = 'v1' as const;
  readonly name: string;
  readonly defaultModels: readonly ModelConfig[];
  private readonly client: UpstreamClient;
  private readonly defaultMaxTokens: number;
  private readonly configuredBeta: string | undefined;

  constructor(options: AnthropicProviderOptions = {}) {
    this.name = options.name ?? 'anthropic';
    this.defaultMaxTokens = options.defaultMaxTokens ?? 4096;
    if (!Number.isInteger(this.defaultMaxTokens) || this.defaultMaxTokens < 1) {
      throw new GatewayConfigError('ERR_GATEWAY_INVALID_OPTION', `defaultMaxTokens must be a positive integer, not ${String(options.defaultMaxTokens)}.`, 'defaultMaxTokens');
    }
    const { 'anthropic-beta': beta, ...headers } = lowerCaseKeys(options.headers);
    this.configuredBeta = beta;
    this.client = new UpstreamClient({
      name: this.name,
      baseUrl: options.baseUrl ?? 'https://api.anthropic.com',
      headers: { 'anthropic-version': ANTHROPIC_VERSION, ...(options.apiKey ? { 'x-api-key': options.apiKey } : {}), ...headers },
      ...(options.timeouts ? { timeouts: options.timeouts } : {}),
      ...(options.retries ? { retries: options.retries } : {}),
      ...(options.connections ? { connections: options.connections } : {}),
    });
    this.defaultModels = (options.models ?? []).map((model) => ({ ...model, provider: this.name }));
  }

  /** Per-request headers: correlation id, the accept type, and the merged `anthropic-beta` list. */
  private requestHeaders(request: GenerateRequest, context: ProviderCallContext, accept: string): Record<string, string> {
    const beta = anthropicBetaHeader(request, this.configuredBeta);
    return { accept, 'x-request-id': context.requestId, ...(beta ? { 'anthropic-beta': beta } : {}) };
  }

  async generate(request: GenerateRequest, context: ProviderCallContext): Promise<GenerateResponse> {
    const body = encodeMessagesRequest(request, context.upstreamModel, { stream: false, defaultMaxTokens: this.defaultMaxTokens });
    const response = await this.client.requestJson<AnthropicMessageResponse>({
      path: '/v1/messages',
      body,
      signal: context.signal,
      headers: this.requestHeaders(request, context, 'application/json'),
    });
    return decodeMessageResponse(response, context.upstreamModel);
  }

  async *stream(request: GenerateRequest, context: ProviderCallContext): AsyncGenerator<StreamPart> {
    const body = encodeMessagesRequest(request, context.upstreamModel, { stream: true, defaultMaxTokens: this.defaultMaxTokens });
    const response = await this.client.request({
      path: '/v1/messages',
      body,
      signal: context.signal,
      headers: this.requestHeaders(request, context, 'text/event-stream'),
    });
    try {
      yield* decodeMessageStream(readServerSentEvents(response.body, this.name, context.signal), this.name);
    } finally {
      if (!response.body.destroyed) response.body.destroy();
    }
  }

  close(): Promise<void> {
    return this.client.close();
  }
}
