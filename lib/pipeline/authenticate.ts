/** Authentication: the caller's key, read where its protocol carries it, checked by the key store. */
import { GatewayError } from '../errors';
import type { HttpRequestView, ProtocolCodec } from '../protocols/types';
import type { KeyStore, Principal } from '../stores/types';
import { logAuth } from '../log';

/** The principal of the request's key; a 401 when none was sent or it is unknown, a 503 when the store fails. */
export async function authenticate(
  keyStore: KeyStore,
  codec: ProtocolCodec,
  view: HttpRequestView,
): Promise<Principal> {
  const key = codec.extractKey(view);
  if (!key) {
    throw new GatewayError(
      'authentication',
      `No API key was sent${codec.credentialHint ? `: send it as ${codec.credentialHint}` : ''}.`,
      { code: 'missing_api_key' },
    );
  }
  let principal: Principal | undefined;
  try {
    principal = await keyStore.authenticate(key);
  } catch (error) {
    throw new GatewayError('unavailable', 'The key store is unavailable; try again later.', {
      cause: error,
      retryAfter: 1,
    });
  }
  if (!principal) throw new GatewayError('authentication', 'Invalid API key.', { code: 'invalid_api_key' });
  logAuth('authenticated %s', principal.id);
  return principal;
}
