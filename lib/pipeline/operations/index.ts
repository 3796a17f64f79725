/** The operations a route can name, each a {@link ChargedOperation} the one runner takes through the call path. */
import type { CodecRoute, RouteParams } from '../../protocols/types';
import type { Call } from '../call';
import type { GatewayParts } from '../parts';
import type { ChargedOperation } from '../run-operation';
import { CountTokensOperation } from './count-tokens';
import { EmbedOperation } from './embed';
import { GenerateOperation } from './generate';
import { ImageOperation } from './image';

/** One call of the operation `route` names. */
export function operationFor(
  gateway: GatewayParts,
  route: CodecRoute,
  params: RouteParams,
  call: Call,
): ChargedOperation<unknown> {
  switch (route.operation) {
    case 'generate':
      return new GenerateOperation(gateway, route, params, call);
    case 'count-tokens':
      return new CountTokensOperation(gateway, route, params, call);
    case 'image':
      return new ImageOperation(gateway, route, params, call);
    case 'embed':
      return new EmbedOperation(gateway, route, params, call);
  }
}
