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
 * Assembles tool calls from deltas that servers shape in many ways:
 * - keyed by `index` (OpenAI), or without an index (then by position in the chunk);
 * - a new call under a reused index, told apart by a new `id` (Gemini's OpenAI endpoint), or by a
 *   new name after the previous call's arguments were already complete JSON;
 * - parallel calls whose fragments interleave: the first call keeps streaming, the others are held
 *   and sent whole once the stream finishes, since canonical blocks never interleave.
 * Ids missing upstream are minted (`call_<n>`).
 */
export class ToolCallStream {
  private readonly byIndex = new Map<number, CallState>();
  private readonly held: CallState[] = [];
  private live: CallState | undefined;
  private count = 0;

  /** Whether any tool call was seen. */
  get sawCalls(): boolean {
    return this.count > 0;
  }

  /** Whether a tool call is the open block. */
  get isOpen(): boolean {
    return this.live !== undefined;
  }

  /**
   * Appends the parts for one delta to `out`. `closeOther` appends the end of whatever non-tool
   * block is open; it is called before a call starts streaming.
   */
  accept(
    delta: ToolCallDelta,
    position: number,
    out: ProviderStreamPart[],
    closeOther: (out: ProviderStreamPart[]) => void,
  ): void {
    const index = delta.index ?? position;
    const id = nonEmpty(delta.id);
    const name = nonEmpty(delta.function?.name);
    const fragment = argumentsText(delta.function?.arguments);
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
      if (this.live && !isCompleteJson(this.live.args)) {
        this.held.push(call);
      } else {
        this.end(out);
        closeOther(out);
        call.live = true;
        this.live = call;
        out.push({ type: 'tool-call-start', id: call.id, name: call.name });
      }
    } else if (!call.name && name && !call.live) {
      call.name = name;
    }
    if (fragment.length === 0) return;
    if (call.ended) {
      log('tool call %s: arguments after its block ended dropped (%j)', call.id, fragment.slice(0, 20));
      return;
    }
    call.args += fragment;
    if (call.live) out.push({ type: 'tool-call-delta', id: call.id, delta: fragment });
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
