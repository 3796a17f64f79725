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

/**
 * An UPSTREAMS_FILE option's check, `(value, name, env) => value for the provider`: it throws `<name> <what is wrong>`
 * for a value of the wrong JSON shape. Values the provider's constructor checks itself go through as given: its error
 * becomes the entry's one-line refusal too (see `upstreamsFile`).
 */
const asGiven = (value) => value;

/** A whole number of at least `least`. */
const wholeNumber = (least) => (value, name) => {
  if (!Number.isSafeInteger(value) || value < least)
    throw new Error(`${name} must be a whole number >= ${least}, not ${JSON.stringify(value)}`);
  return value;
};

const trueOrFalse = (value, name) => {
  if (typeof value !== 'boolean') throw new Error(`${name} must be true or false, not ${JSON.stringify(value)}`);
  return value;
};

const oneOf =
  (...allowed) =>
  (value, name) => {
    if (!allowed.includes(value))
      throw new Error(
        `${name} must be one of ${allowed.map((one) => `'${one}'`).join(', ')}, not ${JSON.stringify(value)}`,
      );
    return value;
  };

const isObject = (value) => value !== null && typeof value === 'object' && !Array.isArray(value);

/** An object of the named fields (each optional), each checked by its own check. */
const fields = (checks) => (value, name) => {
  const accepted = Object.keys(checks).join(', ');
  if (!isObject(value)) throw new Error(`${name} must be an object of ${accepted}`);
  const checked = {};
  for (const [field, given] of Object.entries(value)) {
    const check = checks[field];
    if (!check) throw new Error(`${name} has no field '${field}' (accepted: ${accepted})`);
    checked[field] = check(given, `${name}.${field}`);
  }
  return checked;
};

/** Header names whose value is a credential (as the library redacts them): such a value must come from the environment. */
const CREDENTIAL_HEADER = /^(authorization|proxy-authorization|cookie)$|key|token|secret|password/i;

/**
 * Extra headers: names to string values, a value written `env:VARIABLE` read from that environment variable. A
 * credential header (`authorization`, `api-key`, any name with key, token, secret or password in it) must be written
 * so, for the file to hold no secret.
 */
const headerValues = (value, name, env) => {
  if (!isObject(value) || !Object.values(value).every((header) => typeof header === 'string'))
    throw new Error(`${name} must be an object of header names to string values`);
  const headers = {};
  for (const [header, text] of Object.entries(value)) {
    const variable = /^env:([A-Za-z_][A-Za-z0-9_]*)$/.exec(text)?.[1];
    if (variable === undefined && CREDENTIAL_HEADER.test(header))
      throw new Error(
        `${name}.${header} is a credential: write it 'env:VARIABLE' (the value stays in the environment)`,
      );
    if (variable !== undefined && !env[variable])
      throw new Error(`${name}.${header}: the environment variable ${variable} is not set`);
    headers[header] = variable === undefined ? text : env[variable];
  }
  return headers;
};

/**
 * A list of upstream model ids, for an option the class takes as a test of the id (`reasoningModels`,
 * `adaptiveThinking`): a JSON file cannot hold a function, so the file names the models.
 */
const modelIds = (value, name) => {
  if (!Array.isArray(value) || !value.every((id) => typeof id === 'string' && id.length > 0))
    throw new Error(`${name} must be an array of upstream model ids`);
  const ids = new Set(value);
  return (upstreamModel) => ids.has(upstreamModel);
};

/** The options every upstream provider takes (docs/providers.md, *The upstream providers* and *Timeouts*). */
const UPSTREAM_OPTIONS = {
  headers: headerValues,
  timeouts: fields({
    connectMs: wholeNumber(1),
    responseMs: wholeNumber(1),
    streamResponseMs: wholeNumber(1),
    idleMs: wholeNumber(1),
  }),
  retries: fields({ max: wholeNumber(0), baseDelayMs: wholeNumber(0), maxDelayMs: wholeNumber(0) }),
  connections: wholeNumber(1),
};

/** OpenAIProvider's own options (docs/providers.md, *Vendor presets* and below). */
const OPENAI_OPTIONS = {
  preset: asGiven,
  maxTokensField: oneOf('max_tokens', 'max_completion_tokens'),
  reasoningModels: modelIds,
  reasoningReplay: asGiven,
  cacheControl: asGiven,
  dashScopeThinking: trueOrFalse,
  maxEmbedInputs: asGiven,
  embeddingsBase64: asGiven,
};

/**
 * Each protocol's provider, and the options an entry of it may give besides `name`, `protocol`, `baseUrl` and `key`.
 * `openai-responses` is `openai` with every model called through the Responses API.
 */
