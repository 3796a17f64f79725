/** The generate operation: a text call, answered whole or streamed. */
import type { CallWarning, GenerateRequest, GenerateResponse } from '../../canonical';
import { GatewayError } from '../../errors';
import type { ResolvedModel } from '../../models';
import type { EncodedResponse, GenerateRoute, RouteParams } from '../../protocols/types';
import { creditsForUsage } from '../../quota';
import type { Call } from '../call';
import type { GatewayParts } from '../parts';
import { type AnswerKeeper, continueConversation, resolveItemReferences } from '../response-state';
import { generate, openStream } from '../provider-call';
import { TextHold } from '../quota-hold';
import { usedTokens } from '../../rate-limit/slot';
import { type AdmittedText, admitText } from '../rate-limit';
import { streamResponse } from '../stream-response';
import { CallWarnings, mergeWarnings, WARNINGS_HEADER, warningsHeader } from '../../warnings';

/**
 * Resolve the stored items the input names by reference → decode (the codec's dropped settings gathered as
 * warnings) → continue a stored conversation where the
 * route keeps state → resolve the model → admit it by its rate limits → {@link serveGenerate} → encode (with the
 * rate-limit headers), the warnings in the `x-rosetta-warnings` header,
 * the answer kept where the caller asked. Undefined when the answer was streamed.
 */
export async function runGenerate(
  gateway: GatewayParts,
  route: GenerateRoute,
  params: RouteParams,
  call: Call,
): Promise<EncodedResponse | undefined> {
  const dropped = new CallWarnings();
  // Items the input names by reference are put in the body first, so the codec decodes them as sent.
  if (route.state) await resolveItemReferences(gateway.config.responseStore, route, call, call.caller);
  let request = route.decode(call.http, params, (warning) => dropped.add(warning));
  call.model = request.model;
  // A call that continues a stored answer runs with the conversation before its own input (the hold counts it all).
  const continued = route.state
    ? await continueConversation(gateway.config.responseStore, route, request, call, call.caller)
    : undefined;
  if (continued) request = continued.request;
  const model = gateway.models.resolve(request.model, call.caller, 'text');
  call.resolved = model;
  call.stream = request.stream === true;
  if (request.stream) checkStreamable(route, request);
  // Rate limits (docs/operations.md, "Rate limits"): nothing at all for a caller no limit counts.
  const limiter = gateway.config.rateLimiter;
  const admitted = limiter.applies(call.caller) ? await admitText(limiter, call, request, model) : undefined;
  const answer = await serveGenerate(gateway, route, call, request, model, dropped.list, continued?.keeper, admitted);
  if (!answer) return undefined;
  const encoded = route.encode(answer, request, call);
  const warned = warningsHeader(answer.warnings);
  if (warned !== undefined) encoded.headers = { ...encoded.headers, [WARNINGS_HEADER]: warned };
  // The slot's headers are this call's own: sent as they are when the answer has no headers of its own.
  const limited = admitted?.slot?.headers;
  if (limited) encoded.headers = encoded.headers ? { ...encoded.headers, ...limited } : limited;
  await continued?.keeper?.keep(answer, encoded.body);
  return encoded;
}

/**
 * Reserve quota → provider (with fallbacks) → settle, for a resolved (and, if limited, admitted) call. Returns the
 * answer to encode, or undefined when it was streamed (a streamed answer to keep is kept by `keeper` before its last
 * event). The answer's `warnings` are the codec's (`decodeWarnings`), the provider's own and those it
 * reported through its context. The hold and the rate-limit slot are released if the call fails before they are
 * settled (a started stream settles them itself).
 */
export async function serveGenerate(
  gateway: GatewayParts,
  route: GenerateRoute,
  call: Call,
  request: GenerateRequest,
  model: ResolvedModel,
  decodeWarnings: readonly CallWarning[] | undefined,
  keeper: AnswerKeeper | undefined,
  admitted: AdmittedText | undefined,
): Promise<GenerateResponse | undefined> {
  const { requestId, caller: principal } = call;
  const slot = admitted?.slot;
  let hold: TextHold;
  try {
    hold = await TextHold.reserveText(gateway.config.quotaStore, request, model, principal, requestId, admitted?.bound);
  } catch (error) {
    await slot?.release();
    throw error;
  }
  call.hold = hold;
  try {
    if (request.stream) {
      // The encoder first: one that cannot start fails the call before the upstream is called.
      const encoder = route.encodeStream!(request, call);
      const opened = await openStream(hold.request, model, call);
      if (decodeWarnings) opened.warnings = mergeWarnings(decodeWarnings, opened.warnings);
      // A kept answer is gathered while it streams and stored before the stream's last event.
      await streamResponse(
        keeper ? keeper.collecting(encoder) : encoder,
        call,
        hold,
        opened,
        gateway.lifecycle,
        gateway.config.chargeFailedStreams,
        keeper && (() => keeper.keepStreamed()),
        slot,
      );
      return undefined;
    }
    const served = await generate(hold.request, model, call);
    const answer: GenerateResponse = { ...served.value, model: served.model.id };
    call.usage = answer.usage;
    if (keeper) answer.id = keeper.answerId;
    const warnings =
      decodeWarnings || served.warnings
        ? mergeWarnings(decodeWarnings, served.value.warnings, served.warnings)
        : served.value.warnings;
    if (warnings) answer.warnings = warnings;
    const credits = creditsForUsage(answer.usage, served.model);
    await hold.settle(credits.total, 'completed', credits);
    await slot?.settle(usedTokens(answer.usage));
    return answer;
  } catch (error) {
    await hold.release();
    await slot?.release();
    throw error;
  }
}

/** Refuses streaming requests this route or call shape cannot stream. */
function checkStreamable(route: GenerateRoute, request: GenerateRequest): void {
  if (!route.encodeStream) {
    const message = 'This route does not stream; send the request without streaming.';
    throw new GatewayError('invalid_request', message, { param: 'stream' });
  }
  if ((request.choiceCount ?? 1) > 1) {
    const message = 'Streaming more than one choice is not supported; set n (candidateCount) to 1.';
    throw new GatewayError('invalid_request', message, { param: 'n' });
  }
}
