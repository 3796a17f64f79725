// Builds the example server's providers and model table from environment variables.
// Base URLs come from ROSETTA_<NAME>_BASE_URL, never from the SDKs' own OPENAI_BASE_URL / ANTHROPIC_BASE_URL /
// GEMINI_BASE_URL: those point clients (Claude Code, the SDKs) at this gateway, and reading them would make it call
// itself.
import { readFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { AnthropicProvider, GeminiProvider, LocalProvider, OpenAIProvider } from 'rosetta-gateway';
import { LOCAL_MODELS } from 'rosetta-gateway/extend';

/**
 * Upstreams configured by env: the provider class, its env vars, and the models listed when no models file is given.
 */
const UPSTREAMS = [
  {
    name: 'openai',
    keyVar: 'OPENAI_API_KEY',
    baseUrlVar: 'ROSETTA_OPENAI_BASE_URL',
    create: (apiKey, baseUrl) => new OpenAIProvider({ apiKey, ...(baseUrl ? { baseUrl } : {}) }),
    models: [
      { id: 'gpt-4o-mini', provider: 'openai' },
      { id: 'gpt-4o', provider: 'openai' },
      { id: 'gpt-image-1', provider: 'openai', type: 'image' },
    ],
  },
  {
    name: 'anthropic',
    keyVar: 'ANTHROPIC_API_KEY',
    baseUrlVar: 'ROSETTA_ANTHROPIC_BASE_URL',
    create: (apiKey, baseUrl) => new AnthropicProvider({ apiKey, ...(baseUrl ? { baseUrl } : {}) }),
    models: [
      { id: 'claude-sonnet-4-5', provider: 'anthropic' },
      { id: 'claude-haiku-4-5', provider: 'anthropic' },
    ],
  },
  {
    name: 'gemini',
    keyVar: 'GEMINI_API_KEY',
    baseUrlVar: 'ROSETTA_GEMINI_BASE_URL',
    create: (apiKey, baseUrl) => new GeminiProvider({ apiKey, ...(baseUrl ? { baseUrl } : {}) }),
    models: [
      { id: 'gemini-2.5-flash', provider: 'gemini' },
      { id: 'gemini-2.5-pro', provider: 'gemini' },
    ],
  },
];

/** Providers and models for createGateway, plus a description for the start-up banner. */
export function upstreamsFromEnv(env) {
  const tokenDelayMs = Number(env.LOCAL_TOKEN_DELAY_MS ?? 25);
  const providers = [new LocalProvider({ tokenDelayMs })];
  let models = [...LOCAL_MODELS];
  const configured = [];
  for (const upstream of UPSTREAMS) {
    const apiKey = env[upstream.keyVar];
    if (!apiKey) continue;
    providers.push(upstream.create(apiKey, env[upstream.baseUrlVar]));
    models.push(...upstream.models);
    configured.push(`${upstream.name}${env[upstream.baseUrlVar] ? ` (${env[upstream.baseUrlVar]})` : ''}`);
  }
  if (env.UPSTREAMS_FILE) {
    for (const account of upstreamsFile(env.UPSTREAMS_FILE, env)) {
      providers.push(account.provider);
      configured.push(account.description);
    }
  }
  if (env.MODELS_FILE) {
    models = readJsonFile('MODELS_FILE', env.MODELS_FILE);
    if (!Array.isArray(models))
      throw new Error(`MODELS_FILE ${env.MODELS_FILE} must hold a JSON array of model entries`);
  }
  return { providers, models, configured };
}

const PROTOCOLS = {
  openai: (name, apiKey, baseUrl) => new OpenAIProvider({ name, apiKey, ...(baseUrl ? { baseUrl } : {}) }),
  'openai-responses': (name, apiKey, baseUrl) =>
    new OpenAIProvider({ name, apiKey, responsesModels: () => true, ...(baseUrl ? { baseUrl } : {}) }),
  anthropic: (name, apiKey, baseUrl) => new AnthropicProvider({ name, apiKey, ...(baseUrl ? { baseUrl } : {}) }),
  gemini: (name, apiKey, baseUrl) => new GeminiProvider({ name, apiKey, ...(baseUrl ? { baseUrl } : {}) }),
};

/** The JSON a file named by `variable` holds; a file that cannot be read or parsed is an error naming both. */
function readJsonFile(variable, path) {
  let text;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    throw new Error(`${variable} ${path} cannot be read: ${error.code ?? error.message}`);
  }
  try {
    return JSON.parse(text);
  } catch (error) {
    throw new Error(`${variable} ${path} is not JSON: ${error.message}`);
  }
}

/**
 * The accounts of UPSTREAMS_FILE (docs/routing.md, *The example server*): a JSON array of
 * `{ name, protocol: 'openai' | 'openai-responses' | 'anthropic' | 'gemini', baseUrl?, key: 'env:VAR' }`, each one
 * provider named `name`. A key is only ever read from the environment variable it names, so the file holds no secret.
 */
function upstreamsFile(path, env) {
  const accounts = readJsonFile('UPSTREAMS_FILE', path);
  if (!Array.isArray(accounts)) throw new Error(`UPSTREAMS_FILE ${path} must hold a JSON array of accounts`);
  return accounts.map((account, index) => {
    const where = `UPSTREAMS_FILE ${path}, entry ${index}`;
    if (typeof account?.name !== 'string' || account.name.length === 0) throw new Error(`${where}: needs a name`);
    const create = PROTOCOLS[account.protocol ?? 'openai'];
    if (!create)
      throw new Error(
        `${where}: protocol must be one of ${Object.keys(PROTOCOLS).join(', ')}, not ${account.protocol}`,
      );
    const match = /^env:([A-Za-z_][A-Za-z0-9_]*)$/.exec(account.key ?? '');
    if (!match) throw new Error(`${where}: key must be 'env:VARIABLE' (the key itself stays in the environment)`);
    const apiKey = env[match[1]];
    if (!apiKey) throw new Error(`${where}: the environment variable ${match[1]} is not set`);
    return {
      provider: create(account.name, apiKey, account.baseUrl),
      description: `${account.name} (${account.protocol ?? 'openai'}${account.baseUrl ? ` at ${account.baseUrl}` : ''})`,
    };
  });
}

const LOOPBACK = new Set(['localhost', '127.0.0.1', '::1', '[::1]', '0.0.0.0', '[::]', hostname().toLowerCase()]);

/** The ROSETTA_*_BASE_URL variable (and value) that points at this server's own port on this host, if one does. */
export function selfPointingBaseUrl(env, port) {
  for (const upstream of UPSTREAMS) {
    const value = env[upstream.keyVar] ? env[upstream.baseUrlVar] : undefined;
    if (!value) continue;
    let url;
    try {
      url = new URL(value);
    } catch {
      continue;
    }
    const urlPort = Number(url.port || (url.protocol === 'https:' ? 443 : 80));
    if (urlPort === port && LOOPBACK.has(url.hostname.toLowerCase())) return `${upstream.baseUrlVar}=${value}`;
  }
  return undefined;
}
