/** The documented placeholder thought signature, for function calls in the current turn that Gemini did not sign. */
import { GEMINI_PLACEHOLDER_SIGNATURE } from '../../wire/gemini/carried-signature';
import { field } from '../../wire/gemini/field-names';
import { logProvider } from './log';
import { isJsonObject, type JsonObject } from '../../json';

/** Google's documented placeholder for history the model did not produce (lib/wire/gemini/carried-signature.ts). */
export const PLACEHOLDER_SIGNATURE = GEMINI_PLACEHOLDER_SIGNATURE;

function partsOf(content: JsonObject): unknown[] {
  return Array.isArray(content.parts) ? content.parts : [];
}

/** A user turn that is not only function responses: where the current turn (its function-calling loop) starts. */
function isStandardUserTurn(content: JsonObject): boolean {
  const role = content.role ?? 'user';
  return (
    role === 'user' &&
    partsOf(content).some((part) => !isJsonObject(part) || field(part, 'functionResponse') === undefined)
  );
}

function firstCallAt(content: JsonObject): number {
  return partsOf(content).findIndex((part) => isJsonObject(part) && field(part, 'functionCall') !== undefined);
}

/** The model content with the placeholder on the call at `at`, when that call carries no signature. */
function signCall(content: JsonObject, at: number): JsonObject {
  const parts = partsOf(content);
  const call = parts[at];
  if (!isJsonObject(call) || field(call, 'thoughtSignature') !== undefined) return content;
  const key = call.functionCall === undefined ? 'thought_signature' : 'thoughtSignature';
  logProvider(
    'gemini: an unsigned function call (%s) in the current turn gets the placeholder signature',
    String(field<JsonObject>(call, 'functionCall')?.name),
  );
  return {
    ...content,
    parts: parts.map((part, index) => (index === at ? { ...call, [key]: PLACEHOLDER_SIGNATURE } : part)),
  };
}

/**
 * The contents with {@link PLACEHOLDER_SIGNATURE} on the first function call of each step of the
 * current turn, when that call carries no signature — the part Gemini 3 validates. The current turn
 * is every content after the last user turn that is not only function responses; a step is a run
 * of consecutive model contents (one response, which a streaming client may record chunk by chunk).
 * Contents are copied where they change; the input is never modified. Either field spelling is read.
 */
export function withPlaceholderSignatures<Content extends object>(contents: readonly Content[]): Content[] {
  const records = contents as readonly unknown[] as readonly JsonObject[];
  let start = 0;
  records.forEach((content, index) => {
    if (isJsonObject(content) && isStandardUserTurn(content)) start = index + 1;
  });
  let stepHasCall = false;
  return records.map((content, index) => {
    if (!isJsonObject(content) || content.role !== 'model') {
      stepHasCall = false;
      return content;
    }
    const at = firstCallAt(content);
    if (index < start || stepHasCall || at === -1) return content;
    stepHasCall = true;
    return signCall(content, at);
  }) as unknown[] as Content[];
}
