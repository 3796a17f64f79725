/** Carries Gemini thought signatures through protocols that have no field for them: inside tool-call ids and thinking-block signatures. */
import createDebug from 'debug';
import type { ProviderMetadata, StreamPart } from '../../canonical';

const log = createDebug('rosetta:codec');

/**
 * Marks the start of a signature carried inside a tool-call id: `<id>__gemsig<mode>_<payload>`.
 * `<mode>` is `0`, `1` or `2` when the signature is standard base64 (the payload is that base64
 * with `+` → `-`, `/` → `_` and its `mode` trailing `=` removed), or `u` for any other string (the
 * payload is the base64url of its UTF-8 bytes, unpadded). Either way the id keeps to
 * `[A-Za-z0-9_-]` when `<id>` does, which Anthropic requires of `tool_use.id`.
 */
export const TOOL_ID_MARKER = '__gemsig';

/** Prefix of an Anthropic thinking-block `signature` that is really a Gemini thought signature. */
export const GEMINI_THINKING_PREFIX = 'gemini:';

const STANDARD_BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;
const URL_SAFE = /^[A-Za-z0-9_-]*$/;

/** The Gemini `thoughtSignature` in a part's metadata (never another vendor's). */
export function geminiSignatureOf(metadata: ProviderMetadata | undefined): string | undefined {
  const value = metadata?.gemini?.thoughtSignature;
  return typeof value === 'string' && value.length > 0 ? value : undefined;
}

/** `{providerMetadata: {gemini: {thoughtSignature}}}`, or nothing without a signature. */
export function geminiSignatureMetadata(signature: string | undefined): { providerMetadata?: ProviderMetadata } {
  return signature ? { providerMetadata: { gemini: { thoughtSignature: signature } } } : {};
}

function encodePayload(signature: string): string {
  if (STANDARD_BASE64.test(signature)) {
    const unpadded = signature.replace(/=+$/, '');
    return `${signature.length - unpadded.length}_${unpadded.replace(/\+/g, '-').replace(/\//g, '_')}`;
  }
  return `u_${Buffer.from(signature, 'utf8').toString('base64url')}`;
}

function decodePayload(mode: string, payload: string): string | undefined {
  if (!URL_SAFE.test(payload)) return undefined;
  if (mode === 'u') {
    const text = Buffer.from(payload, 'base64url').toString('utf8');
    return text.length > 0 && Buffer.from(text, 'utf8').toString('base64url') === payload ? text : undefined;
  }
  const padding = Number(mode);
  if (!(padding >= 0 && padding <= 2)) return undefined;
  return payload.replace(/-/g, '+').replace(/_/g, '/') + '='.repeat(padding);
}

/**
 * The id a caller sees for a tool call that carries a Gemini signature: `<id>__gemsig<mode>_<payload>`
 * (see {@link TOOL_ID_MARKER}). Without a signature, for an empty id, or when the id already holds
 * the marker (it could not be split back exactly), the id is returned unchanged.
 */
export function carrySignatureInToolId(id: string, signature: string | undefined): string {
  if (!signature || id.length === 0) return id;
  if (id.includes(TOOL_ID_MARKER)) {
    log('tool call %s: its id already holds %s; its Gemini signature is not carried', id, TOOL_ID_MARKER);
    return id;
  }
  return `${id}${TOOL_ID_MARKER}${encodePayload(signature)}`;
}

/** A caller's tool-call id split into the id the gateway minted and the Gemini signature it carries (none when it carries none). */
export function splitToolId(id: string): { id: string; signature?: string } {
  const at = id.indexOf(TOOL_ID_MARKER);
  if (at <= 0) return { id };
  const rest = id.slice(at + TOOL_ID_MARKER.length);
  const signature = rest[1] === '_' ? decodePayload(rest[0]!, rest.slice(2)) : undefined;
  return signature ? { id: id.slice(0, at), signature } : { id };
}

/** The thinking-block signature that carries a Gemini signature: `gemini:<signature>`. */
export function carrySignatureInThinking(signature: string): string {
  return `${GEMINI_THINKING_PREFIX}${signature}`;
}

/** The Gemini signature a thinking-block signature carries, or undefined when it is not `gemini:`-tagged (an Anthropic one). */
export function signatureFromThinking(value: string): string | undefined {
  return value.startsWith(GEMINI_THINKING_PREFIX) && value.length > GEMINI_THINKING_PREFIX.length ? value.slice(GEMINI_THINKING_PREFIX.length) : undefined;
}

/** Receives a part; for a `tool-call-start`, also the metadata of its `tool-call-end` when that was already known. */
export type PartAheadSink = (part: StreamPart, toolCallEnd?: ProviderMetadata) => void;

/**
 * Lets an encoder name a tool call by an id that depends on its end: a `tool-call-start` is held
 * until the part after its first argument delta. When that part is the call's `tool-call-end` (a
 * call sent whole, as Gemini sends every call), the start comes out with the end's metadata;
 * otherwise the held parts come out unchanged, one part late. Order and content never change.
 * Every other part passes straight through. Held parts come out at the latest with the next part,
 * so a stream's last part (`finish` or `error`) flushes them.
 */
export class ToolCallLookahead {
  /** A `tool-call-start`, and its first delta once that came. */
  private held: [Extract<StreamPart, { type: 'tool-call-start' }>, ...StreamPart[]] | undefined;

  /** Pushes one part; `emit` is called for each part now ready, in order. */
  push(part: StreamPart, emit: PartAheadSink): void {
    const held = this.held;
    if (held !== undefined) {
      const start = held[0];
      if (part.type === 'tool-call-delta' && part.id === start.id && held.length === 1) {
        held.push(part);
        return;
      }
      this.held = undefined;
      const end = part.type === 'tool-call-end' && part.id === start.id ? part.providerMetadata : undefined;
      emit(start, end);
      for (let index = 1; index < held.length; index++) emit(held[index]!);
    }
    if (part.type === 'tool-call-start') this.held = [part];
    else emit(part);
  }

  /** Emits whatever is held (a stream that ends without a last part). */
  flush(emit: PartAheadSink): void {
    const held = this.held;
    this.held = undefined;
    for (const part of held ?? []) emit(part);
  }
}

/**
 * A `StreamEncoder.encode` for an encoder that names tool calls by their ends: each part goes
 * through a {@link ToolCallLookahead}, and `encodeReady` gives the text of each part once it is
 * ready (with its call's end metadata for a `tool-call-start`); what one pushed part releases is
 * returned together.
 */
export function encodeLookingAhead(encodeReady: (part: StreamPart, toolCallEnd?: ProviderMetadata) => string): (part: StreamPart) => string {
  const lookahead = new ToolCallLookahead();
  let out = '';
  const emit: PartAheadSink = (part, toolCallEnd) => {
    out += encodeReady(part, toolCallEnd);
  };
  return (part) => {
    lookahead.push(part, emit);
    // Not kept until the next part: a stream held open would hold its last chunk's text.
    const text = out;
    out = '';
    return text;
  };
}
