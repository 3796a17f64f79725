/**
 * Canonical reasoning settings → Gemini `generationConfig.thinkingConfig`, per model family (protocols.md 4.5, 5.5).
 */
import type { ReasoningEffort, ReasoningSettings } from '../../canonical';
import { logProvider } from './log';
import { reportDrop, type Warn } from '../../warnings';
import {
  budgetRange,
  canThink,
  DEFAULT_MAX_BUDGET,
  usesThinkingLevel,
  type BudgetRange,
  type GeminiModelFamily,
} from './model-family';

/** Gemini 3's discrete thinking levels. */
export type ThinkingLevel = 'MINIMAL' | 'LOW' | 'MEDIUM' | 'HIGH';

/** The `thinkingConfig` object (never both a budget and a level: Gemini refuses that). */
export interface ThinkingConfig {
  thinkingBudget?: number;
  thinkingLevel?: ThinkingLevel;
  includeThoughts?: boolean;
}

/** Effort → Gemini 3 level. `none` is handled as thinking disabled. */
export const EFFORT_LEVELS: Readonly<Record<Exclude<ReasoningEffort, 'none'>, ThinkingLevel>> = {
  minimal: 'MINIMAL',
  low: 'LOW',
  medium: 'MEDIUM',
  high: 'HIGH',
  xhigh: 'HIGH',
  max: 'HIGH',
};

/** Effort → 2.5 budget; `xhigh` and `max` take the model's maximum (32768 for 2.5 Pro, else 24576). */
export const EFFORT_BUDGETS: Readonly<Record<'minimal' | 'low' | 'medium' | 'high', number>> = {
  minimal: 512,
  low: 1024,
  medium: 8192,
  high: 24576,
};

/**
 * A budget within the model's range: -1 (dynamic) as is; 0 raised to the minimum where thinking cannot be turned off.
 */
export function clampBudget(budget: number, range: BudgetRange | undefined): number {
  if (!range || budget === -1) return budget;
  if (budget === 0) return range.canDisable ? 0 : range.min;
  return Math.min(range.max, Math.max(range.min, budget));
}

function effortBudget(effort: Exclude<ReasoningEffort, 'none'>, range: BudgetRange | undefined): number {
  return effort === 'xhigh' || effort === 'max' ? (range?.max ?? DEFAULT_MAX_BUDGET) : EFFORT_BUDGETS[effort];
}

/** Thinking as low as the model goes: budget 0, or the minimum where it cannot be off (2.5 Pro, Gemini 3). */
function disabled(family: GeminiModelFamily, range: BudgetRange | undefined): ThinkingConfig {
  if (usesThinkingLevel(family)) {
    const level = family.tier === 'pro' || family.tier === undefined ? 'LOW' : 'MINIMAL';
    logProvider('gemini: thinking cannot be turned off on Gemini 3; thinkingLevel %s instead', level);
    return { thinkingLevel: level };
  }
  if (range && !range.canDisable)
    logProvider('gemini: thinking cannot be turned off on this model; thinkingBudget %d instead', range.min);
  return { thinkingBudget: clampBudget(0, range) };
}

/**
 * The `thinkingConfig` for these settings on this model family, or undefined when there is none to send.
 * - disabled (or effort `none`): budget 0; 2.5 Pro its minimum 128; Gemini 3 level LOW (Pro) or MINIMAL (Flash).
 * - a budget: `thinkingBudget`, clamped to a known 2.5 range, else as is (Gemini 3 too).
 * - an effort: Gemini 3 `thinkingLevel` (minimal→MINIMAL, low→LOW, medium→MEDIUM, high/xhigh/max→HIGH);
 *   2.5 and unknown models a budget (minimal 512, low 1024, medium 8192, high 24576, xhigh/max the maximum),
 *   except for `adaptive` thinking, which is dynamic (-1) there.
 * - enabled with neither: dynamic (-1) on budget models; the model default on Gemini 3.
 * `includeThoughts` is sent when the caller asked for thoughts, or enabled reasoning without saying.
 * Models before 2.5 do not think: the settings are dropped with a warning to `warn`.
 */
export function encodeThinkingConfig(
  reasoning: ReasoningSettings,
  family: GeminiModelFamily,
  warn?: Warn,
): ThinkingConfig | undefined {
  if (!canThink(family)) {
    reportDrop(logProvider, warn, {
      type: 'unsupported-setting',
      setting: 'reasoning',
      details: 'this Gemini model does not think',
    });
    return undefined;
  }
  const range = budgetRange(family);
  const levels = usesThinkingLevel(family);
  if (reasoning.enabled === false || reasoning.effort === 'none') return disabled(family, range);
  const config: ThinkingConfig = {};
  const effort = reasoning.effort;
  if (reasoning.budgetTokens !== undefined) {
    config.thinkingBudget = clampBudget(reasoning.budgetTokens, range);
    if (effort)
      reportDrop(logProvider, warn, {
        type: 'unsupported-setting',
        setting: 'reasoning_effort',
        details: `effort ${effort}: a thinking budget was given, and Gemini takes one of the two`,
      });
  } else if (effort && levels) {
    config.thinkingLevel = EFFORT_LEVELS[effort];
  } else if (effort && reasoning.adaptive !== true) {
    config.thinkingBudget = clampBudget(effortBudget(effort, range), range);
  } else if (reasoning.enabled === true && !levels) {
    config.thinkingBudget = -1;
  }
  if (reasoning.includeThoughts ?? reasoning.enabled === true) config.includeThoughts = true;
  return Object.keys(config).length > 0 ? config : undefined;
}

/**
 * The reasoning settings in Gemini's own terms, untranslated: the inverse of how a Gemini caller's
 * `thinkingConfig` decodes (budget 0 → disabled, -1 → enabled without a size, N → a budget, a level
 * → an effort). Used when the settings came as a thinkingConfig (its extension is `literal`), so
 * that the upstream gets what the caller sent (or what a step changed it to), not a family's clamp.
 */
export function literalThinkingConfig(reasoning: ReasoningSettings): ThinkingConfig {
  const config: ThinkingConfig = {};
  const effort = reasoning.effort;
  if (reasoning.budgetTokens !== undefined) config.thinkingBudget = reasoning.budgetTokens;
  else if (reasoning.enabled === false || effort === 'none') config.thinkingBudget = 0;
  else if (reasoning.enabled === true && effort === undefined) config.thinkingBudget = -1;
  if (effort !== undefined && effort !== 'none') config.thinkingLevel = EFFORT_LEVELS[effort];
  if (reasoning.includeThoughts !== undefined) config.includeThoughts = reasoning.includeThoughts;
  return config;
}
