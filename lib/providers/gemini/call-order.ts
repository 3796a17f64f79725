/**
 * The tool calls of a conversation as the Gemini encoder meets them, and the function responses put back in the
 * order of those calls. Gemini pairs a response that carries no id with a call by name and position, but callers
 * answer parallel calls in whatever order their tools finished (Claude Code's concurrent `Read`s, chat-completions
 * `tool` messages, Responses `function_call_output` items): sent as they came, two results of one function swap calls.
 */
import type { ToolCallPart } from '../../canonical';
import type { GeminiContent, GeminiPart } from './wire-types';

/**
 * A tool call seen earlier in the history: its name, whether its id was minted by Gemini (then it is sent back), and
 * its place among the conversation's calls.
 */
export interface KnownCall {
  name: string;
  geminiId: boolean;
  order: number;
}

/** Whether a tool call's id came from Gemini itself (recorded in its metadata when decoded), not synthesized. */
export function hasGeminiId(part: ToolCallPart): boolean {
  return part.providerMetadata?.gemini?.functionCallId === part.id;
}

/** The calls met so far by id, and which encoded function responses answer which of them (each step O(1)). */
export class KnownCalls {
  private readonly byId = new Map<string, KnownCall>();
  private readonly answering = new Map<GeminiPart, number>();
  private count = 0;

  /** Records a call (a repeated id takes the later call's place, as a result then answers that one). */
  called(part: ToolCallPart): void {
    this.byId.set(part.id, { name: part.name, geminiId: hasGeminiId(part), order: this.count++ });
  }

  get(id: string): KnownCall | undefined {
    return this.byId.get(id);
  }

  /** Notes that an encoded `functionResponse` part answers `call`. */
  answered(response: GeminiPart, call: KnownCall): void {
    this.answering.set(response, call.order);
  }

  /**
   * Within each content, the responses to known calls in the order of their calls, in the places those responses
   * held; every other part (text, a response naming no earlier call) stays where it was. Linear for a content already
   * in order, else a stable sort of its responses.
   */
  putInCallOrder(contents: readonly GeminiContent[]): void {
    if (this.answering.size < 2) return;
    for (const content of contents) this.orderParts(content.parts);
  }

  private orderParts(parts: GeminiPart[]): void {
    const places: number[] = [];
    const responses: Array<{ part: GeminiPart; order: number }> = [];
    let inOrder = true;
    parts.forEach((part, place) => {
      const order = this.answering.get(part);
      if (order === undefined) return;
      if (responses.length > 0 && order < responses.at(-1)!.order) inOrder = false;
      places.push(place);
      responses.push({ part, order });
    });
    if (inOrder) return;
    responses.sort((a, b) => a.order - b.order);
    places.forEach((place, index) => {
      parts[place] = responses[index]!.part;
    });
  }
}
