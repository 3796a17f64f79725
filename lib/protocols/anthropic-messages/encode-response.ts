/** Canonical GenerateResponse → Anthropic message response body. */
import createDebug from 'debug';
import type { ContentPart, GenerateResponse, OpaqueItem, Usage } from '../../canonical';
import { carriedSignatureOf, carrySignatureInThinking, carrySignatureInToolId } from '../shared/signature-carrier';
import type { JsonObject } from '../../json';
import {
  anthropicBlocksAt,
  anthropicExtension,
  type AnthropicPartExtension,
  type AnthropicResponseExtension,
} from '../../wire/anthropic/extensions';
import { mapFinishReason } from './map-finish-reason';
import { anthropicToolId } from '../../wire/anthropic/tool-id';

const log = createDebug('rosetta:codec');

/** The message id with the protocol's `msg_` prefix. */
export function anthropicMessageId(id: string): string {
  return id.startsWith('msg_') ? id : `msg_${id}`;
}

/**
 * The Anthropic usage block: `input_tokens` excludes cache reads and writes, `output_tokens` includes thinking;
 * `cache_creation` splits the writes by TTL (the long-lived ones are the 1-hour writes).
 */
export function encodeUsage(usage: Usage) {
  const cacheRead = usage.cacheReadTokens ?? 0;
  const cacheWrite = usage.cacheWriteTokens ?? 0;
  const writtenLong = Math.min(usage.cacheWriteLongTokens ?? 0, cacheWrite);
  return {
    input_tokens: Math.max(0, usage.inputTokens - cacheRead - cacheWrite),
    cache_creation_input_tokens: cacheWrite,
    cache_read_input_tokens: cacheRead,
    output_tokens: usage.outputTokens,
    cache_creation: { ephemeral_5m_input_tokens: cacheWrite - writtenLong, ephemeral_1h_input_tokens: writtenLong },
    output_tokens_details: { thinking_tokens: usage.reasoningTokens ?? 0 },
    service_tier: 'standard' as const,
    inference_geo: 'not_available' as const,
    server_tool_use: null,
  };
}

/** The object a tool call's JSON arguments hold, or `{}` when they are not a JSON object. */
export function toolInput(args: string): Record<string, unknown> {
  try {
    const parsed: unknown = JSON.parse(args);
    return typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed)
      ? (parsed as Record<string, unknown>)
      : {};
  } catch {
    return {};
  }
}

/**
 * An Anthropic response content block: a modelled one (with any keys of the upstream's block its part
 * kept, a text's `citations` among them), or an upstream's block no part models, as it came.
 */
export type AnthropicBlock = (
  | { type: 'text'; text: string; citations: unknown }
  | { type: 'thinking'; thinking: string; signature: string }
  | { type: 'redacted_thinking'; data: string }
  | { type: 'tool_use'; id: string; name: string; input: Record<string, unknown> }
) &
  JsonObject;

/**
 * The part's block with the keys an Anthropic upstream's block had that the part does not say
 * (`citations`, a newer API's own); these win over the codec's defaults (a text's `citations: []`).
 */
function withFields(block: AnthropicBlock, part: ContentPart): AnthropicBlock {
  const fields = anthropicExtension<AnthropicPartExtension>(part.extensions)?.fields;
  return fields ? Object.assign(block, fields, { type: block.type }) : block;
}

/**
 * A reasoning part's thinking-block signature: its Anthropic one, else another vendor's tagged `<vendor>:`, else empty.
 */
export function thinkingSignature(signature: string | undefined, metadata: ContentPart['providerMetadata']): string {
  if (signature) return signature;
  const carried = carriedSignatureOf(metadata);
  return carried ? carrySignatureInThinking(carried) : '';
}

/** A tool call's `tool_use.id`: Anthropic-safe, with the call's vendor signature (if any) carried in it. */
export function toolUseId(
  part: { id: string; providerMetadata?: ContentPart['providerMetadata'] },
  fallback: number,
): string {
  return carrySignatureInToolId(anthropicToolId(part.id, fallback), carriedSignatureOf(part.providerMetadata));
}

/** One part's reply block, or undefined for a part the protocol cannot carry in a reply (an image, a file). */
function encodeBlock(part: ContentPart, index: number): AnthropicBlock | undefined {
  switch (part.type) {
    case 'text':
      return { type: 'text', text: part.text, citations: [] };
    case 'reasoning':
      if (part.redactedData !== undefined) return { type: 'redacted_thinking', data: part.redactedData };
      return {
        type: 'thinking',
        thinking: part.text,
        signature: thinkingSignature(part.signature, part.providerMetadata),
      };
    case 'tool-call':
      return { type: 'tool_use', id: toolUseId(part, index), name: part.name, input: toolInput(part.arguments) };
    default:
      return undefined;
  }
}

/**
 * Content parts → blocks; parts the protocol cannot carry in a reply (images, files) are dropped and
 * logged. Vendor signatures ride in `tool_use` ids and `<vendor>:`-tagged thinking signatures; a text
 * part's signature has no carrier and is not returned. An Anthropic upstream's blocks without a part
 * (`opaque`: a server tool's use and result) go back where they stood, as they came; another
 * protocol's opaque items are not Anthropic's to send.
 */
export function encodeContent(parts: readonly ContentPart[], opaque?: readonly OpaqueItem[]): JsonObject[] {
  const blocks: JsonObject[] = [];
  parts.forEach((part, index) => {
    if (opaque) blocks.push(...anthropicBlocksAt(opaque, index, false));
    const block = encodeBlock(part, index);
    if (block) blocks.push(withFields(block, part));
    else log('response content[%d]: a %s part has no Anthropic reply block; dropped', index, part.type);
  });
  if (opaque) blocks.push(...anthropicBlocksAt(opaque, parts.length, true));
  return blocks;
}

/**
 * The message response body (the first choice: the protocol has no alternatives). When the upstream
 * spoke Anthropic messages too, the `anthropic-messages` extension of the answer holds what it sent
 * that canonical does not say: its top-level fields (`container`, `context_management`,
 * `stop_details`, a newer API's own) replace the codec's defaults, and its usage keys
 * (`server_tool_use`, `service_tier`, the cache-creation split, …) complete the gateway's figures.
 * Content blocks are the codec's own, with the upstream's blocks no part models back in place and
 * the unmodelled keys of those it does (a text's `citations`).
 */
export function encodeMessagesResponse(response: GenerateResponse): ReturnType<typeof encodeMessage> & JsonObject {
  const body: ReturnType<typeof encodeMessage> & JsonObject = encodeMessage(response);
  const extension = anthropicExtension<AnthropicResponseExtension>(response.extensions);
  if (extension?.fields) Object.assign(body, extension.fields);
  if (extension?.usage) body.usage = { ...body.usage, ...extension.usage };
  return body;
}

function encodeMessage(response: GenerateResponse) {
  const choice = response.choices[0];
  const parts = choice?.content ?? [];
  const { stopReason, stopSequence } = mapFinishReason(
    choice?.finishReason ?? { unified: 'stop' },
    parts.some((part) => part.type === 'tool-call'),
  );
  return {
    id: anthropicMessageId(response.id),
    type: 'message' as const,
    role: 'assistant' as const,
    model: response.model,
    content: encodeContent(parts, choice?.opaque),
    stop_reason: stopReason,
    stop_sequence: stopSequence,
    stop_details: null,
    context_management: { applied_edits: [] as unknown[] },
    container: null,
    usage: encodeUsage(response.usage),
  };
}
