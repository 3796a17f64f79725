/**
 * Canonical reasoning settings → Anthropic `thinking` and `output_config.effort`, within the rules the API enforces.
 */
import createDebug from 'debug';
import type { ReasoningEffort, ReasoningSettings } from '../../canonical';
import { effortForBudget } from '../../wire/reasoning';
import { reportDrop, type Warn } from '../../warnings';

const log = createDebug('rosetta:provider');

/** Effort levels of `output_config.effort`. */
export type AnthropicEffort = 'low' | 'medium' | 'high' | 'xhigh' | 'max';

/** The smallest `budget_tokens` Anthropic accepts. */
export const MIN_THINKING_BUDGET = 1024;

/** `budget_tokens` for an effort level, for models without adaptive thinking. */
export const BUDGET_FOR_EFFORT: Readonly<Record<Exclude<ReasoningEffort, 'none'>, number>> = {
  minimal: 1024,
  low: 1024,
  medium: 8192,
  high: 24576,
  xhigh: 32768,
  max: 65536,
};

/** `budget_tokens` when thinking is asked for without a size (Gemini `thinkingBudget: -1`). */
export const DEFAULT_THINKING_BUDGET = BUDGET_FOR_EFFORT.medium;

/** What the rest of the request means for thinking. */
export interface ThinkingContext {
  /** The request's `max_tokens` (which thinking counts toward). */
  maxTokens: number;
  /** Whether the model takes `{type: "adaptive"}` (see `AnthropicProviderOptions.adaptiveThinking`). */
  adaptive: boolean;
  /** Whether `tool_choice` forces tool use (`any` or one tool), which Anthropic refuses with thinking. */
  forcesTool: boolean;
  /**
   * Whether a tool loop's assistant turn calls tools without a leading thinking block, which Anthropic refuses with
   * thinking.
   */
  unsignedToolTurn: boolean;
  /**
   * The effort is an Anthropic caller's `output_config.effort`, the whole answer's: kept with thinking
   * off, and alone (no `thinking` asked) it leaves thinking off. Default false: another protocol's
   * effort is a thinking effort, dropped with thinking.
   */
  answerEffort?: boolean;
  /** Where thinking asked for but left off is reported. Default: only logged. */
  warn?: Warn;
}

/** The encoded settings; `on` says thinking is enabled (then `temperature`, `top_p` and `top_k` are restricted). */
export interface EncodedThinking {
  thinking?: Record<string, unknown>;
  effort?: AnthropicEffort;
  on: boolean;
}

/** A canonical effort as Anthropic's (`minimal` is `low`; `none` has none). */
export function anthropicEffort(effort: ReasoningEffort): AnthropicEffort | undefined {
  switch (effort) {
    case 'none':
      return undefined;
    case 'minimal':
      return 'low';
    default:
      return effort;
  }
}

/** Whether the settings ask for thinking at all (a bare `includeThoughts` does not). */
function wantsThinking(reasoning: ReasoningSettings): boolean {
  return reasoning.enabled === true || reasoning.budgetTokens !== undefined || reasoning.effort !== undefined;
}

/**
 * `budget_tokens` for a non-adaptive model: the caller's budget, else the effort's, else the
 * default; raised to 1024 and lowered below `max_tokens` (never raising `max_tokens`, which is the
 * caller's cap and what the quota hold paid for). A budget the gateway chose (from an effort or the
 * default) takes at most half of `max_tokens` (but 1024 at least), so thinking leaves room for the
 * answer; a caller's own budget may take all but one token, as the caller asked. Undefined when
 * `max_tokens` leaves no room.
 */
export function fitBudget(reasoning: ReasoningSettings, maxTokens: number): number | undefined {
  const chosen = reasoning.budgetTokens === undefined;
  const wanted =
    reasoning.budgetTokens ??
    (reasoning.effort && reasoning.effort !== 'none' ? BUDGET_FOR_EFFORT[reasoning.effort] : DEFAULT_THINKING_BUDGET);
  const ceiling = chosen ? Math.max(MIN_THINKING_BUDGET, Math.floor(maxTokens / 2)) : maxTokens - 1;
  const budget = Math.min(Math.max(wanted, MIN_THINKING_BUDGET), ceiling, maxTokens - 1);
  if (budget < MIN_THINKING_BUDGET) return undefined;
  if (budget !== wanted)
    log(
      'thinking budget %d adjusted to %d (Anthropic takes 1024 ≤ budget_tokens < max_tokens %d)',
      wanted,
      budget,
      maxTokens,
    );
  return budget;
}

