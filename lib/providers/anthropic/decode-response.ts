/** An Anthropic Messages response → canonical GenerateResponse, and its usage block → canonical Usage. */
import createDebug from 'debug';
import type { ContentPart, GenerateResponse, OpaqueItem, Usage } from '../../canonical';
import { isJsonObject, type JsonObject, unmodelledFields } from '../../json';
import {
  ANTHROPIC_MESSAGES_KEY,
  anthropicExtensions,
  anthropicOpaqueItem,
  type AnthropicResponseExtension,
} from '../../wire/anthropic/extensions';
import { malformedUpstream } from '../../upstream/malformed';
import { reportedFigures } from '../../tokenizer';
import { mapAnthropicStopReason } from './map-finish-reason';

const log = createDebug('rosetta:provider');

/** The Messages usage block (response, `message_start` or `message_delta`); every field may be absent or null. */
export interface AnthropicUsage {
  input_tokens?: number | null;
  output_tokens?: number | null;
  cache_read_input_tokens?: number | null;
  cache_creation_input_tokens?: number | null;
  /** The cache writes by TTL; their sum is `cache_creation_input_tokens`. */
  cache_creation?: { ephemeral_5m_input_tokens?: number | null; ephemeral_1h_input_tokens?: number | null } | null;
  output_tokens_details?: { thinking_tokens?: number | null } | null;
}

/** A response content block, as far as the provider reads it. */
export interface AnthropicContentBlock {
  type: string;
  text?: string;
  thinking?: string;
  signature?: string;
  data?: string;
  id?: string;
  name?: string;
  input?: unknown;
}

/** The response fields the provider reads. */
export interface AnthropicMessageResponse {
  id?: string;
  model?: string;
  content?: AnthropicContentBlock[];
  stop_reason?: string | null;
  stop_sequence?: string | null;
  usage?: AnthropicUsage | null;
}

/**
 * Anthropic usage → canonical usage. Anthropic's `input_tokens` excludes cache reads and writes,
 * while canonical input counts every input token, so the three are summed; `output_tokens`
 * already includes thinking. The writes with the 1-hour TTL (`cache_creation.ephemeral_1h_input_tokens`)
 * are `cacheWriteLongTokens`, a part of `cacheWriteTokens`; without `cache_creation_input_tokens` the
 * writes are the sum of `cache_creation`'s two figures.
 */
export function decodeAnthropicUsage(usage: AnthropicUsage | null | undefined): Usage {
  const cacheRead = usage?.cache_read_input_tokens ?? 0;
  const byTtl = usage?.cache_creation;
  const writtenLong = byTtl?.ephemeral_1h_input_tokens ?? 0;
  const cacheWrite = usage?.cache_creation_input_tokens ?? (byTtl?.ephemeral_5m_input_tokens ?? 0) + writtenLong;
  const result: Usage = {
    inputTokens: (usage?.input_tokens ?? 0) + cacheRead + cacheWrite,
    outputTokens: usage?.output_tokens ?? 0,
  };
  if (cacheRead) result.cacheReadTokens = cacheRead;
  if (cacheWrite) result.cacheWriteTokens = cacheWrite;
  if (writtenLong && cacheWrite) result.cacheWriteLongTokens = Math.min(writtenLong, cacheWrite);
  const thinking = usage?.output_tokens_details?.thinking_tokens;
  if (thinking) result.reasoningTokens = thinking;
  return result;
}

/**
 * The figures an Anthropic usage block actually reports, canonical: a count the upstream never sent
 * (an Anthropic-compatible server may send none) is left out for the gateway to count rather than
 * taken as zero. Without an input count, the input is then the whole request counted, cached or
 * not, so the cache figures are kept only as detail.
 */
export function reportedAnthropicUsage(
  usage: AnthropicUsage | null | undefined,
  decoded: Usage = decodeAnthropicUsage(usage),
): Partial<Usage> {
  return reportedFigures(decoded, usage?.input_tokens != null, usage?.output_tokens != null);
}

/** The keys of each block type that has a canonical part which that part says; the rest go to its extension. */
const MODELLED_BLOCK_KEYS: Readonly<Record<string, ReadonlySet<string>>> = {
  text: new Set(['type', 'text']),
  thinking: new Set(['type', 'thinking', 'signature']),
  redacted_thinking: new Set(['type', 'data']),
  tool_use: new Set(['type', 'id', 'name', 'input']),
};

/** Whether a block type has a canonical part (the others are kept whole as opaque items). */
export function isModelledBlock(type: string): boolean {
  return Object.hasOwn(MODELLED_BLOCK_KEYS, type);
}

/**
 * A known block's keys its part does not say (a text's `citations`, a newer API's own), for an
 * Anthropic caller and the next turn; a `citations` of null or none is left out (the codec's default).
 */
