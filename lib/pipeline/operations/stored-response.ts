/**
 * The stored-response operation: `GET` a stored answer or its input items, `DELETE` it; for the key that stored it
 * only. Never charged.
 */
import type { Request, Response } from 'express';
import { GatewayError } from '../../errors';
import { sendJson } from '../../http/send';
import type { EncodedResponse, ProtocolCodec, StoredResponseMatch } from '../../protocols/types';
import { logRequest } from '../../log';
import type { GatewayParts } from '../parts';
import { fail } from '../respond';
import { storeCall } from '../response-state';
import { admitSideRequest } from './admit';

/** Answers a read or a delete (authenticated; never charged); another key's record, or none, is a 404. */
export async function serveStoredResponse(
  gateway: GatewayParts,
  codec: ProtocolCodec,
  match: StoredResponseMatch,
  request: Request,
  response: Response,
  path: string,
  requestId: string,
): Promise<void> {
  const started = performance.now();
  try {
    const { view, principal } = await admitSideRequest(gateway, codec, request, response, path);
    const routes = codec.storedResponses!;
    const store = gateway.config.responseStore;
    const notFound = () => {
      const why = store ? '' : ': this gateway keeps no responses (no responseStore is configured)';
      return new GatewayError('not_found', `Response with id '${match.id}' not found${why}.`, {
        code: 'response_not_found',
      });
    };
    let encoded: EncodedResponse;
    if (request.method === 'DELETE') {
      if (!store || !(await storeCall(() => store.delete(principal.id, match.id)))) throw notFound();
      encoded = routes.encodeDeleted(match.id, view);
    } else {
      const record = store ? await storeCall(() => store.get(principal.id, match.id)) : undefined;
      if (!record) throw notFound();
      encoded =
        match.resource === 'response' ? routes.encodeResponse(record, view) : routes.encodeInputItems(record, view);
    }
    sendJson(response, encoded, { 'x-request-id': requestId });
    if (logRequest.enabled)
      logRequest(
        '%s %s %s stored response 200 %sms',
        requestId,
        codec.name,
        request.method,
        (performance.now() - started).toFixed(1),
      );
  } catch (thrown) {
    fail(codec, { requestId }, response, thrown, started);
  }
}
