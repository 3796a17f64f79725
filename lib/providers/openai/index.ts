/** The OpenAI-compatible provider: OpenAI itself and every server speaking chat completions (vLLM, llama.cpp, Ollama, OpenRouter…). */
import type { GenerateRequest, GenerateResponse, ImageRequest, ImageResponse, StreamPart } from '../../canonical';
import type { ModelConfig } from '../../models';
import { countRequestTokens, countTextTokens } from '../../tokenizer';
import { readServerSentEvents } from '../http/sse';
import { UpstreamClient, type UpstreamRetries, type UpstreamTimeouts } from '../http/upstream-client';
import type { Provider, ProviderCallContext } from '../types';
import { decodeChatResponse, type OpenAIChatResponse } from './decode-response';
import { decodeChatStream } from './decode-stream';
import { encodeChatRequest, type MaxTokensField } from './encode-request';
import { decodeImageResponse, encodeImageRequest } from './images';

/** Options of {@link OpenAIProvider}. */
export interface OpenAIProviderOptions {
  /** Provider name for the model table and `provider/model` ids. Default `openai`. */
  name?: string;
  /** Sent as `Authorization: Bearer`. Optional for local servers that need none. */
  apiKey?: string;
  /** Base URL including the version path. Default `https://api.openai.com/v1`. */
  baseUrl?: string;
  /** Extra headers for every request (e.g. `OpenAI-Organization`, OpenRouter's `HTTP-Referer`). */
  headers?: Record<string, string>;
  /** Field for the output cap. Default `max_completion_tokens` on api.openai.com, `max_tokens` elsewhere. */
  maxTokensField?: MaxTokensField;
  timeouts?: UpstreamTimeouts;
  retries?: UpstreamRetries;
  /** Keep-alive connections to the upstream. Default 128. */
  connections?: number;
  /** Models this provider serves when `createGateway` gets no `models`. Default none. */
  models?: readonly ModelConfig[];
}

/** Calls an OpenAI-compatible upstream over undici: chat completions (streamed or not) and images. */
export class OpenAIProvider implements Provider {
  readonly specificationVersion = 'v1' as const;
  readonly name: string;
  readonly defaultModels: readonly ModelConfig[];
  private readonly client: UpstreamClient;
  private readonly maxTokensField: MaxTokensField;

  constructor(options: OpenAIProviderOptions = {}) {
    this.name = options.name ?? 'openai';
    const baseUrl = options.baseUrl ?? 'https://api.openai.com/v1';
    this.maxTokensField = options.maxTokensField ?? (new URL(baseUrl).hostname === 'api.openai.com' ? 'max_completion_tokens' : 'max_tokens');
    this.client = new UpstreamClient({
      name: this.name,
      baseUrl,
      headers: { ...(options.apiKey ? { authorization: `Bearer ${options.apiKey}` } : {}), ...options.headers },
      ...(options.timeouts ? { timeouts: options.timeouts } : {}),
      ...(options.retries ? { retries: options.retries } : {}),
      ...(options.connections ? { connections: options.connections } : {}),
    });
    this.defaultModels = (options.models ?? []).map((model) => ({ ...model, provider: this.name }));
  }

  async generate(request: GenerateRequest, context: ProviderCallContext): Promise<GenerateResponse> {
    const body = encodeChatRequest(request, context.upstreamModel, { maxTokensField: this.maxTokensField, stream: false });
    const response = await this.client.requestJson<OpenAIChatResponse>({ path: '/chat/completions', body, signal: context.signal, headers: { 'x-request-id': context.requestId } });
    return decodeChatResponse(response, context.upstreamModel);
  }

  async *stream(request: GenerateRequest, context: ProviderCallContext): AsyncGenerator<StreamPart> {
    const body = encodeChatRequest(request, context.upstreamModel, { maxTokensField: this.maxTokensField, stream: true });
    const response = await this.client.request({ path: '/chat/completions', body, signal: context.signal, headers: { accept: 'text/event-stream', 'x-request-id': context.requestId } });
    const events = readServerSentEvents(response.body, this.name, context.signal);
    const estimate = (produced: string) => ({ inputTokens: countRequestTokens(request), outputTokens: countTextTokens(produced) });
    try {
      yield* decodeChatStream(events, this.name, estimate);
    } finally {
      if (!response.body.destroyed) response.body.destroy();
    }
  }

  async generateImage(request: ImageRequest, context: ProviderCallContext): Promise<ImageResponse> {
    const body = encodeImageRequest(request, context.upstreamModel);
    const response = await this.client.requestJson<Parameters<typeof decodeImageResponse>[0]>({ path: '/images/generations', body, signal: context.signal });
    return decodeImageResponse(response, this.name);
  }

  close(): Promise<void> {
    return this.client.close();
  }
}
