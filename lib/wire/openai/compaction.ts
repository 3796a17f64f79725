/**
 * Remote compaction (`POST /v1/responses/compact`, and the `compaction` items a Responses client sends back in a later
 * request's input): what the Responses codec writes and reads, and what a Responses upstream that compacts passes on.
 *
 * The gateway's own compaction item carries its summary in `encrypted_content` as `rosetta.compaction.v1:` and the
 * summary's UTF-8 bytes in base64url. It is opaque to the client (which stores and resends it as it is) but not secret:
 * it holds only what the caller's own model wrote from the caller's own conversation, so decoding it needs no key, and
 * nothing of it is kept in the gateway. An item in any other form came from a real OpenAI compaction, which only that
 * upstream can read.
 */
import type { Extensions } from '../../canonical';
import { GatewayError } from '../../errors';
import { isJsonObject, type JsonObject } from '../../json';

/** The prefix of the gateway's own `encrypted_content`. */
const TOKEN_PREFIX = 'rosetta.compaction.v1:';

/** The item types that carry a compaction: OpenAI's `compaction` (Codex also reads `compaction_summary`), and Codex's `context_compaction`. */
const COMPACTION_TYPES: ReadonlySet<string> = new Set(['compaction', 'compaction_summary', 'context_compaction']);

/** Whether an input item of type `type` carries a compaction. */
export function isCompactionType(type: unknown): boolean {
  return typeof type === 'string' && COMPACTION_TYPES.has(type);
}

/** The `encrypted_content` of the gateway's compaction item holding `summary`. */
export function compactionToken(summary: string): string {
  return TOKEN_PREFIX + Buffer.from(summary, 'utf8').toString('base64url');
}

/** The summary a compaction item of the gateway's holds, or undefined when `item` is not one (an upstream's own). */
export function gatewaySummary(item: JsonObject): string | undefined {
  const content = item.encrypted_content;
  if (typeof content !== 'string' || !content.startsWith(TOKEN_PREFIX)) return undefined;
  const encoded = content.slice(TOKEN_PREFIX.length);
  if (!/^[A-Za-z0-9_-]*$/.test(encoded))
    throw new GatewayError('invalid_request', 'input: a compaction item of this gateway is malformed', {
      param: 'input',
    });
  return Buffer.from(encoded, 'base64url').toString('utf8');
}

/**
 * The extension key of a compaction request: a canonical request the Responses codec made of a
 * `POST /v1/responses/compact` body, or of a `/v1/responses` body whose input ends in a `compaction_trigger` item
 * (the conversation, then the gateway's summarising instruction as the last message), has it. A Responses upstream
 * that compacts (`responsesCompaction`) is sent the caller's request instead; every other provider ignores the key and
 * runs the summarising turn.
 */
export const COMPACT = 'rosetta-compact';

/**
 * The {@link COMPACT} extension: `body`, the caller's compact body as it came (`POST /v1/responses/compact`); or
 * `trigger: true` for a `/v1/responses` call that asked for a compaction with a `compaction_trigger` item.
 */
export interface CompactExtension extends JsonObject {
  body?: JsonObject;
  trigger?: boolean;
  /** The caller's `toolChoice`, which the summarising turn replaced with `none`. Default: none was set. */
  toolChoice?: JsonObject;
}

/** The compact extension of a request's extensions, or undefined. */
export function compactExtension(extensions: Extensions | undefined): CompactExtension | undefined {
  const value = extensions?.[COMPACT];
  return isJsonObject(value) && (isJsonObject(value.body) || value.trigger === true)
    ? (value as CompactExtension)
    : undefined;
}

/**
 * The extension of the answer a Responses upstream gave to `/responses/compact`: its `output` items as sent, which the
 * codec returns as they are (the upstream's compaction item goes back only to it).
 */
export interface CompactedOutputExtension extends JsonObject {
  output: JsonObject[];
}

/** The compacted output a Responses upstream sent, from an answer's extensions, or undefined. */
export function compactedOutput(extensions: Extensions | undefined): JsonObject[] | undefined {
  const value = extensions?.[COMPACT];
  if (!isJsonObject(value) || !Array.isArray(value.output)) return undefined;
  return value.output.filter(isJsonObject);
}

/**
 * A compaction item no gateway decoding can read (an upstream's own) met an upstream that is not that Responses API:
 * a 400 rather than a conversation silently missing its history.
 */
export function foreignCompaction(type: string): never {
  throw new GatewayError(
    'invalid_request',
    `input: a '${type}' item made by an OpenAI Responses upstream's compaction can only be sent to that upstream; this model is served by another. Send the conversation itself, or compact it again through this gateway's /v1/responses/compact for this model.`,
    { param: 'input', code: 'unsupported_compaction_item' },
  );
}
