/**
 * Whether an OpenAI-compatible upstream gets the caller's prompt-cache breakpoints (`cache_control` on content parts
 * and tools, the convention of OpenRouter and LiteLLM in front of Claude), chosen per model by the `cacheControl`
 * option or its vendor preset (./presets/); and, when it does, at most the four Anthropic takes.
 *
 * Wire facts: OpenRouter documents `cache_control` breakpoints on content parts for Anthropic Claude ("There is a
 * limit of four breakpoints"), Google Gemini and Alibaba Qwen models, every other model caching automatically
 * (openrouter.ai/docs/guides/best-practices/prompt-caching); LiteLLM passes `cache_control` on content parts, tools and
 * messages to Claude (docs.litellm.ai, prompt caching; its `convert_to_anthropic_tool_result` puts a tool message's on
 * the `tool_result`). OpenAI caches automatically and documents no such field.
 */
import type { CacheControl, Extensions, GenerateRequest } from '../../canonical';
import { configError } from '../../config-check';
import { isJsonObject } from '../../json';
import type { Warn } from '../../warnings';
import { anthropicExtension, type AnthropicPartExtension } from '../../wire/anthropic/extensions';
import { CACHE_CONTROL, decodeCacheControl } from '../../wire/cache-control';
import { type Breakpoint, keepValidBreakpoints } from '../../wire/anthropic/cache-breakpoint-rules';

/**
 * Whether the caller's prompt-cache breakpoints go to the upstream: `send` (as `cache_control` on the content part,
 * tool or tool message they were set on) or `drop`.
 */
export type CacheControlMode = 'send' | 'drop';

/**
 * Which breakpoints a call sends: `all` (a chat-completions caller's and an Anthropic caller's), `chat` (only a
 * chat-completions caller's, written for a chat-completions upstream), or none (false).
 */
export type Markers = false | 'chat' | 'all';

/**
 * The `cacheControl` option resolved once, at creation, into a test of the upstream model id: `send` or `drop` for
 * every model, a function answering per model (true sends), or, absent, its vendor preset's (./presets/).
 */
export function cacheControlFor(
  option: unknown,
  preset: (upstreamModel: string) => Markers,
): (upstreamModel: string) => Markers {
  if (option === undefined) return preset;
  if (option === 'send' || option === 'drop') {
    const markers: Markers = option === 'send' ? 'all' : false;
    return () => markers;
  }
  if (typeof option === 'function') {
    const choose = option as (upstreamModel: string) => unknown;
    return (upstreamModel) => (choose(upstreamModel) === true ? 'all' : false);
  }
  return configError(
    'OpenAIProvider',
    'cacheControl',
    "must be 'send', 'drop' or a function (upstreamModel: string) => boolean.",
  );
}

/**
 * The breakpoint a part or tool carries that `markers` sends: the canonical one (a chat-completions caller's), else,
 * with `all`, an Anthropic caller's `cache_control` of the shape the gateway models, which stays in the Anthropic
 * extension of the part (or tool).
 */
export function breakpointOf(
  item: { cacheControl?: CacheControl; extensions?: Extensions },
  markers: Markers,
): CacheControl | undefined {
  if (markers === false) return undefined;
  if (item.cacheControl) return item.cacheControl;
  if (markers !== 'all' || item.extensions === undefined) return undefined;
  return decodeCacheControl(anthropicExtension<AnthropicPartExtension>(item.extensions)?.fields?.[CACHE_CONTROL]);
}

/** Whether the request carries any breakpoint: on a tool, a part, or a part of a tool result. */
export function hasBreakpoints(request: GenerateRequest, markers: Markers): boolean {
  if (request.tools?.some((tool) => breakpointOf(tool, markers) !== undefined)) return true;
  return request.messages.some((message) =>
    message.content.some(
      (part) =>
        part.type !== 'reasoning' &&
        (breakpointOf(part, markers) !== undefined ||
          (part.type === 'tool-result' && part.content.some((inner) => breakpointOf(inner, markers) !== undefined))),
    ),
  );
}

/** The blocks of an array of content parts with a breakpoint. */
function collect(parts: unknown, conversation: boolean, found: Breakpoint[]): void {
  if (!Array.isArray(parts)) return;
  parts.forEach((part, index) => {
    if (isJsonObject(part) && part[CACHE_CONTROL] !== undefined && part[CACHE_CONTROL] !== null)
      found.push({ holder: parts, index, conversation });
  });
}

/**
 * Applies Anthropic's rules to the breakpoints of an encoded chat body, in place: at most four (the conversation's
 * earliest dropped first, then the earliest of tools and system) and no 1-hour one after a 5-minute one, in the order
 * tools → system → the rest (lib/wire/anthropic/cache-breakpoint-rules.ts). A message's own `cache_control` (a
 * chat-completions caller's, or the tool message's that LiteLLM reads) counts as one.
 */
export function limitChatBreakpoints(body: Record<string, unknown>, warn: Warn | undefined): void {
  const found: Breakpoint[] = [];
  collect(body.tools, false, found);
  const messages = Array.isArray(body.messages) ? (body.messages as unknown[]) : [];
  const isSystem = (message: unknown) =>
    isJsonObject(message) && (message.role === 'system' || message.role === 'developer');
  for (const message of messages) if (isSystem(message)) collect(contentOf(message), false, found);
  messages.forEach((message, index) => {
    if (isSystem(message)) return;
    collect(contentOf(message), true, found);
    if (isJsonObject(message) && message[CACHE_CONTROL] !== undefined)
      found.push({ holder: messages, index, conversation: true });
  });
  if (found.length > 0) keepValidBreakpoints(found, 0, warn);
}

const contentOf = (message: unknown): unknown => (isJsonObject(message) ? message.content : undefined);
