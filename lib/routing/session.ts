/**
 * Who a call's session is (docs/routing.md, *Session affinity*): an explicit header, the prompt-cache key, Anthropic's
 * `metadata.user_id`, else a hash of the system prompt and the first user message.
 */
import { createHash } from 'node:crypto';
import type { GenerateRequest, Message } from '../canonical';
import type { HttpRequestView } from '../protocols/types';

/**
 * The headers that name a session, in the order they are read: the gateway's own, Claude Code's, and the Codex CLI's
 * (`session_id`; `session-id` for proxies that drop names with an underscore).
 */
export const SESSION_HEADERS = ['x-session-id', 'x-claude-code-session-id', 'session-id', 'session_id'] as const;

/** A session id longer than this is hashed (a header or a body field is the caller's, of any length). */
const MAX_SESSION_ID_LENGTH = 200;

/**
 * The session of a text call to `model`, the model part of it (the same session on two models is two sessions);
 * undefined when nothing names one (no header, key or user message).
 */
export function sessionKey(
  model: string,
  http: HttpRequestView,
  request: GenerateRequest,
  protocol: string,
): string | undefined {
  const id = sessionId(http, request, protocol);
  return id === undefined ? undefined : `${model}\n${id}`;
}

function sessionId(http: HttpRequestView, request: GenerateRequest, protocol: string): string | undefined {
  const headers = http.headers;
  for (const name of SESSION_HEADERS) {
    const value = headers[name];
    const text = Array.isArray(value) ? value[0] : value;
    if (text) return bounded(`h:${text}`);
  }
  // The prompt-cache key: OpenAI chat's and the Responses API's `prompt_cache_key`, and Anthropic's
  // `metadata.user_id` (Claude Code puts its session in it); OpenAI's `user` names an end user, not a session.
  const cacheKey = request.promptCacheKey;
  if (cacheKey) return bounded(`k:${cacheKey}`);
  if (protocol === 'anthropic-messages' && request.user) return bounded(`u:${request.user}`);
  return conversationHash(request.messages);
}

function bounded(id: string): string {
  return id.length <= MAX_SESSION_ID_LENGTH ? id : `#${createHash('sha1').update(id).digest('base64url')}`;
}

/** A hash of the system messages and the first user message (the turns that open a conversation and never change). */
function conversationHash(messages: readonly Message[]): string | undefined {
  const hash = createHash('sha1');
  let user = false;
  for (const message of messages) {
    if (message.role !== 'system' && message.role !== 'user') continue;
    hash.update(message.role);
    for (const part of message.content) {
      if (part.type === 'text') hash.update(part.text);
      else if (part.type === 'image' || part.type === 'file')
        hash.update(part.source.kind === 'url' ? part.source.url : part.source.data.slice(0, 256));
    }
    hash.update('\u0000');
    if (message.role === 'user') {
      user = true;
      break;
    }
  }
  return user ? `#${hash.digest('base64url')}` : undefined;
}
