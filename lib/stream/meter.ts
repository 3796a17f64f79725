/** Watches a canonical stream on its way to the caller: what it cost, even when it is cut short. */
import type { StreamPart, Usage } from '../canonical';
import { countTextTokens, ProducedText } from '../tokenizer';

/**
 * Records the `finish` usage of a stream, or, when the stream ends without one (the caller left,
 * the upstream broke), the output actually produced so far, counted with the tokenizer.
 */
export class StreamMeter {
  private finishUsage: Usage | undefined;
  private readonly produced = new ProducedText();

  /** `inputTokens`: the gateway's own estimate, replaced by the provider's figure when its stream starts with one. */
  constructor(private inputTokens: number) {}

  observe(part: StreamPart): void {
    switch (part.type) {
      case 'response-start':
        if (part.usage?.inputTokens !== undefined) this.inputTokens = part.usage.inputTokens;
        break;
      case 'finish':
        this.finishUsage = part.usage;
        break;
      default:
        this.produced.addPart(part);
        break;
    }
  }

  /** The usage to charge: the provider's own figures when it finished, else input plus what was produced. */
  usage(): Usage {
    return this.finishUsage ?? { inputTokens: this.inputTokens, outputTokens: countTextTokens(this.produced.text()) };
  }
}
