/**
 * The count-tokens operation: a text request's input tokens, never charged (a key with nothing to spend is refused).
 */
import type { GenerateRequest } from '../../canonical';
import type { ResolvedModel } from '../../models';
import type { CountTokensRoute, EncodedResponse, RouteParams } from '../../protocols/types';
import { Admission } from '../admission';
import type { Call } from '../call';
import { countInput } from '../input-tokens';
import type { GatewayParts } from '../parts';
import { requireBalance } from '../quota-hold';
import { countedConversation, resolveItemReferences } from '../response-state';
import type { ChargedOperation, Outcome } from '../run-operation';

/** No rate-limit slot and no hold: a count is never charged. */
const NOTHING_HELD = new Admission(undefined, undefined);

/**
 * Decode: the stored items the input names by reference resolved, a stored conversation continued (a route with
 * `state`). Admit: the key must have a balance (a one-credit hold released at once). Serve: the provider's own count,
 * else the tokenizer.
 */
export class CountTokensOperation implements ChargedOperation<number> {
  readonly modelType = 'text';
  private request!: GenerateRequest;

  constructor(
    private readonly gateway: GatewayParts,
    private readonly route: CountTokensRoute,
    private readonly params: RouteParams,
    private readonly call: Call,
  ) {}

  async decode(): Promise<string> {
    const { route, call } = this;
    const store = this.gateway.config.responseStore;
    if (route.state) await resolveItemReferences(store, route, call, call.caller);
    let request = route.decode(call.http, this.params);
    if (route.state) request = await countedConversation(store, route.state, request, call, call.caller);
    this.request = request;
    return request.model;
  }

  async admit(model: ResolvedModel): Promise<Admission> {
    const { call } = this;
    const info = { model: model.id, operation: 'count-tokens', requestId: call.requestId } as const;
    await requireBalance(this.gateway.config.quotaStore, call.caller, info);
    return NOTHING_HELD;
  }

  async serve(model: ResolvedModel): Promise<Outcome<number>> {
    return { answer: await countInput(this.request, model, this.call.requestId) };
  }

  encode(outcome: Outcome<number>): EncodedResponse {
    return this.route.encode(outcome.answer, this.request, this.call);
  }
}
