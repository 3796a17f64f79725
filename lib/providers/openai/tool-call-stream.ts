/** Tool-call deltas of a chat-completions stream → whole canonical tool-call blocks that never interleave. */
import createDebug from 'debug';
import type { ProviderStreamPart } from '../../canonical';

const log = createDebug('rosetta:provider');

/**
 * One `delta.tool_calls[]` entry as servers send it (every field may be missing; `arguments` is sometimes an object).
 */
export interface ToolCallDelta {
  index?: number;
  id?: string | null;
  function?: { name?: string | null; arguments?: unknown } | null;
}

/** A call seen in the stream. `live` calls stream as they come; the others are held and sent whole. */
interface CallState {
  id: string;
  fromUpstream: boolean;
  name: string;
  args: string;
  live: boolean;
  ended: boolean;
}

/** Arguments as text: a string as is, an object (some servers send one) as JSON. */
export function argumentsText(value: unknown): string {
  if (value === undefined || value === null) return '';
  return typeof value === 'string' ? value : JSON.stringify(value);
}

function nonEmpty(value: string | null | undefined): string | undefined {
  return typeof value === 'string' && value.length > 0 ? value : undefined;
}

/** Whether arguments so far are one whole JSON value (the call they belong to can have nothing more). */
export function isCompleteJson(text: string): boolean {
  if (text.trim().length === 0) return false;
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
}

/**
 * What of `fragment` is new to a call's arguments so far (`soFar`): all of it, except when a server repeats
 * itself — the whole arguments again once they are complete (the same JSON value, however spaced:
 * nothing is new), or everything so far plus more, itself complete JSON (cumulative deltas: the
 * rest is new). A fragment that is whole JSON beginning with an unfinished object's text cannot
 * continue it, so neither case can take a genuine fragment for a repeat.
 */
export function newArguments(soFar: string, fragment: string): string {
  if (soFar.length === 0 || !looksLikeObject(fragment) || !isCompleteJson(fragment)) return fragment;
  if (isCompleteJson(soFar)) return sameJson(soFar, fragment) ? '' : fragment;
  return fragment.startsWith(soFar) ? fragment.slice(soFar.length) : fragment;
}

/** Whether text could be one whole JSON object (a cheap test before parsing: most fragments are not). */
function looksLikeObject(text: string): boolean {
  const trimmed = text.trim();
  return trimmed.startsWith('{') && trimmed.endsWith('}');
}

function sameJson(a: string, b: string): boolean {
  return JSON.stringify(JSON.parse(a)) === JSON.stringify(JSON.parse(b));
}

/**
 * Assembles tool calls from deltas that servers shape in many ways:
 * - keyed by `index` (OpenAI), or without an index (then by position in the chunk);
 * - an index only on a call's first delta: a later delta with neither index, id nor name continues
 *   the call that began last;
 * - a new call under a reused index, told apart by a new `id` (Gemini's OpenAI endpoint), or by a
 *   new name after the previous call's arguments were already complete JSON;
 * - a name that comes after the call's first argument fragments: the call is held until it is named;
 * - arguments repeated whole (a final chunk restating them) or cumulatively (each delta holding all
 *   so far): only what is new is kept (see {@link newArguments});
 * - parallel calls whose fragments interleave: the first call keeps streaming, the others are held
 *   (canonical blocks never interleave); the first held call streams from its next delta once the
 *   streaming call's arguments are complete JSON, and whatever is still held is sent whole when the
 *   stream finishes.
 * Ids missing upstream are minted (`call_<n>`).
 */
export class ToolCallStream {
  private readonly byIndex = new Map<number, CallState>();
  private readonly held: CallState[] = [];
  private live: CallState | undefined;
  private count = 0;
  /** The index of the call that began last, which a delta with neither index, id nor name continues. */
  private lastIndex: number | undefined;

  /** Whether any tool call was seen. */
  get sawCalls(): boolean {
    return this.count > 0;
  }

  /** Whether a tool call is the open block. */
  get isOpen(): boolean {
    return this.live !== undefined;
  }

