/**
 * The prompt-cache breakpoints of an encoded Anthropic body (`cache_control` on tools, system blocks and
 * message blocks): the gateway's own when the provider places them (`promptCaching: 'auto'`), and the
 * rules the API enforces with a 400 kept, so a request is never refused for its breakpoints.
 *
 * Wire facts (Anthropic's prompt-caching documentation, and the errors other gateways' users hit):
 * - the prompt is read in the order tools → system → messages; a breakpoint caches everything up to it;
 * - at most 4 blocks may carry `cache_control` ("A maximum of 4 blocks with cache_control may be
 *   provided. Found 5.": Wei-Shaw/sub2api#176, decolua/9router#3795, continuedev/continue#6937);
 * - a `ttl: "1h"` breakpoint must not come after a 5-minute one ("a ttl='1h' cache_control block must
 *   not come after a ttl='5m' cache_control block": anthropics/claude-code#39599,
 *   headroomlabs-ai/headroom#2941); a breakpoint without `ttl` is a 5-minute one;
 * - a tool with `defer_loading: true` cannot carry `cache_control` (router-for-me/CLIProxyAPI#4561);
 * - thinking blocks cannot be cached directly.
 */
import type { JsonObject } from '../../json';
import { isJsonObject } from '../../json';
import type { Warn } from '../../warnings';
import { type Breakpoint, keepValidBreakpoints, ownBlock } from '../../wire/anthropic/cache-breakpoint-rules';
import { CACHE_CONTROL } from '../../wire/cache-control';

/**
 * Where the provider's breakpoints come from: `caller` (the default) sends those the caller set
 * (Anthropic `cache_control`, or the chat-completions `cache_control` of OpenRouter and LiteLLM);
 * `auto` also places its own when the caller set none: on the last tool, the system prompt and the
 * last user turn.
 */
export type PromptCaching = 'caller' | 'auto';

const hasBreakpoint = (value: unknown): value is JsonObject =>
  isJsonObject(value) && value[CACHE_CONTROL] !== undefined && value[CACHE_CONTROL] !== null;

/** Every block of an array (and of a `tool_result`'s content) with a breakpoint, in prompt order. */
function collect(blocks: unknown, conversation: boolean, found: Breakpoint[]): void {
  if (!Array.isArray(blocks)) return;
  blocks.forEach((block, index) => {
    if (isJsonObject(block) && block.type === 'tool_result') collect(block.content, conversation, found);
    if (hasBreakpoint(block)) found.push({ holder: blocks, index, conversation });
  });
}

/** The body's breakpoints in the order the API reads them: tools, system, messages. */
function breakpointsOf(body: Record<string, unknown>): Breakpoint[] {
  const found: Breakpoint[] = [];
  collect(body.tools, false, found);
  collect(body.system, false, found);
  if (Array.isArray(body.messages)) for (const message of body.messages) collect(message?.content, true, found);
  return found;
}

/** The index of the last block of `blocks` that may carry a breakpoint (not thinking), or -1. */
function lastCacheable(blocks: unknown[]): number {
  for (let index = blocks.length - 1; index >= 0; index--) {
    const block = blocks[index];
    if (isJsonObject(block) && block.type !== 'thinking' && block.type !== 'redacted_thinking') return index;
  }
  return -1;
}

/** Sets an ephemeral breakpoint on the block at `index` of `blocks` (a copy of it). */
function mark(blocks: unknown[], index: number): void {
  if (index >= 0) ownBlock({ holder: blocks, index, conversation: false })[CACHE_CONTROL] = { type: 'ephemeral' };
}

/** A string content or system prompt as one text block, which can carry a breakpoint. */
function asBlocks(value: unknown): unknown[] | undefined {
  if (typeof value === 'string') return value.length > 0 ? [{ type: 'text', text: value }] : undefined;
  return Array.isArray(value) ? value : undefined;
}

/**
 * The gateway's breakpoints for a request without any (`promptCaching: 'auto'`), as clients such as
 * Claude Code place their own: the last tool that may carry one (not a `defer_loading` tool), the
 * last system block, and the last block of the last user turn. Three of the four, each a 5-minute
 * breakpoint: what the next call with the same prefix reads at a tenth of the input price, written
 * at 1.25 times the input price.
 */
function placeAutomatic(body: Record<string, unknown>): void {
  if (Array.isArray(body.tools)) {
    const tools = body.tools as unknown[];
    for (let index = tools.length - 1; index >= 0; index--) {
      const tool = tools[index];
      if (isJsonObject(tool) && tool.defer_loading !== true) {
        mark(tools, index);
        break;
      }
    }
  }
  const system = asBlocks(body.system);
  if (system) {
    body.system = system;
    mark(system, lastCacheable(system));
  }
  if (!Array.isArray(body.messages)) return;
  const messages = body.messages as JsonObject[];
  for (let index = messages.length - 1; index >= 0; index--) {
    const message = messages[index];
    if (message?.role !== 'user') continue;
    const content = asBlocks(message.content);
    if (!content) return;
    const copy = { ...message, content };
    messages[index] = copy;
    mark(content, lastCacheable(content));
    return;
  }
}

/**
 * Applies the provider's prompt caching to an encoded body, in place: with `auto` and no breakpoint
 * in the body, the gateway's own ({@link placeAutomatic}); then at most four, and no 1-hour one after
 * a 5-minute one. A top-level `cache_control` (Anthropic's automatic caching) counts as one.
 */
export function applyCacheBreakpoints(
  body: Record<string, unknown>,
  caching: PromptCaching,
  warn: Warn | undefined,
): void {
  const topLevel = body[CACHE_CONTROL];
  const top = topLevel === undefined || topLevel === null ? 0 : 1;
  const points = breakpointsOf(body);
  if (caching === 'auto' && points.length === 0 && top === 0) {
    placeAutomatic(body);
    return;
  }
  if (points.length === 0) return;
  keepValidBreakpoints(points, top, warn);
}
