/**
 * The embed operation: inputs turned into vectors, charged per input token. A call larger than its upstream takes at
 * once is split into batches of the upstream's limit, their vectors joined in input order; one failing batch fails
 * the call with that batch's error (never a partial answer).
 */
import type { EmbedRequest, EmbedResponse } from '../../canonical';
import { GatewayError } from '../../errors';
import type { ResolvedModel } from '../../models';
import { attemptContext, type RoutingFacts, type Target, withModels } from '../provider-call';
import type { EmbedRoute, EncodedResponse, RouteParams } from '../../protocols/types';
import { creditsForEmbed, estimateEmbed } from '../../quota';
import { markCounted } from '../../tokenizer';
import { CallWarnings, mergeWarnings } from '../../warnings';
import type { Call } from '../call';
import { type Admission, admitAndHold } from '../admission';
import type { ChargedOperation, Outcome } from '../run-operation';
import { EmbedInputs, measureEmbedInputs } from '../embed-input';
import { logProvider } from '../../log';
import type { GatewayParts } from '../parts';
import { requireBalance } from '../quota-hold';

/** Batches of one call sent upstream at the same time, at most. */
const BATCH_CONCURRENCY = 4;

/** What the provider step gives back: the joined answer, and the tokens charged (the upstream's, else counted). */
export interface EmbedResult {
  response: EmbedResponse;
  inputTokens: number;
  /** Whether every batch's upstream reported its usage (else the gateway's count stands in for the ones that did not). */
  reported: boolean;
}

/**
 * Decode. Admit: the inputs measured (400 past the limits), admitted by rate limits on their bound, then held on it
 * at the dearest input price of the model and its fallbacks. Serve: the provider in batches, on the model's
 * deployments, then its fallbacks; charged on the upstream's reported usage (the gateway's count where it reports none).
 */
export class EmbedOperation implements ChargedOperation<EmbedResult> {
  readonly modelType = 'embedding';
  private request!: EmbedRequest;
  private measured!: EmbedInputs;
  private readonly warnings = new CallWarnings();

  constructor(
    private readonly gateway: GatewayParts,
    private readonly route: EmbedRoute,
    private readonly params: RouteParams,
    private readonly call: Call,
  ) {}

  decode(): string {
    this.request = this.route.decode(this.call.http, this.params, (warning) => this.warnings.add(warning));
    return this.request.model;
  }

  async admit(model: ResolvedModel): Promise<Admission> {
    const { gateway, call } = this;
    const inputs = new EmbedInputs(this.request.inputs);
    // A key that cannot pay is refused before the tokenizer runs for it (docs/errors.md, "Body size").
    if (inputs.needsCounting) {
      const info = { model: model.id, operation: 'embed', requestId: call.requestId } as const;
      await requireBalance(gateway.config.quotaStore, call.caller, info);
    }
    this.measured = measureEmbedInputs(inputs);
    const total = this.measured.total;
    return admitAndHold(gateway, call, model, total, chainEstimate(total, model), 'embed');
  }

  async serve(model: ResolvedModel): Promise<Outcome<EmbedResult>> {
    const { call, request, measured } = this;
    // Deployments and fallbacks as for text (docs/routing.md): no session (an embedding has no prompt cache to keep
    // warm), a deployment's tokens-per-minute admitted on the inputs' bound.
    const routing: RoutingFacts = { session: () => undefined, tokens: () => measured.total };
    const answered = await withModels(model, call, routing, false, (candidate, target, attemptWarnings, retries) =>
      embedWithProvider(call, target, { ...request, model: candidate.id }, measured, attemptWarnings, retries),
    );
    for (const warning of answered.warnings ?? []) this.warnings.add(warning);
    const result = answered.value;
    const usage = { inputTokens: result.inputTokens, outputTokens: 0 };
    call.usage = result.reported ? usage : markCounted(usage);
    return {
      answer: result,
      charge: { credits: creditsForEmbed(result.inputTokens, answered.model), tokens: result.inputTokens },
      warnings: mergeWarnings(this.warnings.list, result.response.warnings),
    };
  }

  encode(outcome: Outcome<EmbedResult>): EncodedResponse {
    const result = outcome.answer;
    return this.route.encode(result.response, this.request, result.inputTokens, this.call);
  }
}

/**
 * The provider step: the request split into batches of what the upstream takes per call
 * (`Provider.maxEmbedInputs`), at most {@link BATCH_CONCURRENCY} in flight, their vectors joined in input order. The
 * first failure fails the call (no batch is started after it). Each batch is charged its upstream's reported usage,
 * or, when it reports none, the gateway's count of its inputs.
 */
export async function embedWithProvider(
  call: Call,
  target: Target,
  request: EmbedRequest,
  measured: EmbedInputs,
  warnings: CallWarnings,
  retries?: number,
): Promise<EmbedResult> {
  const { provider, upstreamModel } = target;
  const context = attemptContext(call, target, warnings, retries);
  const size = Math.max(1, provider.maxEmbedInputs(upstreamModel));
  const starts: number[] = [];
  for (let start = 0; start < request.inputs.length; start += size) starts.push(start);
  logProvider(
    '%s → %s/%s embed inputs=%d batches=%d',
    call.requestId,
    provider.name,
    upstreamModel,
    request.inputs.length,
    starts.length,
  );
  const answers: EmbedResponse[] = new Array(starts.length);
  let next = 0;
  let failed = false;
  const worker = async (): Promise<void> => {
    while (!failed && next < starts.length) {
      const batch = next++;
      const start = starts[batch]!;
      const inputs = request.inputs.slice(start, start + size);
      try {
        const answer = await provider.embed(starts.length === 1 ? request : { ...request, inputs }, context);
        if (answer.vectors.length !== inputs.length)
          throw new GatewayError(
            'upstream',
            `The upstream ${provider.name} answered ${answer.vectors.length} embeddings for ${inputs.length} inputs.`,
            { code: 'upstream_malformed' },
          );
        answers[batch] = answer;
      } catch (error) {
        failed = true;
        throw error;
      }
    }
  };
  const workers = Math.min(BATCH_CONCURRENCY, starts.length);
  await Promise.all(Array.from({ length: workers }, worker));
  let inputTokens = 0;
  let reported = true;
  const vectors: EmbedResponse['vectors'] = [];
  answers.forEach((answer, batch) => {
    for (const vector of answer.vectors) vectors.push(vector);
    if (answer.usage) inputTokens += answer.usage.inputTokens;
    else {
      reported = false;
      inputTokens += measured.tokensOf(starts[batch]!, starts[batch]! + answer.vectors.length);
    }
  });
  const first = answers[0]!;
  const joined: EmbedResponse = { ...first, vectors, usage: { inputTokens } };
  const dropped = mergeWarnings(...answers.map((answer) => answer.warnings));
  if (dropped) joined.warnings = dropped;
  else delete joined.warnings;
  return { response: joined, inputTokens, reported };
}

/** The hold of an embedding call: its inputs' bound at the dearest input price of its model and fallbacks. */
function chainEstimate(tokens: number, model: ResolvedModel) {
  let dearest = model;
  for (const candidate of model.chain) if (candidate.pricing.input > dearest.pricing.input) dearest = candidate;
  return estimateEmbed(tokens, dearest);
}
