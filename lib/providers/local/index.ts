/**
 * The embedded local provider: runs offline, answers text deterministically, draws real PNG images and makes lexical
 * embeddings.
 */
import { nonNegativeNumber } from '../../config-check';
import { randomUUID } from 'node:crypto';
import createDebug from 'debug';
import { setTimeout as sleep } from 'node:timers/promises';
import type {
  ContentPart,
  EmbedRequest,
  EmbedResponse,
  GenerateRequest,
  GenerateResponse,
  ImageRequest,
  ImageResponse,
  StreamPart,
} from '../../canonical';
import { GatewayError } from '../../errors';
import type { ModelConfig } from '../../model-config';
import { countRequestTokens, decodeTokenSteps } from '../../tokenizer';
import type { Provider, ProviderCallContext } from '../types';
import { localDimensions, localEmbedding } from './embed';
import { renderImage } from './render-image';
import { complete, type LocalCompletion } from './text-model';
import { reportForeignTools } from '../../wire/vendor-tools';
import { reportDrop } from '../../warnings';

const log = createDebug('rosetta:provider');

/** Options of {@link LocalProvider}. */
export interface LocalProviderOptions {
  /** Provider name, for `provider` in the model table. Default `local`. */
  name?: string;
  /** Milliseconds to wait before each streamed token, so streaming is visible in a demo. Default 0. */
  tokenDelayMs?: number;
}

/** Image sides the local image model accepts, in pixels. */
export const LOCAL_IMAGE_LIMITS = Object.freeze({ minSide: 16, maxSide: 4096 });

/** The models the local provider serves by default. */
export const LOCAL_MODELS: readonly ModelConfig[] = Object.freeze([
  {
    id: 'rosetta-echo',
    provider: 'local',
    displayName: 'Rosetta Echo (local)',
    contextWindow: 128_000,
    maxOutputTokens: 4096,
  },
  { id: 'rosetta-image', provider: 'local', type: 'image', displayName: 'Rosetta Image (local)' },
  {
    id: 'rosetta-embed',
    provider: 'local',
    type: 'embedding',
    displayName: 'Rosetta Embed (local, lexical)',
    contextWindow: 8192,
  },
]);

function newId(): string {
  return randomUUID().replace(/-/g, '');
}

/** A tool-call id in the form every protocol accepts (`call_` and 24 hex digits). */
function toolCallId(): string {
  return `call_${newId().slice(0, 24)}`;
}

function contentOf(completion: LocalCompletion): ContentPart[] {
  if (completion.kind === 'tool-call')
    return [{ type: 'tool-call', id: toolCallId(), name: completion.name, arguments: completion.arguments }];
  return completion.text.length > 0 ? [{ type: 'text', text: completion.text }] : [];
}

function outputTokensOf(completion: LocalCompletion): number {
  return completion.kind === 'tool-call' ? completion.outputTokens : completion.tokens.length;
}

function throwIfAborted(signal: AbortSignal): void {
  if (signal.aborted)
    throw signal.reason instanceof Error ? signal.reason : new GatewayError('upstream', 'The call was aborted.');
}

/**
 * The embedded provider. Text: the reply is the caller's last user text, verbatim (framework-injected
 * `<system-reminder>` elements left out), cut by stop sequences and the output cap; a tool call when
 * the tool choice forces one or the prompt names a tool; a quote of the tool results sent back.
 * Usage is counted with the o200k_base tokenizer. Images: PNGs of the requested
 * size showing the prompt over a pattern derived from it. Embeddings: lexical vectors of hashed word and character
 * n-gram features (./embed.ts), 256 dimensions by default.
 */
export class LocalProvider implements Provider {
  readonly specificationVersion = 'v1' as const;
  readonly name: string;
  readonly defaultModels: readonly ModelConfig[];
  private readonly tokenDelayMs: number;

  constructor(options: LocalProviderOptions = {}) {
    this.name = options.name ?? 'local';
    this.tokenDelayMs = nonNegativeNumber('LocalProvider', 'tokenDelayMs', options.tokenDelayMs, 0);
    this.defaultModels = LOCAL_MODELS.map((model) => ({ ...model, provider: this.name }));
  }

  countTokens(request: GenerateRequest): number {
    return countRequestTokens(request);
  }

