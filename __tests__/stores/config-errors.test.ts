/**
 * Every configuration error is a GatewayConfigError with a stable ERR_GATEWAY_* code and a message naming its owner:
 * a store's or provider's options, and the arguments of a store's own methods. (The Redis stores' are checked in
 * stores/redis/redis-config-errors.test.ts.)
 */
import {
  AnthropicProvider,
  GatewayConfigError,
  GeminiProvider,
  LocalProvider,
  MemoryDeploymentStore,
  MemoryKeyStore,
  MemoryQuotaStore,
  MemoryRateLimitStore,
  MemoryResponseStore,
  MemoryUsageLog,
  OpenAIProvider,
} from '../../lib';
import { MediaFetcher } from '../../lib/extend';

/** The error `make` throws: a GatewayConfigError with `code`, whose message names `owner` and `what`. */
function expectConfigError(make: () => unknown, code: string, owner: string, what: string): void {
  let thrown: unknown;
  try {
    make();
  } catch (error) {
    thrown = error;
  }
  expect(thrown).toBeInstanceOf(GatewayConfigError);
  expect(thrown).toMatchObject({ code, message: expect.stringContaining(owner) });
  expect((thrown as Error).message).toContain(what);
}

const cases: Array<[string, () => unknown, string, string, string]> = [
  [
    'MemoryQuotaStore: a negative balance',
    () => new MemoryQuotaStore({ balances: { k: -1 } }),
    'ERR_GATEWAY_INVALID_ARGUMENT',
    'MemoryQuotaStore',
    'balance of k',
  ],
  [
    'MemoryQuotaStore.setBalance: not a number',
    () => new MemoryQuotaStore().setBalance('k', Number.NaN),
    'ERR_GATEWAY_INVALID_ARGUMENT',
    'MemoryQuotaStore',
    'balance of k',
  ],
  [
    'MemoryKeyStore: an empty key',
    () => new MemoryKeyStore([{ key: '' }]),
    'ERR_GATEWAY_INVALID_ARGUMENT',
    'MemoryKeyStore',
    'key',
  ],
  [
    'MemoryKeyStore: bad rate limits',
    () => new MemoryKeyStore([{ key: 'sk-x-000000000000', rateLimits: { requestsPerMinute: -3 } }]),
    'ERR_GATEWAY_INVALID_ARGUMENT',
    'MemoryKeyStore',
    'requestsPerMinute',
  ],
  [
    'MemoryRateLimitStore: windowMs 0',
    () => new MemoryRateLimitStore({ windowMs: 0 }),
    'ERR_GATEWAY_INVALID_OPTION',
    'MemoryRateLimitStore',
    'windowMs',
  ],
  [
    'MemoryDeploymentStore: maxSessions 1.5',
    () => new MemoryDeploymentStore({ maxSessions: 1.5 }),
    'ERR_GATEWAY_INVALID_OPTION',
    'MemoryDeploymentStore',
    'maxSessions',
  ],
  [
    'MemoryUsageLog: capacity -1',
    () => new MemoryUsageLog({ capacity: -1 }),
    'ERR_GATEWAY_INVALID_OPTION',
    'MemoryUsageLog',
    'capacity',
  ],
  [
    'MemoryResponseStore: maxEntries 0',
    () => new MemoryResponseStore({ maxEntries: 0 }),
    'ERR_GATEWAY_INVALID_OPTION',
    'MemoryResponseStore',
    'maxEntries',
  ],
  [
    'MemoryResponseStore: a misspelt option',
    () => new MemoryResponseStore({ maxEntrys: 5 } as never),
    'ERR_GATEWAY_UNKNOWN_OPTION',
    'MemoryResponseStore',
    "did you mean 'maxEntries'",
  ],
  [
    'LocalProvider: tokenDelayMs -1',
    () => new LocalProvider({ tokenDelayMs: -1 }),
    'ERR_GATEWAY_INVALID_OPTION',
    'LocalProvider',
    'tokenDelayMs',
  ],
  [
    'AnthropicProvider: defaultMaxTokens 0',
    () => new AnthropicProvider({ apiKey: 'x', defaultMaxTokens: 0 }),
    'ERR_GATEWAY_INVALID_OPTION',
    'AnthropicProvider',
    'defaultMaxTokens',
  ],
  [
    'OpenAIProvider: maxEmbedInputs 0',
    () => new OpenAIProvider({ apiKey: 'x', maxEmbedInputs: 0 }),
    'ERR_GATEWAY_INVALID_OPTION',
    '',
    'maxEmbedInputs',
  ],
  [
    'GeminiProvider: imageDownload.timeoutMs 0',
    () => new GeminiProvider({ apiKey: 'x', imageDownload: { timeoutMs: 0 } }),
    'ERR_GATEWAY_INVALID_OPTION',
    '',
    'timeoutMs',
  ],
  [
    'MediaFetcher: maxBytes 2.5',
    () => new MediaFetcher({ maxBytes: 2.5 }),
    'ERR_GATEWAY_INVALID_OPTION',
    'MediaFetcher',
    'maxBytes',
  ],
];

describe('configuration errors carry an ERR_GATEWAY_* code', () => {
  it.each(cases)('%s', (_name, make, code, owner, what) => {
    expectConfigError(make, code, owner, what);
  });
});
