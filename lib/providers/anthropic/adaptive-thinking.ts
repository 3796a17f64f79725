/** Which Claude model ids take adaptive thinking (`thinking: {type: "adaptive"}` steered by `output_config.effort`). */

/** `claude-<family>-<major>[-<minor>]`, also inside provider-prefixed ids (`anthropic/…`, `anthropic.…`). */
const CLAUDE_ID = /(?:^|[/.])claude-(opus|sonnet|haiku)-(\d+)(?:-(\d{1,2}))?(?=$|[-@:])/;

/** The first version of each family with adaptive thinking (protocols.md 3.5; not verified against the live API). */
const FIRST_ADAPTIVE: Readonly<Record<string, readonly [number, number]>> = {
  opus: [4, 7],
  sonnet: [4, 6],
  haiku: [5, 0],
};

/**
 * Whether a model id names a Claude model with adaptive thinking: Opus 4.7 and later, Sonnet 4.6
 * and later, any family from major version 5. Dated ids (`claude-sonnet-4-20250514`) count as
 * `x.0`; ids in the old order (`claude-3-7-sonnet-…`) never match. This is the provider's default
 * for `adaptiveThinking` and an assumption from third-party documentation, not a verified list.
 */
export function supportsAdaptiveThinking(model: string): boolean {
  const match = CLAUDE_ID.exec(model);
  if (!match) return false;
  const [, family, major, minor] = match;
  const [firstMajor, firstMinor] = FIRST_ADAPTIVE[family!]!;
  const [majorVersion, minorVersion] = [Number(major), Number(minor ?? 0)];
  return majorVersion > firstMajor || (majorVersion === firstMajor && minorVersion >= firstMinor);
}
