/** Gemini's `finishReason` values: a wire fact its codec (writing them) and its provider (reading them) share. */

/** The reasons that mean a filter stopped the answer (protocols.md 5.2: the safety family, LANGUAGE and OTHER). */
export const GEMINI_FILTER_FINISH_REASONS: ReadonlySet<string> = new Set([
  'SAFETY',
  'RECITATION',
  'LANGUAGE',
  'OTHER',
  'BLOCKLIST',
  'PROHIBITED_CONTENT',
  'SPII',
  'IMAGE_SAFETY',
  'IMAGE_PROHIBITED_CONTENT',
  'IMAGE_RECITATION',
]);

/** Every reason a Gemini upstream may report: the filter family and the others. */
export const GEMINI_FINISH_REASONS: ReadonlySet<string> = new Set([
  'STOP',
  'MAX_TOKENS',
  ...GEMINI_FILTER_FINISH_REASONS,
  'MALFORMED_FUNCTION_CALL',
  'UNEXPECTED_TOOL_CALL',
  'TOO_MANY_TOOL_CALLS',
  'NO_IMAGE',
  'IMAGE_OTHER',
]);