  /** Whether the open call's arguments are not yet whole JSON (more fragments may come, after text between them). */
  get isUnfinished(): boolean {
    return this.streamingUnfinished();
  }

  /**
   * Appends the parts for one delta to `out`. `position` is the delta's place in its chunk's
   * `tool_calls`, undefined when it is the only one there. `closeOther` appends the end of whatever
   * non-tool block is open; it is called before a call starts streaming.
   */
  accept(
    delta: ToolCallDelta,
    position: number | undefined,
    out: ProviderStreamPart[],
    closeOther: (out: ProviderStreamPart[]) => void,
  ): void {
    const id = nonEmpty(delta.id);
    const name = nonEmpty(delta.function?.name);
    const index = delta.index ?? (position === undefined ? this.continued(id, name) : position);
    let fragment = argumentsText(delta.function?.arguments);
    let call = this.byIndex.get(index);
    if (!call || this.startsNewCall(call, id, name, fragment)) {
      call = {
        id: id ?? `call_${this.count}`,
        fromUpstream: id !== undefined,
        name: name ?? '',
        args: '',
        live: false,
        ended: false,
      };
      this.count++;
      this.byIndex.set(index, call);
      this.lastIndex = index;
      if (call.name && !this.streamingUnfinished()) this.goLive(call, out, closeOther);
      else this.held.push(call);
    } else if (!call.name && name && !call.live) {
      call.name = name;
    }
    if (fragment.length > 0 && !call.ended) {
      const added = newArguments(call.args, fragment);
      if (added !== fragment) log('tool call %s: arguments repeated upstream; only the new part kept', call.id);
      fragment = added;
      call.args += fragment;
      if (call.live && fragment.length > 0) out.push({ type: 'tool-call-delta', id: call.id, delta: fragment });
    } else if (fragment.length > 0) {
      log('tool call %s: arguments after its block ended dropped (%j)', call.id, fragment.slice(0, 20));
    }
    if (!call.live && !call.ended && call.name && this.held[0] === call && !this.streamingUnfinished()) {
      this.held.shift();
      this.goLive(call, out, closeOther);
      if (call.args.length > 0) out.push({ type: 'tool-call-delta', id: call.id, delta: call.args });
    }
  }

  /** The index a lone delta without one belongs to: the last call's when it names no call of its own, else 0. */
  private continued(id: string | undefined, name: string | undefined): number {
    return id === undefined && name === undefined ? (this.lastIndex ?? 0) : 0;
  }

  /** Whether the streaming call may have more arguments to come (so another call cannot start streaming). */
  private streamingUnfinished(): boolean {
    return this.live !== undefined && !isCompleteJson(this.live.args);
  }

  /** Starts streaming `call`: the block open before it ends first. */
  private goLive(call: CallState, out: ProviderStreamPart[], closeOther: (out: ProviderStreamPart[]) => void): void {
    this.end(out);
    closeOther(out);
    call.live = true;
    this.live = call;
    out.push({ type: 'tool-call-start', id: call.id, name: call.name });
  }

  /** Appends the end of the streaming call, if any. */
  end(out: ProviderStreamPart[]): void {
    if (!this.live) return;
    this.live.ended = true;
    out.push({ type: 'tool-call-end', id: this.live.id });
    this.live = undefined;
  }

  /** Ends the streaming call and appends every held call whole, in the order they began. */
  finish(out: ProviderStreamPart[]): void {
    this.end(out);
    for (const call of this.held.splice(0)) {
      call.ended = true;
      out.push({ type: 'tool-call-start', id: call.id, name: call.name });
      if (call.args.length > 0) out.push({ type: 'tool-call-delta', id: call.id, delta: call.args });
      out.push({ type: 'tool-call-end', id: call.id });
    }
  }

  private startsNewCall(call: CallState, id: string | undefined, name: string | undefined, fragment: string): boolean {
    if (id !== undefined) return call.fromUpstream ? id !== call.id : false;
    return name !== undefined && fragment.trim().length > 0 && isCompleteJson(call.args);
  }
}
