/**
 * The gateway's counters and histograms, kept as plain numbers and handed to prom-client only when scraped.
 *
 * prom-client's own `inc(labels)` / `observe(labels)` validate the label object and hash it into a string on every
 * update. Here a family finds a series through nested Maps keyed by label values (each already bounded by
 * ./labels.ts), so counting a call is a few Map lookups and additions: no string built, no object allocated once
 * the series exists. Each family is registered in the registry as a metric of prom-client's contract (`name`,
 * `help`, `type`, `aggregator`, `get()`, `reset()`), so a scrape, `getMetricsAsJSON()`, `resetMetrics()` and the
 * cluster aggregator see it as they see their own.
 */
import type { Metric, Registry } from 'prom-client';

type Labels = Record<string, string>;

/** One line of a scrape: `metricName` (a histogram's `_bucket`, `_sum`, `_count`) defaults to the metric's name. */
interface Sample {
  metricName?: string;
  labels: Labels;
  value: number;
}

/** What prom-client's registry reads from a metric's `get()`. */
interface Figures {
  name: string;
  help: string;
  type: 'counter' | 'histogram';
  values: Sample[];
  aggregator: 'sum';
}

/** One series of a family: its label values, fixed when it was first counted. */
interface Series {
  readonly labels: Labels;
}

/**
 * A metric of series found by their label values. Fill {@link path} with the values, in `labelNames` order, then
 * call {@link series}: the one path array is reused, so finding a series allocates nothing.
 */
abstract class Family<S extends Series> {
  readonly aggregator = 'sum';
  abstract readonly type: 'counter' | 'histogram';
  /** The label values of the next series to find, in `labelNames` order. */
  readonly path: string[];
  /** Mutable: an OpenMetrics registry strips a counter's `_total` at scrape time, as it does to its own. */
  name: string;
  private root = new Map<string, unknown>();
  private all: S[] = [];

  constructor(
    registry: Registry,
    name: string,
    readonly help: string,
    readonly labelNames: readonly string[],
  ) {
    this.name = name;
    this.path = labelNames.map(() => '');
    registry.registerMetric(this as unknown as Metric);
  }

  /** The series of the label values in {@link path}; created (at zero) the first time. */
  series(): S {
    const path = this.path;
    const last = path.length - 1;
    let node = this.root;
    for (let index = 0; index < last; index++) {
      let next = node.get(path[index]!) as Map<string, unknown> | undefined;
      if (next === undefined) {
        next = new Map();
        node.set(path[index]!, next);
      }
      node = next;
    }
    let found = node.get(path[last]!) as S | undefined;
    if (found === undefined) {
      const labels: Labels = {};
      for (let index = 0; index <= last; index++) labels[this.labelNames[index]!] = path[index]!;
      found = this.create(labels);
      node.set(path[last]!, found);
      this.all.push(found);
    }
    return found;
  }

  /** prom-client's contract: the figures as samples, each with labels of its own. */
  async get(): Promise<Figures> {
    const values: Sample[] = [];
    for (const series of this.all) this.samples(series, values);
    return { name: this.name, help: this.help, type: this.type, values, aggregator: this.aggregator };
  }

  /** prom-client's contract (`registry.resetMetrics()`): forgets every series. */
  reset(): void {
    this.root = new Map();
    this.all = [];
  }

  protected abstract create(labels: Labels): S;
  protected abstract samples(series: S, into: Sample[]): void;
}

/** A counter's series. */
export interface Count extends Series {
  value: number;
}

/** A counter whose series hold one number each. Series counted only with values above zero stay out of a scrape. */
export class CounterFamily extends Family<Count> {
  readonly type = 'counter';

  /** Adds `amount` (ignored unless above zero) to the series of the values in {@link path}. */
  add(amount: number): void {
    if (amount > 0) this.series().value += amount;
  }

  protected create(labels: Labels): Count {
    return { labels, value: 0 };
  }

  protected samples(series: Count, into: Sample[]): void {
    into.push({ labels: { ...series.labels }, value: series.value });
  }
}

/** Token kinds of `tokens_total`, in the order a scrape shows them. */
export const TOKEN_KINDS = ['input', 'cache_read', 'cache_write', 'output', 'reasoning'] as const;

/** The five token counters of one label combination. */
export interface TokenCounts extends Series {
  /** Indexed like {@link TOKEN_KINDS}. */
  readonly counts: Float64Array;
}

/**
 * `tokens_total`: one series per label combination except `kind`, holding the count of each token kind, so a call's
 * five kinds take one lookup. `kind` is inserted at `kindAt` among the labels; a kind never counted is not shown.
 */
export class TokenFamily extends Family<TokenCounts> {
  readonly type = 'counter';

  constructor(
    registry: Registry,
    name: string,
    help: string,
    labelNames: readonly string[],
    private readonly kindAt: number,
  ) {
    super(registry, name, help, labelNames);
  }

  protected create(labels: Labels): TokenCounts {
    return { labels, counts: new Float64Array(TOKEN_KINDS.length) };
  }

  protected samples(series: TokenCounts, into: Sample[]): void {
    const entries = Object.entries(series.labels);
    for (let index = 0; index < TOKEN_KINDS.length; index++) {
      const value = series.counts[index]!;
      if (value === 0) continue;
      const labels = Object.fromEntries([
        ...entries.slice(0, this.kindAt),
        ['kind', TOKEN_KINDS[index]!],
        ...entries.slice(this.kindAt),
      ]);
      into.push({ labels, value });
    }
  }
}

/** A histogram's series: the count of each bucket (not cumulative; the scrape sums them), the sum and the count. */
export interface Distribution extends Series {
  readonly buckets: Float64Array;
  sum: number;
  count: number;
}

/** A histogram with fixed bucket bounds (increasing, as the options checked). */
export class HistogramFamily extends Family<Distribution> {
  readonly type = 'histogram';
  private readonly bounds: readonly number[];

  constructor(
    registry: Registry,
    name: string,
    help: string,
    labelNames: readonly string[],
    bounds: readonly number[],
  ) {
    super(registry, name, help, labelNames);
    this.bounds = [...bounds];
  }

  /** Counts `value` in the series of the values in {@link path}. */
  observe(value: number): void {
    const series = this.series();
    const bounds = this.bounds;
    let index = 0;
    while (index < bounds.length && value > bounds[index]!) index++;
    // Past the last bound: only the +Inf bucket, which is the count.
    if (index < bounds.length) series.buckets[index]!++;
    series.sum += value;
    series.count++;
  }

  protected create(labels: Labels): Distribution {
    return { labels, buckets: new Float64Array(this.bounds.length), sum: 0, count: 0 };
  }

  protected samples(series: Distribution, into: Sample[]): void {
    const bucket = `${this.name}_bucket`;
    let cumulative = 0;
    for (let index = 0; index < this.bounds.length; index++) {
      cumulative += series.buckets[index]!;
      into.push({ metricName: bucket, labels: { ...series.labels, le: `${this.bounds[index]}` }, value: cumulative });
    }
    into.push({ metricName: bucket, labels: { ...series.labels, le: '+Inf' }, value: series.count });
    into.push({ metricName: `${this.name}_sum`, labels: { ...series.labels }, value: series.sum });
    into.push({ metricName: `${this.name}_count`, labels: { ...series.labels }, value: series.count });
  }
}
