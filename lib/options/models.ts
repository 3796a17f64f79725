/** The `models` option checked: each entry's id, type, provider or deployments, prices and fallbacks. */
import { gatewayOptionError as fail } from '../config-check';
import { GatewayConfigError } from '../errors';
import type { ModelConfig, ModelType } from '../model-config';
import type { ResolvedProvider } from '../resolved-provider';
import { defaultDeploymentName } from '../routing/deployments';
import { limitsOnlyProblem } from '../stores/rate-limits';
import { suggest } from '../suggest';
import type { GatewayOptions } from './types';

const PRICE_NAMES = ['input', 'output', 'image', 'cacheRead', 'cacheWrite', 'cacheWriteLong'] as const;

/** A model's `pricing`: absent, or an object whose prices given are finite numbers of credits, 0 or more. */
function checkPricing(pricing: unknown, option: string): void {
  if (pricing === undefined) return;
  if (pricing === null || typeof pricing !== 'object' || Array.isArray(pricing))
    fail('ERR_GATEWAY_INVALID_OPTION', option, 'must be an object of prices in credits.');
  for (const name of PRICE_NAMES) {
    const price = (pricing as Record<string, unknown>)[name];
    if (price !== undefined && (typeof price !== 'number' || !Number.isFinite(price) || price < 0))
      fail(
        'ERR_GATEWAY_INVALID_OPTION',
        `${option}.${name}`,
        `must be a finite number of credits, 0 or more, not ${String(price)}.`,
      );
  }
}

export function resolveModels(
  options: GatewayOptions,
  providers: ReadonlyMap<string, ResolvedProvider>,
): ModelConfig[] {
  const models = options.models ?? [...providers.values()].flatMap((provider) => provider.defaultModels);
  if (!Array.isArray(models)) fail('ERR_GATEWAY_INVALID_OPTION', 'models', 'must be an array of model configs.');
  const taken = new Set<string>();
  const deploymentsByName = new Map<string, string>();
  models.forEach((model, index) => {
    const option = `models[${index}]`;
    if (model === null || typeof model !== 'object' || typeof model.id !== 'string' || model.id.length === 0) {
      fail('ERR_GATEWAY_INVALID_OPTION', option, 'must be an object with a non-empty string `id`.');
    }
    const type = model.type ?? 'text';
    if (type !== 'text' && type !== 'image' && type !== 'embedding')
      fail('ERR_GATEWAY_INVALID_OPTION', `${option}.type`, "must be 'text', 'image' or 'embedding'.");
    for (const [where, name] of providerNames(model, option)) {
      const provider = providers.get(name);
      if (!provider) {
        fail(
          'ERR_GATEWAY_UNKNOWN_PROVIDER',
          where,
          `names '${String(name)}', which is not among the providers${suggest(String(name), [...providers.keys()])}.`,
        );
      }
      if (!provider.serves[type as ModelType])
        fail(
          'ERR_GATEWAY_INVALID_OPTION',
          option,
          `is a ${type} model but provider '${provider.name}' cannot serve ${type} calls.`,
        );
    }
    checkDeployments(model, option, deploymentsByName);
    checkPricing(model.pricing, `${option}.pricing`);
    for (const name of [model.id, ...(model.aliases ?? [])]) {
      if (taken.has(name)) fail('ERR_GATEWAY_DUPLICATE', option, `repeats the model id or alias '${name}'.`);
      taken.add(name);
    }
  });
  models.forEach((model, index) => {
    const fallbacks = model.fallbacks ?? [];
    if (!Array.isArray(fallbacks))
      fail('ERR_GATEWAY_INVALID_OPTION', `models[${index}].fallbacks`, 'must be an array of model ids.');
    fallbacks.forEach((id, position) => {
      const option = `models[${index}].fallbacks[${position}]`;
      const target = models.find((candidate) => candidate.id === id || candidate.aliases?.includes(id));
      if (!target)
        fail(
          'ERR_GATEWAY_UNKNOWN_MODEL',
          option,
          `names '${String(id)}', which is not in the model table${suggest(String(id), [...taken])}.`,
        );
      if (target === model) fail('ERR_GATEWAY_INVALID_OPTION', option, 'names the model itself.');
      if ((target.type ?? 'text') !== (model.type ?? 'text'))
        fail(
          'ERR_GATEWAY_INVALID_OPTION',
          option,
          `names a ${target.type ?? 'text'} model as a fallback of a ${model.type ?? 'text'} model.`,
        );
    });
  });
  return [...models];
}

