/** The options every upstream provider shares, and the one way they become an UpstreamClient. */
import { positiveInteger } from '../config-check';
import type { ModelConfig } from '../model-config';
import { UpstreamClient, type UpstreamRetries, type UpstreamTimeouts } from './upstream-client';

/** Options common to the OpenAI-compatible, Anthropic and Gemini providers. */
export interface UpstreamProviderOptions {
  /**
   * Provider name for the model table and `provider/model` ids. Default: the provider's own (`openai`, `anthropic`,
   * `gemini`).
   */
  name?: string;
  /** The upstream credential; each provider sends it where its protocol expects it. */
  apiKey?: string;
  /** The upstream's base URL; each provider documents its default and what it appends. */
  baseUrl?: string;
  /** Extra headers for every request. */
  headers?: Record<string, string>;
  timeouts?: UpstreamTimeouts;
  retries?: UpstreamRetries;
  /** Most connections open to the upstream at once; each streamed call holds one while it lasts. Default 1024. */
  connections?: number;
  /** Models this provider serves when `createGateway` gets no `models`. Default none. */
  models?: readonly ModelConfig[];
}

/** The client for a provider: its name, base URL and headers (credentials included), with the shared limits. */
export function upstreamClientFor(
  options: UpstreamProviderOptions,
  name: string,
  baseUrl: string,
  headers: Record<string, string>,
): UpstreamClient {
  const secrets = typeof options.apiKey === 'string' ? [options.apiKey] : [];
  return new UpstreamClient({
    name,
    baseUrl,
    headers,
    secrets,
    timeouts: options.timeouts,
    retries: options.retries,
    connections: options.connections,
  });
}

/** The provider's default model entries, bound to its name. */
export function modelsFor(options: UpstreamProviderOptions, name: string): ModelConfig[] {
  return (options.models ?? []).map((model) => ({ ...model, provider: name }));
}

/** A provider's `maxEmbedInputs` option, checked once at creation: a positive integer, or `fallback` when absent. */
export function maxEmbedInputsOption(value: unknown, fallback: number): number {
  return positiveInteger('provider', 'maxEmbedInputs', value, fallback);
}
