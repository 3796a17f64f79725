/**
 * `POST /v1/responses/compact` (OpenAI's remote compaction, which Codex calls on its built-in `openai` provider): a
 * generate route whose call is a summarising turn of the caller's model, charged and recorded like any call.
 *
 * Decoded, the body is the conversation (`instructions`, `input`, and `tools` so that an upstream that wants its tool
 * calls declared takes them) followed by the gateway's instruction to summarise it, with no tool to be called. The
 * answer's text becomes the `encrypted_content` of one `compaction` item (`wire/openai/compaction.ts`), after the
 * input's user messages as the caller sent them: OpenAI's `response.compaction` object. A later request that sends
 * the item back gets the summary in its place (`compaction-input.ts`). The caller's compact body rides in the
 * request's `rosetta-compact` extension, so a Responses upstream that compacts itself (`responsesCompaction`) is sent
 * the body instead and its output comes back as it was.
 */
import type { GenerateRequest, GenerateResponse } from '../../canonical';
import { GatewayError } from '../../errors';
import { isJsonObject, type JsonObject } from '../../json';
import type { GenerateRoute } from '../types';
import {
  COMPACT,
  type CompactExtension,
  compactedOutput,
  compactExtension,
  compactionToken,
} from '../../wire/openai/compaction';
import { invalidField } from '../shared/validate';
import { decodeResponsesRequest } from './decode-request';
import { encodeUsage } from './encode-output';
import { idStem, itemId, responseId } from './ids';

/** The gateway's instruction for the summarising turn, sent as the last user turn. */
export const COMPACTION_INSTRUCTION = [
  'Stop here and write a handoff summary of the whole conversation above instead of answering it.',
  'Another model will continue this work from your summary alone, without the conversation, so include everything',
  'it needs: the user’s goals and constraints, decisions taken and why, what has been done (files, commands and',
  'their results, tool outputs that matter), what is still open, and the exact next steps.',
  'Write the summary only, as plain text; do not call any tool.',
].join(' ');

/** The compact body's fields the summarising turn uses; the others (`service_tier`, cache options) are not needed. */
const USED_FIELDS = ['model', 'input', 'instructions', 'tools', 'prompt_cache_key'] as const;

/** The compact body → the summarising turn: the conversation, then the instruction; no tool called, never streamed. */
export function decodeCompactRequest(body: unknown): GenerateRequest {
  if (!isJsonObject(body)) return invalidField('body', 'must be a JSON object');
  if (body.previous_response_id !== undefined && body.previous_response_id !== null)
    invalidField(
      'previous_response_id',
      'is not supported on /v1/responses/compact by this gateway: send the conversation as input',
    );
  if (body.input === undefined || body.input === null) invalidField('input', 'is required');
  const conversation: JsonObject = { stream: false };
  for (const field of USED_FIELDS)
    if (body[field] !== undefined && body[field] !== null) conversation[field] = body[field];
  return asSummarisingTurn(decodeResponsesRequest(conversation), { body });
}

/** Makes `request` (a conversation) the turn that summarises it: the instruction last, no tool to be called. */
export function asSummarisingTurn(request: GenerateRequest, compact: CompactExtension): GenerateRequest {
  const extension: CompactExtension = request.toolChoice
    ? { ...compact, toolChoice: { ...request.toolChoice } }
    : compact;
  request.messages.push({ role: 'user', content: [{ type: 'text', text: COMPACTION_INSTRUCTION }] });
  if (request.tools) request.toolChoice = { type: 'none' };
  request.extensions = { ...request.extensions, [COMPACT]: extension };
  return request;
}

/** The compaction item holding the summary `response` wrote; a 502 when it wrote none. */
export function compactionItem(response: Pick<GenerateResponse, 'id' | 'choices'>): JsonObject {
  const summary = summaryOf(response);
  if (summary.length === 0)
    throw new GatewayError('upstream', 'The model wrote no summary for the compaction; try again.', {
      code: 'empty_compaction',
    });
  return { type: 'compaction', id: itemId('cmp', idStem(response.id), 0), encrypted_content: compactionToken(summary) };
}

/** The input's user messages as the caller sent them (a string input is one), which the compacted output keeps. */
function userMessages(input: unknown): JsonObject[] {
  if (typeof input === 'string')
    return [{ type: 'message', role: 'user', content: [{ type: 'input_text', text: input }] }];
  if (!Array.isArray(input)) return [];
  return input.filter(
    (item): item is JsonObject =>
      isJsonObject(item) && (item.type === undefined || item.type === 'message') && item.role === 'user',
  );
}

/** The summary the turn wrote: its text parts, joined. */
export function summaryOf(response: Pick<GenerateResponse, 'choices'>): string {
  const parts = response.choices[0]?.content ?? [];
  return parts
    .map((part) => (part.type === 'text' ? part.text : ''))
    .join('')
    .trim();
}

/** The `response.compaction` object of a finished compaction. */
export function encodeCompactResponse(response: GenerateResponse, request: GenerateRequest): JsonObject {
  let output = compactedOutput(response.extensions);
  if (!output) output = [...userMessages(compactExtension(request.extensions)?.body?.input), compactionItem(response)];
  return {
    id: responseId(response.id),
    object: 'response.compaction',
    created_at: response.created,
    output,
    usage: encodeUsage(response.usage),
  };
}

/** `POST /v1/responses/compact`. */
export const COMPACT_ROUTE: GenerateRoute = {
  operation: 'generate',
  decode: (http) => decodeCompactRequest(http.body),
  encode: (response, request) => ({ status: 200, body: encodeCompactResponse(response, request) }),
};
