/** Thinking budget ↔ effort level: the buckets every provider uses when it must turn a budget into a level. */
import type { ReasoningEffort } from '../canonical';

/** The largest thinking budget (tokens) still called `low` (protocols.md 5.5). */
export const LOW_BUDGET_LIMIT = 1024;
/** The largest thinking budget (tokens) still called `medium`. */
export const MEDIUM_BUDGET_LIMIT = 8192;

/** A thinking budget as an effort level: up to 1024 tokens `low`, up to 8192 `medium`, more `high`. */
export function effortForBudget(budgetTokens: number): ReasoningEffort {
  if (budgetTokens <= LOW_BUDGET_LIMIT) return 'low';
  if (budgetTokens <= MEDIUM_BUDGET_LIMIT) return 'medium';
  return 'high';
}
