/**
 * Choosing one deployment among those of a tier that can take a call (docs/routing.md, *Choosing a deployment*).
 *
 * Weighted random is the default: each call draws independently, so every gateway instance spreads its calls by the
 * weights with no shared counter, no coordination and no state to lose (LiteLLM's `simple-shuffle` and new-api's
 * channel weights do the same). Least-busy (fewest calls in flight, shared through the deployment store across
 * instances) suits deployments of unequal speed, at the price of two store writes per call.
 */

/** How a deployment is chosen within its tier. */
export type DeploymentStrategy = 'weighted' | 'least-busy';

/** What selection reads of a candidate. */
export interface Weighted {
  readonly weight: number;
}

/**
 * The index of the candidate drawn with probability weight / total weight; `random` answers in [0, 1).
 * -1 for an empty list.
 */
export function pickWeighted(candidates: readonly Weighted[], random: () => number = Math.random): number {
  const count = candidates.length;
  if (count <= 1) return count - 1;
  let total = 0;
  for (let index = 0; index < count; index++) total += candidates[index]!.weight;
  let point = random() * total;
  for (let index = 0; index < count; index++) {
    point -= candidates[index]!.weight;
    if (point < 0) return index;
  }
  return count - 1;
}

/**
 * The index of the candidate with the fewest calls in flight relative to its weight (`inFlight[i] / weight`), ties
 * drawn by weight; -1 for an empty list.
 */
export function pickLeastBusy(
  candidates: readonly Weighted[],
  inFlight: readonly number[],
  random: () => number = Math.random,
): number {
  if (candidates.length <= 1) return candidates.length - 1;
  let best = Infinity;
  let tied: number[] = [];
  for (let index = 0; index < candidates.length; index++) {
    const load = inFlight[index]! / candidates[index]!.weight;
    if (load < best) {
      best = load;
      tied = [index];
    } else if (load === best) tied.push(index);
  }
  if (tied.length === 1) return tied[0]!;
  return tied[
    pickWeighted(
      tied.map((index) => candidates[index]!),
      random,
    )
  ]!;
}
