/** The model table: public model ids and aliases resolved to their providers and deployments, with their prices. */
import type { Principal } from './stores/types';
import type { ResolvedProvider } from './resolved-provider';
import type { ModelInfo } from './protocols/types';
import type { CachePriceRatios } from './providers/types';
import { GatewayError } from './errors';
import type { ModelConfig, ModelPricing, ModelType } from './model-config';
import { type ResolvedDeployment, resolveDeployments } from './routing/deployments';
import type { DeploymentRouter } from './routing/router';

/** A model resolved for one call. */
export interface ResolvedModel {
  /** The model's public id (an alias resolves to this). */
  id: string;
  type: ModelType;
  /**
   * The provider resolved at creation: the pipeline calls it without checks per call. With several deployments, the
   * first's (it counts the model's input and prices its cache).
   */
  provider: ResolvedProvider;
  upstreamModel: string;
  /** Its deployments, lowest tier first (one for the `provider` shorthand). */
  deployments: readonly ResolvedDeployment[];
  /** Their names, in the same order (what the deployment store is asked about). */
  deploymentNames: readonly string[];
  /**
   * Routes its calls over its deployments; undefined for one deployment without limits, which is called as it is
   * (no selection, no store).
   */
  router: DeploymentRouter | undefined;
  maxOutputTokens: number;
  pricing: Required<ModelPricing>;
  info: ModelInfo;
  /** This model followed by its fallbacks, in the order they are tried. */
  chain: readonly ResolvedModel[];
}

const DEFAULT_PRICING = { input: 1, output: 1, image: 1000 } as const;

/** A model's prices with every default filled in: its own, else the defaults and its vendor's cache ratios. */
export function resolvePricing(pricing: ModelPricing | undefined, ratios: CachePriceRatios): Required<ModelPricing> {
  const input = pricing?.input ?? DEFAULT_PRICING.input;
  return {
    input,
    output: pricing?.output ?? DEFAULT_PRICING.output,
    image: pricing?.image ?? DEFAULT_PRICING.image,
    cacheRead: pricing?.cacheRead ?? input * ratios.cacheRead,
    cacheWrite: pricing?.cacheWrite ?? input * ratios.cacheWrite,
    cacheWriteLong: pricing?.cacheWriteLong ?? input * ratios.cacheWriteLong,
  };
}

/** The longest model id a caller may send (a longer one is a 400). */
export const MAX_MODEL_ID_LENGTH = 256;

/**
 * Throws a 400 for a model id a caller sent that no upstream should see: longer than
 * {@link MAX_MODEL_ID_LENGTH}, holding a control character or a backslash, or a `.` or `..`
 * path segment (between slashes). Ids in the model table are the operator's and are not checked.
 */
export function checkCallerModelId(id: string): void {
  const refuse = (problem: string) => {
    throw new GatewayError('invalid_request', `The model id ${problem}.`, { param: 'model', code: 'invalid_model_id' });
  };
  if (id.length > MAX_MODEL_ID_LENGTH) refuse(`is ${id.length} characters long; the limit is ${MAX_MODEL_ID_LENGTH}`);
  // eslint-disable-next-line no-control-regex
  if (/[\u0000-\u001f\u007f-\u009f]/.test(id)) refuse('holds a control character');
  if (id.includes('\\')) refuse('holds a backslash');
  if (id.split('/').some((segment) => segment === '.' || segment === '..')) refuse("holds a '.' or '..' path segment");
}

/** Resolves model ids to providers; immutable after creation. */
export class ModelTable {
  private readonly byId = new Map<string, ResolvedModel>();
  private readonly models: ResolvedModel[] = [];

  private readonly providers: ReadonlyMap<string, ResolvedProvider>;
  private readonly defaults: { maxOutputTokens: number; created: number; providerModelIds: boolean };

