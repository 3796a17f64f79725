/** Boolean options are validated alike at creation: a non-boolean `providerModelIds` is refused, not read as false. */
import { createGateway, GatewayConfigError } from '../../lib';

describe('boolean options', () => {
  it.each(['providerModelIds', 'chargeFailedStreams'] as const)(
    '%s: a non-boolean is refused with ERR_GATEWAY_INVALID_OPTION',
    (name) => {
      let thrown: unknown;
      try {
        createGateway({ keys: [], [name]: 'true' as unknown as boolean });
      } catch (error) {
        thrown = error;
      }
      expect(thrown).toBeInstanceOf(GatewayConfigError);
      expect(thrown).toMatchObject({ code: 'ERR_GATEWAY_INVALID_OPTION', option: name });
    },
  );
});
