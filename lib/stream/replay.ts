/** Replays a complete response as a canonical stream (for providers that cannot stream). */
import type { Extensions, GenerateResponse, OpaqueItem, StreamPart } from '../canonical';

/** `{extensions}` when there are some. */
function extensionsOf(extensions: Extensions | undefined): { extensions?: Extensions } {
  return extensions ? { extensions } : {};
}

/** The opaque items that stood before content part `at` (for `last`: also those after it), as whole-item parts. */
function* opaqueParts(opaque: readonly OpaqueItem[] | undefined, at: number, last: boolean): Generator<StreamPart> {
  if (!opaque) return;
  for (const item of opaque)
    if (item.at === at || (last && item.at > at)) yield { type: 'opaque', extensions: item.extensions, item: true };
}

/** The parts a stream of this response would have carried, for its first choice. */
export function* responseToParts(response: GenerateResponse): Generator<StreamPart> {
  yield {
    type: 'response-start',
    id: response.id,
    model: response.model,
    created: response.created,
    usage: { inputTokens: response.usage.inputTokens },
  };
  const choice = response.choices[0];
  let block = 0;
  const content = choice?.content ?? [];
  for (const part of content) {
    yield* opaqueParts(choice?.opaque, block, false);
    const id = `${block++}`;
    switch (part.type) {
      case 'text':
        yield { type: 'text-start', id };
        yield { type: 'text-delta', id, delta: part.text };
        yield {
          type: 'text-end',
          id,
          ...(part.providerMetadata ? { providerMetadata: part.providerMetadata } : {}),
          ...extensionsOf(part.extensions),
        };
        break;
      case 'reasoning':
        yield { type: 'reasoning-start', id };
        if (part.text) yield { type: 'reasoning-delta', id, delta: part.text };
        yield {
          type: 'reasoning-end',
          id,
          ...(part.signature !== undefined ? { signature: part.signature } : {}),
          ...(part.redactedData !== undefined ? { redactedData: part.redactedData } : {}),
          ...(part.providerMetadata ? { providerMetadata: part.providerMetadata } : {}),
          ...extensionsOf(part.extensions),
        };
        break;
      case 'tool-call':
        yield {
          type: 'tool-call-start',
          id: part.id,
          name: part.name,
          ...(part.providerMetadata ? { providerMetadata: part.providerMetadata } : {}),
        };
        if (part.arguments) yield { type: 'tool-call-delta', id: part.id, delta: part.arguments };
        yield { type: 'tool-call-end', id: part.id, ...extensionsOf(part.extensions) };
        break;
      default:
        break;
    }
  }
  yield* opaqueParts(choice?.opaque, content.length, true);
  yield { type: 'finish', usage: response.usage, finishReason: choice?.finishReason ?? { unified: 'stop' } };
}

/** The same, as an async iterable. */
export async function* replayResponse(
  response: Promise<GenerateResponse> | GenerateResponse,
): AsyncGenerator<StreamPart> {
  yield* responseToParts(await response);
}