/** The provider names a model entry gives, each with its option path: `provider`, or each deployment's. */
function providerNames(model: ModelConfig, option: string): Array<[string, string]> {
  const { deployments } = model;
  if (deployments !== undefined && model.provider !== undefined)
    fail(
      'ERR_GATEWAY_OPTION_CONFLICT',
      `${option}.provider`,
      "and 'deployments' cannot both be given: 'provider' is a shorthand for one deployment.",
    );
  if (deployments === undefined) return [[`${option}.provider`, model.provider as string]];
  if (!Array.isArray(deployments) || deployments.length === 0)
    fail('ERR_GATEWAY_INVALID_OPTION', `${option}.deployments`, 'must be a non-empty array of { provider, … }.');
  return deployments.map((deployment, index) => {
    if (deployment === null || typeof deployment !== 'object')
      fail('ERR_GATEWAY_INVALID_OPTION', `${option}.deployments[${index}]`, 'must be an object { provider, … }.');
    return [`${option}.deployments[${index}].provider`, deployment.provider];
  });
}

/**
 * A model's deployments: text and embedding models only (past one plain deployment), each weight positive, each priority a
 * finite number, names unique in the model and, across models, one name for one provider and upstream id.
 */
function checkDeployments(model: ModelConfig, option: string, byName: Map<string, string>): void {
  const deployments = model.deployments;
  if (deployments === undefined) return;
  const plain = deployments.length === 1 && deployments[0]!.rateLimits === undefined;
  if (model.type === 'image' && !plain)
    fail(
      'ERR_GATEWAY_INVALID_OPTION',
      `${option}.deployments`,
      `can list one deployment without limits for an image model; several are for text and embedding models.`,
    );
  const names = new Set<string>();
  deployments.forEach((deployment, index) => {
    const where = `${option}.deployments[${index}]`;
    const { weight, priority, name, rateLimits } = deployment;
    if (weight !== undefined && !(typeof weight === 'number' && Number.isFinite(weight) && weight > 0))
      fail('ERR_GATEWAY_INVALID_OPTION', `${where}.weight`, `must be a positive number, not ${String(weight)}.`);
    if (priority !== undefined && !(typeof priority === 'number' && Number.isFinite(priority)))
      fail('ERR_GATEWAY_INVALID_OPTION', `${where}.priority`, `must be a finite number, not ${String(priority)}.`);
    if (name !== undefined && (typeof name !== 'string' || name.length === 0))
      fail('ERR_GATEWAY_INVALID_OPTION', `${where}.name`, 'must be a non-empty string.');
    const upstreamModel = deployment.upstreamModel ?? model.upstreamModel ?? model.id;
    if (typeof upstreamModel !== 'string' || upstreamModel.length === 0)
      fail('ERR_GATEWAY_INVALID_OPTION', `${where}.upstreamModel`, 'must be a non-empty string.');
    if (rateLimits !== undefined) {
      const problem = limitsOnlyProblem(rateLimits, `${where}.rateLimits`);
      if (problem)
        throw new GatewayConfigError('ERR_GATEWAY_INVALID_OPTION', `createGateway: option ${problem}`, where);
    }
    const id = name ?? defaultDeploymentName(deployment.provider, upstreamModel);
    if (names.has(id))
      fail(
        'ERR_GATEWAY_DUPLICATE',
        `${where}.name`,
        `repeats the deployment name '${id}' (give each a distinct name).`,
      );
    names.add(id);
    const target = `${deployment.provider}\n${upstreamModel}`;
    const known = byName.get(id);
    if (known !== undefined && known !== target)
      fail(
        'ERR_GATEWAY_DUPLICATE',
        `${where}.name`,
        `names '${id}', which another model gives to another provider or upstream model.`,
      );
    byName.set(id, target);
  });
}
