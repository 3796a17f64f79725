/**
 * Label values with a bounded set: every value is one the host configured (a model of the table, a provider, a
 * codec) or a fixed word, never a string a caller sent.
 */
import type { ModelConfig } from '../model-config';
import { defaultDeploymentName } from '../routing/deployments';

/** The value of a label whose figure the call never reached, or whose value is not one the gateway knows. */
export const UNKNOWN = 'unknown';

/** Maps a usage record's names to label values from the gateway's own configuration. */
export class LabelValues {
  private readonly models: ReadonlySet<string>;
  private readonly providers: ReadonlySet<string>;
  private readonly protocols: ReadonlySet<string>;
  /** The names of the models' deployments (docs/routing.md), as the router names them. */
  private readonly deployments: ReadonlySet<string>;
  /** `provider/*` of each provider, made once rather than per call. */
  private readonly wildcards: ReadonlyMap<string, string>;

  constructor(models: readonly ModelConfig[], providers: Iterable<string>, protocols: Iterable<string>) {
    this.models = new Set(models.map((model) => model.id));
    this.providers = new Set(providers);
    this.protocols = new Set(protocols);
    this.deployments = new Set(
      models.flatMap((model) =>
        (model.deployments ?? []).map(
          (deployment) =>
            deployment.name ??
            defaultDeploymentName(deployment.provider, deployment.upstreamModel ?? model.upstreamModel ?? model.id),
        ),
      ),
    );
    this.wildcards = new Map([...this.providers].map((provider) => [provider, `${provider}/*`]));
  }

  /**
   * A public model id of the table as it is; a `provider/model` id the gateway accepted (`providerModelIds`) as
   * `provider/*`; anything else (none, or an id the caller made up) as `unknown`.
   */
  model(id: string | undefined): string {
    if (id === undefined) return UNKNOWN;
    if (this.models.has(id)) return id;
    const slash = id.indexOf('/');
    return (slash > 0 && this.wildcards.get(id.slice(0, slash))) || UNKNOWN;
  }

  /** A configured provider's name, else `unknown`. */
  provider(name: string | undefined): string {
    return name !== undefined && this.providers.has(name) ? name : UNKNOWN;
  }

  /** A configured deployment's name, else `unknown`. */
  deployment(name: string | undefined): string {
    return name !== undefined && this.deployments.has(name) ? name : UNKNOWN;
  }

  /** A configured codec's name, else `unknown`. */
  protocol(name: string): string {
    return this.protocols.has(name) ? name : UNKNOWN;
  }
}

const STATUS_CLASSES = ['1xx', '2xx', '3xx', '4xx', '5xx'] as const;

/** `2xx`, `4xx`, `5xx`… of an HTTP status: one of five constant strings, none built per call. */
export function statusClass(status: number): string {
  return status >= 100 && status < 600 ? STATUS_CLASSES[Math.floor(status / 100) - 1]! : UNKNOWN;
}
