/** The output items a Responses stream has open, and the events and item that end one. */
import type { Extensions, ProviderMetadata } from '../../canonical';
import type { GatewayError } from '../../errors';
import type { JsonObject } from '../../json';
import { customToolInput } from '../../wire/openai/responses-extensions';
import { type CallShape, callItem, messageItem } from './encode-output';

/** An output item being streamed. */
export type OpenItem =
  | { kind: 'message'; index: number; id: string; parts: JsonObject[]; text: string }
  | { kind: 'opaque'; index: number; item: JsonObject }
  | { kind: 'reasoning'; index: number; id: string; text: string; summaryOpen: boolean }
  | {
      kind: 'call';
      index: number;
      id: string;
      callId: string;
      shape: CallShape;
      args: string;
      metadata?: ProviderMetadata;
      extensions?: Extensions;
    };

/** The `code` of a failed response's `error` for a gateway error. */
export function failureCode(error: GatewayError): string {
  return error.kind === 'rate_limit'
    ? 'rate_limit_exceeded'
    : error.kind === 'invalid_request'
      ? 'invalid_prompt'
      : 'server_error';
}

/** Writes one event of the stream (its `sequence_number` is the writer's). */
export type Emit = (type: string, payload: JsonObject) => string;

/**
 * Ends an open message, call or opaque item: the closing events a call has (its arguments or custom input, whole) and
 * the item as the final object keeps it (`fields`: a message's own keys from upstream).
 */
export function closeItem(
  open: Exclude<OpenItem, { kind: 'reasoning' }>,
  status: string,
  fields: JsonObject | undefined,
  emit: Emit,
): { item: JsonObject; text: string } {
  if (open.kind === 'opaque') return { item: open.item, text: '' };
  if (open.kind === 'message') return { item: messageItem(open.id, status, open.parts, fields), text: '' };
  const part = {
    id: open.callId,
    arguments: open.args,
    ...(open.metadata ? { providerMetadata: open.metadata } : {}),
    ...(open.extensions ? { extensions: open.extensions } : {}),
  };
  const item = callItem(part, open.shape, open.id, 'completed');
  const at = { item_id: open.id, output_index: open.index };
  if (!open.shape.custom) {
    const text = emit('response.function_call_arguments.done', { ...at, name: open.shape.name, arguments: open.args });
    return { item, text };
  }
  const input = customToolInput(open.args);
  const text =
    emit('response.custom_tool_call_input.delta', { ...at, delta: input }) +
    emit('response.custom_tool_call_input.done', { ...at, input });
  return { item, text };
}
