/** Watches a canonical stream on its way to the caller: what it cost, even when it is cut short. */
import type { StreamPart, Usage } from '../canonical';
import { GatewayError, toGatewayError } from '../errors';
import { countTextTokens } from '../tokenizer';

/**
 * Records the `finish` usage of a stream, or, when the stream ends without one (the caller left,
 * the upstream broke), the output actually produced so far, counted with the tokenizer.
 */
export class StreamMeter {
  private finishUsage: Usage | undefined;
  private produced = '';

  /** `inputTokens`: the gateway's own estimate, replaced by the provider's figure when its stream starts with one. */
  constructor(private inputTokens: number) {}

  observe(part: StreamPart): void {
    switch (part.type) {
      case 'response-start':
        if (part.usage?.inputTokens !== undefined) this.inputTokens = part.usage.inputTokens;
        break;
      case 'text-delta':
      case 'reasoning-delta':
      case 'tool-call-delta':
        this.produced += part.delta;
        break;
      case 'tool-call-start':
        this.produced += part.name;
        break;
      case 'finish':
        this.finishUsage = part.usage;
        break;
      default:
        break;
    }
  }

  /** The usage to charge: the provider's own figures when it finished, else input plus what was produced. */
  usage(): Usage {
    return this.finishUsage ?? { inputTokens: this.inputTokens, outputTokens: countTextTokens(this.produced) };
  }
}

/**
 * Re-joins a stream whose first part was already read, feeding every part to the meter. A failure
 * after the first part becomes an `error` part (the response has started by then); when `signal`
 * is aborted (the caller left) the stream just ends.
 */
export async function* meteredStream(
  first: StreamPart,
  rest: AsyncIterator<StreamPart>,
  meter: StreamMeter,
  signal: AbortSignal,
): AsyncGenerator<StreamPart> {
  meter.observe(first);
  yield first;
  let finished = first.type === 'finish' || first.type === 'error';
  while (!finished) {
    let next: IteratorResult<StreamPart>;
    try {
      next = await rest.next();
    } catch (error) {
      if (signal.aborted) return;
      yield { type: 'error', error: toGatewayError(error) };
      return;
    }
    if (next.done) {
      if (!signal.aborted) yield { type: 'error', error: new GatewayError('upstream', 'The upstream stream ended before it finished.') };
      return;
    }
    meter.observe(next.value);
    yield next.value;
    finished = next.value.type === 'finish' || next.value.type === 'error';
  }
}
