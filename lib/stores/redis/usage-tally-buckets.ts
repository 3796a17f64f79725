/**
 * The buckets RedisUsageStream keeps its tallies in: one hash per bucket at each of five widths (15 s, 1 min, 5 min,
 * 20 min, 3 h: the dashboard's bar widths), each kept as long as a window that reads it needs it, and the plan of which
 * hashes answer a window.
 */

/** One width of bucket and how long its buckets are kept (past their end, before {@link EXPIRY_MARGIN_MS}). */
export interface TallyResolution {
  ms: number;
  keepMs: number;
}

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;

/**
 * The widths, finest first; each divides the next. A width is kept as long as the longest dashboard window that reads it
 * (its bars, or the start of a longer window's first bar): 15 s for an hour, 1 min for 6 h, 5 min for 24 h, 20 min and
 * 3 h for 7 days.
 */
export const TALLY_RESOLUTIONS: readonly TallyResolution[] = [
  { ms: 15_000, keepMs: HOUR },
  { ms: MINUTE, keepMs: 6 * HOUR },
  { ms: 5 * MINUTE, keepMs: 24 * HOUR },
  { ms: 20 * MINUTE, keepMs: 7 * 24 * HOUR },
  { ms: 3 * HOUR, keepMs: 7 * 24 * HOUR },
];

/** The finest width: every bucket width a tally is asked for is a multiple of it. */
export const TALLY_BASE_MS = TALLY_RESOLUTIONS[0]!.ms;

/** How long past its keep a bucket lives: room for the hosts' clocks to differ from Redis's and for a slow read. */
export const EXPIRY_MARGIN_MS = HOUR;

/** A bucket's hash: `<stream key>:tally:<width ms>:<start ms>`. */
export function tallyKey(streamKey: string, ms: number, start: number): string {
  return `${streamKey}:tally:${ms}:${start}`;
}

/** The hashes a record that ended at `ended` counts in, one per width, and when each expires (epoch ms). */
export function bucketsOf(streamKey: string, ended: number): Array<{ key: string; expireAt: number }> {
  return TALLY_RESOLUTIONS.map(({ ms, keepMs }) => {
    const start = Math.floor(ended / ms) * ms;
    return { key: tallyKey(streamKey, ms, start), expireAt: start + ms + keepMs + EXPIRY_MARGIN_MS };
  });
}

/** The hashes that answer a window: where they start (`since` rounded down) and each hash with the bucket it adds to. */
export interface TallyPlan {
  since: number;
  pieces: Array<{ key: string; bucket: number }>;
}

/** Whether a bucket of `resolution` starting at `start` is still kept at `now`. */
function kept(resolution: TallyResolution, start: number, now: number): boolean {
  return start + resolution.ms > now - resolution.keepMs;
}

/**
 * The fewest kept hashes that cover `since` … `until` in buckets of `bucketMs` (a multiple of {@link TALLY_BASE_MS}):
 * from the start of the finest bucket still kept at `since`, each bucket read whole at the widest width that divides it
 * and is kept at its age.
 */
export function planTally(streamKey: string, since: number, until: number, bucketMs: number): TallyPlan {
  const widths = TALLY_RESOLUTIONS.filter((resolution) => bucketMs % resolution.ms === 0);
  const finest =
    widths.find((resolution) => kept(resolution, Math.floor(since / resolution.ms) * resolution.ms, until)) ??
    widths[widths.length - 1]!;
  const from = Math.floor(since / finest.ms) * finest.ms;
  const end = (Math.floor(until / bucketMs) + 1) * bucketMs;
  const pieces: TallyPlan['pieces'] = [];
  const widest = [...widths].reverse();
  for (let at = from; at < end; ) {
    const fits = widest.filter((resolution) => at % resolution.ms === 0 && at + resolution.ms <= end);
    const resolution = fits.find((candidate) => kept(candidate, at, until));
    // Older than any width keeps: nothing is left to read there.
    if (resolution)
      pieces.push({ key: tallyKey(streamKey, resolution.ms, at), bucket: Math.floor(at / bucketMs) * bucketMs });
    at += (resolution ?? fits[0]!).ms;
  }
  return { since: from, pieces };
}