  generate(request: GenerateRequest, context: ProviderCallContext): GenerateResponse {
    throwIfAborted(context.signal);
    reportForeignTools(request, undefined, log, context.warn);
    const inputTokens = countRequestTokens(request);
    const completion = complete(request, request.maxOutputTokens ?? 4096);
    const choiceCount = request.choiceCount ?? 1;
    const choices = Array.from({ length: choiceCount }, (_, index) => ({
      index,
      content: contentOf(completion),
      finishReason: completion.finishReason,
    }));
    return {
      id: newId(),
      model: request.model,
      created: Math.floor(Date.now() / 1000),
      choices,
      usage: { inputTokens, outputTokens: outputTokensOf(completion) * choiceCount },
    };
  }

  /**
   * Streams the same reply as `generate`, one token at a time (after `tokenDelayMs` each): a text
   * reply as text deltas, a tool call's arguments as tool-call deltas.
   */
  async *stream(request: GenerateRequest, context: ProviderCallContext): AsyncGenerator<StreamPart> {
    throwIfAborted(context.signal);
    // Built-in tools of a vendor's API: the local model runs none of them.
    reportForeignTools(request, undefined, log, context.warn);
    const inputTokens = countRequestTokens(request);
    const completion = complete(request, request.maxOutputTokens ?? 4096);
    yield {
      type: 'response-start',
      id: newId(),
      model: request.model,
      created: Math.floor(Date.now() / 1000),
      usage: { inputTokens },
    };
    if (completion.kind === 'tool-call') {
      const id = toolCallId();
      yield { type: 'tool-call-start', id, name: completion.name };
      for await (const delta of this.paced(completion.argumentTokens, context.signal))
        yield { type: 'tool-call-delta', id, delta };
      yield { type: 'tool-call-end', id };
    } else if (completion.tokens.length > 0) {
      yield { type: 'text-start', id: '0' };
      for await (const delta of this.paced(completion.tokens, context.signal))
        yield { type: 'text-delta', id: '0', delta };
      yield { type: 'text-end', id: '0' };
    }
    yield {
      type: 'finish',
      usage: { inputTokens, outputTokens: outputTokensOf(completion) },
      finishReason: completion.finishReason,
    };
  }

  /** The text of each token in turn, after `tokenDelayMs` each. */
  private async *paced(tokens: number[], signal: AbortSignal): AsyncGenerator<string> {
    for (const delta of decodeTokenSteps(tokens)) {
      if (this.tokenDelayMs > 0) await sleep(this.tokenDelayMs, undefined, { signal });
      throwIfAborted(signal);
      yield delta;
    }
  }

  generateImage(request: ImageRequest, context: ProviderCallContext): ImageResponse {
    const { minSide, maxSide } = LOCAL_IMAGE_LIMITS;
    for (const [name, side] of [
      ['width', request.width],
      ['height', request.height],
    ] as const) {
      if (!Number.isInteger(side) || side < minSide || side > maxSide) {
        throw new GatewayError(
          'invalid_request',
          `The image ${name} must be between ${minSide} and ${maxSide} pixels for this model, not ${side}.`,
          { param: 'size' },
        );
      }
    }
    if (request.outputFormat !== undefined && request.outputFormat !== 'png') {
      throw new GatewayError(
        'invalid_request',
        `This model returns PNG only; output_format '${request.outputFormat}' is not supported.`,
        { param: 'output_format' },
      );
    }
    if (request.background === 'transparent') {
      throw new GatewayError(
        'invalid_request',
        "This model draws opaque images only; background 'transparent' is not supported.",
        { param: 'background' },
      );
    }
    const images = [];
    for (let variant = 0; variant < request.n; variant++) {
      throwIfAborted(context.signal);
      const png = renderImage(request.prompt, request.width, request.height, variant);
      images.push({ base64: png.toString('base64'), mediaType: 'image/png' });
    }
    return { created: Math.floor(Date.now() / 1000), images };
  }

  /**
   * One lexical vector per input (./embed.ts). Reports no usage: the gateway's own count of the inputs is exactly what
   * this model would report. `taskType` and `title` mean nothing to a lexical model: dropped with a warning.
   */
  embed(request: EmbedRequest, context: ProviderCallContext): EmbedResponse & { vectors: Float32Array[] } {
    throwIfAborted(context.signal);
    const dimensions = localDimensions(request.dimensions);
    for (const setting of ['taskType', 'title'] as const) {
      if (request[setting] !== undefined)
        reportDrop(log, context.warn, {
          type: 'unsupported-setting',
          setting,
          details: 'the local embedding model is lexical and has no task types or titles',
        });
    }
    return { model: request.model, vectors: request.inputs.map((input) => localEmbedding(input, dimensions)) };
  }
}
