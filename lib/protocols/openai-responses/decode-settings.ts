/**
 * Responses `text` and `reasoning` → canonical response format and reasoning settings, their other keys for the
 * extension.
 */
import type { ReasoningEffort, ReasoningSettings, ResponseFormat } from '../../canonical';
import type { JsonObject } from '../../json';
import { invalidField } from '../shared/validate';
import type { ResponsesBody } from './schema';
import { unmodelledFields } from './unmodelled';

const TEXT_FIELDS: ReadonlySet<string> = new Set(['format']);
const REASONING_FIELDS: ReadonlySet<string> = new Set(['effort']);

/** `text.format` as a canonical format; `text`'s other keys (`verbosity`) for the extension. */
export function decodeText(text: ResponsesBody['text']): { format?: ResponseFormat; kept?: JsonObject } {
  if (!text) return {};
  const kept = unmodelledFields(text, TEXT_FIELDS);
  const format = text.format;
  if (!format) return { kept };
  switch (format.type) {
    case 'json_object':
      return { format: { type: 'json' }, kept };
    case 'json_schema': {
      if (typeof format.name !== 'string' || format.name.length === 0) invalidField('text.format.name', 'is required');
      if (!format.schema) invalidField('text.format.schema', 'is required');
      const strict = typeof format.strict === 'boolean' ? { strict: format.strict } : {};
      return {
        format: { type: 'json-schema', schema: format.schema as Record<string, unknown>, name: format.name, ...strict },
        kept,
      };
    }
    default:
      return { format: { type: 'text' }, kept };
  }
}

/**
 * `reasoning.effort` as the canonical effort (`none`: reasoning off); a summary (`auto`,
 * `concise`, `detailed`) asks for the model's thoughts. The summary itself (and `generate_summary`)
 * stays in the extension: how a Responses upstream should summarise.
 */
export function decodeReasoning(reasoning: ResponsesBody['reasoning']): {
  settings?: ReasoningSettings;
  kept?: JsonObject;
} {
  if (!reasoning) return {};
  const kept = unmodelledFields(reasoning, REASONING_FIELDS);
  const settings: ReasoningSettings = {};
  const effort = reasoning.effort;
  if (effort) {
    settings.enabled = effort !== 'none';
    settings.effort = effort as ReasoningEffort;
  }
  const summary = reasoning.summary ?? reasoning.generate_summary;
  if (summary) settings.includeThoughts = true;
  return Object.keys(settings).length > 0 ? { settings, kept } : { kept };
}
