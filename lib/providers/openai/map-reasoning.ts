/** Canonical reasoning settings → the chat-completions `reasoning_effort` value. */
import type { ReasoningEffort, ReasoningSettings } from '../../canonical';
import { effortForBudget } from '../../wire/reasoning';

/**
 * The `reasoning_effort` to send, or undefined to leave the model's default:
 * - an explicit effort (OpenAI `reasoning_effort`, Anthropic `output_config.effort`, Gemini
 *   `thinkingLevel`) is sent under the same name;
 * - otherwise a budget (Anthropic `budget_tokens`, Gemini `thinkingBudget`) is bucketed;
 * - thinking disabled sends nothing (the values that switch reasoning off, `none` and `minimal`,
 *   are each refused by some reasoning models), unless the caller itself said `none`;
 * - "enabled" without a size (Anthropic adaptive without effort, Gemini budget -1) sends nothing.
 */
export function reasoningEffortFor(reasoning: ReasoningSettings | undefined): ReasoningEffort | undefined {
  if (!reasoning) return undefined;
  if (reasoning.enabled === false) return reasoning.effort === 'none' ? 'none' : undefined;
  if (reasoning.effort) return reasoning.effort;
  if (reasoning.budgetTokens !== undefined && reasoning.budgetTokens > 0)
    return effortForBudget(reasoning.budgetTokens);
  return undefined;
}
