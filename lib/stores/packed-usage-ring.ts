/** The columns the in-memory usage log keeps its records in: numbers in a Float64Array, strings in one array. */
import type { Usage } from '../canonical';
import type { CreditSplit, UsageAttempt, UsageRecord } from '../usage/record';
import type { Settlement } from './types';

/*
 * The ring keeps records in columns, not as objects: a record kept as an object graph (the record, its credits,
 * timings, usage, attempts) is promoted to the old generation and traced by every major GC, which at thousands of
 * calls a second cost the gateway several per cent of its throughput. A record of the usual shape is written into a
 * Float64Array (its numbers) and one array of strings (mostly the same few interned model and key names), and made
 * again when queried (a deployment's name and affinity included); any other (an error, a fallback's attempts, a
 * deployment passed over on the way, a field this ring does not know) is kept whole.
 */

/** The number columns of a slot: NaN is "absent". */
const STATUS = 0;
const STREAM = 1;
const HELD = 2;
const CHARGED = 3;
const RECEIVED = 4;
const ENDED = 5;
const FIRST_BYTE = 6;
/** `timings`' fields in their column order from {@link RECEIVED}: `received` and `ended` required. */
const TIMING_FIELDS = ['received', 'ended', 'firstByte'] as const;
const IMAGES = 7;
const ATTEMPTS = 8;
/** The usage fields, from column USAGE on, in this order (the first two required when there is usage). */
const USAGE = 9;
const USAGE_FIELDS = [
  'inputTokens',
  'outputTokens',
  'cacheReadTokens',
  'cacheWriteTokens',
  'cacheWriteLongTokens',
  'reasoningTokens',
] as const satisfies readonly (keyof Usage)[];
/** The credit split's fields, from column SPLIT on, all required when there is a split. */
const SPLIT = USAGE + USAGE_FIELDS.length;
const SPLIT_FIELDS = [
  'input',
  'cacheRead',
  'cacheWrite',
  'output',
  'image',
  'total',
] as const satisfies readonly (keyof CreditSplit)[];
const NUMBERS = SPLIT + SPLIT_FIELDS.length;

/** The string columns of a slot (undefined is "absent"). */
const REQUEST_ID = 0;
const KEY_ID = 1;
const PROTOCOL = 2;
const OPERATION = 3;
const OUTCOME = 4;
const REQUESTED_MODEL = 5;
const MODEL = 6;
const PROVIDER = 7;
const UPSTREAM_MODEL = 8;
const USAGE_SOURCE = 9;
const SETTLEMENT = 10;
const ATTEMPT_MODEL = 11;
const ATTEMPT_PROVIDER = 12;
const ATTEMPT_UPSTREAM_MODEL = 13;
const DEPLOYMENT = 14;
const AFFINITY = 15;
const ATTEMPT_DEPLOYMENT = 16;
const STRINGS = 17;

/** The optional string fields of a record, by column. */
const OPTIONAL_STRINGS = [
  [KEY_ID, 'keyId'],
  [REQUESTED_MODEL, 'requestedModel'],
  [MODEL, 'model'],
  [PROVIDER, 'provider'],
  [UPSTREAM_MODEL, 'upstreamModel'],
  [DEPLOYMENT, 'deployment'],
] as const;

/** A fixed number of usage records in columns (see above). */
export class PackedRing {
  private readonly numbers: Float64Array;
  private readonly strings: (string | undefined)[];
  /** The records kept as they are (a shape the columns do not hold); undefined where the slot is packed. */
  private readonly whole: (UsageRecord | undefined)[];

  constructor(capacity: number) {
    this.numbers = new Float64Array(capacity * NUMBERS);
    this.strings = new Array<string | undefined>(capacity * STRINGS).fill(undefined);
    this.whole = new Array<UsageRecord | undefined>(capacity).fill(undefined);
  }

  write(slot: number, record: UsageRecord): void {
    this.whole[slot] = this.pack(slot, record) ? undefined : record;
  }

  keyId(slot: number): string | undefined {
    const kept = this.whole[slot];
    return kept ? kept.keyId : this.strings[slot * STRINGS + KEY_ID];
  }

  ended(slot: number): number {
    const kept = this.whole[slot];
    return kept ? kept.timings.ended : this.numbers[slot * NUMBERS + ENDED]!;
  }

