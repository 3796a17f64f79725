/**
 * Message threads (the messages API's `thread`, beta `message-threads-2026-08-12`) kept by the gateway for any
 * upstream: `{"type": "create"}` keeps the conversation the upstream saw under the answer's id; `{"type": "continue",
 * "previous_message_id": …}` sends only the new messages and no `system` or `tools`, and the gateway rebuilds the whole
 * request before the upstream is called (so the upstream, and the charge, see the full prompt). The refusals are
 * Anthropic's, with the `error.details.error_code` the Anthropic SDK reads to replay or go on without a thread.
 *
 * Every messages call, threaded or not, is also checked as Anthropic checks it: a `tool_result` must answer a
 * `tool_use` earlier in the conversation.
 */
import { createHash } from 'node:crypto';
import type { GenerateRequest, GenerateResponse, Message } from '../../canonical';
import { answerMessage } from '../../canonical/answer-message';
import { GatewayError } from '../../errors';
import { isJsonObject, type JsonObject } from '../../json';
import type { StoredThread } from '../../stores/types';
import {
  ANTHROPIC_MESSAGES_KEY,
  anthropicExtension,
  type AnthropicMessageExtension,
  type AnthropicRequestExtension,
} from '../../wire/anthropic/extensions';
import type { CallView, ConversationState, HttpRequestView } from '../types';

/** The beta a threaded call names; the gateway serves it, so no upstream is asked for it. */
export const MESSAGE_THREADS_BETA = 'message-threads-2026-08-12';

type ThreadField = { type: 'create' } | { type: 'continue'; previousMessageId: string };

/** The call's `thread`, checked; undefined when it has none. */
function threadOf(http: HttpRequestView): ThreadField | undefined {
  const thread = isJsonObject(http.body) ? http.body.thread : undefined;
  if (thread === undefined || thread === null) return undefined;
  if (isJsonObject(thread) && thread.type === 'create') return { type: 'create' };
  if (isJsonObject(thread) && thread.type === 'continue') {
    const id = thread.previous_message_id;
    if (typeof id === 'string' && id.length > 0) return { type: 'continue', previousMessageId: id };
    throw new GatewayError(
      'invalid_request',
      'thread.previous_message_id: a continue names the id of the previous response.',
      {
        param: 'thread.previous_message_id',
      },
    );
  }
  throw new GatewayError(
    'invalid_request',
    'thread: must be {"type": "create"} or {"type": "continue", "previous_message_id": "<id>"}.',
    {
      param: 'thread',
    },
  );
}

function threadError(kind: 'invalid_request' | 'not_found', message: string, errorCode: string): GatewayError {
  return new GatewayError(kind, message, { param: 'thread', details: { error_code: errorCode } });
}

/** A digest of a create-only field as sent (absent and `null` alike), to tell whether a continue repeats it unchanged. */
function digest(value: unknown): string {
  return createHash('sha256')
    .update(JSON.stringify(value ?? null))
    .digest('base64url');
}

function fingerprintOf(http: HttpRequestView): StoredThread['fingerprint'] {
  const body = isJsonObject(http.body) ? http.body : {};
  return { system: digest(body.system), tools: digest(body.tools) };
}

/** A continue may repeat `system` and `tools` only as the thread was created with them. */
function checkFingerprint(http: HttpRequestView, thread: StoredThread): void {
  const body = isJsonObject(http.body) ? http.body : {};
  const sent = fingerprintOf(http);
  const changed = (['system', 'tools'] as const).filter(
    (field) => body[field] !== undefined && sent[field] !== thread.fingerprint[field],
  );
  if (changed.length === 0) return;
  const names = changed.map((field) => `\`${field}\``).join(' and ');
  const message = `${names} differ from the values stored with the thread: leave them out of a continue (the thread keeps them), or send the whole conversation with thread {"type": "create"} to change them.`;
  throw threadError('invalid_request', message, 'thread_fingerprint_mismatch');
}

/** A message decoded from the top-level `system` (not a `role: "system"` message kept in place in `messages`). */
function isTopSystem(message: Message): boolean {
  return (
    message.role === 'system' && anthropicExtension<AnthropicMessageExtension>(message.extensions)?.inline !== true
  );
}

/** The request's extension without `thread` and its beta: the gateway serves them, no upstream sees them. */
function withoutThread(extension: AnthropicRequestExtension | undefined): AnthropicRequestExtension | undefined {
  if (!extension) return undefined;
  const { thread: _thread, ...fields } = extension.fields ?? {};
  const betas = extension.betas?.filter((beta) => beta !== MESSAGE_THREADS_BETA);
  const rest: AnthropicRequestExtension = { ...extension, fields, betas };
  if (Object.keys(fields).length === 0) delete rest.fields;
  if (!betas?.length) delete rest.betas;
  return rest;
}

