/**
 * The model-list operation: `GET` a list of the models a key may use, or one of them, in the claiming codec's shape.
 */
import type { Request, Response } from 'express';
import { GatewayError } from '../../errors';
import { sendJson } from '../../http/send';
import type { EncodedResponse } from '../../protocols/types';
import { logRequest } from '../../log';
import type { GatewayParts } from '../parts';
import { fail } from '../respond';
import type { ModelListMatch } from '../routing';
import { admitSideRequest } from './admit';

/**
 * Answers a list or a single model (authenticated; never charged); after `close()`, the shutdown's 503 like a model
 * call.
 */
export async function serveModelList(
  gateway: GatewayParts,
  list: ModelListMatch,
  request: Request,
  response: Response,
  path: string,
  requestId: string,
): Promise<void> {
  const started = performance.now();
  try {
    const { view, principal } = await admitSideRequest(gateway, list.codec, request, response, path);
    const routes = list.codec.modelList!;
    let encoded: EncodedResponse;
    if (list.modelId === undefined) {
      encoded = routes.encodeList(gateway.models.listFor(principal), view);
    } else {
      const model = gateway.models.findFor(list.modelId, principal);
      if (!model)
        throw new GatewayError(
          'not_found',
          `The model '${list.modelId}' does not exist or you do not have access to it.`,
          { code: 'model_not_found' },
        );
      encoded = routes.encodeModel(model, view);
    }
    sendJson(response, encoded, { 'x-request-id': requestId });
    if (logRequest.enabled)
      logRequest('%s %s models 200 %sms', requestId, list.codec.name, (performance.now() - started).toFixed(1));
  } catch (thrown) {
    fail(list.codec, { requestId }, response, thrown, started);
  }
}
