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
  return conversationId(request.messages);
}

function bounded(id: string): string {
  return id.length <= MAX_SESSION_ID_LENGTH ? id : `#${createHash('sha1').update(id).digest('base64url')}`;
}

/**
 * A hash of the system messages and the first user message (the turns that open a conversation and never change): a
 * 53-bit one computed in JavaScript when they are short (cheaper than a native hash's setup on every call; a
 * collision only shares a deployment), SHA-1 when long.
 */
function conversationId(messages: readonly Message[]): string | undefined {
  let text = '';
  for (const message of messages) {
    if (message.role !== 'system' && message.role !== 'user') continue;
    text += message.role;
    for (const part of message.content) {
      if (part.type === 'text') text += part.text;
      else if (part.type === 'image' || part.type === 'file')
        text += part.source.kind === 'url' ? part.source.url : part.source.data.slice(0, 256);
    }
    text += '\u0000';
    if (message.role === 'user')
      return text.length <= SHORT_CONVERSATION
        ? `c:${shortHash(text)}`
        : `#${createHash('sha1').update(text).digest('base64url')}`;
  }
  return undefined;
}

/** The longest opening (in UTF-16 units) hashed in JavaScript rather than with SHA-1. */
const SHORT_CONVERSATION = 1024;

/** cyrb53: a 53-bit non-cryptographic hash of a string, in base 36. */
function shortHash(text: string): string {
  let h1 = 0xdeadbeef;
  let h2 = 0x41c6ce57;
  for (let index = 0; index < text.length; index++) {
    const code = text.charCodeAt(index);
    h1 = Math.imul(h1 ^ code, 2654435761);
    h2 = Math.imul(h2 ^ code, 1597334677);
  }
  h1 = Math.imul(h1 ^ (h1 >>> 16), 2246822507) ^ Math.imul(h2 ^ (h2 >>> 13), 3266489909);
  h2 = Math.imul(h2 ^ (h2 >>> 16), 2246822507) ^ Math.imul(h1 ^ (h1 >>> 13), 3266489909);
  return (4294967296 * (2097151 & h2) + (h1 >>> 0)).toString(36);
}
