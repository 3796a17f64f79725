/**
 * Remote compaction passed through: a compaction request (`wire/openai/compaction.ts`) to a Responses upstream that
 * compacts (`responsesCompaction`) goes to its own `POST /responses/compact` with the caller's compact body (the
 * upstream's model id in it), and its `output` comes back as it was (its compaction item is that upstream's, readable
 * only by it) with its usage, which the gateway charges like any answer's.
 */
import type { GenerateRequest } from '../../../canonical';
import { isJsonObject, type JsonObject } from '../../../json';
import type { ProviderCallContext, ProviderGenerateResponse } from '../../types';
import { malformedUpstream } from '../../../upstream/malformed';
import { COMPACT, type CompactExtension } from '../../../wire/openai/compaction';
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