/**
 * Anthropic's check: every `tool_result` answers a `tool_use` made earlier in the conversation. Without it an
 * upstream sees a result of no call (Gemini pairs it with another call, a chat upstream refuses it).
 */
export function checkToolResults(messages: readonly Message[]): void {
  const calls = new Set<string>();
  for (const message of messages) {
    for (const part of message.content) {
      if (part.type === 'tool-call') calls.add(part.id);
      else if (part.type === 'tool-result' && !calls.has(part.toolCallId)) {
        const message = `messages: unexpected \`tool_use_id\` found in \`tool_result\` blocks: ${part.toolCallId}. Each \`tool_result\` block must have a corresponding \`tool_use\` block earlier in the conversation.`;
        throw new GatewayError('invalid_request', message, { param: 'messages' });
      }
    }
  }
}

/** The request as it runs: a continue after the thread's conversation, with the thread's `system` and `tools`. */
function prepare(
  request: GenerateRequest,
  previous: StoredThread | undefined,
  _stored: boolean,
  { http }: CallView,
): GenerateRequest {
  const extension = anthropicExtension<AnthropicRequestExtension>(request.extensions);
  const threaded = extension?.fields?.thread !== undefined || extension?.betas?.includes(MESSAGE_THREADS_BETA) === true;
  if (!threaded && !previous) {
    // A call without a thread (most of them): only Anthropic's check, no copy of the request.
    checkToolResults(request.messages);
    return request;
  }
  const prepared: GenerateRequest = { ...request };
  if (threaded) {
    const rest = withoutThread(extension);
    prepared.extensions = { ...request.extensions, [ANTHROPIC_MESSAGES_KEY]: rest as JsonObject };
    if (!rest || Object.keys(rest).length === 0) delete prepared.extensions[ANTHROPIC_MESSAGES_KEY];
  }
  if (previous) {
    checkFingerprint(http, previous);
    prepared.messages = [...previous.messages, ...request.messages.filter((message) => !isTopSystem(message))];
    if (previous.tools) prepared.tools = previous.tools;
    else delete prepared.tools;
    const serverTools = anthropicExtension<AnthropicRequestExtension>(previous.extensions)?.serverTools;
    if (serverTools) {
      const own = anthropicExtension<AnthropicRequestExtension>(prepared.extensions);
      prepared.extensions = { ...prepared.extensions, [ANTHROPIC_MESSAGES_KEY]: { ...own, serverTools } as JsonObject };
    }
  }
  checkToolResults(prepared.messages);
  return prepared;
}

/** The turn kept under the answer's message id: the whole conversation, the answer last. */
function record(
  request: GenerateRequest,
  previous: StoredThread | undefined,
  answer: GenerateResponse,
  body: unknown,
  call: CallView,
): { id: string; record: StoredThread } {
  const id = (body as JsonObject).id as string;
  const serverTools = anthropicExtension<AnthropicRequestExtension>(request.extensions)?.serverTools;
  const thread: StoredThread = {
    messages: [...request.messages, answerMessage(answer)],
    fingerprint: previous?.fingerprint ?? fingerprintOf(call.http),
    createdAt: answer.created,
  };
  if (request.tools) thread.tools = request.tools;
  if (serverTools) thread.extensions = { [ANTHROPIC_MESSAGES_KEY]: { serverTools } as JsonObject };
  return { id, record: thread };
}

/** The messages route's threads, kept in the gateway's thread store (`stores.threads`). */
export const THREAD_STATE: ConversationState<StoredThread> & { readonly store: 'threads' } = {
  store: 'threads',
  continuedOnce: true,
  previousId: (_request, call) => {
    const thread = threadOf(call.http);
    return thread?.type === 'continue' ? thread.previousMessageId : undefined;
  },
  wantsStored: (_request, call) => threadOf(call.http) !== undefined,
  withoutStore: (_request, call) =>
    threadOf(call.http) === undefined
      ? undefined
      : threadError(
          'invalid_request',
          'This gateway keeps no message threads (no thread store is configured): send the whole conversation without `thread`.',
          'thread_unsupported_request',
        ),
  notFound: (id) =>
    threadError(
      'not_found',
      `No thread state was found for previous_message_id '${id}': send the whole conversation again with thread {"type": "create"}.`,
      'thread_not_found',
    ),
  prepare,
  record,
};
