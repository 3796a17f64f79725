/** The canonical stream: the parts a streamed text response is made of, and what a provider yields. */
import type { Extensions, OpaqueItem, ProviderMetadata } from './content';
import type { FinishReason, Usage } from './generate';

/**
 * A streamed response is an async iterable of these parts, in order:
 * `response-start`, then for each content block a `*-start`, deltas and `*-end` (blocks do not
 * interleave), then exactly one `finish`. An `error` part may end the stream instead of `finish`.
 * These are what codecs encode, usage complete; a provider yields {@link ProviderStreamPart}s.
 * `extensions` (see {@link Extensions}) carry what the upstream's chunks had that the canonical
 * parts do not model, for a caller of the upstream's own protocol: the stream-level fields on
 * `response-start`, a delta's own (OpenAI `logprobs`) on the `text-delta` it came with.
 * `providerMetadata` goes on the first part that can hold it once it is known: a tool call's on its
 * `tool-call-start` when the upstream sends the call whole (as Gemini does), so an encoder that names
 * the call by it writes it at once; on the `*-end` part what only the end reveals (a text or thinking
 * block's signature). Metadata on both a start and its end is merged, the end's keys winning.
 * A block's `*-end` part may carry the `extensions` of the upstream's whole block (a Responses
 * output item's own fields, known when it is done), and `finish` those of the finished answer.
 * A tool call the upstream streamed in pieces of its own shape (Gemini's `partialArgs`) may carry each
 * piece as it came in the `extensions` of the part it became (start, delta or end), so a caller of that
 * protocol gets the pieces unchanged.
 * An `opaque` part is a piece of the upstream's stream that no canonical part models (a Responses
 * built-in tool's item and its progress events, an Anthropic server-tool block's events), between
 * blocks (or, an Anthropic `citations_delta`, inside the text block it belongs to), for a caller of
 * the upstream's protocol; every other encoder skips it. The one with `item: true` holds the
 * finished item whole, the {@link OpaqueItem} a collected answer keeps.
 */
export type StreamPart =
  | {
      type: 'response-start';
      id: string;
      model: string;
      created: number;
      usage?: Partial<Usage>;
      extensions?: Extensions;
    }
  | { type: 'text-start'; id: string }
  | { type: 'text-delta'; id: string; delta: string; extensions?: Extensions }
  | { type: 'text-end'; id: string; providerMetadata?: ProviderMetadata; extensions?: Extensions }
  | { type: 'reasoning-start'; id: string }
  | { type: 'reasoning-delta'; id: string; delta: string }
  | {
      type: 'reasoning-end';
      id: string;
      signature?: string;
      redactedData?: string;
      providerMetadata?: ProviderMetadata;
      extensions?: Extensions;
    }
  | { type: 'tool-call-start'; id: string; name: string; providerMetadata?: ProviderMetadata; extensions?: Extensions }
  | { type: 'tool-call-delta'; id: string; delta: string; extensions?: Extensions }
  | { type: 'tool-call-end'; id: string; providerMetadata?: ProviderMetadata; extensions?: Extensions }
  | { type: 'opaque'; extensions: Extensions; item?: true }
  | { type: 'finish'; usage: Usage; finishReason: FinishReason; extensions?: Extensions }
  | { type: 'error'; error: Error };

/**
 * A `finish` part as a provider may give it: figures the upstream did not report are left out
 * (`usage` itself may be), and the gateway counts them before the part goes on — the output from
 * the parts it relayed, the input from the request (or the `response-start` figure). So a stream's
 * output text is gathered once, by the gateway, not again by every provider for the case where
 * the usage is missing.
 */
export type ProviderFinishPart = {
  type: 'finish';
  usage?: Partial<Usage>;
  finishReason: FinishReason;
  extensions?: Extensions;
};

/** What a provider's stream yields: {@link StreamPart}s, with `finish` as {@link ProviderFinishPart}. */
export type ProviderStreamPart = Exclude<StreamPart, { type: 'finish' }> | ProviderFinishPart;
