/** Accumulates a canonical stream into a complete response (for providers that only stream). */
import type {
  ContentPart,
  Extensions,
  FinishReason,
  GenerateRequest,
  GenerateResponse,
  OpaqueItem,
  ProviderStreamPart,
  Usage,
} from '../canonical';
import { GatewayError } from '../errors';
import type { ProviderGenerateResponse } from '../providers/types';
import { completeResponseUsage } from '../tokenizer';

/**
 * Reads a stream of a call to `request` to its `finish` part and returns the equivalent
 * non-streamed response, its usage complete: figures the stream left out are counted
 * ({@link completeResponseUsage}): the output from the content, the input from the request.
 */
export async function collectStream(
  parts: AsyncIterable<ProviderStreamPart>,
  request: GenerateRequest,
): Promise<GenerateResponse> {
  return completeResponseUsage(await collectParts(parts), request);
}

/**
 * Reads a stream to its `finish` part and returns the equivalent non-streamed answer, its usage as
 * the stream reported it: the `finish` figures, the input from `response-start` if `finish` has none.
 */
export async function collectParts(parts: AsyncIterable<ProviderStreamPart>): Promise<ProviderGenerateResponse> {
  const collector = new PartCollector();
  for await (const part of parts) collector.add(part);
  return collector.result();
}

/**
 * Gathers a stream's parts, one at a time, into the equivalent non-streamed answer (for {@link collectParts}, and for a
 * streamed answer the gateway stores).
 */
export class PartCollector {
  private readonly content: ContentPart[] = [];
  private opaque: OpaqueItem[] | undefined;
  private extensions: Extensions | undefined;
  private readonly open = new Map<string, ContentPart>();
  private id = '';
  private model = '';
  private created = Math.floor(Date.now() / 1000);
  private startInput: number | undefined;
  private usage: Partial<Usage> | undefined;
  private finishReason: FinishReason | undefined;

  /** Whether the `finish` part has been seen. */
  get finished(): boolean {
    return this.finishReason !== undefined;
  }

  /** Adds one part; an `error` part throws its error. */
  add(part: ProviderStreamPart): void {
    const open = this.open;
    switch (part.type) {
      case 'response-start':
        ({ id: this.id, model: this.model, created: this.created } = part);
        this.startInput = part.usage?.inputTokens;
        if (part.extensions) this.extensions = part.extensions;
        break;
      case 'text-start':
        open.set(part.id, { type: 'text', text: '' });
        break;
      case 'reasoning-start':
        open.set(part.id, { type: 'reasoning', text: '' });
        break;
      case 'tool-call-start':
        open.set(part.id, {
          type: 'tool-call',
          id: part.id,
          name: part.name,
          arguments: '',
          ...(part.providerMetadata ? { providerMetadata: part.providerMetadata } : {}),
        });
        break;
      case 'text-delta':
      case 'reasoning-delta': {
        const block = open.get(part.id);
        if (block && (block.type === 'text' || block.type === 'reasoning')) block.text += part.delta;
        break;
      }
      case 'tool-call-delta': {
        const block = open.get(part.id);
        if (block?.type === 'tool-call') block.arguments += part.delta;
        break;
      }
      case 'text-end':
      case 'tool-call-end':
      case 'reasoning-end': {
        const block = open.get(part.id);
        if (!block) break;
        open.delete(part.id);
        if (part.providerMetadata) block.providerMetadata = { ...block.providerMetadata, ...part.providerMetadata };
        if (part.extensions) block.extensions = { ...block.extensions, ...part.extensions };
        if (part.type === 'reasoning-end' && block.type === 'reasoning') {
          if (part.signature !== undefined) block.signature = part.signature;
          if (part.redactedData !== undefined) block.redactedData = part.redactedData;
        }
        this.content.push(block);
        break;
      }
      case 'opaque':
        if (part.item) (this.opaque ??= []).push({ at: this.content.length, extensions: part.extensions });
        break;
      case 'finish':
        this.usage = part.usage;
        this.finishReason = part.finishReason;
        if (part.extensions) this.extensions = mergeExtensions(this.extensions, part.extensions);
        break;
      case 'error':
        throw part.error;
    }
  }

  /** The answer; throws when the stream has not finished. */
  result(): ProviderGenerateResponse {
    const finishReason = this.finishReason;
    if (!finishReason) throw new GatewayError('upstream', 'The upstream stream ended before it finished.');
    let usage = this.usage;
    if (this.startInput !== undefined && usage?.inputTokens === undefined)
      usage = { ...usage, inputTokens: this.startInput };
    return {
      id: this.id,
      model: this.model,
      created: this.created,
      choices: [
        this.opaque
          ? { index: 0, content: this.content, finishReason, opaque: this.opaque }
          : { index: 0, content: this.content, finishReason },
      ],
      ...(usage ? { usage } : {}),
      ...(this.extensions ? { extensions: this.extensions } : {}),
    };
  }
}

/** Each protocol's fields of `earlier` and `later`, the later's keys winning. */
function mergeExtensions(earlier: Extensions | undefined, later: Extensions): Extensions {
  if (!earlier) return later;
  const merged: Extensions = { ...earlier };
  for (const key in later) merged[key] = { ...earlier[key], ...later[key] };
  return merged;
}
