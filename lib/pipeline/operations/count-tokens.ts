/**
 * The count-tokens operation: a text request's input tokens, never charged (a key with nothing to spend is refused).
 */
import type { GenerateRequest } from '../../canonical';
import type { Principal } from '../../stores/types';
import { countInput } from '../input-tokens';
import type { GatewayParts } from '../parts';
import { requireBalance } from '../quota-hold';

/** Resolve model → check the key has a balance → count (the provider's own count, else the tokenizer). */
export async function serveCountTokens(
  gateway: GatewayParts,
  request: GenerateRequest,
  principal: Principal,
  requestId: string,
): Promise<number> {
  const model = gateway.models.resolve(request.model, principal, 'text');
  await requireBalance(gateway.config.quotaStore, principal, model, requestId);
  return countInput(request, model, requestId);
}
