/** Watches a canonical stream on its way to the caller: what it cost, even when it is cut short. */
import createDebug from 'debug';
import type { GenerateRequest, ProviderStreamPart, StreamPart, Usage } from '../canonical';
import { completeUsage, countRequestTokens, countTextTokens, markCounted, ProducedText } from '../tokenizer';

const log = createDebug('rosetta:quota');

/** The prompt-cache figures of a usage. */
type CacheFigures = Pick<Usage, 'cacheReadTokens' | 'cacheWriteTokens' | 'cacheWriteLongTokens'>;

/** The cache figures `usage` has (none when it has none). */
function cacheFigures(usage: Partial<Usage> | undefined): CacheFigures {
  const figures: CacheFigures = {};
  if (usage?.cacheReadTokens) figures.cacheReadTokens = usage.cacheReadTokens;
  if (usage?.cacheWriteTokens) figures.cacheWriteTokens = usage.cacheWriteTokens;
  if (usage?.cacheWriteLongTokens) figures.cacheWriteLongTokens = usage.cacheWriteLongTokens;
  return figures;
}

/**
 * Meters a provider's stream part by part, and completes the usage figures on the parts that carry
 * them. It gathers the stream's output text — the only copy kept: providers leave out the figures
 * their upstream did not report and do not gather the text themselves.
 *
 * - `response-start` without an input count (or with 0) gets `inputTokens`, the gateway's own
 *   estimate, so the caller's protocol has a figure to show (Claude Code's context meter reads it).
 * - `finish` gets what it leaves out: the output counted from what was produced, the input from the
 *   `response-start` figure if the provider gave one, else the request counted with the tokenizer.
 * - A stream that ends without `finish` (the caller left, the upstream broke) is charged the input
 *   as known (with the cache figures of `response-start`) and the output produced so far ({@link usage}).
 */
export class StreamMeter {
  private finishUsage: Usage | undefined;
  /** The provider's own input count, from `response-start`. */
  private reportedInput: number | undefined;
  /** The cache figures of `response-start`, charged at their own prices if the stream ends without `finish`. */
  private startCache: CacheFigures = {};
  private readonly produced = new ProducedText();

  /** `inputTokens`: the gateway's estimate of the request, used until the provider gives a figure. */
  constructor(
    private readonly request: GenerateRequest,
    private readonly inputTokens: number,
  ) {}

  /** Records a part; returns it as it goes on to the caller, its usage figures complete. */
  observe(part: ProviderStreamPart): StreamPart {
    switch (part.type) {
      case 'response-start': {
        this.startCache = cacheFigures(part.usage);
        const reported = part.usage?.inputTokens;
        // 0 is no count: every request has input (some upstreams say 0 until their last chunk).
        if (reported !== undefined && reported > 0) {
          this.reportedInput = reported;
          return part;
        }
        return { ...part, usage: { ...part.usage, inputTokens: this.inputTokens } };
      }
      case 'finish': {
        const usage = this.complete(part.usage);
        this.finishUsage = usage;
        return usage === part.usage ? (part as StreamPart) : { ...part, usage };
      }
      default:
        this.produced.addPart(part);
        return part;
    }
  }

  /**
   * The usage to charge: the `finish` figures (completed) when the stream finished, else input plus what was produced
   * (a new count each time: call it once).
   */
  usage(): Usage {
    return (
      this.finishUsage ??
      markCounted({
        inputTokens: this.reportedInput ?? this.inputTokens,
        outputTokens: countTextTokens(this.produced.text()),
        ...this.startCache,
      })
    );
  }

  /** The output text produced so far (for a span that captures content). */
  outputText(): string {
    return this.produced.text();
  }

  /** A finish's usage with the figures it lacks counted (the same object when it lacks none). */
  private complete(usage: Partial<Usage> | undefined): Usage {
    const complete = completeUsage(
      usage,
      () => this.reportedInput ?? countRequestTokens(this.request),
      () => this.produced.text(),
    );
    if (complete !== usage) log('the provider did not report every usage figure; the rest counted with the tokenizer');
    return complete;
  }
}
