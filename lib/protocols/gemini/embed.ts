/**
 * Gemini embeddings: `:embedContent` (one content → `{embedding: {values}}`) and `:batchEmbedContents` (`requests[]`,
 * each naming the path's model → `{embeddings: [{values}]}`), decoded to and encoded from the canonical EmbedRequest.
 */
import type { EmbedRequest, EmbedResponse } from '../../canonical';
import { JsonText, vectorJson } from '../../canonical/vectors';
import { isJsonObject, type JsonObject } from '../../json';
import { field } from '../../wire/gemini/field-names';
import { invalidField } from '../shared/validate';
import type { EmbedRoute, RouteParams } from '../types';

/** Most requests one `batchEmbedContents` call may carry at the gateway (split to the upstream's own limit). */
export const MAX_BATCH_EMBED_REQUESTS = 2048;

/** The settings one embed request carries beside its content, as the canonical request holds them. */
interface EmbedSettings {
  taskType?: string;
  title?: string;
  dimensions?: number;
}

function asObject(value: unknown, where: string): JsonObject {
  if (!isJsonObject(value)) invalidField(where, 'must be an object');
  return value;
}

/** The text of a `content`: its text parts joined by newlines. Other parts, no text, or an empty text: a 400. */
function contentText(content: unknown, where: string): string {
  const parts = field<unknown>(asObject(content, where), 'parts');
  if (!Array.isArray(parts) || parts.length === 0) invalidField(`${where}.parts`, 'must be a non-empty array of parts');
  const texts = parts.map((part, index) => {
    const text = field<unknown>(asObject(part, `${where}.parts[${index}]`), 'text');
    if (typeof text !== 'string')
      invalidField(`${where}.parts[${index}]`, 'only text parts can be embedded (this gateway embeds text)');
    return text;
  });
  const text = texts.join('\n');
  if (text.length === 0) invalidField(`${where}.parts`, 'must hold some text; an empty text has no embedding');
  return text;
}

function settingsOf(request: JsonObject, where: string): EmbedSettings {
  const settings: EmbedSettings = {};
  const taskType = field<unknown>(request, 'taskType');
  if (taskType !== undefined) {
    if (typeof taskType !== 'string' || taskType.length === 0) invalidField(`${where}taskType`, 'must be a string');
    settings.taskType = taskType;
  }
  const title = field<unknown>(request, 'title');
  if (title !== undefined) {
    if (typeof title !== 'string') invalidField(`${where}title`, 'must be a string');
    settings.title = title;
  }
  const dimensions = field<unknown>(request, 'outputDimensionality');
  if (dimensions !== undefined) {
    if (typeof dimensions !== 'number' || !Number.isInteger(dimensions) || dimensions < 1)
      invalidField(`${where}outputDimensionality`, 'must be a positive integer');
    settings.dimensions = dimensions;
  }
  return settings;
}

/** A request's `model` (`models/x` or `x`) must name the path's model, as Google requires. */
function checkModel(request: JsonObject, model: string, where: string): void {
  const named = field<unknown>(request, 'model');
  if (named === undefined) return;
  const id = typeof named === 'string' && named.startsWith('models/') ? named.slice('models/'.length) : named;
  if (id !== model) invalidField(`${where}model`, `must name the model of the path, models/${model}`);
}

function embedRequest(model: string, inputs: string[], settings: EmbedSettings): EmbedRequest {
  const request: EmbedRequest = { model, inputs };
  if (settings.taskType !== undefined) request.taskType = settings.taskType;
  if (settings.title !== undefined) request.title = settings.title;
  if (settings.dimensions !== undefined) request.dimensions = settings.dimensions;
  return request;
}

/** `:embedContent`: `{content, taskType?, title?, outputDimensionality?}`. */
export function decodeEmbedContent(model: string, body: unknown): EmbedRequest {
  const request = asObject(body, 'body');
  checkModel(request, model, '');
  const content = field<unknown>(request, 'content');
  if (content === undefined) invalidField('content', 'is required');
  return embedRequest(model, [contentText(content, 'content')], settingsOf(request, ''));
}

/**
 * `:batchEmbedContents`: `{requests: [{model, content, taskType?, title?, outputDimensionality?}]}`. The canonical
 * request carries one of each setting, so the requests of one batch must agree on them (what @google/genai sends);
 * a batch that mixes them is a 400 that says so.
 */
export function decodeBatchEmbedContents(model: string, body: unknown): EmbedRequest {
  const requests = field<unknown>(asObject(body, 'body'), 'requests');
  if (!Array.isArray(requests) || requests.length === 0) invalidField('requests', 'must be a non-empty array');
  if (requests.length > MAX_BATCH_EMBED_REQUESTS)
    invalidField(
      'requests',
      `holds ${requests.length} requests; at most ${MAX_BATCH_EMBED_REQUESTS} may be sent at once`,
    );
  let shared: EmbedSettings | undefined;
  const inputs = requests.map((item: unknown, index) => {
    const where = `requests[${index}]`;
    const request = asObject(item, where);
    checkModel(request, model, `${where}.`);
    const content = field<unknown>(request, 'content');
    if (content === undefined) invalidField(`${where}.content`, 'is required');
    const text = contentText(content, `${where}.content`);
    const settings = settingsOf(request, `${where}.`);
    if (shared === undefined) shared = settings;
    else
      for (const name of ['taskType', 'title', 'dimensions'] as const)
        if (settings[name] !== shared[name])
          invalidField(
            `${where}.${name === 'dimensions' ? 'outputDimensionality' : name}`,
            'must be the same in every request of one batch at this gateway; send requests that differ in separate calls',
          );
    return text;
  });
  return embedRequest(model, inputs, shared ?? {});
}

/** `:embedContent`: `{embedding: {values}}`, the vector's JSON text as the upstream wrote it or converted. */
export const EMBED_CONTENT: EmbedRoute = {
  operation: 'embed',
  decode: (http, params: RouteParams) => decodeEmbedContent(params.model!, http.body),
  encode: (response: EmbedResponse) => ({
    status: 200,
    body: new JsonText(`{"embedding":{"values":${vectorJson(response.vectors[0]!)}}}`),
  }),
};

/** `:batchEmbedContents`: `{embeddings: [{values}]}` in request order. */
export const BATCH_EMBED_CONTENTS: EmbedRoute = {
  operation: 'embed',
  decode: (http, params: RouteParams) => decodeBatchEmbedContents(params.model!, http.body),
  encode: (response: EmbedResponse) => {
    const items = response.vectors.map((vector) => `{"values":${vectorJson(vector)}}`);
    return { status: 200, body: new JsonText(`{"embeddings":[${items.join(',')}]}`) };
  },
};