  /** The record in a slot: a copy (of a record kept whole, a deep one, as JSON would). */
  read(slot: number): UsageRecord {
    const kept = this.whole[slot];
    if (kept) return structuredClone(kept);
    const n = this.numbers;
    const s = this.strings;
    const at = slot * NUMBERS;
    const on = slot * STRINGS;
    const record: UsageRecord = {
      requestId: s[on + REQUEST_ID]!,
      protocol: s[on + PROTOCOL]!,
      operation: s[on + OPERATION] as UsageRecord['operation'],
      stream: n[at + STREAM] === 1,
      attempts: n[at + ATTEMPTS] === 1 ? [attemptOf(s, on)] : [],
      outcome: s[on + OUTCOME] as UsageRecord['outcome'],
      status: n[at + STATUS]!,
      credits: { held: n[at + HELD]!, charged: n[at + CHARGED]! },
      timings: { received: n[at + RECEIVED]!, ended: n[at + ENDED]! },
    };
    for (const [column, field] of OPTIONAL_STRINGS) {
      const value = s[on + column];
      if (value !== undefined) record[field] = value;
    }
    if (!Number.isNaN(n[at + USAGE]!)) {
      const usage = {} as Usage;
      USAGE_FIELDS.forEach((field, index) => {
        const value = n[at + USAGE + index]!;
        if (!Number.isNaN(value)) usage[field] = value;
      });
      record.usage = usage;
    }
    const affinity = s[on + AFFINITY];
    if (affinity !== undefined) record.affinity = affinity as UsageRecord['affinity'];
    const source = s[on + USAGE_SOURCE];
    if (source !== undefined) record.usageSource = source as UsageRecord['usageSource'];
    if (!Number.isNaN(n[at + IMAGES]!)) record.images = n[at + IMAGES]!;
    if (!Number.isNaN(n[at + SPLIT]!)) {
      const split = {} as CreditSplit;
      SPLIT_FIELDS.forEach((field, index) => {
        split[field] = n[at + SPLIT + index]!;
      });
      record.credits.split = split;
    }
    const settlement = s[on + SETTLEMENT];
    if (settlement !== undefined) record.credits.settlement = settlement as Settlement;
    if (!Number.isNaN(n[at + FIRST_BYTE]!)) record.timings.firstByte = n[at + FIRST_BYTE]!;
    return record;
  }

  /**
   * Writes a record of the usual shape into the slot's columns; false (the columns half written, unread) for any
   * other: a field it does not know, a value of another type or undefined, an error, several attempts or a failed one.
   */
  private pack(slot: number, record: UsageRecord): boolean {
    const n = this.numbers;
    const s = this.strings;
    const at = slot * NUMBERS;
    const on = slot * STRINGS;
    n.fill(Number.NaN, at, at + NUMBERS);
    s.fill(undefined, on, on + STRINGS);
    for (const field in record) {
      const value: unknown = record[field as keyof UsageRecord];
      switch (field) {
        case 'requestId':
          if (!setString(s, on + REQUEST_ID, value)) return false;
          break;
        case 'keyId':
          if (!setString(s, on + KEY_ID, value)) return false;
          break;
        case 'protocol':
          if (!setString(s, on + PROTOCOL, value)) return false;
          break;
        case 'operation':
          if (!setString(s, on + OPERATION, value)) return false;
          break;
        case 'outcome':
          if (!setString(s, on + OUTCOME, value)) return false;
          break;
        case 'requestedModel':
          if (!setString(s, on + REQUESTED_MODEL, value)) return false;
          break;
        case 'model':
          if (!setString(s, on + MODEL, value)) return false;
          break;
        case 'provider':
          if (!setString(s, on + PROVIDER, value)) return false;
          break;
        case 'upstreamModel':
          if (!setString(s, on + UPSTREAM_MODEL, value)) return false;
          break;
        case 'deployment':
          if (!setString(s, on + DEPLOYMENT, value)) return false;
          break;
        case 'affinity':
          if (!setString(s, on + AFFINITY, value)) return false;
          break;
        case 'usageSource':
          if (!setString(s, on + USAGE_SOURCE, value)) return false;
          break;
        case 'stream':
          if (typeof value !== 'boolean') return false;
          n[at + STREAM] = value ? 1 : 0;
          break;
        case 'status':
          if (!setNumber(n, at + STATUS, value)) return false;
          break;
        case 'images':
          if (!setNumber(n, at + IMAGES, value)) return false;
          break;
        case 'attempts':
          if (!packAttempts(n, s, at, on, value)) return false;
          break;
        case 'usage':
          if (!packFields(n, at + USAGE, value, USAGE_FIELDS, 2)) return false;
          break;
        case 'credits':
          if (!packCredits(n, s, at, on, value)) return false;
          break;
        case 'timings':
          if (!packFields(n, at + RECEIVED, value, TIMING_FIELDS, 2)) return false;
          break;
        default:
          return false;
      }
    }
    // The fields every record has.
    return (
      s[on + REQUEST_ID] !== undefined &&
      s[on + PROTOCOL] !== undefined &&
      s[on + OPERATION] !== undefined &&
      s[on + OUTCOME] !== undefined &&
      !Number.isNaN(n[at + STREAM]!) &&
      !Number.isNaN(n[at + STATUS]!) &&
      !Number.isNaN(n[at + ATTEMPTS]!) &&
      !Number.isNaN(n[at + HELD]!) &&
      !Number.isNaN(n[at + RECEIVED]!)
    );
  }
}

