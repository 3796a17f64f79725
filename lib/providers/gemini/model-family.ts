/**
 * What the gateway can tell of a Gemini model from its id: generation and tier, for thinking settings and signature
 * rules.
 */

/** A model's generation and tier, as far as its id says. */
export interface GeminiModelFamily {
  /**
   * `3`, `3.1`, `2.5`, `2`, `1.5`…; undefined for aliases (`gemini-flash-latest`) and ids not named
   * `gemini-<version>-…`.
   */
  version?: number;
  tier?: 'pro' | 'flash' | 'flash-lite';
  /** A `…-latest` alias, which may resolve to any generation. */
  alias: boolean;
}

/** The `thinkingBudget` a 2.5 model accepts (protocols.md 4.5), and whether 0 (thinking off) is one of them. */
export interface BudgetRange {
  min: number;
  max: number;
  canDisable: boolean;
}

/** The highest budget assumed when the model's own maximum is unknown (2.5 Flash's). */
export const DEFAULT_MAX_BUDGET = 24576;

const BUDGET_RANGES: Readonly<Record<NonNullable<GeminiModelFamily['tier']>, BudgetRange>> = {
  pro: { min: 128, max: 32768, canDisable: false },
  flash: { min: 1, max: DEFAULT_MAX_BUDGET, canDisable: true },
  'flash-lite': { min: 512, max: DEFAULT_MAX_BUDGET, canDisable: true },
};

/** Reads `models/gemini-2.5-flash-lite-preview`, `gemini-3-pro-preview`, `gemini-flash-latest`… */
export function geminiModelFamily(model: string): GeminiModelFamily {
  const id = model.replace(/^(models|tunedModels)\//, '').toLowerCase();
  const version = /^gemini-(\d+(?:\.\d+)?)(?:-|$)/.exec(id)?.[1];
  const tier = id.includes('flash-lite')
    ? 'flash-lite'
    : id.includes('flash')
      ? 'flash'
      : id.includes('pro')
        ? 'pro'
        : undefined;
  return {
    ...(version !== undefined ? { version: Number(version) } : {}),
    ...(tier ? { tier } : {}),
    alias: id.endsWith('-latest'),
  };
}

/** Gemini 3 and later are steered by `thinkingLevel`; earlier models by `thinkingBudget`. */
export function usesThinkingLevel(family: GeminiModelFamily): boolean {
  return family.version !== undefined && family.version >= 3;
}

/** Models before 2.5 (1.x, 2.0) do not think; for unknown ids and aliases the gateway assumes they do. */
export function canThink(family: GeminiModelFamily): boolean {
  return family.version === undefined || family.version >= 2.5;
}

/** The budget range of a 2.5 model of a known tier; undefined otherwise (budgets then go as they are). */
export function budgetRange(family: GeminiModelFamily): BudgetRange | undefined {
  return family.version === 2.5 && family.tier ? BUDGET_RANGES[family.tier] : undefined;
}

/**
 * Whether the model rejects a current-turn function call without a thought signature: Gemini 3
 * and later do (protocols.md 4.9); 2.5 does not enforce; a `-latest` alias may point at either.
 */
export function validatesSignatures(family: GeminiModelFamily): boolean {
  return usesThinkingLevel(family) || family.alias;
}
