/** The generate operation: a text call, answered whole or streamed. */
import type { GenerateRequest, GenerateResponse } from '../../canonical';
import { GatewayError } from '../../errors';
import type { ResolvedModel } from '../../models';
import type { EncodedResponse, GenerateRoute, RouteParams } from '../../protocols/types';
import { creditsForUsage } from '../../quota';
import { CallWarnings, mergeWarnings } from '../../warnings';
import type { Call } from '../call';
import type { GatewayParts } from '../parts';
import { generate, openStream } from '../provider-call';
import { TextHold } from '../quota-hold';
import { usedTokens } from '../../rate-limit/slot';
import { admitText } from '../rate-limit';
import { type AnswerKeeper, continueConversation, resolveItemReferences, stateStore } from '../response-state';
import { Admission } from '../admission';
import type { ChargedOperation, Outcome } from '../run-operation';
import { streamResponse } from '../stream-response';
import { answerFacts, type CapturedContent } from '../../tracing/call-trace';
import { capturedContent } from '../../tracing/content';

/**
 * Decode: the stored items the input names by reference resolved first (so the codec decodes them as sent), the
 * codec's dropped settings gathered as warnings, a stored conversation continued where the route keeps state. Admit:
 * rate limits on the input bound and output cap, then the hold at the call's upper bound (a partial hold caps the
 * output). Serve: the provider (deployments, then fallbacks), streamed or whole. The answer is kept where the caller
 * asked (a streamed one before its last event).
 */
export class GenerateOperation implements ChargedOperation<GenerateResponse> {
  readonly modelType = 'text';
  private request!: GenerateRequest;
  private keeper: AnswerKeeper | undefined;
  /** The whole answer, once served (for a span that captures content). */
  private answered: GenerateResponse | undefined;
  private readonly dropped = new CallWarnings();

  constructor(
    private readonly gateway: GatewayParts,
    private readonly route: GenerateRoute,
    private readonly params: RouteParams,
    private readonly call: Call,
  ) {}

  async decode(): Promise<string> {
    const { gateway, route, call } = this;
    if (route.state) await resolveItemReferences(gateway.config.responseStore, route, call, call.caller);
    const request = route.decode(call.http, this.params, (warning) => this.dropped.add(warning));
    // A call that continues a stored answer runs with the conversation before its own input (the hold counts it all).
    const continued = route.state ? await this.continued(request) : undefined;
    this.request = continued?.request ?? request;
    this.keeper = continued?.keeper;
    return request.model;
  }

  /** The call with the conversation it continues, from the store its route's state names. */
  private continued(request: GenerateRequest) {
    const { gateway, route, call } = this;
    return continueConversation(stateStore(gateway.config, route.state!), route, request, call, call.caller);
  }

  async admit(model: ResolvedModel): Promise<Admission<TextHold>> {
    const { gateway, call, request } = this;
    call.stream = request.stream === true;
    if (request.stream) checkStreamable(this.route, request);
    // Rate limits (docs/operations.md, "Rate limits"): nothing at all for a caller no limit counts.
    const limiter = gateway.config.rateLimiter;
    const admitted = limiter.applies(call.caller) ? await admitText(limiter, call, request, model) : undefined;
    const slot = admitted?.slot;
    let hold: TextHold;
    try {
      hold = await TextHold.reserveText(
        gateway.config.quotaStore,
        request,
        model,
        call.caller,
        call.requestId,
        admitted?.bound,
      );
    } catch (error) {
      await slot?.release();
      throw error;
    }
    call.hold = hold;
    return new Admission(slot, hold);
  }

  async serve(model: ResolvedModel, admission: Admission): Promise<Outcome<GenerateResponse> | undefined> {
    const { gateway, call, request, keeper } = this;
    const hold = admission.hold as TextHold;
    const decodeWarnings = this.dropped.list;
    if (request.stream) {
      // The encoder first: one that cannot start fails the call before the upstream is called.
      const encoder = this.route.encodeStream!(request, call);
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
        admission.slot,
      );
      return undefined;
    }
    const served = await generate(hold.request, model, call);
    const answer: GenerateResponse = { ...served.value, model: served.model.id };
    call.usage = answer.usage;
    if (call.trace.recording) call.answer = answerFacts(served.value);
    this.answered = answer;
    if (keeper) answer.id = keeper.answerId;
    const warnings =
      decodeWarnings || served.warnings
        ? mergeWarnings(decodeWarnings, served.value.warnings, served.warnings)
        : served.value.warnings;
    if (warnings) answer.warnings = warnings;
    const charge = { credits: creditsForUsage(answer.usage, served.model), tokens: usedTokens(answer.usage) };
    return { answer, charge, warnings: answer.warnings };
  }

  /** The messages in and out as the conventions write them (only for a span that captures content). */
  content(): CapturedContent | undefined {
    const request = this.request as GenerateRequest | undefined;
    if (!request) return undefined;
    return capturedContent(request, this.answered?.choices ?? this.call.streamedText);
  }

  async encode(outcome: Outcome<GenerateResponse>): Promise<EncodedResponse> {
    const encoded = this.route.encode(outcome.answer, this.request, this.call);
    await this.keeper?.keep(outcome.answer, encoded.body);
    return encoded;
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
