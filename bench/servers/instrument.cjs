'use strict';
/**
 * Shared by every server the bench starts (mock upstream, relays, gateway): listen on loopback,
 * report the port to the parent over IPC, and answer the parent's questions about this process —
 * CPU time, RSS, and event-loop delay measured with perf_hooks.monitorEventLoopDelay INSIDE the
 * process. A `shutdown` message exits normally, so `node --cpu-prof` writes its profile.
 */
const { monitorEventLoopDelay } = require('node:perf_hooks');
const v8 = require('node:v8');

/** Event-loop delay timer resolution (ms). The histogram records whole timer intervals, so this is subtracted. */
const ELD_RESOLUTION_MS = 10;

function toMs(nanoseconds) {
  return Math.max(0, nanoseconds / 1e6 - ELD_RESOLUTION_MS);
}

/**
 * @param {import('node:http').Server} server
 * @param {{ name: string, extraStats?: () => Record<string, unknown>, commands?: Record<string, () => void> }} options
 */
function serve(server, options) {
  const monitors = new Map();

  const stopMonitor = (monitor) => {
    if (!monitor) return {};
    clearInterval(monitor.sampler);
    monitor.histogram.disable();
    const { histogram } = monitor;
    return {
      rssPeak: Math.max(monitor.rssPeak, process.memoryUsage.rss()),
      eventLoopDelay: {
        resolutionMs: ELD_RESOLUTION_MS,
        samples: histogram.count,
        p50Ms: toMs(histogram.percentile(50)),
        p99Ms: toMs(histogram.percentile(99)),
        maxMs: toMs(histogram.max),
        meanMs: toMs(histogram.mean),
      },
    };
  };

  const reply = (id, payload) => {
    if (process.connected) process.send({ id, ...payload });
  };

  const stats = () => {
    const memory = process.memoryUsage();
    const cpu = process.cpuUsage();
    return {
      pid: process.pid,
      rss: memory.rss,
      heapUsed: memory.heapUsed,
      heapTotal: memory.heapTotal,
      external: memory.external,
      arrayBuffers: memory.arrayBuffers,
      cpuMicros: cpu.user + cpu.system,
      // Committed size of each V8 heap space (new, old, code, large objects…), in bytes.
      spaces: Object.fromEntries(
        v8.getHeapSpaceStatistics().map((space) => [space.space_name.replace(/_space$/, ''), space.space_size]),
      ),
      ...(options.extraStats ? options.extraStats() : {}),
    };
  };

  process.on('message', (message) => {
    if (!message || typeof message !== 'object') return;
    switch (message.type) {
      case 'stats':
        reply(message.id, { type: 'stats', stats: stats() });
        break;
      case 'mark':
        // Same clock as the timestamps of a --cpu-prof profile (monotonic, microseconds).
        reply(message.id, { type: 'mark', micros: Number(process.hrtime.bigint() / 1000n) });
        break;
      case 'monitor-start': {
        // Several named windows may overlap (e.g. a whole phase and its steady state).
        const name = message.name ?? 'default';
        stopMonitor(monitors.get(name));
        const histogram = monitorEventLoopDelay({ resolution: ELD_RESOLUTION_MS });
        histogram.enable();
        const monitor = { histogram, rssPeak: process.memoryUsage.rss(), sampler: undefined };
        monitor.sampler = setInterval(() => {
          monitor.rssPeak = Math.max(monitor.rssPeak, process.memoryUsage.rss());
        }, 100);
        monitors.set(name, monitor);
        reply(message.id, { type: 'ok', stats: stats() });
        break;
      }
      case 'monitor-stop': {
        const name = message.name ?? 'default';
        const monitor = monitors.get(name);
        monitors.delete(name);
        const result = stopMonitor(monitor);
        reply(message.id, { type: 'monitor', ...result, stats: stats() });
        break;
      }
      case 'shutdown':
        server.close();
        server.closeAllConnections?.();
        // A normal exit: --cpu-prof writes its profile here.
        setImmediate(() => process.exit(0));
        break;
      default:
        if (options.commands && Object.hasOwn(options.commands, message.type)) {
          options.commands[message.type]();
          reply(message.id, { type: 'ok' });
        }
        break;
    }
  });
  // The parent is gone: do not linger.
  process.on('disconnect', () => process.exit(0));

  // Idle keep-alive connections stay open longer than any client's idle timeout (undici: 30 s), so
  // no client races a server-side close (a reused socket reset mid-request) between rounds.
  server.keepAliveTimeout = 65_000;
  server.headersTimeout = 66_000;
  server.listen({ host: '127.0.0.1', port: 0, backlog: 4096 }, () => {
    const { port } = server.address();
    if (process.connected) process.send({ type: 'ready', port, name: options.name, pid: process.pid });
    else console.log(`${options.name} listening on http://127.0.0.1:${port}`);
  });
}

module.exports = { serve, ELD_RESOLUTION_MS };
