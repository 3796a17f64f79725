/** Tool-call ids in the form Anthropic accepts (`^[a-zA-Z0-9_-]+$`), for the Anthropic codec and provider. */

const NOT_ALLOWED = /[^a-zA-Z0-9_-]/g;

/**
 * The id with every character outside `a-z A-Z 0-9 _ -` replaced by `_`; an empty id becomes
 * `toolu_<fallback>`. Apply it to a `tool_use.id` and its `tool_result.tool_use_id` alike.
 */
export function anthropicToolId(id: string, fallback: string | number = 0): string {
  return id.length > 0 ? id.replace(NOT_ALLOWED, '_') : `toolu_${fallback}`;
}
