/**
 * The model's earlier reasoning on an assistant message, in the upstream's reasoning dialect (see
 * {@link ReasoningReplay}): its own text, OpenRouter's `reasoning_details`, or Google's tool-call thought signatures.
 */
import { appendAll } from '../../arrays';
import createDebug from 'debug';
import type { ContentPart, Message, ReasoningPart, ToolCallPart } from '../../canonical';
import { isJsonObject } from '../../json';
import { GEMINI_CARRIED_SIGNATURE, GEMINI_PLACEHOLDER_SIGNATURE } from '../../wire/gemini/carried-signature';
import {
  OPENROUTER_CARRIED_REASONING,
  unpackReasoningDetails,
  type ReasoningDetail,
} from '../../wire/openrouter/carried-reasoning';
import { REASONING_FIELD_CARRIED } from '../../wire/openai/reasoning-field';
import type { ReasoningReplay } from './reasoning-replay';

const log = createDebug('rosetta:provider');

/**
 * Whether a reasoning part may go to any OpenAI-compatible upstream as text: it carries no vendor's signature (an
 * Anthropic `signature`, `redactedData`, or any `providerMetadata`, such as Gemini's or OpenAI Responses' reasoning
 * items), which would bind it to the vendor that made it. The field an OpenAI-compatible upstream answered it in is
 * no signature: it says where that upstream wants it, the text is plain.
 */
function isUnsigned(part: ReasoningPart): boolean {
  if (part.signature || part.redactedData) return false;
  return Object.keys(part.providerMetadata ?? {}).every((vendor) => vendor === REASONING_FIELD_CARRIED.name);
}

/** The unsigned reasoning text of a turn (its parts joined as they were streamed), or undefined when it has none. */
function unsignedText(parts: readonly ContentPart[]): string | undefined {
  const texts = parts.flatMap((part) =>
    part.type === 'reasoning' && isUnsigned(part) && part.text.length > 0 ? [part.text] : [],
  );
  return texts.length > 0 ? texts.join('') : undefined;
}

/**
 * OpenRouter's reasoning blocks of a turn, from its parts' metadata (the reasoning part and the first tool call
 * after it hold the same blocks; each distinct packing is taken once, in order).
 */
function reasoningDetails(parts: readonly ContentPart[]): ReasoningDetail[] {
  const seen = new Set<string>();
  const details: ReasoningDetail[] = [];
  for (const part of parts) {
    if (part.type !== 'reasoning' && part.type !== 'tool-call') continue;
    const packed =
      part.providerMetadata?.[OPENROUTER_CARRIED_REASONING.name]?.[OPENROUTER_CARRIED_REASONING.metadataKey];
    if (typeof packed !== 'string' || seen.has(packed)) continue;
    seen.add(packed);
    appendAll(details, unpackReasoningDetails(packed));
  }
  return details;
}

/**
 * Puts the turn's reasoning on an encoded assistant message, in the dialect's field, unless a chat-completions caller
 * already set that field itself (its own `reasoning_content`, echoed as it got it; in the `reasoning` dialect it moves
 * there, see {@link echoAsReasoning}). Another vendor's signed reasoning is never sent. With `reasoning_content`, a turn
 * with tool calls and no reasoning to send gets an empty one: DeepSeek and Kimi refuse a thinking-mode tool-call turn
 * without the field (another vendor's turns, after a model switch).
 */
export function setReplayedReasoning(
  encoded: Record<string, unknown>,
  message: Message,
  replay: ReasoningReplay,
  hasToolCalls: boolean,
): void {
  switch (replay) {
    case 'reasoning_content':
    case 'reasoning': {
      if (replay === 'reasoning') echoAsReasoning(encoded);
      if (encoded[replay] !== undefined) return;
      const text = unsignedText(message.content);
      if (text !== undefined) encoded[replay] = text;
      else if (replay === 'reasoning_content' && hasToolCalls) encoded[replay] = '';
      return;
    }
    case 'reasoning_details': {
      if (encoded.reasoning_details !== undefined) return;
      const details = reasoningDetails(message.content);
      if (details.length > 0) {
        encoded.reasoning_details = details;
        return;
      }
      const text = unsignedText(message.content);
      if (text !== undefined && encoded.reasoning === undefined) encoded.reasoning = text;
      return;
    }
    default:
      return;
  }
}

/**
 * A chat-completions caller's echoed `reasoning_content` moved to `reasoning`: the gateway answers every chat caller's
 * reasoning in `reasoning_content`, whichever field the upstream used, so a server that reads `reasoning` gets it
 * back in its own field.
 */
function echoAsReasoning(encoded: Record<string, unknown>): void {
  if (encoded.reasoning !== undefined || typeof encoded.reasoning_content !== 'string') return;
  encoded.reasoning = encoded.reasoning_content;
  delete encoded.reasoning_content;
}

/**
 * A tool call's Gemini thought signature, for Google's OpenAI-compatible endpoint: its own, or the documented
 * placeholder when it is the first call of a step of the current turn and Gemini did not sign it (another vendor's
 * call, after a model switch). Undefined for any other dialect.
 */
export function googleThoughtSignature(
  part: ToolCallPart,
  replay: ReasoningReplay,
  firstOfCurrentStep: boolean,
): string | undefined {
  if (replay !== 'google') return undefined;
  const signature = part.providerMetadata?.[GEMINI_CARRIED_SIGNATURE.name]?.[GEMINI_CARRIED_SIGNATURE.metadataKey];
  if (typeof signature === 'string' && signature.length > 0) return signature;
  if (!firstOfCurrentStep) return undefined;
  log('tool call %s: unsigned in the current turn; the placeholder thought signature sent', part.id);
  return GEMINI_PLACEHOLDER_SIGNATURE;
}

/** An encoded tool call with `extra_content.google.thought_signature` set (beside the caller's other `extra_content`). */
export function withThoughtSignature(call: Record<string, unknown>, signature: string): Record<string, unknown> {
  const extra = isJsonObject(call.extra_content) ? call.extra_content : {};
  const google = isJsonObject(extra.google) ? extra.google : {};
  return { ...call, extra_content: { ...extra, google: { ...google, thought_signature: signature } } };
}
