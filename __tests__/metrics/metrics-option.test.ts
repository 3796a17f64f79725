/** The `metrics` option and `gateway.metrics`: off, a host's registry, several gateways in one process, validation. */
import express from 'express';
import { Counter, Registry, register } from 'prom-client';
import { createGateway, type Gateway, GatewayConfigError, type GatewayOptions } from '../../lib';
import { listen, testOptions } from '../helpers/app';
import { sampleValue } from '../helpers/prometheus';

const gateways: Gateway[] = [];
function gatewayWith(options: Partial<GatewayOptions>): Gateway {
  const gateway = createGateway(testOptions(options));
  gateways.push(gateway);
  return gateway;
}
afterEach(async () => {
  await Promise.all(gateways.splice(0).map((gateway) => gateway.close()));
});

/** GET /metrics of an app that mounts `gateway.metrics` there. */
async function scrape(gateway: Gateway): Promise<Response> {
  const app = express();
  app.get('/metrics', gateway.metrics);
  app.use(gateway);
  const server = await listen(app);
  try {
    const response = await fetch(`${server.url}/metrics`);
    await response.clone().text();
    return response;
  } finally {
    await server.close();
  }
}

describe('gateway.metrics', () => {
  it('is on by default, in a registry of its own: prom-client’s global registry stays empty', async () => {
    const response = await scrape(gatewayWith({}));
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe(register.contentType);
    const text = await response.text();
    expect(text).toContain('# TYPE rosetta_calls_total counter');
    expect(sampleValue(text, 'rosetta_open_streams')).toBe(0);
    expect(register.getMetricsAsArray()).toEqual([]);
  });

  it('lets two gateways in one process keep their metrics apart', async () => {
    const first = gatewayWith({});
    const second = gatewayWith({ metrics: true });
    for (const gateway of [first, second]) expect((await scrape(gateway)).status).toBe(200);
  });

  it('answers a clear 404 with metrics: false, and registers nothing', async () => {
    const response = await scrape(gatewayWith({ metrics: false }));
    expect(response.status).toBe(404);
    expect(response.headers.get('content-type')).toBe('application/json; charset=utf-8');
    const body = (await response.json()) as { error: { code: string; message: string } };
    expect(body.error.code).toBe('metrics_off');
    expect(body.error.message).toContain('metrics: false');
    expect(register.getMetricsAsArray()).toEqual([]);
  });

  it("registers in a host's registry, whose own metrics the handler serves too", async () => {
    const registry = new Registry();
    const own = new Counter({ name: 'host_signups_total', help: 'Sign-ups.', registers: [registry] });
    own.inc(2);
    const response = await scrape(gatewayWith({ metrics: { registry } }));
    const text = await response.text();
    expect(sampleValue(text, 'host_signups_total')).toBe(2);
    expect(registry.getSingleMetric('rosetta_calls_total')).toBeDefined();
    expect(registry.getSingleMetric('rosetta_open_streams')).toBeDefined();
  });

  it('refuses a second gateway on the same registry and prefix, and takes it with another prefix', () => {
    const registry = new Registry();
    gatewayWith({ metrics: { registry } });
    const clash = () => gatewayWith({ metrics: { registry } });
    expect(clash).toThrow(GatewayConfigError);
    expect(clash).toThrow(/already holds a metric named 'rosetta_calls_total'.*metrics\.prefix/);
    gatewayWith({ metrics: { registry, prefix: 'second_' } });
    expect(registry.getSingleMetric('second_calls_total')).toBeDefined();
  });
});

describe('validation of the metrics option', () => {
  const refused = (metrics: unknown, option: string, message: RegExp) => {
    let thrown: unknown;
    try {
      createGateway(testOptions({ metrics: metrics as GatewayOptions['metrics'] }));
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(GatewayConfigError);
    expect(thrown).toMatchObject({ code: 'ERR_GATEWAY_INVALID_OPTION', option });
    expect((thrown as Error).message).toMatch(message);
  };

  it.each([
    ['yes', 'metrics', /must be true, false or an object/],
    [null, 'metrics', /must be true, false or an object/],
    [{ prefx: 'x_' }, 'metrics.prefx', /did you mean 'prefix'/],
    [{ registry: {} }, 'metrics.registry', /must be a prom-client Registry/],
    [{ prefix: '1st-gateway' }, 'metrics.prefix', /Prometheus metric name prefix/],
    [{ keyLabels: 'true' }, 'metrics.keyLabels', /must be true or false/],
    [{ buckets: [1, 2] }, 'metrics.buckets', /must be an object \{ duration\?, firstToken\? \}/],
    [{ buckets: { firstTokens: [1] } }, 'metrics.buckets.firstTokens', /did you mean 'firstToken'/],
    [{ buckets: { duration: [] } }, 'metrics.buckets.duration', /non-empty array of increasing positive numbers/],
    [{ buckets: { duration: [1, 0.5] } }, 'metrics.buckets.duration', /increasing/],
    [{ buckets: { firstToken: [0, 1] } }, 'metrics.buckets.firstToken', /positive/],
  ])('refuses %j', (metrics, option, message) => refused(metrics, option, message));

  it('never mutates the caller’s object', () => {
    const metrics = { prefix: 'p_', buckets: { duration: [1, 2] } };
    const copy = structuredClone(metrics);
    gatewayWith({ metrics });
    expect(metrics).toEqual(copy);
  });
});
