/**
 * Calls an upstream's `/responses` endpoint for the OpenAI provider: the request, the answer, the stream, and which
 * models go there.
 */
import type { GenerateRequest, ProviderStreamPart } from '../../../canonical';
import { GatewayConfigError } from '../../../errors';
import type { BodySink } from '../../../upstream/dispatch';
import { decodeEventStream } from '../../../upstream/sse';
import type { UpstreamClient } from '../../../upstream/upstream-client';
import { callSignal } from '../../call-context';
import type { ProviderCallContext, ProviderGenerateResponse } from '../../types';
import createDebug from 'debug';
import type { JsonObject } from '../../../json';
import { RESPONSES } from '../../../wire/openai/responses-extensions';
import { answerItemDrops } from './decode-output';
import { decodeResponsesResponse } from './decode-response';
import { ResponsesStreamDecoder } from './decode-stream';
import { encodeResponsesRequest } from './encode-request';

const log = createDebug('rosetta:provider');

/** Which upstream models are called through `/responses`: a list of ids, or a test of one. Default: none. */
export type ResponsesModels = readonly string[] | ((upstreamModel: string) => boolean);

/**
 * The `responsesModels` option as a test; throws `ERR_GATEWAY_INVALID_OPTION` for anything but a list of non-empty ids
 * or a function.
 */
export function responsesModelTest(option: unknown): (upstreamModel: string) => boolean {
  if (option === undefined) return () => false;
  if (typeof option === 'function') return option as (upstreamModel: string) => boolean;
  if (Array.isArray(option) && option.every((id) => typeof id === 'string' && id.length > 0)) {
    const ids = new Set<string>(option);
    return (upstreamModel) => ids.has(upstreamModel);
  }
  throw new GatewayConfigError(
    'ERR_GATEWAY_INVALID_OPTION',
    'responsesModels must be an array of upstream model ids or a function (upstreamModel: string) => boolean.',
    'responsesModels',
  );
}

/** What a call needs of the provider. */
export interface ResponsesCall {
  client: UpstreamClient;
  name: string;
  reasoningModel: boolean;
}

/** A non-streamed call to `POST /responses`. */
export async function generateViaResponses(
  call: ResponsesCall,
  request: GenerateRequest,
  context: ProviderCallContext,
): Promise<ProviderGenerateResponse> {
  const body = encodeResponsesRequest(request, context.upstreamModel, {
    stream: false,
    reasoningModel: call.reasoningModel,
    warn: context.warn,
  });
  const headers = Object.assign({ 'x-request-id': context.requestId }, context.upstreamHeaders);
  const response = await call.client.requestJson<unknown>({
    path: '/responses',
    body,
    signal: callSignal(context),
    headers,
    retries: context.retries,
  });
  const answer = decodeResponsesResponse(response, context.upstreamModel, call.name);
  const opaque = answer.choices[0]?.opaque;
  if (opaque) {
    const dropped = answerItemDrops(request, log, context.warn);
    if (dropped) for (const item of opaque) dropped(item.extensions[RESPONSES]?.item as JsonObject);
  }
  return answer;
}

/** A streamed call to `POST /responses`. */
export function streamViaResponses(
  call: ResponsesCall,
  request: GenerateRequest,
  context: ProviderCallContext,
): AsyncIterable<ProviderStreamPart> {
  const signal = callSignal(context);
  const open = (sink: BodySink) => {
    const body = encodeResponsesRequest(request, context.upstreamModel, {
      stream: true,
      reasoningModel: call.reasoningModel,
      warn: context.warn,
    });
    const headers = Object.assign(
      { accept: 'text/event-stream', 'x-request-id': context.requestId },
      context.upstreamHeaders,
    );
    return call.client.stream({ path: '/responses', body, signal, headers, retries: context.retries }, sink);
  };
  const decoder = new ResponsesStreamDecoder(call.name, answerItemDrops(request, log, context.warn));
  return decodeEventStream(open, decoder, call.name, signal, call.client.redactor);
}
