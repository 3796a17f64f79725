/**
 * What one gateway's operation handlers share. Each gateway has its own; nothing here is shared with another gateway.
 */
import type { ModelTable } from '../models';
import type { ResolvedOptions } from '../options';
import type { Lifecycle } from './lifecycle';

export interface GatewayParts {
  /** The gateway's options, validated and with defaults filled in. */
  readonly config: ResolvedOptions;
  /** Public model ids and aliases → provider, upstream id and prices. */
  readonly models: ModelTable;
  /** Init, calls in flight, shutdown. */
  readonly lifecycle: Lifecycle;
}
