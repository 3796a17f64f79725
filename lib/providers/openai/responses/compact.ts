/**
 * Remote compaction passed through to a Responses upstream that compacts (`responsesCompaction`): a
 * `POST /v1/responses/compact` (`wire/openai/compaction.ts`) goes to its own `POST /responses/compact` with the
 * caller's compact body (the upstream's model id in it), and its `output` comes back as it was (its compaction item is
 * that upstream's, readable only by it) with its usage, which the gateway charges like any answer's; a
 * `compaction_trigger` call goes to its `/responses` as the caller sent it (`triggerRequest`), the upstream's
 * compaction item coming back as an opaque item of the answer.
 */
import type { GenerateRequest, ToolChoice } from '../../../canonical';
import { isJsonObject, type JsonObject } from '../../../json';
import type { ProviderCallContext, ProviderGenerateResponse } from '../../types';
import { malformedUpstream } from '../../../upstream/malformed';
import { COMPACT, type CompactExtension, compactExtension } from '../../../wire/openai/compaction';
import { opaqueItem } from '../../../wire/openai/responses-extensions';
import type { ResponsesCall } from './call';
import { reportedUsage } from './decode-output';

/** Which upstream models compact on the upstream itself: a list of ids, a test of one, or `true` for all. */
export type ResponsesCompaction = boolean | readonly string[] | ((upstreamModel: string) => boolean);

/** The `responsesCompaction` option as a test. */
export function responsesCompactionTest(option: ResponsesCompaction | undefined): (upstreamModel: string) => boolean {
  if (option === undefined || option === false) return () => false;
  if (option === true) return () => true;
  if (typeof option === 'function') return option;
  const ids = new Set(option);
  return (upstreamModel) => ids.has(upstreamModel);
}

/** `POST /responses/compact` on the upstream, for the caller's compact body in `compact`. */
export async function compactViaResponses(
  call: ResponsesCall,
  compact: CompactExtension & { body: JsonObject },
  request: GenerateRequest,
  context: ProviderCallContext,
): Promise<ProviderGenerateResponse> {
  const body = { ...compact.body, model: context.upstreamModel };
  const answer = await call.client.forCall(context).requestJson<unknown>({ path: '/responses/compact', body });
  if (!isJsonObject(answer) || !Array.isArray(answer.output))
    throw malformedUpstream(call.name, 'a compaction without an output array');
  const response: ProviderGenerateResponse = {
    id: typeof answer.id === 'string' ? answer.id : '',
    model: request.model,
    created: typeof answer.created_at === 'number' ? answer.created_at : Math.floor(Date.now() / 1000),
    choices: [{ index: 0, content: [], finishReason: { unified: 'stop' } }],
    extensions: { [COMPACT]: { output: answer.output.filter(isJsonObject) } },
  };
  const usage = reportedUsage(answer.usage);
  if (usage) response.usage = usage;
  return response;
}

/**
 * A compaction turn as its caller sent it, for an upstream that compacts: without the gateway's summarising instruction
 * (the last message), the caller's tool choice back, and the `compaction_trigger` item after the last message's parts.
 * Any other request is returned as it is.
 */
export function triggerRequest(request: GenerateRequest): GenerateRequest {
  const compact = compactExtension(request.extensions);
  if (compact?.trigger !== true || request.messages.length < 2) return request;
  const messages = request.messages.slice(0, -1);
  const last = messages[messages.length - 1]!;
  const trigger = opaqueItem(last.content.length, { type: 'compaction_trigger' });
  messages[messages.length - 1] = { ...last, opaque: [...(last.opaque ?? []), trigger] };
  const { toolChoice: _summarising, ...rest } = request;
  const asked = compact.toolChoice as ToolChoice | undefined;
  return { ...rest, messages, ...(asked ? { toolChoice: asked } : {}) };
}
