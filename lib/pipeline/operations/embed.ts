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
import { CallWarnings, mergeWarnings, WARNINGS_HEADER, warningsHeader } from '../../warnings';
import type { Call } from '../call';
import { admitAndHold } from '../rate-limit';
import { type EmbedInputs, measureEmbedInputs } from '../embed-input';
import { logProvider } from '../../log';
import type { GatewayParts } from '../parts';

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
 * Decode → resolve model → measure the inputs (400 past the limits) → admit by rate limits → reserve quota on their
 * bound → provider (in batches) → settle on the upstream's reported usage (the gateway's count where it reports none)
 * → encode. The hold and the rate-limit slot are released if the call fails.
 */
export async function runEmbed(
  gateway: GatewayParts,
  route: EmbedRoute,
  params: RouteParams,
  call: Call,
): Promise<EncodedResponse> {
  const warnings = new CallWarnings();
  const request = route.decode(call.http, params, (warning) => warnings.add(warning));
  call.model = request.model;
  const principal = call.caller;
  const model = gateway.models.resolve(request.model, principal, 'embedding');
  call.resolved = model;
  const measured = measureEmbedInputs(request);
  const { slot, hold } = await admitAndHold(
    gateway,
    call,
    model,
    measured.total,
    chainEstimate(measured.total, model),
    'embed',
  );
  // Deployments and fallbacks as for text (docs/routing.md): no session (an embedding has no prompt cache to keep
  // warm), a deployment's tokens-per-minute admitted on the inputs' bound.
  const routing: RoutingFacts = { session: () => undefined, tokens: () => measured.total };
  let result: EmbedResult;
  let served: ResolvedModel;
  try {
    const answered = await withModels(model, call, routing, false, (candidate, target, attemptWarnings, retries) =>
      embedWithProvider(call, target, { ...request, model: candidate.id }, measured, attemptWarnings, retries),
    );
    result = answered.value;
    served = answered.model;
    for (const warning of answered.warnings ?? []) warnings.add(warning);
  } catch (error) {
    await hold.release();
    await slot?.release();
    throw error;
  }
  const usage = { inputTokens: result.inputTokens, outputTokens: 0 };
  call.usage = result.reported ? usage : markCounted(usage);
  const credits = creditsForEmbed(result.inputTokens, served);
  try {
    await hold.settle(credits.total, 'completed', credits);
  } finally {
    await slot?.settle(result.inputTokens);
  }
  const encoded = route.encode(result.response, request, result.inputTokens, call);
  const warned = warningsHeader(mergeWarnings(warnings.list, result.response.warnings));
  if (slot?.headers || warned !== undefined)
    encoded.headers = { ...encoded.headers, ...slot?.headers, ...(warned ? { [WARNINGS_HEADER]: warned } : {}) };
  return encoded;
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