export function blockFields(block: AnthropicContentBlock): JsonObject | undefined {
  const modelled = MODELLED_BLOCK_KEYS[block.type];
  if (!modelled) return undefined;
  const fields = unmodelledFields(block as unknown as JsonObject, modelled);
  if (fields && (fields.citations === null || (Array.isArray(fields.citations) && fields.citations.length === 0)))
    delete fields.citations;
  return fields && Object.keys(fields).length > 0 ? fields : undefined;
}

/**
 * One response block → canonical parts, its unmodelled keys in the part's extension; a block type
 * without a canonical twin (a server tool's use or result) gives none (see {@link decodeContent}).
 */
export function decodeContentBlock(block: AnthropicContentBlock, index: number): ContentPart[] {
  const fields = blockFields(block);
  const extensions = fields ? { extensions: anthropicExtensions({ fields })! } : {};
  switch (block.type) {
    case 'text':
      return block.text ? [{ type: 'text', text: block.text, ...extensions }] : [];
    case 'thinking':
      return [
        {
          type: 'reasoning',
          text: block.thinking ?? '',
          ...(block.signature ? { signature: block.signature } : {}),
          ...extensions,
        },
      ];
    case 'redacted_thinking':
      return [{ type: 'reasoning', text: '', redactedData: block.data ?? '', ...extensions }];
    case 'tool_use':
      return [
        {
          type: 'tool-call',
          id: block.id ?? `toolu_${index}`,
          name: block.name ?? '',
          arguments: JSON.stringify(block.input ?? {}),
          ...extensions,
        },
      ];
    default:
      return [];
  }
}

/**
 * An answer's blocks → canonical parts, and each block without a canonical part (`server_tool_use`,
 * `web_search_tool_result`, `mcp_tool_use`, any unknown type) kept whole as an opaque item at its
 * place, for an Anthropic caller and the next turn to an Anthropic upstream.
 */
export function decodeContent(blocks: readonly AnthropicContentBlock[]): {
  content: ContentPart[];
  opaque?: OpaqueItem[];
} {
  const content: ContentPart[] = [];
  let opaque: OpaqueItem[] | undefined;
  blocks.forEach((block, index) => {
    if (isModelledBlock(block.type)) {
      for (const part of decodeContentBlock(block, index)) content.push(part);
      return;
    }
    log('upstream content[%d]: a %s block has no canonical part; kept opaque', index, block.type);
    (opaque ??= []).push(anthropicOpaqueItem(content.length, block as unknown as JsonObject));
  });
  return opaque ? { content, opaque } : { content };
}

/** Top-level answer keys the canonical response says; the rest go to its extension. */
export const MODELLED_RESPONSE_KEYS: ReadonlySet<string> = new Set([
  'id',
  'type',
  'role',
  'model',
  'content',
  'stop_reason',
  'stop_sequence',
  'usage',
]);
/** Usage keys canonical usage says. */
export const MODELLED_USAGE_KEYS: ReadonlySet<string> = new Set([
  'input_tokens',
  'output_tokens',
  'cache_read_input_tokens',
  'cache_creation_input_tokens',
]);

/** What the answer carried that canonical does not say, for an Anthropic caller; undefined when nothing. */
function responseExtension(body: AnthropicMessageResponse): AnthropicResponseExtension | undefined {
  const fields = unmodelledFields(body as JsonObject, MODELLED_RESPONSE_KEYS);
  const usage = isJsonObject(body.usage) ? unmodelledFields(body.usage, MODELLED_USAGE_KEYS) : undefined;
  if (!fields && !usage) return undefined;
  return { ...(fields ? { fields } : {}), ...(usage ? { usage } : {}) };
}

/**
 * The upstream message as a one-choice canonical response; a body without a `content` array of typed blocks is a 502
 * `upstream_malformed`.
 */
export function decodeMessageResponse(
  body: AnthropicMessageResponse,
  fallbackModel: string,
  upstream = 'upstream',
): GenerateResponse {
  if (!isJsonObject(body as unknown) || !Array.isArray(body.content))
    throw malformedUpstream(upstream, 'a response without content');
  if (!body.content.every((block) => isJsonObject(block) && typeof block.type === 'string'))
    throw malformedUpstream(upstream, 'a response with a content block without a type');
  const extension = responseExtension(body);
  const { content, opaque } = decodeContent(body.content);
  const finishReason = mapAnthropicStopReason(body.stop_reason, body.stop_sequence);
  return {
    id: body.id ?? '',
    model: body.model ?? fallbackModel,
    created: Math.floor(Date.now() / 1000),
    choices: [opaque ? { index: 0, content, finishReason, opaque } : { index: 0, content, finishReason }],
    usage: decodeAnthropicUsage(body.usage),
    ...(extension ? { extensions: { [ANTHROPIC_MESSAGES_KEY]: extension } } : {}),
  };
}
