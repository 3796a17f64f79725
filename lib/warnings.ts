/** Call warnings: how the code that drops a setting reports it (logged and recorded), and their header form. */
import type { Debugger } from 'debug';
import type { CallWarning } from './canonical';

/**
 * Where a warning goes: the gateway's collector for the call. Codecs' decoders and providers'
 * encoders take one (optional: a pure function called on its own, as in a unit test, may leave it
 * out, and the drop is then only logged).
 */
export type Warn = (warning: CallWarning) => void;

/** The response header that names a call's warnings (see {@link warningsHeader}). */
export const WARNINGS_HEADER = 'x-rosetta-warnings';

/** The longest {@link WARNINGS_HEADER} value; past it the rest is counted (`more=<n>`), not named. */
export const MAX_WARNINGS_HEADER_LENGTH = 512;

/** The longest name of a setting or tool in the header. */
const MAX_NAME_LENGTH = 64;

/** A warning as a debug line: `top_k dropped: chat completions has no top_k`. */
export function describeWarning(warning: CallWarning): string {
  if (warning.type === 'other') return warning.message;
  const name = warning.type === 'unsupported-setting' ? warning.setting : `tool ${warning.tool}`;
  return warning.details ? `${name} dropped: ${warning.details}` : `${name} dropped`;
}

/**
 * Reports a drop: one debug line on `log` (as the drop was logged before warnings existed), and the
 * warning to `warn` when the caller gave one. The one helper every drop point calls.
 */
export function reportDrop(log: Debugger, warn: Warn | undefined, warning: CallWarning): void {
  if (log.enabled) log('%s', describeWarning(warning));
  warn?.(warning);
}

/** Whether two warnings say the same (a provider that encodes its body again, on a retry, warns again). */
function sameWarning(a: CallWarning, b: CallWarning): boolean {
  if (a.type !== b.type) return false;
  if (a.type === 'unsupported-setting')
    return a.setting === (b as typeof a).setting && a.details === (b as typeof a).details;
  if (a.type === 'unsupported-tool') return a.tool === (b as typeof a).tool && a.details === (b as typeof a).details;
  return a.message === (b as typeof a).message;
}

/** The warnings of one call (or one attempt of it), each once, in the order they were reported. */
export class CallWarnings {
  /** Absent until the first warning: a call without any allocates no list. */
  list: CallWarning[] | undefined;

  /** Records a warning unless the same one is already recorded. */
  add(warning: CallWarning): void {
    if (this.list === undefined) this.list = [warning];
    else if (!this.list.some((known) => sameWarning(known, warning))) this.list.push(warning);
  }
}

/** Joins warning lists, leaving out repeats; undefined when there are none. */
export function mergeWarnings(...lists: ReadonlyArray<readonly CallWarning[] | undefined>): CallWarning[] | undefined {
  const merged = new CallWarnings();
  for (const list of lists) if (list) for (const warning of list) merged.add(warning);
  return merged.list;
}

/** A name made safe for a header: only `[A-Za-z0-9_.:/-]`, at most 64 characters. */
function headerName(name: string): string {
  return name.replace(/[^\w.:/-]/g, '_').slice(0, MAX_NAME_LENGTH) || '_';
}

/**
 * The {@link WARNINGS_HEADER} value: `<type>=<name>` per warning (`other` alone), joined by `; `,
 * e.g. `unsupported-setting=top_k; unsupported-tool=web_search`. Only names the gateway knows the
 * meaning of — setting names and tool types — never `details`, a message or the caller's content;
 * each name restricted to `[A-Za-z0-9_.:/-]` and 64 characters, repeats left out, the whole at most
 * {@link MAX_WARNINGS_HEADER_LENGTH} characters (the rest counted as `more=<n>`). Undefined when
 * there are no warnings.
 */
export function warningsHeader(warnings: readonly CallWarning[] | undefined): string | undefined {
  if (!warnings || warnings.length === 0) return undefined;
  const entries: string[] = [];
  for (const warning of warnings) {
    const entry =
      warning.type === 'other'
        ? 'other'
        : `${warning.type}=${headerName(warning.type === 'unsupported-setting' ? warning.setting : warning.tool)}`;
    if (!entries.includes(entry)) entries.push(entry);
  }
  let value = '';
  for (let index = 0; index < entries.length; index++) {
    const next = value ? `${value}; ${entries[index]}` : entries[index]!;
    const rest = entries.length - index - 1;
    const reserve = rest > 0 ? `; more=${rest}`.length : 0;
    if (next.length + reserve > MAX_WARNINGS_HEADER_LENGTH) return `${value}; more=${entries.length - index}`;
    value = next;
  }
  return value;
}
