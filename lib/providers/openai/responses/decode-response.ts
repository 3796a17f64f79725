/** A Responses API `Response` object → canonical GenerateResponse. */
import type { ContentPart, OpaqueItem, ReasoningPart, TextPart, ToolCallPart } from '../../../canonical';
import { isJsonObject, unmodelledFields, type JsonObject } from '../../../json';
import { malformedUpstream } from '../../../upstream/malformed';
import type { CarriedReasoningItem } from '../../../wire/openai/carried-reasoning';
import { opaqueItem, RESPONSES } from '../../../wire/openai/responses-extensions';
import type { ProviderGenerateResponse } from '../../types';
import {
  callArguments,
  callName,
  CALL_ITEM_FIELDS,
  carriedItem,
  isCallItem,
  MESSAGE_ITEM_FIELDS,
  REASONING_ITEM_FIELDS,
  textPartFields,
  withExtension,
  reasoningItemText,
  reasoningMetadata,
  reportedUsage,
  responsesFailure,
  responsesFinishReason,
} from './decode-output';

/**
 * Fields of a Response the canonical response says, or the Responses codec rebuilds from the
 * request it answers (the echoed settings); the rest (`service_tier`, a server's own) ride in
 * `extensions['openai-responses']`.
 */
export const MODELLED_RESPONSE_FIELDS: ReadonlySet<string> = new Set([
  'id',
  'object',
  'created_at',
  'status',
  'model',
  'output',
  'usage',
  'error',
  'incomplete_details',
  'background',
  'completed_at',
  'instructions',
  'max_output_tokens',
  'max_tool_calls',
  'parallel_tool_calls',
  'previous_response_id',
  'prompt_cache_key',
  'reasoning',
  'safety_identifier',
  'store',
  'temperature',
  'text',
  'tool_choice',
  'tools',
  'top_logprobs',
  'top_p',
  'truncation',
  'metadata',
  'user',
  'presence_penalty',
  'frequency_penalty',
  'output_text',
]);

/**
 * The parts of a Response's output items, in order: `message` → text parts (a `refusal` as text),
 * `reasoning` → a reasoning part (its summaries, its id and `encrypted_content` as OpenAI metadata),
 * `function_call` / `custom_tool_call` → tool calls under their `call_id`, the first after reasoning
 * also carrying that reasoning (a chat-completions caller sends back only the call). The keys of an
 * item (or of a message's text part) that the canonical part does not model ride in its
 * `extensions['openai-responses']` (a message's own in `item` on its first text part); every other
 * item (a built-in tool's `web_search_call`, `mcp_call`, …) is an opaque item at its place, for a
 * Responses caller.
 */
export function decodeOutputItems(
  output: readonly unknown[],
  upstream: string,
): { content: ContentPart[]; opaque?: OpaqueItem[]; refusalOnly: boolean } {
  const content: ContentPart[] = [];
  let opaque: OpaqueItem[] | undefined;
  let pending: CarriedReasoningItem[] = [];
  let refusal = false;
  let text = false;
  for (const raw of output) {
    if (!isJsonObject(raw)) throw malformedUpstream(upstream, 'a response output item that is not an object');
    if (raw.type === 'message') {
      if (!Array.isArray(raw.content)) throw malformedUpstream(upstream, 'a message output item without content');
      let item = unmodelledFields(raw, MESSAGE_ITEM_FIELDS);
      for (const part of raw.content as unknown[]) {
        if (!isJsonObject(part)) continue;
        let decoded: TextPart | undefined;
        if (part.type === 'output_text' && typeof part.text === 'string') {
          text = true;
          decoded = withExtension({ type: 'text', text: part.text }, textPartFields(part, undefined, item));
        } else if (part.type === 'refusal' && typeof part.refusal === 'string') {
          refusal = true;
          decoded = withExtension({ type: 'text', text: part.refusal }, textPartFields(part, 'refusal', item));
        }
        if (!decoded) continue;
        item = undefined;
        content.push(decoded);
      }
    } else if (raw.type === 'reasoning') {
      const item = carriedItem(raw);
      pending.push(item);
      const part: ReasoningPart = { type: 'reasoning', text: reasoningItemText(raw) };
      const metadata = reasoningMetadata([item]);
      if (metadata) part.providerMetadata = metadata;
      content.push(withExtension(part, unmodelledFields(raw, REASONING_ITEM_FIELDS)));
    } else if (isCallItem(raw)) {
      if (typeof raw.call_id !== 'string' || raw.call_id.length === 0)
        throw malformedUpstream(upstream, 'a call output item without a call_id');
      const part: ToolCallPart = {
        type: 'tool-call',
        id: raw.call_id,
        name: callName(raw),
        arguments: callArguments(raw),
      };
      const metadata = reasoningMetadata(pending);
      if (metadata) part.providerMetadata = metadata;
      pending = [];
      content.push(withExtension(part, unmodelledFields(raw, CALL_ITEM_FIELDS)));
    } else {
      (opaque ??= []).push(opaqueItem(content.length, raw));
    }
  }
  return opaque ? { content, opaque, refusalOnly: refusal && !text } : { content, refusalOnly: refusal && !text };
}

/**
 * The whole answer. A body that is not a Response (no `output` array) is a 502
 * `upstream_malformed`; a `failed` one is the error it reports. Figures missing from `usage` are
 * left out, for the gateway to count.
 */
export function decodeResponsesResponse(
  body: unknown,
  fallbackModel: string,
  upstream: string,
): ProviderGenerateResponse {
  if (!isJsonObject(body) || !Array.isArray(body.output))
    throw malformedUpstream(upstream, 'a response without an output array');
  if (body.status === 'failed') throw responsesFailure(body.error, upstream);
  const { content, opaque, refusalOnly } = decodeOutputItems(body.output, upstream);
  const calls = content.some((part) => part.type === 'tool-call');
  const finishReason =
    refusalOnly && body.status !== 'incomplete'
      ? { unified: 'content-filter' as const, raw: 'refusal' }
      : responsesFinishReason(body, calls);
  const response: ProviderGenerateResponse = {
    id: typeof body.id === 'string' ? body.id : '',
    model: typeof body.model === 'string' ? body.model : fallbackModel,
    created: typeof body.created_at === 'number' ? body.created_at : Math.floor(Date.now() / 1000),
    choices: [opaque ? { index: 0, content, finishReason, opaque } : { index: 0, content, finishReason }],
  };
  const usage = reportedUsage(body.usage);
  if (usage) response.usage = usage;
  const fields = unmodelledFields(body, MODELLED_RESPONSE_FIELDS);
  if (fields) response.extensions = { [RESPONSES]: fields as JsonObject };
  return response;
}