const PROTOCOLS = {
  openai: {
    create: (options) => new OpenAIProvider(options),
    options: { ...UPSTREAM_OPTIONS, ...OPENAI_OPTIONS, responsesModels: asGiven },
  },
  'openai-responses': {
    create: (options) => new OpenAIProvider({ ...options, responsesModels: () => true }),
    options: { ...UPSTREAM_OPTIONS, ...OPENAI_OPTIONS },
  },
  anthropic: {
    create: (options) => new AnthropicProvider(options),
    options: { ...UPSTREAM_OPTIONS, defaultMaxTokens: asGiven, adaptiveThinking: modelIds, promptCaching: asGiven },
  },
  gemini: {
    create: (options) => new GeminiProvider(options),
    options: {
      ...UPSTREAM_OPTIONS,
      inlineImageUrls: asGiven,
      allowPrivateNetworks: asGiven,
      imageDownload: fields({ timeoutMs: asGiven, maxBytes: asGiven, maxRedirects: asGiven }),
      maxEmbedInputs: asGiven,
    },
  },
};

/** The fields of every entry, whatever its protocol. */
const ENTRY_FIELDS = ['name', 'protocol', 'baseUrl', 'key'];

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
 * `{ name, protocol: 'openai' | 'openai-responses' | 'anthropic' | 'gemini', baseUrl?, key: 'env:VAR', ...options }`,
 * each one provider named `name`, with the provider options of its protocol that JSON can hold (`PROTOCOLS`). A key
 * is only ever read from the environment variable it names, so the file holds no secret. Anything wrong with an entry,
 * an unknown option, or a value the provider's constructor refuses, is one Error naming the file, the entry and what
 * is wrong (index.mjs prints it as one line).
 */
function upstreamsFile(path, env) {
  const accounts = readJsonFile('UPSTREAMS_FILE', path);
  if (!Array.isArray(accounts)) throw new Error(`UPSTREAMS_FILE ${path} must hold a JSON array of accounts`);
  return accounts.map((account, index) => {
    const where = `UPSTREAMS_FILE ${path}, entry ${index}`;
    if (!isObject(account)) throw new Error(`${where}: must be an object { name, protocol, baseUrl?, key }`);
    if (typeof account.name !== 'string' || account.name.length === 0) throw new Error(`${where}: needs a name`);
    const protocol = account.protocol ?? 'openai';
    const { create, options: checks } = Object.hasOwn(PROTOCOLS, protocol) ? PROTOCOLS[protocol] : {};
    if (!create)
      throw new Error(
        `${where}: protocol must be one of ${Object.keys(PROTOCOLS).join(', ')}, not ${account.protocol}`,
      );
    if (account.baseUrl !== undefined && !isHttpUrl(account.baseUrl))
      throw new Error(`${where}: baseUrl must be an http(s) URL, not ${JSON.stringify(account.baseUrl)}`);
    const { name, protocol: _protocol, baseUrl, key, ...given } = account;
    const options = {};
    for (const [option, value] of Object.entries(given)) {
      if (!Object.hasOwn(checks, option))
        throw new Error(
          `${where}: unknown option '${option}' for protocol ${protocol} (accepted: ${[...ENTRY_FIELDS, ...Object.keys(checks)].join(', ')})`,
        );
      try {
        options[option] = checks[option](value, option, env);
      } catch (error) {
        throw new Error(`${where}: ${error.message}`);
      }
    }
    const match = /^env:([A-Za-z_][A-Za-z0-9_]*)$/.exec(key ?? '');
    if (!match) throw new Error(`${where}: key must be 'env:VARIABLE' (the key itself stays in the environment)`);
    const apiKey = env[match[1]];
    if (!apiKey) throw new Error(`${where}: the environment variable ${match[1]} is not set`);
    let provider;
    try {
      provider = create({ ...options, name, apiKey, ...(baseUrl ? { baseUrl } : {}) });
    } catch (error) {
      // The provider's own check of a value: a GatewayConfigError naming the option.
      throw new Error(`${where}: ${oneLine(error.message)}`);
    }
    return { provider, description: `${name} (${protocol}${baseUrl ? ` at ${baseUrl}` : ''})` };
  });
}

function isHttpUrl(value) {
  if (typeof value !== 'string') return false;
  try {
    return ['http:', 'https:'].includes(new URL(value).protocol);
  } catch {
    return false;
  }
}

/** A message on one line. */
function oneLine(message) {
  return String(message).replace(/\s*\n\s*/g, ' ');
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