/** Thinking asked for but left off for a rule of the API (with an answer's effort, which stands without it). */
function leftOff(effort: AnthropicEffort | undefined): EncodedThinking {
  return { ...(effort ? { effort } : {}), on: false };
}

/**
 * Thinking and `output_config.effort` from the canonical settings:
 * - disabled (or effort `none`) → `{type: "disabled"}` (with an Anthropic caller's answer effort);
 * - an Anthropic caller's answer effort without `thinking` → the effort only;
 * - `adaptive` asked (Anthropic `{type: "adaptive"}`), or a model that takes it when the caller
 *   did not choose → `{type: "adaptive"}` and `output_config.effort` (the caller's effort, or its
 *   budget bucketed: ≤1024 low, ≤8192 medium, more high);
 * - a fixed budget asked (Anthropic `{type: "enabled", budget_tokens}`, `adaptive: false`) → that
 *   budget as given, with the effort given;
 * - other models → `{type: "enabled", budget_tokens}` (see {@link fitBudget});
 * - `display: "omitted"` when the caller asked not to see thoughts.
 * Thinking is left off (a warning) where Anthropic would refuse the request with it:
 * a forced tool choice, a tool loop whose last assistant turn has no signed thinking to replay;
 * and left out when `max_tokens` is at or below 1024 on a model given a budget by the gateway.
 */
export function encodeThinking(reasoning: ReasoningSettings | undefined, context: ThinkingContext): EncodedThinking {
  if (!reasoning) return { on: false };
  const given = reasoning.effort ? anthropicEffort(reasoning.effort) : undefined;
  const answerEffort = context.answerEffort ? given : undefined;
  if (reasoning.enabled === false || reasoning.effort === 'none')
    return { thinking: { type: 'disabled' }, ...(answerEffort ? { effort: answerEffort } : {}), on: false };
  if (
    answerEffort &&
    reasoning.enabled === undefined &&
    reasoning.budgetTokens === undefined &&
    reasoning.adaptive === undefined
  )
    return { effort: answerEffort, on: false };
  if (!wantsThinking(reasoning)) return { on: false };
  if (context.forcesTool) {
    reportDrop(log, context.warn, {
      type: 'unsupported-setting',
      setting: 'reasoning',
      details: 'thinking left off: Anthropic refuses thinking with a forced tool_choice',
    });
    return leftOff(answerEffort);
  }
  if (context.unsignedToolTurn) {
    reportDrop(log, context.warn, {
      type: 'unsupported-setting',
      setting: 'reasoning',
      details: 'thinking left off: the tool loop’s assistant turn has no signed thinking block to replay',
    });
    return leftOff(answerEffort);
  }
  const display = reasoning.includeThoughts === false ? { display: 'omitted' } : {};
  if (reasoning.adaptive === true || (reasoning.adaptive === undefined && context.adaptive)) {
    const level =
      reasoning.effort ?? (reasoning.budgetTokens !== undefined ? effortForBudget(reasoning.budgetTokens) : undefined);
    const effort = level ? anthropicEffort(level) : undefined;
    return { thinking: { type: 'adaptive', ...display }, ...(effort ? { effort } : {}), on: true };
  }
  if (reasoning.adaptive === false && reasoning.budgetTokens !== undefined) {
    return {
      thinking: { type: 'enabled', budget_tokens: reasoning.budgetTokens, ...display },
      ...(given ? { effort: given } : {}),
      on: true,
    };
  }
  const budget = fitBudget(reasoning, context.maxTokens);
  if (budget === undefined) {
    const details = `thinking left off: max_tokens ${context.maxTokens} leaves no room for the minimum budget of ${MIN_THINKING_BUDGET}`;
    reportDrop(log, context.warn, { type: 'unsupported-setting', setting: 'reasoning', details });
    return { on: false };
  }
  return { thinking: { type: 'enabled', budget_tokens: budget, ...display }, on: true };
}
