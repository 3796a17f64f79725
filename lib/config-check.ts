/**
 * Every configuration check, in one place: the gateway's options, the stores' and providers' own options, and the
 * arguments of a store's admin methods all fail with a {@link GatewayConfigError} whose `code` is stable
 * (`ERR_GATEWAY_*`, docs/options.md) and whose message names the owner and the option.
 */
import { GatewayConfigError } from './errors';
import { suggest } from './suggest';

/** A value as a message shows it. */
export function shown(value: unknown): string {
  return JSON.stringify(value) ?? String(value);
}

/** Throws the configuration error of `owner` (`createGateway`, `MemoryQuotaStore`, …) about `option`. */
export function configError(
  owner: string,
  option: string,
  message: string,
  code = 'ERR_GATEWAY_INVALID_OPTION',
): never {
  throw new GatewayConfigError(code, `${owner}: option '${option}' ${message}`, option);
}

/**
 * Throws the error of a bad argument to a store's or provider's own method (`setBalance`, `add`, …): a
 * {@link GatewayConfigError} with the code `ERR_GATEWAY_INVALID_ARGUMENT`.
 */
export function argumentError(owner: string, argument: string, message: string): never {
  throw new GatewayConfigError('ERR_GATEWAY_INVALID_ARGUMENT', `${owner}: ${argument} ${message}`, argument);
}

/** Throws the configuration error of `createGateway`'s own option `option`, with `code`. */
export function gatewayOptionError(code: string, option: string, message: string): never {
  return configError('createGateway', option, message, code);
}

/** An option that must be a positive integer: its value, or `fallback` when absent. */
export function positiveInteger(owner: string, option: string, value: unknown, fallback: number): number {
  if (value === undefined) return fallback;
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value <= 0)
    configError(owner, option, `must be a positive integer, not ${shown(value)}.`);
  return value;
}

/** An option that must be a number of at least 0 (Infinity allowed): its value, or `fallback` when absent. */
export function nonNegativeNumber(owner: string, option: string, value: unknown, fallback: number): number {
  if (value === undefined) return fallback;
  if (typeof value !== 'number' || !(value >= 0))
    configError(owner, option, `must be a number >= 0, not ${shown(value)}.`);
  return value;
}

/** An option that must be a non-empty string. */
export function nonEmptyString(owner: string, option: string, value: unknown): string {
  if (typeof value !== 'string' || value.length === 0)
    configError(owner, option, `must be a non-empty string, not ${shown(value)}.`);
  return value;
}

/** An option that must be true or false: its value, or `fallback` when absent. */
export function booleanOption(owner: string, option: string, value: unknown, fallback: boolean): boolean {
  if (value === undefined) return fallback;
  if (typeof value !== 'boolean') configError(owner, option, `must be true or false, not ${shown(value)}.`);
  return value;
}

/** Checks that `options` is an object naming only `names` ("did you mean …" for a typo). */
export function knownOptions(owner: string, options: unknown, names: readonly string[]): void {
  if (options === null || typeof options !== 'object' || Array.isArray(options)) {
    throw new GatewayConfigError('ERR_GATEWAY_INVALID_OPTIONS', `${owner}: options must be an object.`);
  }
  for (const name of Object.keys(options)) {
    if (!names.includes(name))
      configError(owner, name, `is not an option${suggest(name, names)}.`, 'ERR_GATEWAY_UNKNOWN_OPTION');
  }
}
