/** The generateContent resource path of a model: `/models/{id}:{method}`. */

/**
 * `/models/gemini-2.5-flash:generateContent`. A model already named by its resource
 * (`models/…`, `tunedModels/…`) keeps that name; each path segment is percent-encoded.
 */
export function modelPath(model: string, method: 'generateContent' | 'streamGenerateContent'): string {
  const resource = model.startsWith('models/') || model.startsWith('tunedModels/') ? model : `models/${model}`;
  return `/${resource.split('/').map(encodeURIComponent).join('/')}:${method}`;
}
