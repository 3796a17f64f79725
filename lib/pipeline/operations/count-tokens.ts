/**
 * The count-tokens operation: a text request's input tokens, never charged (a key with nothing to spend is refused).
 */
import type { CountTokensRoute, EncodedResponse, RouteParams } from '../../protocols/types';
import type { Call } from '../call';
import { countInput } from '../input-tokens';
import type { GatewayParts } from '../parts';
import { requireBalance } from '../quota-hold';
import { countedConversation, resolveItemReferences } from '../response-state';

/**
 * Resolve the stored items the input names by reference → decode → continue a stored conversation
 * (a route with `state`) → resolve model → check the key has a balance → count (the provider's own
 * count, else the tokenizer) → encode.
 */
export async function runCountTokens(
  gateway: GatewayParts,
  route: CountTokensRoute,
  params: RouteParams,
  call: Call,
): Promise<EncodedResponse> {
  const store = gateway.config.responseStore;
  if (route.state) await resolveItemReferences(store, route, call, call.caller);
  let request = route.decode(call.http, params);
  if (route.state) request = await countedConversation(store, route.state, request, call, call.caller);
  call.model = request.model;
  const model = gateway.models.resolve(request.model, call.caller, 'text');
  call.resolved = model;
  await requireBalance(gateway.config.quotaStore, call.caller, {
    model: model.id,
    operation: 'count-tokens',
    requestId: call.requestId,
  });
  return route.encode(await countInput(request, model, call.requestId), request, call);
}
