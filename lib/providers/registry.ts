/** The providers a gateway gets when it is given none: one line per built-in default. */
import type { Provider } from './types';
import { LocalProvider } from './local';

/** A fresh set of default providers (each gateway gets its own instances). */
export function builtinProviders(): Provider[] {
  return [new LocalProvider()];
}