function setString(strings: (string | undefined)[], index: number, value: unknown): boolean {
  if (typeof value !== 'string') return false;
  strings[index] = value;
  return true;
}

/** A number that is not NaN (NaN marks an absent field). */
function setNumber(numbers: Float64Array, index: number, value: unknown): boolean {
  if (typeof value !== 'number' || Number.isNaN(value)) return false;
  numbers[index] = value;
  return true;
}

/** An object of only `fields`, each a number, the first `required` of them present, into columns from `from`. */
function packFields(
  numbers: Float64Array,
  from: number,
  value: unknown,
  fields: readonly string[],
  required: number,
): boolean {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  for (const field in value) {
    const index = fields.indexOf(field);
    if (index === -1 || !setNumber(numbers, from + index, (value as Record<string, unknown>)[field])) return false;
  }
  for (let index = 0; index < required; index++) if (Number.isNaN(numbers[from + index]!)) return false;
  return true;
}

/** The one attempt of a packed slot. */
function attemptOf(strings: readonly (string | undefined)[], on: number): UsageAttempt {
  const attempt: UsageAttempt = {
    model: strings[on + ATTEMPT_MODEL]!,
    provider: strings[on + ATTEMPT_PROVIDER]!,
    upstreamModel: strings[on + ATTEMPT_UPSTREAM_MODEL]!,
  };
  const deployment = strings[on + ATTEMPT_DEPLOYMENT];
  if (deployment !== undefined) attempt.deployment = deployment;
  return attempt;
}

/** No attempt, or one that did not fail and was not passed over (a deployment's name kept). */
function packAttempts(
  numbers: Float64Array,
  strings: (string | undefined)[],
  at: number,
  on: number,
  value: unknown,
): boolean {
  if (!Array.isArray(value) || value.length > 1) return false;
  numbers[at + ATTEMPTS] = value.length;
  if (value.length === 0) return true;
  const attempt: unknown = value[0];
  if (typeof attempt !== 'object' || attempt === null) return false;
  let fields = 0;
  for (const field in attempt) {
    const text = (attempt as Record<string, unknown>)[field];
    fields++;
    if (field === 'model') {
      if (!setString(strings, on + ATTEMPT_MODEL, text)) return false;
    } else if (field === 'provider') {
      if (!setString(strings, on + ATTEMPT_PROVIDER, text)) return false;
    } else if (field === 'upstreamModel') {
      if (!setString(strings, on + ATTEMPT_UPSTREAM_MODEL, text)) return false;
    } else if (field === 'deployment') {
      if (!setString(strings, on + ATTEMPT_DEPLOYMENT, text)) return false;
    } else return false;
  }
  return fields === (strings[on + ATTEMPT_DEPLOYMENT] === undefined ? 3 : 4);
}

function packCredits(
  numbers: Float64Array,
  strings: (string | undefined)[],
  at: number,
  on: number,
  value: unknown,
): boolean {
  if (typeof value !== 'object' || value === null) return false;
  const credits = value as Record<string, unknown>;
  for (const field in credits) {
    const item = credits[field];
    if (field === 'held') {
      if (!setNumber(numbers, at + HELD, item)) return false;
    } else if (field === 'charged') {
      if (!setNumber(numbers, at + CHARGED, item)) return false;
    } else if (field === 'split') {
      if (!packFields(numbers, at + SPLIT, item, SPLIT_FIELDS, SPLIT_FIELDS.length)) return false;
    } else if (field === 'settlement') {
      if (!setString(strings, on + SETTLEMENT, item)) return false;
    } else return false;
  }
  return !Number.isNaN(numbers[at + CHARGED]!);
}
