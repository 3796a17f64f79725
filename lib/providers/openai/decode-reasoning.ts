/**
 * The vendor-bound reasoning an OpenAI-compatible answer carries beside its text: OpenRouter's `reasoning_details` and
 * the Gemini thought signature Google's endpoint puts on a tool call (`extra_content.google.thought_signature`), as
 * provider metadata keyed by the vendor that must get it back; and the field the reasoning text came in, learned for
 * the next turn.
 */
import type { ProviderMetadata } from '../../canonical';
import { isJsonObject } from '../../json';
import { GEMINI_CARRIED_SIGNATURE } from '../../wire/gemini/carried-signature';
import {
  OPENROUTER_CARRIED_REASONING,
  packReasoningDetails,
  type ReasoningDetail,
} from '../../wire/openrouter/carried-reasoning';
import { packReasoningField, REASONING_FIELD_CARRIED, type ReasoningField } from '../../wire/openai/reasoning-field';

/** A message's or delta's reasoning text and the field it came in. */
export interface ReasoningText {
  text: string;
  field: ReasoningField;
}

/**
 * The reasoning text of a message or delta: `reasoning_content` (DeepSeek, Kimi, Qwen, vLLM, litellm) or `reasoning`
 * (OpenRouter, newer vLLM, Ollama). Only non-empty strings count; the first one present wins.
 */
export function reasoningText(
  fields: { reasoning_content?: unknown; reasoning?: unknown } | null | undefined,
): ReasoningText | undefined {
  if (typeof fields?.reasoning_content === 'string' && fields.reasoning_content.length > 0)
    return { text: fields.reasoning_content, field: 'reasoning_content' };
  if (typeof fields?.reasoning === 'string' && fields.reasoning.length > 0)
    return { text: fields.reasoning, field: 'reasoning' };
  return undefined;
}

/**
 * The field an answer's reasoning came in as metadata bound to the provider (`upstream`, its name) that answered, so
 * the next turn gives that upstream its reasoning back the same way, whatever its host.
 */
function fieldMetadata(field: ReasoningField, upstream: string): ProviderMetadata {
  return {
    [REASONING_FIELD_CARRIED.name]: { [REASONING_FIELD_CARRIED.metadataKey]: packReasoningField({ field, upstream }) },
  };
}

/**
 * A tool call's Gemini thought signature as metadata (signatures from Google's OpenAI-compatible endpoint are
 * Gemini's, kept under the same key as the native API's: both are Google's), or undefined.
 */
export function toolCallMetadata(call: { extra_content?: unknown } | null | undefined): ProviderMetadata | undefined {
  const extra = call?.extra_content;
  const google = isJsonObject(extra) ? extra.google : undefined;
  const signature = isJsonObject(google) ? google.thought_signature : undefined;
  return typeof signature === 'string' && signature.length > 0
    ? { [GEMINI_CARRIED_SIGNATURE.name]: { [GEMINI_CARRIED_SIGNATURE.metadataKey]: signature } }
    : undefined;
}

/**
 * The learned reasoning field as metadata for the reasoning part and for the first tool call, or undefined when the
 * answer has `reasoning_details` (OpenRouter's, which go back themselves) or no reasoning text. The call carries it
 * only when it is not `reasoning_content`: a chat-completions caller sends back only the call and the reasoning in
 * `reasoning_content`, which says that field itself.
 */
export function learnedField(
  own: ReasoningText | undefined,
  blocks: ProviderMetadata | undefined,
  upstream: string,
): { part: ProviderMetadata; call?: ProviderMetadata } | undefined {
  if (!own || blocks) return undefined;
  const part = fieldMetadata(own.field, upstream);
  return own.field === 'reasoning_content' ? { part } : { part, call: part };
}

/** OpenRouter's reasoning blocks as metadata, or undefined when there are none. */
export function detailsMetadata(details: readonly ReasoningDetail[]): ProviderMetadata | undefined {
  return details.length > 0
    ? {
        [OPENROUTER_CARRIED_REASONING.name]: {
          [OPENROUTER_CARRIED_REASONING.metadataKey]: packReasoningDetails(details),
        },
      }
    : undefined;
}

/** Two metadata objects as one (vendors side by side), or whichever is there. */
export function mergeMetadata(
  first: ProviderMetadata | undefined,
  second: ProviderMetadata | undefined,
): ProviderMetadata | undefined {
  if (!first) return second;
  if (!second) return first;
  return { ...first, ...second };
}

/** The objects of a `reasoning_details` value (anything else is none). */
export function detailItems(value: unknown): ReasoningDetail[] {
  return Array.isArray(value) ? value.filter((item): item is ReasoningDetail => isJsonObject(item)) : [];
}

/** The readable text of reasoning blocks (`reasoning.text` and `reasoning.summary` items), for an answer that has no other. */
export function detailsText(details: readonly ReasoningDetail[]): string {
  return details
    .map((item) => (typeof item.text === 'string' ? item.text : typeof item.summary === 'string' ? item.summary : ''))
    .join('');
}

/** The string fields a streamed block grows by (its text, summary or encrypted data come in pieces). */
const GROWING_FIELDS = ['text', 'summary', 'data'] as const;

/**
 * `reasoning_details` of a stream, gathered: a streamed item continues the one with the same `index` (its text,
 * summary or data appended, its other fields, such as a final `signature`, set), an item without an index is a block
 * of its own. OpenRouter wants the blocks back whole and in order.
 */
export class ReasoningDetailsStream {
  private readonly items: ReasoningDetail[] = [];
  private readonly byIndex = new Map<number, ReasoningDetail>();

  get size(): number {
    return this.items.length;
  }

  accept(value: unknown): void {
    for (const item of detailItems(value)) {
      const index = typeof item.index === 'number' ? item.index : undefined;
      const known = index === undefined ? undefined : this.byIndex.get(index);
      if (!known) {
        const copy = { ...item };
        this.items.push(copy);
        if (index !== undefined) this.byIndex.set(index, copy);
        continue;
      }
      for (const [name, field] of Object.entries(item)) {
        const grows = (GROWING_FIELDS as readonly string[]).includes(name);
        if (grows && typeof field === 'string' && typeof known[name] === 'string') known[name] += field;
        else if (field !== null && field !== undefined) known[name] = field;
      }
    }
  }

  /** The blocks so far as metadata, or undefined. */
  metadata(): ProviderMetadata | undefined {
    return detailsMetadata(this.items);
  }
}
