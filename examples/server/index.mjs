// The example server behind `npm start`: an Express app with the gateway mounted at the root.
import { createServer } from 'node:http';
import express from 'express';
import { createGateway, MemoryResponseStore, MemoryThreadStore, MemoryUsageLog } from 'rosetta-gateway';
import { createDashboard } from 'rosetta-gateway/dashboard';
import { bannerLines } from './banner.mjs';
import { parseGatewayKeys } from './keys.mjs';
import { selfPointingBaseUrl, upstreamsFromEnv } from './upstreams.mjs';
import { adminOnly, usageLine, usageQueryHandler } from './usage.mjs';
import { startTracing } from './tracing.mjs';

// Spans over OTLP when OTEL_EXPORTER_OTLP_ENDPOINT is set (the SDK registered before the gateway is made); else none.
const stopTracing = await startTracing(process.env);

const port = Number(process.env.PORT ?? 8080);
const keys = parseGatewayKeys(process.env.GATEWAY_KEYS);
// Upstreams from OPENAI_API_KEY (+ ROSETTA_OPENAI_BASE_URL)…; the local provider always. LOCAL_TOKEN_DELAY_MS
// (default 25) slows the local model's streaming so it is visible in the demo.
// A configuration the server cannot start with (a bad MODELS_FILE or UPSTREAMS_FILE, an option createGateway
// refuses) is one line on stderr and exit code 1, not a stack trace.
function refuseToStart(error) {
  console.error(`cannot start: ${error.message}`);
  process.exit(1);
}
let upstreams;
try {
  upstreams = upstreamsFromEnv(process.env);
} catch (error) {
  refuseToStart(error);
}
const { providers, models, configured } = upstreams;

/** The whole request, body included, must arrive within this (408 otherwise); REQUEST_TIMEOUT_MS, default 30 s. */
const requestTimeoutMs = Number(process.env.REQUEST_TIMEOUT_MS ?? 30_000);
/** How long open connections get to finish after SIGTERM/SIGINT before they are closed. */
const SHUTDOWN_GRACE_MS = 2_000;

const app = express();
app.get('/', (_request, response) => {
  response.type('text/plain').send('rosetta-gateway example server. See the README for calls.\n');
});
// Each call's usage record: kept in memory (the last 10,000) for the admin route, and printed as one line on stderr.
const usageLog = new MemoryUsageLog();
const usageSink = {
  record(record) {
    usageLog.record(record);
    process.stderr.write(`${usageLine(record)}\n`);
  },
};
// Rate limits come with each key (GATEWAY_KEYS `;rpm=…;tpm=…;concurrent=…`); metrics are on in the gateway's registry.
// The Responses API's answers are kept in this process's memory (the library's defaults: 30 days, at most 10,000
// answers and 64 MiB, least recently used evicted first), so `previous_response_id` and GET /v1/responses/{id} work
// out of the box; a restart loses them, and a server behind a load balancer needs a shared store (RedisResponseStore).
// Anthropic message threads (`thread`: create / continue) are kept there too, each turn 5 minutes (RedisThreadStore
// when several servers share the load).
let gateway;
try {
  gateway = createGateway({
    keys,
    providers,
    models,
    stores: { responses: new MemoryResponseStore(), threads: new MemoryThreadStore() },
    routing: { providerModelIds: true },
    observability: { usageSink },
  });
} catch (error) {
  refuseToStart(error);
}
// The operator's routes, behind their own key (ADMIN_KEY; unset, they do not exist): the Prometheus metrics,
// GET /admin/usage?key=&since=&until=&limit= over the usage log, GET /admin/deployments (deployment health), and the
// dashboard at /admin/ (a browser asks for the key: any user name, ADMIN_KEY as the password).
const admin = process.env.ADMIN_KEY ? adminOnly(process.env.ADMIN_KEY) : undefined;
if (admin) {
  app.get('/metrics', admin, gateway.metrics);
  app.get('/admin/usage', admin, usageQueryHandler(usageLog));
  app.get('/admin/deployments', admin, gateway.deployments);
  app.use('/admin', createDashboard({ usage: usageLog, gateway, auth: admin }));
}
app.use(gateway);
// Anything the gateway does not serve (/v1/audio/speech, other /v1/… and /v1beta/… paths): a JSON 404 in
// the OpenAI envelope, not Express's HTML page. (The library itself falls through to the host app.)
app.use((request, response) => {
  response.status(404).json({
    error: {
      message: `This server does not serve ${request.method} ${request.path}.`,
      type: 'invalid_request_error',
      param: null,
      code: 'not_found',
    },
  });
});

const server = createServer(
  {
    requestTimeout: requestTimeoutMs,
    headersTimeout: Math.min(10_000, requestTimeoutMs),
    connectionsCheckingInterval: Math.min(1_000, requestTimeoutMs),
  },
  app,
);
// Idle keep-alive connections close after 5 s (Node's default, stated here so a host sees it).
server.keepAliveTimeout = 5_000;
// The Responses API over WebSocket (ws://localhost:8080/v1/responses: Codex's `supports_websockets = true`). Express
// never sees an upgrade, so the gateway listens for it on the server itself; each turn is charged as a POST.
gateway.attachWebSocket(server);

server.on('error', (error) => {
  if (error.code === 'EADDRINUSE')
    console.error(`port ${port} is in use; set PORT to another port (PORT=8081 npm start).`);
  else if (error.code === 'EACCES')
    console.error(`port ${port} needs privileges this process does not have; set PORT to another port.`);
  else console.error(`cannot listen on port ${port}: ${error.message}`);
  process.exit(1);
});

server.listen(port, () => {
  const listening = server.address().port;
  const loop = selfPointingBaseUrl(process.env, listening);
  if (loop) {
    console.error(
      `${loop} points at this server itself (port ${listening}): the gateway would call itself. Point it at the real upstream, or unset it.`,
    );
    process.exit(1);
  }
  console.log(
    bannerLines({ base: `http://localhost:${listening}`, keys, models, configured, admin: Boolean(admin) }).join('\n'),
  );
});

/**
 * SIGTERM/SIGINT: stop accepting connections, give open calls SHUTDOWN_GRACE_MS to finish, then close
 * the gateway (its providers and stores; at most CLOSE_TIMEOUT_MS) and every connection left, and exit.
 * A second signal exits at once.
 */
const CLOSE_TIMEOUT_MS = 2_000;
let stopping = false;
async function shutdown(signal) {
  if (stopping) process.exit(1);
  stopping = true;
  console.log(`${signal}: stopping (open calls get ${SHUTDOWN_GRACE_MS / 1000} s)`);
  const closed = new Promise((resolve) => server.close(resolve));
  server.closeIdleConnections();
  await Promise.race([closed, delay(SHUTDOWN_GRACE_MS)]);
  await Promise.race([
    gateway.close().catch((error) => console.error(`gateway.close() failed: ${error.message}`)),
    delay(CLOSE_TIMEOUT_MS),
  ]);
  server.closeAllConnections();
  await Promise.race([stopTracing(), delay(CLOSE_TIMEOUT_MS)]);
  process.exit(0);
}
const delay = (ms) => new Promise((resolve) => setTimeout(resolve, ms).unref());
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => void shutdown(signal));
