/** The generateContent resource path of a model, `/models/{id}:{method}`, and which model ids fit in it. */
import { GatewayError } from '../../errors';
import { encodePath } from '../../upstream/upstream-path';

/** The resource prefixes a Gemini model id may carry. */
const RESOURCE_PREFIXES = ['models/', 'tunedModels/'] as const;

/**
 * Throws a 400 for a model id that does not name one Gemini model resource: a `/` anywhere but
 * after a leading `models/` or `tunedModels/`, or a `:` (which would start the method).
 */
export function checkGeminiModelId(model: string): void {
  const prefix = RESOURCE_PREFIXES.find((candidate) => model.startsWith(candidate));
  const name = prefix ? model.slice(prefix.length) : model;
  if (name.length === 0 || name.includes('/') || name.includes(':')) {
    throw new GatewayError(
      'invalid_request',
      "A Gemini model id is one name, optionally after 'models/' or 'tunedModels/': it may not hold another '/' or a ':'.",
      {
        param: 'model',
        code: 'invalid_model_id',
      },
    );
  }
}

/**
 * `/models/gemini-2.5-flash:generateContent`. A model already named by its resource
 * (`models/…`, `tunedModels/…`) keeps that name; each path segment is percent-encoded, and a
 * model id that does not name one resource is refused ({@link checkGeminiModelId}).
 */
export function modelPath(
  model: string,
  method: 'generateContent' | 'streamGenerateContent' | 'batchEmbedContents',
): string {
  checkGeminiModelId(model);
  const resource = RESOURCE_PREFIXES.some((prefix) => model.startsWith(prefix)) ? model : `models/${model}`;
  return `${encodePath(resource.split('/'))}:${method}`;
}
