/** What a request that is not a model call (a model list, a stored response) goes through before it is answered. */
import type { Request, Response } from 'express';
import { drainBody } from '../../http/read-body';
import type { HttpRequestView, ProtocolCodec } from '../../protocols/types';
import type { Principal } from '../../stores/types';
import { authenticate } from '../authenticate';
import type { GatewayParts } from '../parts';
import { requestView } from '../routing';

/**
 * The shutdown's 503 after `close()`, a wait for `init`, the body (there should be none) drained,
 * and the caller's key checked: the view the codec answers from and who asked.
 */
export async function admitSideRequest(
  gateway: GatewayParts,
  codec: ProtocolCodec,
  request: Request,
  response: Response,
  path: string,
): Promise<{ view: HttpRequestView; principal: Principal }> {
  if (gateway.lifecycle.shutdownReason) throw gateway.lifecycle.shutdownReason;
  if (!gateway.lifecycle.initialized) await gateway.lifecycle.waitReady();
  await drainBody(request, response, gateway.config.maxBodyBytes);
  const view = requestView(request, path, undefined);
  const principal = await authenticate(gateway.config.keyStore, codec, view);
  return { view, principal };
}
