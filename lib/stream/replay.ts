/** Replays a complete response as a canonical stream (for providers that cannot stream). */
import type { GenerateResponse, StreamPart } from '../canonical';

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
  for (const part of choice?.content ?? []) {
    const id = `${block++}`;
    switch (part.type) {
      case 'text':
        yield { type: 'text-start', id };
        yield { type: 'text-delta', id, delta: part.text };
        yield { type: 'text-end', id, ...(part.providerMetadata ? { providerMetadata: part.providerMetadata } : {}) };
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
        yield { type: 'tool-call-end', id: part.id };
        break;
      default:
        break;
    }
  }
  yield { type: 'finish', usage: response.usage, finishReason: choice?.finishReason ?? { unified: 'stop' } };
}

/** The same, as an async iterable. */
export async function* replayResponse(
  response: Promise<GenerateResponse> | GenerateResponse,
): AsyncGenerator<StreamPart> {
  yield* responseToParts(await response);
}
