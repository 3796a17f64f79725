/**
 * Canonical GenerateResponse → the Responses API `Response` object (also the one inside the stream's lifecycle events).
 */
import type { FinishReason, GenerateRequest, GenerateResponse } from '../../canonical';
import type { JsonObject } from '../../json';
import { echoSettings, includesEncryptedReasoning } from './echo';
import { encodeUsage, outputItems } from './encode-output';
import { idStem, responseId } from './ids';
import { responsesExtension } from '../../wire/openai/responses-extensions';

/** `status` and `incomplete_details` for a finish: a cut by the output cap or a content filter is `incomplete`. */
export function finishStatus(reason: FinishReason): {
  status: 'completed' | 'incomplete';
  incomplete_details: JsonObject | null;
} {
  if (reason.unified === 'length') return { status: 'incomplete', incomplete_details: { reason: 'max_output_tokens' } };
  if (reason.unified === 'content-filter')
    return { status: 'incomplete', incomplete_details: { reason: 'content_filter' } };
  return { status: 'completed', incomplete_details: null };
}

/** What a Response object's lifecycle fields say at one moment. */
export interface ResponseState {
  id: string;
  model: string;
  createdAt: number;
  status: 'in_progress' | 'completed' | 'incomplete' | 'failed';
  output: JsonObject[];
  usage: JsonObject | null;
  error?: JsonObject | null;
  incompleteDetails?: JsonObject | null;
  completedAt?: number | null;
  /** The upstream response's own fields (a Responses upstream's `service_tier`, a server's own), over the echo. */
  fields?: JsonObject;
}

/** A stream's state before its `response-start`: what `response.created` shows until the upstream names itself. */
export function startingState(): ResponseState {
  return { id: 'resp_0', model: '', createdAt: 0, status: 'in_progress', output: [], usage: null };
}

/**
 * The whole Response object: every field the Open Responses schema requires, in OpenAI's order,
 * the settings (`settings`, from {@link echoSettings}) as the call had them.
 */
export function responseObject(state: ResponseState, settings: JsonObject): JsonObject {
  return {
    id: state.id,
    object: 'response',
    created_at: state.createdAt,
    status: state.status,
    background: false,
    completed_at: state.completedAt ?? null,
    error: state.error ?? null,
    incomplete_details: state.incompleteDetails ?? null,
    ...settings,
    ...state.fields,
    model: state.model,
    output: state.output,
    usage: state.usage,
  };
}

/**
 * Whether reasoning items carry `encrypted_content`: when the caller asked (`include`), or when a tool call follows (a
 * vendor needs its signature back in the tool loop).
 */
export function wantsEncrypted(request: GenerateRequest | undefined, hasToolCall: boolean): boolean {
  return hasToolCall || includesEncryptedReasoning(request);
}

/**
 * The Response object of a finished call (the first choice: the Responses API has one); `previousId` is the call's
 * `previous_response_id`.
 */
export function encodeResponsesResponse(
  response: GenerateResponse,
  request: GenerateRequest | undefined,
  previousId?: string,
): JsonObject {
  const choice = response.choices[0];
  const parts = choice?.content ?? [];
  const finish = choice
    ? finishStatus(choice.finishReason)
    : { status: 'completed' as const, incomplete_details: null };
  const stem = idStem(response.id);
  const withEncrypted = wantsEncrypted(
    request,
    parts.some((part) => part.type === 'tool-call'),
  );
  const output = outputItems(
    parts,
    stem,
    request,
    withEncrypted,
    finish.status === 'completed' ? 'completed' : 'incomplete',
    choice?.opaque,
  );
  const fields = responsesExtension(response.extensions);
  return responseObject(
    {
      id: responseId(response.id),
      model: response.model,
      createdAt: response.created,
      status: finish.status,
      output,
      usage: encodeUsage(response.usage),
      incompleteDetails: finish.incomplete_details,
      completedAt: finish.status === 'completed' ? Math.max(response.created, Math.floor(Date.now() / 1000)) : null,
      ...(fields ? { fields } : {}),
    },
    echoSettings(request, previousId),
  );
}