  constructor(
    configs: readonly ModelConfig[],
    providers: ReadonlyMap<string, ResolvedProvider>,
    defaults: { maxOutputTokens: number; created: number; providerModelIds?: boolean },
    router?: DeploymentRouter,
  ) {
    this.providers = providers;
    this.defaults = { providerModelIds: false, ...defaults };
    for (const config of configs) {
      const upstreamModel = config.upstreamModel ?? config.id;
      const deployments = resolveDeployments(
        config.deployments ?? [{ provider: config.provider! }],
        providers,
        upstreamModel,
      );
      const first = deployments[0]!;
      const provider = first.provider;
      const routed = deployments.length > 1 || first.scopes !== undefined;
      if (routed && !router) throw new Error(`model ${config.id} has deployments but the table has no router`);
      const type = config.type ?? 'text';
      const resolved: ResolvedModel = {
        chain: [],
        id: config.id,
        type,
        provider,
        upstreamModel: first.upstreamModel,
        deployments,
        deploymentNames: deployments.map((deployment) => deployment.name),
        router: routed ? router : undefined,
        maxOutputTokens: config.maxOutputTokens ?? defaults.maxOutputTokens,
        pricing: resolvePricing(config.pricing, provider.cachePriceRatios(first.upstreamModel)),
        info: {
          id: config.id,
          type,
          ownedBy: provider.name,
          displayName: config.displayName ?? config.id,
          created: config.created ?? defaults.created,
          ...(config.contextWindow ? { contextWindow: config.contextWindow } : {}),
          ...(type === 'text' ? { maxOutputTokens: config.maxOutputTokens ?? defaults.maxOutputTokens } : {}),
        },
      };
      this.models.push(resolved);
      for (const name of [config.id, ...(config.aliases ?? [])]) this.byId.set(name, resolved);
    }
    configs.forEach((config, index) => {
      const fallbacks = (config.fallbacks ?? []).map((id) => this.byId.get(id)!);
      this.models[index]!.chain = [this.models[index]!, ...fallbacks];
    });
  }

  /**
   * `provider/model` for a model not in the table, when the gateway allows such ids. The upstream
   * id is the caller's, so the provider checks it first (`Provider.checkModelId`).
   */
  private providerModel(id: string, type: ModelType): ResolvedModel | undefined {
    if (!this.defaults.providerModelIds) return undefined;
    const slash = id.indexOf('/');
    const provider = slash > 0 ? this.providers.get(id.slice(0, slash)) : undefined;
    const upstreamModel = id.slice(slash + 1);
    if (!provider || upstreamModel.length === 0) return undefined;
    if (!provider.serves[type]) return undefined;
    provider.checkModelId(upstreamModel);
    const name = `${provider.name}/${upstreamModel}`;
    const resolved: ResolvedModel = {
      chain: [],
      id,
      type,
      provider,
      upstreamModel,
      deployments: [{ name, provider, upstreamModel, weight: 1, priority: 0, scopes: undefined }],
      deploymentNames: [name],
      router: undefined,
      maxOutputTokens: this.defaults.maxOutputTokens,
      pricing: resolvePricing(undefined, provider.cachePriceRatios(upstreamModel)),
      info: { id, type, ownedBy: provider.name, displayName: id, created: this.defaults.created },
    };
    resolved.chain = [resolved];
    return resolved;
  }

  /** A model id that is not in the table: checked, then tried as a `provider/model` id. */
  private unlisted(id: string, type: ModelType): ResolvedModel | undefined {
    checkCallerModelId(id);
    return this.providerModel(id, type);
  }

  /** Whether an id or alias is taken. */
  has(id: string): boolean {
    return this.byId.has(id);
  }

  /**
   * Resolves a model for a caller and an operation: 400 for an id not in the table that no
   * upstream should see ({@link checkCallerModelId}, `Provider.checkModelId`), 404 when unknown
   * (or of the wrong kind), 403 when the caller's key may not use it.
   */
  resolve(id: string, principal: Principal, type: ModelType): ResolvedModel {
    const model = this.byId.get(id) ?? this.unlisted(id, type);
    if (!model || model.type !== type) {
      const kind = type === 'text' ? 'model' : `${type} model`;
      throw new GatewayError('not_found', `The ${kind} '${id}' does not exist or you do not have access to it.`, {
        code: 'model_not_found',
        param: 'model',
      });
    }
    if (!this.allows(principal, model)) {
      throw new GatewayError('permission', `This key is not allowed to use the model '${model.id}'.`, {
        code: 'model_not_allowed',
        param: 'model',
      });
    }
    return model;
  }

  /** Every model of the table, in table order. */
  all(): readonly ResolvedModel[] {
    return this.models;
  }

  /** Models a caller may use, in table order. */
  listFor(principal: Principal): ModelInfo[] {
    return this.models.filter((model) => this.allows(principal, model)).map((model) => model.info);
  }

  /** One model a caller may use, or undefined. */
  findFor(id: string, principal: Principal): ModelInfo | undefined {
    const model = this.byId.get(id);
    return model && this.allows(principal, model) ? model.info : undefined;
  }

  private allows(principal: Principal, model: ResolvedModel): boolean {
    const allowed = principal.allowedModels;
    if (!allowed) return true;
    return allowed.some(
      (name) =>
        name === model.id ||
        this.byId.get(name) === model ||
        (name.endsWith('/*') && model.id.startsWith(name.slice(0, -1))),
    );
  }
}
