import express from 'express';
import request from 'supertest';
import {
  createGateway,
  GatewayConfigError,
  LocalProvider,
  MemoryKeyStore,
  type GatewayOptions,
  type Provider,
} from '../../lib';

function codeOf(make: () => unknown): string | undefined {
  try {
    make();
  } catch (error) {
    expect(error).toBeInstanceOf(GatewayConfigError);
    return (error as GatewayConfigError).code;
  }
  return undefined;
}

function messageOf(make: () => unknown): string {
  try {
    make();
  } catch (error) {
    return (error as Error).message;
  }
  return '';
}

const keys = [{ key: 'k-1234567890' }];

describe('createGateway option validation', () => {
  it('accepts the minimal options', () => {
    expect(typeof createGateway({ keys })).toBe('function');
  });

  it('names an unknown option and suggests the right one', () => {
    const make = () => createGateway({ keys, maxBodyByte: 10 } as unknown as GatewayOptions);
    expect(codeOf(make)).toBe('ERR_GATEWAY_UNKNOWN_OPTION');
    expect(messageOf(make)).toContain("did you mean 'maxBodyBytes'");
  });

  it('requires keys or a key store, and not both', () => {
    expect(codeOf(() => createGateway({}))).toBe('ERR_GATEWAY_MISSING_KEYS');
    expect(codeOf(() => createGateway({ keys, keyStore: new MemoryKeyStore() }))).toBe('ERR_GATEWAY_OPTION_CONFLICT');
  });

  it('rejects options that are not an object', () => {
    expect(codeOf(() => createGateway(undefined as unknown as GatewayOptions))).toBe('ERR_GATEWAY_INVALID_OPTIONS');
  });

  it('checks key entries, balances and numeric options', () => {
    expect(codeOf(() => createGateway({ keys: [{ key: '' }] }))).toBe('ERR_GATEWAY_INVALID_OPTION');
    const badBalance = () => createGateway({ keys: [{ key: 'a-key', balance: -1 }] });
    expect(codeOf(badBalance)).toBe('ERR_GATEWAY_INVALID_OPTION');
    expect(messageOf(badBalance)).toContain('keys[0].balance');
    expect(codeOf(() => createGateway({ keys, maxBodyBytes: 0 }))).toBe('ERR_GATEWAY_INVALID_OPTION');
    expect(codeOf(() => createGateway({ keys, defaultMaxOutputTokens: 1.5 }))).toBe('ERR_GATEWAY_INVALID_OPTION');
  });

  it('checks chargeFailedStreams: a boolean, named when it is not', () => {
    expect(typeof createGateway({ keys, chargeFailedStreams: true })).toBe('function');
    expect(typeof createGateway({ keys, chargeFailedStreams: false })).toBe('function');
    const make = () => createGateway({ keys, chargeFailedStreams: 'yes' as unknown as boolean });
    expect(codeOf(make)).toBe('ERR_GATEWAY_INVALID_OPTION');
    expect(messageOf(make)).toMatch(/'chargeFailedStreams' must be true or false, not "yes"/);
    expect(messageOf(() => createGateway({ keys, chargeFailedStream: true } as unknown as GatewayOptions))).toContain(
      "did you mean 'chargeFailedStreams'",
    );
  });

  it('checks that injected stores have their methods', () => {
    const make = () => createGateway({ keyStore: {} as never });
    expect(codeOf(make)).toBe('ERR_GATEWAY_INVALID_OPTION');
    expect(messageOf(make)).toContain('authenticate()');
    expect(codeOf(() => createGateway({ keys, quotaStore: { reserve() {} } as never }))).toBe(
      'ERR_GATEWAY_INVALID_OPTION',
    );
  });

  it('checks providers: version, name, capability, duplicates', () => {
    const future = { specificationVersion: 'v2', name: 'x', generate() {} } as unknown as Provider;
    expect(codeOf(() => createGateway({ keys, providers: [future] }))).toBe('ERR_GATEWAY_PROVIDER_VERSION');
    const nothing = { specificationVersion: 'v1', name: 'x' } as Provider;
    expect(codeOf(() => createGateway({ keys, providers: [nothing] }))).toBe('ERR_GATEWAY_INVALID_OPTION');
    expect(codeOf(() => createGateway({ keys, providers: [new LocalProvider(), new LocalProvider()] }))).toBe(
      'ERR_GATEWAY_DUPLICATE',
    );
    expect(codeOf(() => createGateway({ keys, providers: [] }))).toBe('ERR_GATEWAY_INVALID_OPTION');
  });

  it('checks the model table', () => {
    const unknown = () => createGateway({ keys, models: [{ id: 'm', provider: 'locl' }] });
    expect(codeOf(unknown)).toBe('ERR_GATEWAY_UNKNOWN_PROVIDER');
    expect(messageOf(unknown)).toContain("did you mean 'local'");
    expect(
      codeOf(() =>
        createGateway({
          keys,
          models: [
            { id: 'm', provider: 'local' },
            { id: 'n', provider: 'local', aliases: ['m'] },
          ],
        }),
      ),
    ).toBe('ERR_GATEWAY_DUPLICATE');
    const textOnly = {
      specificationVersion: 'v1' as const,
      name: 'text',
      generate: () => {
        throw new Error('unused');
      },
    };
    expect(
      codeOf(() =>
        createGateway({ keys, providers: [textOnly], models: [{ id: 'img', provider: 'text', type: 'image' }] }),
      ),
    ).toBe('ERR_GATEWAY_INVALID_OPTION');
  });

  it('checks injected codecs', () => {
    expect(codeOf(() => createGateway({ keys, codecs: [{ name: 'x' } as never] }))).toBe('ERR_GATEWAY_INVALID_OPTION');
  });

  it('refuses to be used as middleware without being called', () => {
    const fakeRequest = { method: 'GET', headers: {}, socket: {} };
    expect(
      codeOf(() => (createGateway as unknown as (...args: unknown[]) => unknown)(fakeRequest, {}, () => undefined)),
    ).toBe('ERR_GATEWAY_NOT_CALLED');
  });

  it('app.use(createGateway) answers each request with a JSON 500 naming the mistake (not an HTML page), and warns once', async () => {
    const app = express();
    app.use(createGateway as unknown as express.RequestHandler);
    const emitWarning = jest.spyOn(process, 'emitWarning').mockImplementation(() => undefined);
    try {
      for (const path of ['/v1/models', '/v1/chat/completions']) {
        const res = await request(app).post(path).send({});
        expect(res.status).toBe(500);
        expect(res.headers['content-type']).toMatch(/^application\/json/);
        expect(res.body).toEqual({
          error: {
            message: expect.stringContaining('app.use(createGateway({ … }))'),
            type: 'server_error',
            param: null,
            code: 'ERR_GATEWAY_NOT_CALLED',
          },
        });
      }
      expect(emitWarning.mock.calls).toEqual([
        [expect.stringContaining('without being called'), { code: 'ERR_GATEWAY_NOT_CALLED' }],
      ]);
    } finally {
      emitWarning.mockRestore();
    }
  });

  it('never mutates the options object', () => {
    const options = Object.freeze({ keys: Object.freeze([Object.freeze({ key: 'frozen-key-1', balance: 5 })]) });
    expect(() => createGateway(options as GatewayOptions)).not.toThrow();
  });
});

describe('routing options', () => {
  it('checks fallbacks: known ids, not itself, same type', () => {
    const unknown = () => createGateway({ keys, models: [{ id: 'a', provider: 'local', fallbacks: ['b'] }] });
    expect(codeOf(unknown)).toBe('ERR_GATEWAY_UNKNOWN_MODEL');
    expect(messageOf(unknown)).toContain('models[0].fallbacks[0]');
    expect(codeOf(() => createGateway({ keys, models: [{ id: 'a', provider: 'local', fallbacks: ['a'] }] }))).toBe(
      'ERR_GATEWAY_INVALID_OPTION',
    );
    expect(
      codeOf(() =>
        createGateway({
          keys,
          models: [
            { id: 'a', provider: 'local', fallbacks: ['img'] },
            { id: 'img', provider: 'local', type: 'image' },
          ],
        }),
      ),
    ).toBe('ERR_GATEWAY_INVALID_OPTION');
    expect(() =>
      createGateway({
        keys,
        models: [
          { id: 'a', provider: 'local', fallbacks: ['bee'] },
          { id: 'b', provider: 'local', aliases: ['bee'] },
        ],
      }),
    ).not.toThrow();
  });
});
